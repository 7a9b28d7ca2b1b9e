"""Guesstimation at the table: 3 to 6 players, one seat each, a die the table rolls, guesses
from the players' phones (the table's web page) or on the console.

Seat inputs: ``shout`` (the buzzer) is the player's die: pressed when it is that player's turn
to roll (for the first Round Leader, the question number, a tied duel, a tie for the chip), the
table rolls for them; the dealer's GO rolls for a seat without a buzzer. ``stand`` means
nothing in Guesstimation. The seat lights: dim, your turn to roll; full, your guess is in;
blinking, you won the last round (or the game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from drivers.leds import SeatLight
from firmware_py.families.guesstimation import report as reports
from firmware_py.families.guesstimation.context import Table
from firmware_py.families.guesstimation.flows import prompt_for
from firmware_py.families.guesstimation.options import (
    GuesstimationOptions,
    fresh_options,
    parse_options,
)
from firmware_py.table.family import Options, Report, TableFacts, TableFamily
from firmware_py.table.prompts import LogAction, Prompt
from rules.actions import Action
from rules.guesstimation.replay import apply, start, summary
from rules.guesstimation.session import GuesstimationState

ROLES = {"shout": "the player's die (pressed to roll)", "stand": "nothing"}


@dataclass(frozen=True, slots=True)
class GuesstimationTable:
    options: GuesstimationOptions

    # --- the rules session ------------------------------------------------------------------

    def first_action(self) -> Action:
        return self.options.start()

    def start(self, first: Action) -> GuesstimationState:
        return start(first)

    def apply(self, session: GuesstimationState, action: Action) -> GuesstimationState:
        return apply(session, action)

    def clock_runs(self, session: GuesstimationState) -> bool:
        return False  # Guesstimation has no match clock

    def time_up(self) -> LogAction:
        raise RuntimeError("Guesstimation has no match clock: no step ever starts one")

    # --- prompts ----------------------------------------------------------------------------

    def prompt(
        self, session: GuesstimationState, scratch: Mapping[str, Any], table: TableFacts
    ) -> Prompt:
        return prompt_for(session, scratch, Table(self.options, table.session))

    def summary(self, session: GuesstimationState) -> dict[str, Any]:
        return summary(session)

    # --- decisions --------------------------------------------------------------------------

    def report(self, before: GuesstimationState, after: GuesstimationState) -> Report:
        return reports.report(before, after, self.options)

    # --- the view ---------------------------------------------------------------------------

    def scores(self, session: GuesstimationState) -> dict[str, int]:
        """Each piece's space from Start."""
        return reports.positions(session, self.options)

    def title(self, session: GuesstimationState) -> str:
        """ "R3 Q4 chip", "R7 Q2 duel", "R9 final"; before the first round, "Lead roll"."""
        if session.over:
            return "Game over"
        current = session.current
        if current is None:
            return "Roll for the lead"
        parts = [f"R{current.number}"]
        if current.die is not None:
            parts.append(f"Q{current.die}")
        if current.final:
            parts.append("final")
        elif current.duel is not None:
            parts.append("duel")
        elif current.question is not None and current.question.chip:
            parts.append("chip")
        return " ".join(parts)

    def in_play(self, session: GuesstimationState) -> bool:
        return False  # the big line shows the last roll or result; the board is on the page

    def light(
        self, session: GuesstimationState, seat: str, level: Callable[[str], bool]
    ) -> SeatLight:
        player = self.options.name_of(seat)
        if session.champion is not None:
            return SeatLight.WON if player == session.champion else SeatLight.OFF
        if session.rolloff is not None:
            return SeatLight.STANDING if player in session.rolloff.waiting_for else SeatLight.OFF
        current = session.current
        assert current is not None
        if current.die is None:  # the Round Leader's roll: last round's winners blink
            last = session.played[-1].outcome if session.played else None
            if last is not None and player in last.winners:
                return SeatLight.WON
            return SeatLight.STANDING if player == current.leader else SeatLight.OFF
        if current.guess_of(player) is not None:
            return SeatLight.PLUNGING
        return SeatLight.OFF


def _game(options: Options, seats: tuple[str, ...]) -> GuesstimationTable:
    return GuesstimationTable(parse_options(options, seats))


FAMILY = TableFamily(
    name="guesstimation",
    roles=ROLES,
    game=_game,
    options=lambda: {"players": None, "finish": 20, "deck": None, "seed": None},
    words={"shout": "roll", "stand": "unused"},
    unread=frozenset({"stand"}),  # nothing is wired to it (R1020)
    # dim: to roll; full: the guess is in; blinking: won the last round or the game
    lights={"standing": "to roll", "plunging": "guessed", "won": "won"},
    fresh=fresh_options,
)
