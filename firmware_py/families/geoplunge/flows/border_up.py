"""Game 1, Border-Up: count, GO for "Ready, Set, GeoPlunge!", the shout, the verdicts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings, plunge_prompt
from firmware_py.table.arbiter import ShoutDecision
from firmware_py.table.prompts import Kind, Outcome, Prompt, ask_each, yes_no


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    if state.phase == "plunge":
        return plunge_prompt("bu/plunge")
    if state.phase == "race":
        shouters: list[str] | None = scratch.get("shouters")
        if shouters is None:
            return Prompt(
                key="bu/race",
                kind=Kind.SHOUT,
                text="Ready, Set, GeoPlunge!",
                hint="GO: start the race",
                window="bu/race",
                opens_on_go=True,
                on_shout=_shouted,
            )
        return ask_each(
            "bu/three_o",
            shouters,
            scratch,
            "Team {team} shouted ThreeOPlunge?",
            lambda answers: {
                "action": "border_up.shout",
                "shouters": shouters,
                "three_o": sorted(team for team, yes in answers.items() if yes),
            },
        )
    team = state.awaiting_showing[0].value
    verdict = {"action": "border_up.verdict", "team": team}
    return yes_no(
        f"bu/show/{team}",
        f"Team {team}: groups valid?",
        Outcome("valid", {**verdict, "valid": True}),
        Outcome("not valid", {**verdict, "valid": False}),
    )


def _shouted(decision: ShoutDecision) -> Outcome:
    return Outcome(decision.result, None, {"shouters": sorted(decision.shouters)})
