"""Game 4 (Level 3): Play the Ranks turns two Power cards for the bases, in order, and goes
straight to the plunge and the tricks (rulings R66, R69); the version, the draw, the tricks and
Border Zap are Level 4's prompts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.geoplunge.flows import game4
from firmware_py.families.geoplunge.flows.common import FlowSettings
from firmware_py.table.prompts import Outcome, Prompt, choice
from rules.geoplunge.games.level3.play_the_ranks import TURNED_POWER_CARDS
from rules.geoplunge.power import BASES


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase != "power_cards":
        return game4.prompt(state, scratch, settings)
    turned: list[int] = list(scratch.get("bases", []))
    options = []
    for base in BASES:  # equal numbers are allowed: one base for all 8 tricks
        picked = [*turned, base]
        if len(picked) == TURNED_POWER_CARDS:
            options.append(Outcome(str(base), {"action": "game4.power_cards", "bases": picked}))
        else:
            options.append(Outcome(str(base), None, {"bases": picked}))
    number = len(turned) + 1
    return choice(f"g4/power{len(turned)}", f"Power card {number} of 2: left number", options)
