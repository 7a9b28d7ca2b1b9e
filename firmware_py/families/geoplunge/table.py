"""GeoPlunge at the table: every format (a Combo 4 or Combo 3 match, the Combo 3 championship,
or one game on its own) as a table-kernel family.

Seat inputs: ``stand`` is the stand-up sensor (a team standing at the count of 5 is
GeoPlunging), ``shout`` the buzzer (first to shout). The prompts between games are in
``match_prompts``, each game's prompts are its flow in ``flows/`` (at the session's level),
the events an action decides are in ``report``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from drivers.leds import SeatLight
from firmware_py.families.geoplunge import report as reports
from firmware_py.families.geoplunge.flows import flow_for
from firmware_py.families.geoplunge.flows.common import FlowSettings
from firmware_py.families.geoplunge.match_prompts import between_games
from firmware_py.families.geoplunge.options import (
    Format,
    GeoPlungeOptions,
    parse_options,
    table_settings,
)
from firmware_py.families.geoplunge.sessions import first_action, level_of
from firmware_py.families.geoplunge.titles import SHORT_TITLES
from firmware_py.table.family import Options, Report, TableFacts, TableFamily
from firmware_py.table.prompts import LogAction, Prompt
from rules.actions import Action
from rules.geoplunge.championship import ChampionshipState
from rules.geoplunge.replay import (
    AnySession,
    GameSession,
    apply_any_session,
    start_any_session,
    summary,
)
from rules.geoplunge.scoring import score_game
from rules.geoplunge.teams import Team

ROLES = {"stand": "stand-up sensor (GeoPlunging at 5)", "shout": "shout buzzer"}
TEAM_NAMES = {team.value: f"Team {team.value}" for team in Team}

__all__ = [
    "FAMILY",
    "Format",
    "GeoPlungeOptions",
    "GeoPlungeTable",
    "parse_options",
    "table_settings",
]


@dataclass(frozen=True, slots=True)
class GeoPlungeTable:
    options: GeoPlungeOptions

    # --- the rules session ------------------------------------------------------------------

    def first_action(self) -> Action:
        return first_action(self.options)

    def start(self, first: Action) -> AnySession:
        return start_any_session(first)

    def apply(self, session: AnySession, action: Action) -> AnySession:
        return apply_any_session(session, action)

    def time_up(self) -> LogAction:
        return {"action": "match.time_up"}

    def clock_runs(self, session: AnySession) -> bool:
        return isinstance(session, GameSession) or not session.over

    # --- prompts ----------------------------------------------------------------------------

    def prompt(self, session: AnySession, scratch: Mapping[str, Any], table: TableFacts) -> Prompt:
        game = current_game(session)
        if game is not None:
            number, state = game
            level = level_of(session)
            settings = FlowSettings(chummy_seconds=self.options.chummy_seconds, level=level)
            asked = flow_for(number, level)(state, scratch, settings)
        else:
            asked = between_games(session, scratch, table, self.options)
        # the table's web page names the seats as the game does: Team A, Team B
        return replace(asked, page=replace(asked.page, names=TEAM_NAMES))

    def summary(self, session: AnySession) -> dict[str, Any]:
        return summary(session)

    # --- decisions --------------------------------------------------------------------------

    def report(self, before: AnySession, after: AnySession) -> Report:
        return reports.report(before, after)

    # --- the view ---------------------------------------------------------------------------

    def scores(self, session: AnySession) -> dict[str, int]:
        """Points; in the championship, games won (R81)."""
        if isinstance(session, ChampionshipState):
            return {team.value: session.wins(team) for team in Team}
        if not isinstance(session, GameSession):
            a, b = session.scores
        elif session.state.result is None:
            a, b = 0, 0
        else:
            points = score_game(session.state.result, session.state.plunging or frozenset())
            a, b = points[Team.A], points[Team.B]
        return {"A": a, "B": b}

    def title(self, session: AnySession) -> str:
        game = current_game(session)
        if game is not None:
            number = game[0]
            tiebreaker = isinstance(session, ChampionshipState) and session.needs_tiebreaker
            return f"{'TB' if tiebreaker else f'G{number}'} {SHORT_TITLES[number]}"
        scores = self.scores(session)
        what = "CHAMP" if isinstance(session, ChampionshipState) else "MATCH"
        return f"{what} A{scores['A']} B{scores['B']}"

    def in_play(self, session: AnySession) -> bool:
        return current_game(session) is not None

    def light(self, session: AnySession, seat: str, level: Callable[[str], bool]) -> SeatLight:
        game = current_game(session)
        plunging = {team.value for team in (game[1].plunging or ())} if game else set()
        if seat in plunging:
            return SeatLight.PLUNGING
        return SeatLight.STANDING if level(f"{seat}.stand") else SeatLight.OFF


def current_game(session: AnySession) -> tuple[int, Any] | None:
    """The game being played (its number and rules state), if one is."""
    if isinstance(session, GameSession):
        return (session.number, session.state) if session.state.result is None else None
    if session.current is not None and session.current_number is not None:
        return session.current_number, session.current
    return None


def _game(options: Options, seats: tuple[str, ...]) -> GeoPlungeTable:
    return GeoPlungeTable(parse_options(options))


FAMILY = TableFamily(
    name="geoplunge",
    roles=ROLES,
    game=_game,
    options=lambda: GeoPlungeOptions().to_json(),
    levels=frozenset({"stand"}),
    counts=True,
)
