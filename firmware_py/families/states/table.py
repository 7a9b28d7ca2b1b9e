"""STATES at the table: 2 to 4 players or two teams of two, real cards dealt by hand, the table
keeping the game (table mode: rules/states/table_game.py, R320).

Seat inputs: ``shout`` is "STATES!" (first by edge time, the kernel's arbiter, as GeoPlunge);
``stand`` is the knock. The claimant's four states and a knock's cards come from the players'
phones (the table's web page), or the dealer judges and enters numbers on the console. The seat
lights: dim, the knocker during the last round; blinking, the hand's (or the game's) winners.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from drivers.leds import SeatLight
from firmware_py.families.states import report as reports
from firmware_py.families.states.context import Table
from firmware_py.families.states.flows import prompt_for
from firmware_py.families.states.options import StatesOptions, fresh_options, parse_options
from firmware_py.table.family import Options, Report, TableFacts, TableFamily
from firmware_py.table.prompts import LogAction, Prompt
from rules.actions import Action
from rules.states.table_game import TableGame
from rules.states.table_replay import apply, start, summary

ROLES = {"shout": '"STATES!" (first to shout claims)', "stand": "the knock"}


@dataclass(frozen=True, slots=True)
class StatesTable:
    options: StatesOptions

    # --- the rules session ------------------------------------------------------------------

    def first_action(self) -> Action:
        return self.options.start()

    def start(self, first: Action) -> TableGame:
        return start(first)

    def apply(self, session: TableGame, action: Action) -> TableGame:
        return apply(session, action)

    def clock_runs(self, session: TableGame) -> bool:
        return False  # STATES has no match clock

    def time_up(self) -> LogAction:
        raise RuntimeError("STATES has no match clock: no step ever starts one")

    # --- prompts ----------------------------------------------------------------------------

    def prompt(self, session: TableGame, scratch: Mapping[str, Any], table: TableFacts) -> Prompt:
        return prompt_for(session, scratch, Table(self.options, table.session))

    def summary(self, session: TableGame) -> dict[str, Any]:
        return summary(session)

    # --- decisions and the view -------------------------------------------------------------

    def report(self, before: TableGame, after: TableGame) -> Report:
        return reports.report(before, after, self.options)

    def scores(self, session: TableGame) -> dict[str, int]:
        return reports.scores(session, self.options)

    def title(self, session: TableGame) -> str:
        """ "STATES H3 to 15", "STATES H3 knock B", "STATES over"."""
        if session.over:
            return "STATES over"
        hand = session.hand
        number = hand.number if hand is not None else len(session.played) + 1
        if hand is not None and hand.knocker is not None:
            return f"STATES H{number} knock {self.options.seat_of(hand.knocker)}"
        return f"STATES H{number} to {session.target}"

    def in_play(self, session: TableGame) -> bool:
        """While a hand is played the big line shows the scores; between hands, the result."""
        return session.phase in ("play", "last_round")

    def light(self, session: TableGame, seat: str, level: Callable[[str], bool]) -> SeatLight:
        player = self.options.name_of(seat)
        if session.champion is not None:
            return (
                SeatLight.WON
                if session.sides[session.side_of(player)] == session.champion
                else SeatLight.OFF
            )
        hand = session.hand
        if hand is not None and hand.won is not None:
            return SeatLight.WON if player in hand.won.winners else SeatLight.OFF
        if hand is not None and hand.knocker == player:
            return SeatLight.STANDING
        return SeatLight.OFF


def _game(options: Options, seats: tuple[str, ...]) -> StatesTable:
    return StatesTable(parse_options(options, seats))


FAMILY = TableFamily(
    name="states",
    roles=ROLES,
    game=_game,
    options=lambda: {
        "players": None,
        "teams": False,
        "scoring": "standard",
        "knocking": True,
        "connect": "group",
        "target": None,
        "deck": None,
    },
    words={"stand": "knock", "shout": "STATES!"},
    # dim: the knocker; blinking: the first "STATES!" or the hand's winners; pulsing: a shout
    # that came too late
    lights={"standing": "knocked", "won": "first/won", "locked": "too late"},
    fresh=fresh_options,
)
