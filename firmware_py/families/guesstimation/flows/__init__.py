"""Guesstimation's steps at the table, one module per part of a round: ``rolls`` (the die),
``question`` (reading it, the units), ``guesses`` (the duel, the guesses, the answer)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.guesstimation.context import Table
from firmware_py.families.guesstimation.flows.guesses import answer_prompt, guessing_prompt
from firmware_py.families.guesstimation.flows.question import question_prompt, units_prompt
from firmware_py.families.guesstimation.flows.rolls import question_roll_prompt, rolloff_prompt
from firmware_py.families.guesstimation.page import with_page
from firmware_py.table.prompts import Kind, Outcome, Prompt
from rules.actions import encode
from rules.guesstimation.session import GuesstimationState


def prompt_for(state: GuesstimationState, scratch: Mapping[str, Any], table: Table) -> Prompt:
    """What the dealer is asked now, by the game's phase."""
    phase = state.phase
    if phase == "over":
        return _game_over(state, table)
    if state.rolloff is not None:
        return rolloff_prompt(state, table)
    if phase == "question_roll":
        return question_roll_prompt(state, table)
    if phase == "question":
        return question_prompt(state, table)
    if phase == "units":
        return units_prompt(state, table)
    if phase == "guessing":
        return guessing_prompt(state, scratch, table)
    return answer_prompt(state, table)


def _game_over(state: GuesstimationState, table: Table) -> Prompt:
    """The champion; GO starts a new game with the same players in the same journal."""
    prompt = Prompt(
        key=table.key("over"),
        kind=Kind.NOTICE,
        text=f"{state.champion}\nwins the game!",
        hint="GO: new game",
        go=Outcome("new game", new_session=encode(table.options.start())),
    )
    return with_page(prompt, state, table)
