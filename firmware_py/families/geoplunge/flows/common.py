"""Prompts every GeoPlunge game asks: the 5-count and the statehood draw."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.table.prompts import CountSpec, Kind, Outcome, Prompt, choice

COUNT_TO = 5  # "Are you GeoPlunging? 1, 2, 3, 4, 5": a team standing at 5 is GeoPlunging


@dataclass(frozen=True, slots=True)
class FlowSettings:
    """The table's GeoPlunge options that flows need."""

    chummy_seconds: float = 15.0
    level: int = 4  # the level the game is played at (its rules judge a typed showing)


def _plunge(seats: list[str]) -> Outcome:
    return Outcome("plunge", {"action": "plunge", "plunging": seats})


PLUNGE_COUNT = CountSpec(outcome=_plunge, role="stand", event="plunge", field="plunging")


def plunge_prompt(key: str) -> Prompt:
    return Prompt(
        key=key,
        kind=Kind.COUNT,
        text="Are you GeoPlunging?",
        hint="COUNT: count to 5",
        count=PLUNGE_COUNT,
    )


def draw_prompt(key: str, purpose: str) -> Prompt:
    """The statehood draw: each team draws a card; the dealer says whose is closer to 1."""
    return choice(
        key,
        f"Statehood nearest 1 {purpose}",
        [Outcome(f"Team {team}", {"action": "draw_winner", "first": team}) for team in ("A", "B")],
    )
