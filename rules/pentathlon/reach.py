"""Every number a Contig 60 roll can make, each with one sentence a player could announce.

A sentence uses each die exactly once (R200); with the chained form (or parentheses, R201) any
grouping can be said, so the numbers a roll makes are the values of every expression tree over
the dice, in any order, with + - × ÷. A division must come out whole unless fractions are
allowed (R202). Only whole numbers are listed: a space on the board holds a whole number.

Built bottom-up over sub-multisets of the dice (by bit mask), keeping for each value the
expression that takes the fewest chained steps to say (the first found among equals), so the
answer is deterministic and as plain as it can be.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rules.errors import InvalidInput
from rules.pentathlon.sentences import Node, Number, Op, Operation, announce, needs_parentheses

_MAX_DICE = 6  # beyond this the table grows too fast to be a table-side answer


def _combine(op: Op, left: Fraction, right: Fraction, fractions: bool) -> Fraction | None:
    if op is Op.ADD:
        return left + right
    if op is Op.SUB:
        return left - right
    if op is Op.MUL:
        return left * right
    if right == 0:
        return None
    quotient = left / right
    return quotient if fractions or quotient.denominator == 1 else None


def _steps(op: Op, left: tuple[int, Node], right: tuple[int, Node]) -> int:
    """Chained steps needed to say ``left op right``: one more per side that needs grouping."""
    return (
        left[0]
        + right[0]
        + needs_parentheses(op, left[1], right=False)
        + needs_parentheses(op, right[1], right=True)
    )


def expressions(dice: Sequence[int], *, fractions: bool = False) -> dict[Fraction, Node]:
    """Every value an expression using each die once can take, with one such expression."""
    if not 1 <= len(dice) <= _MAX_DICE:
        raise InvalidInput(f"{len(dice)} dice: expected 1 to {_MAX_DICE}")
    count = len(dice)
    table: dict[int, dict[Fraction, tuple[int, Node]]] = {
        1 << i: {Fraction(value): (0, Number(value))} for i, value in enumerate(dice)
    }
    for mask in range(1, 1 << count):
        if mask in table:
            continue
        made: dict[Fraction, tuple[int, Node]] = {}
        sub = (mask - 1) & mask
        while sub:
            rest = mask ^ sub
            for left, left_entry in table[sub].items():
                for right, right_entry in table[rest].items():
                    for op in Op:
                        value = _combine(op, left, right, fractions)
                        if value is None:
                            continue
                        steps = _steps(op, left_entry, right_entry)
                        if value not in made or steps < made[value][0]:
                            made[value] = (steps, Operation(op, left_entry[1], right_entry[1]))
            sub = (sub - 1) & mask
        table[mask] = made
    return {value: node for value, (_, node) in table[(1 << count) - 1].items()}


def reach(dice: Sequence[int], *, fractions: bool = False) -> dict[int, str]:
    """The whole numbers the roll makes, ascending, each with a sentence that makes it."""
    made = expressions(dice, fractions=fractions)
    whole = sorted(value for value in made if value.denominator == 1)
    return {value.numerator: announce(made[value], fractions=fractions) for value in whole}
