"""The configured dice and a roll of them, as typed at the table ("3,5,4")."""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import InvalidInput

DEFAULT_SIDES = (6, 6, 6)  # Contig 60: three six-sided dice (ruling R203)


def parse_numbers(text: str, what: str) -> tuple[int, ...]:
    """Whole numbers separated by commas, e.g. "3,5,4"; ``what`` names the option."""
    try:
        return tuple(int(item) for item in text.split(","))
    except ValueError:
        raise InvalidInput(f"{what} {text!r}: expected whole numbers separated by commas") from None


def check_sides(sides: Sequence[int]) -> tuple[int, ...]:
    if not sides or any(side < 2 for side in sides):
        raise InvalidInput(f"dice sides {list(sides)}: expected one number of 2 or more per die")
    return tuple(sides)


def check_roll(values: Sequence[int], sides: Sequence[int] = DEFAULT_SIDES) -> tuple[int, ...]:
    """``values`` as a roll of the configured dice: one value per die, each 1 to its sides."""
    sides = check_sides(sides)
    if len(values) != len(sides):
        raise InvalidInput(
            f"dice {','.join(map(str, values))}: expected {len(sides)} values, one per die"
        )
    for value, side in zip(values, sides, strict=True):
        if not 1 <= value <= side:
            raise InvalidInput(
                f"dice {','.join(map(str, values))}: {value} is not on a {side}-sided die "
                f"(1 to {side})"
            )
    return tuple(values)
