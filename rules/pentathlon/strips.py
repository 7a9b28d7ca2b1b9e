"""Fab-a-Diffy fraction strips: naming a strip, comparing two, and judging a 3-strip trick.

A trick is two strips whose sum or difference equals the strip in the Show Box. A strip may be
called by an equivalent fraction, "limited to the partitions of the fraction strips used in
the game": a name's denominator must be one of the game's partitions (R210; default halves,
thirds, fourths, sixths and twelfths), so 2/6 may be called 1/3 or 4/12 but not 3/9. "One"
(or 1) may name a whole strip. Zero strips are out of the deck.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.errors import InvalidInput

DEFAULT_PARTITIONS = (2, 3, 4, 6, 12)
_FRACTION = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")
_WHOLE_WORDS = {"one": 1, "1": 1, "zero": 0, "0": 0}


def check_partitions(partitions: Sequence[int]) -> tuple[int, ...]:
    if (
        not partitions
        or any(part < 1 for part in partitions)
        or len(set(partitions)) != len(partitions)
    ):
        raise InvalidInput(
            f"partitions {list(partitions)}: expected different whole numbers of 1 or more, "
            "e.g. 2,3,4,6,12"
        )
    return tuple(sorted(partitions))


@dataclass(frozen=True, slots=True)
class StripName:
    text: str  # as said, e.g. "4/12" or "one"
    value: Fraction
    denominator: int | None  # None for the words one and zero


def read_name(text: str) -> StripName:
    """A fraction ``p/q`` or the words one / zero; ``InvalidInput`` if it is neither."""
    word = text.strip().lower()
    if word in _WHOLE_WORDS:
        return StripName(text.strip(), Fraction(_WHOLE_WORDS[word]), None)
    match = _FRACTION.fullmatch(text)
    if match is None:
        raise InvalidInput(f"strip {text!r}: expected a fraction like 2/6, or one")
    numerator, denominator = int(match[1]), int(match[2])
    if denominator == 0:
        raise InvalidInput(f"strip {text!r}: a fraction's denominator is 1 or more")
    return StripName(f"{numerator}/{denominator}", Fraction(numerator, denominator), denominator)


def read_strip(text: str) -> StripName:
    """A name for a strip in the deck: more than zero and at most one."""
    name = read_name(text)
    if name.value == 0:
        raise InvalidInput(f"strip {name.text}: zero strips are out of the Fab-a-Diffy deck")
    if name.value > 1:
        raise InvalidInput(f"strip {name.text}: strips run from more than zero up to one")
    return name


def naming_problem(name: StripName, partitions: Sequence[int]) -> str | None:
    """Why ``name`` may not be used for a strip in this game, or None if it may."""
    if name.denominator is None or name.denominator in partitions:
        return None
    allowed = ", ".join(map(str, partitions))
    return (
        f"{name.text} is not a name the game allows: denominators are limited to the "
        f"partitions of the strips ({allowed})"
    )


def show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


@dataclass(frozen=True, slots=True)
class TrickVerdict:
    trick: bool
    sentence: str | None  # the arithmetic sentence that makes the trick, when it is one
    problems: tuple[str, ...]


def judge_trick(
    show_box: str, first: str, second: str, partitions: Sequence[int] = DEFAULT_PARTITIONS
) -> TrickVerdict:
    """Do ``first`` and ``second`` make a trick with the strip in the Show Box?"""
    partitions = check_partitions(partitions)
    names = [read_strip(show_box), read_strip(first), read_strip(second)]
    problems = [p for p in (naming_problem(name, partitions) for name in names) if p]
    target, a, b = (name.value for name in names)
    big, small = (names[1], names[2]) if a >= b else (names[2], names[1])
    sentence = None
    if a + b == target:
        sentence = f"{names[1].text} + {names[2].text} = {names[0].text}"
    elif big.value - small.value == target:
        sentence = f"{big.text} - {small.text} = {names[0].text}"
    else:
        problems.append(
            f"{names[1].text} + {names[2].text} = {show(a + b)} and {big.text} - {small.text} = "
            f"{show(big.value - small.value)}: neither is {names[0].text}"
        )
    return TrickVerdict(not problems, sentence, tuple(problems))


def deck_strips(partitions: Sequence[int]) -> tuple[str, ...]:
    """The strips of the deck as labelled, by partition: 1/2, 2/2, 1/3, ... (no zero strips)."""
    return tuple(f"{n}/{d}" for d in check_partitions(partitions) for n in range(1, d + 1))


def lower_strip(a: str, b: str, partitions: Sequence[int]) -> int | None:
    """Fab-a-Diffy's start: 0 if strip ``a`` is lower, 1 if ``b`` is, None if they are equal."""
    partitions = check_partitions(partitions)
    first, second = read_strip(a), read_strip(b)
    for name in (first, second):
        problem = naming_problem(name, partitions)
        if problem:
            raise InvalidInput(problem)
    if first.value == second.value:
        return None
    return 0 if first.value < second.value else 1
