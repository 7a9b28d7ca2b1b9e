"""The Guesstimation table's options: the players' names, the board, the deck and the dice's seed.

Options are plain JSON in the table's settings (and so in its journal); ``parse_options``
checks them and names the option at fault (``FamilyOptionsError``). A new table's options are
made ``fresh``: a seed is drawn for the dice and the deck file is read into the options, so the
journal holds both and a replay rolls the same dice and reads the same questions (R470).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.families.guesstimation.deck import SAMPLE_DECK, load_deck
from firmware_py.table.family import FamilyOptionsError, Options
from rules.errors import RuleError
from rules.guesstimation.actions import DEFAULT_FINISH, StartGuesstimation
from rules.guesstimation.deck import Deck, deck_from_data, deck_to_data
from rules.guesstimation.session import MAX_PLAYERS, MIN_PLAYERS, new_game

OPTION_NAMES = ("players", "finish", "deck", "seed")
SAMPLE = "sample"  # the deck option naming the sample deck that ships with gametable
SEED_LIMIT = 2**63  # a seed is a whole number from 0 to SEED_LIMIT - 1


@dataclass(frozen=True, slots=True)
class GuesstimationOptions:
    players: tuple[str, ...]  # one name per seat, in seat order (clockwise)
    seats: tuple[str, ...]
    finish: int = DEFAULT_FINISH
    deck: Deck | None = None  # None: the Round Leader enters each answer (R294)
    seed: int = 0  # the table's dice and the order of the deck's cards

    def name_of(self, seat: str) -> str:
        return self.players[self.seats.index(seat)]

    def seat_of(self, player: str) -> str:
        return self.seats[self.players.index(player)]

    @property
    def names(self) -> dict[str, str]:
        return dict(zip(self.seats, self.players, strict=True))

    def start(self) -> StartGuesstimation:
        return StartGuesstimation(players=self.players, finish=self.finish)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_options(options: Options, seats: tuple[str, ...]) -> GuesstimationOptions:
    """The family's options from plain JSON; FamilyOptionsError names the option at fault."""
    for name in options:
        if name not in OPTION_NAMES:
            raise FamilyOptionsError(name, f"unknown (expected {', '.join(OPTION_NAMES)})")
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise FamilyOptionsError(
            "seats",
            f"Guesstimation is played by {MIN_PLAYERS} to {MAX_PLAYERS}: expected "
            f"{MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(seats)}",
        )
    parsed = GuesstimationOptions(
        players=_players(options.get("players"), seats),
        seats=seats,
        finish=_finish(options.get("finish", DEFAULT_FINISH)),
        deck=_deck(options.get("deck")),
        seed=_seed(options.get("seed", 0)),
    )
    try:
        new_game(parsed.start())  # the rules core checks the names and the board
    except RuleError as error:
        raise FamilyOptionsError("players", str(error)) from None
    return parsed


def fresh_options(options: Options) -> dict[str, Any]:
    """A new table's options: a seed drawn for its dice (unless one is given) and its deck read
    from the file into the options, so that the journal keeps both."""
    fresh = dict(options)
    if fresh.get("seed") is None:
        fresh["seed"] = secrets.randbelow(SEED_LIMIT)
    deck = _deck(fresh.get("deck"))
    if deck is not None:
        fresh["deck"] = deck_to_data(deck)
    return fresh


def _players(value: Any, seats: tuple[str, ...]) -> tuple[str, ...]:
    if value is None:
        return seats  # each player named by the seat's letter
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise FamilyOptionsError(
            "players", f"expected a list of names, one per seat, got {_shown(value)}"
        )
    if len(value) != len(seats):
        raise FamilyOptionsError(
            "players",
            f"expected {len(seats)} names, one per seat ({', '.join(seats)}), got {len(value)}",
        )
    return tuple(value)


def _finish(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 100:
        raise FamilyOptionsError(
            "finish", f"expected a whole number of spaces from 2 to 100, got {_shown(value)}"
        )
    return value


def _deck(value: Any) -> Deck | None:
    """No deck, the sample deck, a deck file's path, or a deck kept in the options."""
    if value is None:
        return None
    try:
        if isinstance(value, dict):
            return deck_from_data(value)
        if isinstance(value, str) and value:
            return load_deck(SAMPLE_DECK if value == SAMPLE else Path(value))
    except RuleError as error:
        raise FamilyOptionsError("deck", str(error)) from None
    raise FamilyOptionsError(
        "deck", f"expected a deck file's path, {SAMPLE!r} or none, got {_shown(value)}"
    )


def _seed(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEED_LIMIT:
        raise FamilyOptionsError(
            "seed", f"expected a whole number from 0 to 2**63 - 1, got {_shown(value)}"
        )
    return value
