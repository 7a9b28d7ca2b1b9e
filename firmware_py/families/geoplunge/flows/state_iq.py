"""Game 2, State IQ: the draw, count, the Power card's clue order, each guess YES/NO."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings, draw_prompt, plunge_prompt
from firmware_py.table.prompts import Outcome, Prompt, choice, yes_no

CLUE_ORDERS = tuple("".join(order) for order in permutations("ABC"))


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase == "draw":
        return draw_prompt("iq/draw", "guesses first")
    if state.phase == "plunge":
        return plunge_prompt("iq/plunge")
    if state.phase == "power":
        return choice(
            "iq/power",
            "Power card letters",
            [
                Outcome(order, {"action": "state_iq.power", "clue_order": order})
                for order in CLUE_ORDERS
            ],
        )
    team = state.guessing_team.value
    deal = f"Deal {state.deal_next_card.value} a card.\n" if state.deal_next_card else ""
    guess = {"action": "state_iq.guess", "team": team, "state": None}
    return yes_no(
        f"iq/guess/{team}/{state.guess_number}",
        f"{deal}{team} guess {state.guess_number}, clue {state.next_clue_type}"
        + ("?" if deal else ": right?"),
        Outcome("right", {**guess, "correct": True}),
        Outcome("wrong", {**guess, "correct": False}),
    )
