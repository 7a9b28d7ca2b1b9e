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
from typing import Any

from rules.errors import InvalidInput
from rules.pentathlon.sentences import Node, Number, Op, Operation, announce

_MAX_DICE = 6  # beyond this the table grows too fast to be a table-side answer

Value = int | Fraction  # int when every division must come out whole: much faster
# A table entry: (chained steps needed to say it, precedence of its top operation (3 for a
# die), the expression: a die's value, or (op, left entry, right entry)).
Entry = tuple[int, int, Any]


def _made(table: dict[Value, Entry], value: Value, entry: Entry) -> None:
    old = table.get(value)
    if old is None or entry[0] < old[0]:
        table[value] = entry


def _combine(
    made: dict[Value, Entry],
    left: dict[Value, Entry],
    right: dict[Value, Entry],
    fractions: bool,
) -> None:
    """Every ``l op r``. A side needs grouping (one more chained step) when the order of
    operations would otherwise read it differently: see ``sentences.needs_parentheses``."""
    for lv, le in left.items():
        l_steps, l_prec = le[0], le[1]
        for rv, re in right.items():
            steps, r_prec = l_steps + re[0], re[1]
            _made(made, lv + rv, (steps, 1, (Op.ADD, le, re)))
            _made(made, lv - rv, (steps + (r_prec == 1), 1, (Op.SUB, le, re)))
            _made(made, lv * rv, (steps + (l_prec == 1) + (r_prec == 1), 2, (Op.MUL, le, re)))
            if rv == 0:
                continue
            if fractions:
                quotient: Value = Fraction(lv) / rv
            elif lv % rv == 0:
                quotient = lv // rv
            else:
                continue
            _made(made, quotient, (steps + (l_prec == 1) + (r_prec != 3), 2, (Op.DIV, le, re)))


def _node(entry: Entry) -> Node:
    expression = entry[2]
    if not isinstance(expression, tuple):
        return Number(expression)
    op, left, right = expression
    return Operation(op, _node(left), _node(right))


def expressions(dice: Sequence[int], *, fractions: bool = False) -> dict[Fraction, Node]:
    """Every value an expression using each die once can take, with one such expression."""
    return {Fraction(value): _node(entry) for value, entry in _table(dice, fractions).items()}


def _table(dice: Sequence[int], fractions: bool) -> dict[Value, Entry]:
    if not 1 <= len(dice) <= _MAX_DICE:
        raise InvalidInput(f"{len(dice)} dice: expected 1 to {_MAX_DICE}")
    count = len(dice)
    table: dict[int, dict[Value, Entry]] = {
        1 << i: {value: (0, 3, value)} for i, value in enumerate(dice)
    }
    for mask in range(1, 1 << count):
        if mask in table:
            continue
        made: dict[Value, Entry] = {}
        sub = (mask - 1) & mask
        while sub:
            _combine(made, table[sub], table[mask ^ sub], fractions)
            sub = (sub - 1) & mask
        table[mask] = made
    return table[(1 << count) - 1]


def reach(dice: Sequence[int], *, fractions: bool = False) -> dict[int, str]:
    """The whole numbers the roll makes, ascending, each with a sentence that makes it."""
    made = _table(dice, fractions)
    whole = sorted(int(value) for value in made if Fraction(value).denominator == 1)
    return {value: announce(_node(made[value]), fractions=fractions) for value in whole}
