"""The Mathematics Pentathlon at the table: the Game Monitor's console for one game at a time,
as a table-kernel family.

Two players, at seats A and B. Seat inputs: ``shout`` is the player's flag button (pressing
it passes the flag card: the turn ends), ``stand`` the player's challenge input (it opens the
monitor's challenge entry with that player as the challenger). The game's time limit is the
kernel's match clock, started with the first turn; the turn's minute is a timer over the
turn's steps. The flow is in ``flows/``, the view and the report in ``view``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from drivers.leds import SeatLight
from firmware_py.families.pentathlon import view
from firmware_py.families.pentathlon.card import finished_card
from firmware_py.families.pentathlon.flows import prompt as flow_prompt
from firmware_py.families.pentathlon.flows.page import on_page
from firmware_py.families.pentathlon.options import (
    PentathlonOptions,
    check_seats,
    fresh_options,
    older_flow,
    parse_options,
    table_settings,
)
from firmware_py.table.family import Options, Report, TableFacts, TableFamily
from firmware_py.table.prompts import LogAction, Prompt
from rules.actions import Action
from rules.pentathlon.catalogue import Game
from rules.pentathlon.monitor import PentathlonGame, apply, start
from rules.pentathlon.record import record

ROLES = {
    "shout": "flag button (pressing it passes the flag card: the turn ends)",
    "stand": "challenge input (opens the monitor's challenge entry for this player)",
}

__all__ = ["FAMILY", "PentathlonOptions", "PentathlonTable", "parse_options", "table_settings"]


@dataclass(frozen=True, slots=True)
class PentathlonTable:
    options: PentathlonOptions

    # --- the rules session ------------------------------------------------------------------

    def first_action(self) -> Action:
        return self.options.start(self.options.game or Game.CONTIG_60)

    def start(self, first: Action) -> PentathlonGame:
        # a journal of the flow before issue 20 replays under the rulings it was played under
        return start(first, rulings=self.options.rulings)

    def apply(self, session: PentathlonGame, action: Action) -> PentathlonGame:
        return apply(session, action)

    def time_up(self) -> LogAction:
        return {"action": "pentathlon.time_called"}

    def clock_runs(self, session: PentathlonGame) -> bool:
        return session.phase not in ("begin", "over")

    # --- prompts ----------------------------------------------------------------------------

    def prompt(
        self, session: PentathlonGame, scratch: Mapping[str, Any], table: TableFacts
    ) -> Prompt:
        return on_page(flow_prompt(session, scratch, self.options))

    def summary(self, session: PentathlonGame) -> dict[str, Any]:
        return record(session)

    # --- decisions and the view -------------------------------------------------------------

    def report(self, before: PentathlonGame, after: PentathlonGame) -> Report:
        return view.report(before, after)

    def scores(self, session: PentathlonGame) -> dict[str, int]:
        return view.scores(session)

    def title(self, session: PentathlonGame) -> str:
        return view.title(session)

    def in_play(self, session: PentathlonGame) -> bool:
        return session.phase in ("play", "challenge", "counting")

    def light(self, session: PentathlonGame, seat: str, level: Callable[[str], bool]) -> SeatLight:
        return view.light(session, seat)


def _game(options: Options, seats: tuple[str, ...]) -> PentathlonTable:
    check_seats(seats)
    return PentathlonTable(parse_options(options))


FAMILY = TableFamily(
    name="pentathlon",
    roles=ROLES,
    game=_game,
    options=lambda: PentathlonOptions().to_json(),
    words={"shout": "flag", "stand": "challenge"},
    # the LED's patterns as the monitor's guide names them: steady, the flag (the winner once
    # the game is over); blinking, the minute is up; pulsing, this player's challenge is ruled
    lights={"plunging": "steady", "won": "blinking", "locked": "pulsing"},
    card=finished_card,
    seated=True,  # the hub's Pentathlon seats: the players' names for the card (R795)
    fresh=fresh_options,
    older=older_flow,
)
