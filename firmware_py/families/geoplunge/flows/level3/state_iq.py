"""Game 2, State IQ (Level 3): as Level 4, but each team holds one card for the whole game, so a
right guess deals nothing and ends that team's turn (ruling R63)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.geoplunge.flows import state_iq
from firmware_py.families.geoplunge.flows.common import FlowSettings
from firmware_py.table.prompts import Outcome, Prompt, yes_no


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase != "guessing":
        return state_iq.prompt(state, scratch, settings)  # the draw, the count, the Power card
    team = state.guessing_team.value
    guess = {"action": "state_iq.guess", "team": team, "state": None}
    return yes_no(
        f"iq/guess/{team}/{state.guess_number}",
        f"{team} guess {state.guess_number}, clue {state.next_clue_type}: right?",
        Outcome("right", {**guess, "correct": True}),
        Outcome("wrong", {**guess, "correct": False}),
    )
