"""Game 3, Dashing States: count, each race's shout and verdicts, race 3's category."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings, plunge_prompt
from firmware_py.table.arbiter import ShoutDecision
from firmware_py.table.prompts import Kind, Outcome, Prompt, ask_each, choice

CATEGORIES = ("size", "statehood", "population")


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase == "plunge":
        return plunge_prompt("ds/plunge")
    if state.phase == "category":
        return choice(
            "ds/category",
            "Race 3: Power card category",
            [Outcome(c, {"action": "dashing.category", "category": c}) for c in CATEGORIES],
        )
    race = state.race_number
    shouters: list[str] | None = scratch.get("shouters")
    if shouters is None:
        return Prompt(
            key=f"ds/race{race}",
            kind=Kind.SHOUT,
            text=f"Race {race}: {state.sort_by}",
            hint="GO: start the race",
            window=f"ds/race{race}",
            opens_on_go=True,
            on_shout=_shouted,
        )
    return ask_each(
        f"ds/met{race}",
        shouters,
        scratch,
        "Team {team}: order, card down, 6 answers ok?",
        lambda answers: {
            "action": "dashing.race",
            "shouters": shouters,
            "a_met": answers.get("A"),
            "b_met": answers.get("B"),
            "a_cards": None,
            "b_cards": None,
        },
    )


def _shouted(decision: ShoutDecision) -> Outcome:
    return Outcome(decision.result, None, {"shouters": sorted(decision.shouters)})
