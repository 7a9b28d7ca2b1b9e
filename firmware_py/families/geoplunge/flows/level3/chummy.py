"""Game 5, Chummy Challenge (Level 3): the question's colour is the Power card's square, red or
blue (``l3.chummy.question``, ruling R73); every other step is Level 4's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.geoplunge.flows import chummy
from firmware_py.families.geoplunge.flows.common import FlowSettings
from firmware_py.table.prompts import Outcome, Prompt, choice
from rules.geoplunge.games.level3.chummy_challenge import LEVEL_3_COLOURS


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase != "question":
        return chummy.prompt(state, scratch, settings)
    return choice(
        f"ch/question{state.challenge_number}",
        "Question colour (Power card square)",
        [
            Outcome(c.value, {"action": "l3.chummy.question", "square": c.value})
            for c in LEVEL_3_COLOURS
        ],
    )
