"""The die: the roll-offs (the first Round Leader, a tied duel, a tie for the Dueling Chip) and
the Round Leader's roll for the question number.

Whoever must roll presses their own buzzer (``shout``) and the table rolls for them; the
dealer's GO rolls for the next player in seat order, for a seat without a working buzzer.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_py.families.guesstimation.context import ROLL_HINT, Table
from firmware_py.families.guesstimation.page import page_info
from firmware_py.table.prompts import Kind, Outcome, Prompt
from rules.guesstimation.rolloff import RollFor
from rules.guesstimation.session import GuesstimationState

ROLLING_FOR = {
    RollFor.FIRST_LEADER: ("lead", "rolls for the lead"),
    RollFor.DUEL_TIE: ("duel", "rolls: tied duel"),
    RollFor.CHIP_TIE: ("chip", "rolls for the chip"),
}


def rolloff_prompt(state: GuesstimationState, table: Table) -> Prompt:
    """Every contender still to roll may press; GO rolls for the first of them."""
    rolloff = state.rolloff
    assert rolloff is not None
    what, words = ROLLING_FOR[rolloff.purpose]
    attempt = len(rolloff.earlier)
    where = () if state.current is None else (state.current.number,)
    waiting = rolloff.waiting_for

    def roll(player: str) -> Outcome:
        return table.roll(player, *where, what, attempt)

    return _roll_prompt(
        key=table.key(*where, what, attempt, len(rolloff.rolls)),
        text=f"{waiting[0]}\n{words}",
        rollers=waiting,
        roll=roll,
        state=state,
        table=table,
    )


def question_roll_prompt(state: GuesstimationState, table: Table) -> Prompt:
    """The Round Leader rolls the die: the question number, 1 to 6."""
    current = state.current
    assert current is not None
    return _roll_prompt(
        key=table.key(current.number, "question_roll"),
        text=f"{current.leader}\nrolls for question",
        rollers=(current.leader,),
        roll=lambda player: table.roll(player, current.number, "question"),
        state=state,
        table=table,
    )


def _roll_prompt(
    *,
    key: str,
    text: str,
    rollers: tuple[str, ...],
    roll: Callable[[str], Outcome],
    state: GuesstimationState,
    table: Table,
) -> Prompt:
    options = table.options

    def pressed(seat: str, what: str) -> Outcome | None:
        player = options.name_of(seat)
        return roll(player) if what == "shout" and player in rollers else None

    return Prompt(
        key=key,
        kind=Kind.NOTICE,
        text=text,
        hint=ROLL_HINT,
        go=roll(rollers[0]),
        on_press=pressed,
        page=page_info(state, table),
    )
