"""Game 2, State IQ (Level 3): as Level 4, but each team holds one card for the whole game, so a
right guess deals nothing and ends that team's turn (ruling R63). The state named may be typed
on the table's web page, as at Level 4 (R480)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.geoplunge.flows import state_iq
from firmware_py.families.geoplunge.flows.common import FlowSettings
from firmware_py.table.prompts import Prompt


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase != "guessing":
        return state_iq.prompt(state, scratch, settings)  # the draw, the count, the Power card
    team = state.guessing_team.value
    return state_iq.guess_prompt(
        state,
        scratch,
        settings,
        f"{team} guess {state.guess_number}, clue {state.next_clue_type}: right?",
    )
