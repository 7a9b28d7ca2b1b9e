"""Game 5, Chummy Challenge: count, GeoPlungers, the question's colour, the reading (a shout
stops it), GO at the end of the reading starts the 15 seconds, the answers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings, plunge_prompt
from firmware_py.table.arbiter import ShoutDecision
from firmware_py.table.prompts import Kind, Outcome, Prompt, ask_each, choice, confirm
from rules.geoplunge.power import QuestionColour


def prompt(state: Any, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    number = state.challenge_number
    if state.phase == "plunge":
        return plunge_prompt("ch/plunge")
    if state.phase == "geoplungers":
        seat = f"GeoPlunger {number}"
        return confirm(
            f"ch/geoplungers{number}",
            f"Challenge {number}: new GeoPlungers seated?",
            Outcome("seated", {"action": "chummy.geoplungers", "a": seat, "b": seat}),
        )
    if state.phase == "question":
        return choice(
            f"ch/question{number}",
            "Question colour (Power card circle)",
            [
                Outcome(
                    c.value, {"action": "chummy.question", "circles": [c.value], "colour": c.value}
                )
                for c in QuestionColour
            ],
        )
    shout = _shout_outcome
    if state.phase == "reading":
        return Prompt(
            key=f"ch/reading{number}",
            kind=Kind.SHOUT,
            text="Read the question",
            hint="GO: reading done",
            window=f"ch/q{number}",
            on_shout=shout,
            go=Outcome("read", {"action": "chummy.read"}),
        )
    if state.phase == "waiting":
        return Prompt(
            key=f"ch/waiting{number}",
            kind=Kind.SHOUT,
            text="Shout GeoPlunge to answer",
            window=f"ch/q{number}",
            on_shout=shout,
            timer=(
                "chummy",
                settings.chummy_seconds,
                Outcome("time", {"action": "chummy.timeout"}),
            ),
        )
    shouters = sorted(team.value for team in state.shouters)
    return ask_each(
        f"ch/answer{number}",
        shouters,
        scratch,
        "Team {team} answered right?",
        lambda answers: {
            "action": "chummy.answer",
            "a_correct": answers.get("A"),
            "b_correct": answers.get("B"),
        },
    )


def _shout_outcome(decision: ShoutDecision) -> Outcome:
    return Outcome(
        decision.result, {"action": "chummy.shout", "shouters": sorted(decision.shouters)}
    )
