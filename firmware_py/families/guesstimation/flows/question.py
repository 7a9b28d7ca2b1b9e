"""Reading the question the die picked, and the group's unit system for a measured one.

With a deck the table knows the question: YES reads it (the page shows its text). Without one
the Round Leader reads it from the card and tells the table how it is asked: whether the card
marks it chip-possession (question 4 always is) and whether it is asked in U.S. and metric
terms (R294).
"""

from __future__ import annotations

from firmware_py.families.guesstimation.context import Table, act
from firmware_py.families.guesstimation.page import with_page
from firmware_py.table.prompts import Outcome, Prompt, choice, confirm
from rules.guesstimation.actions import ChooseUnits, ReadQuestion, UnitSystem
from rules.guesstimation.deck import question_action
from rules.guesstimation.session import CHIP_QUESTION, GuesstimationState, Round

# Without a deck: how the card asks the question (label, chip-possession, measured)
ASKED = (
    ("standard", False, False),
    ("US/metric", False, True),
    ("chip", True, False),
    ("chip US/metric", True, True),
)
UNIT_LABELS = {UnitSystem.US: "US", UnitSystem.METRIC: "metric"}


def question_prompt(state: GuesstimationState, table: Table) -> Prompt:
    current = state.current
    assert current is not None and current.die is not None
    die = current.die
    key = table.key(current.number, "question")
    card = table.card(current)
    if card is not None:
        read = question_action(card, die)
        chip = "\nchip possession" if read.chip and not current.final else ""
        reading = confirm(key, f"Read question {die}{chip}", act("read", read), hint="YES: read")
        return with_page(reading, state, table)
    asked = choice(key, f"Question {die}:\nhow is it asked?", _ways_asked(current))
    return with_page(asked, state, table)


def _ways_asked(current: Round) -> list[Outcome]:
    """The final question is never chip-possession (R287); question 4 otherwise always is."""
    assert current.die is not None
    if current.final:
        chips: tuple[bool, ...] = (False,)
    elif current.die == CHIP_QUESTION:
        chips = (True,)
    else:
        chips = (False, True)
    return [
        act(label, ReadQuestion(chip=chip, measured=measured))
        for label, chip, measured in ASKED
        if chip in chips
    ]


def units_prompt(state: GuesstimationState, table: Table) -> Prompt:
    current = state.current
    assert current is not None
    options = [act(UNIT_LABELS[system], ChooseUnits(system)) for system in UnitSystem]
    key = table.key(current.number, "units")
    units = choice(key, "The group's units\nfor this question?", options)
    return with_page(units, state, table)
