"""The STATES table's options: the players (or two teams), the scoring, knocking, the chain
rule, the target score and the deck.

Options are plain JSON in the table's settings (and so in its journal); ``parse_options``
checks them and names the option at fault (``FamilyOptionsError``). A new table's deck file is
read into its options (``fresh_options``), so the journal keeps the colours and values it was
started with, whatever later happens to the file (R300). The alternate scoring with a deck that
lacks a value is refused here, naming every missing card (R321); knocking is not, since the
dealer can enter a knock's totals without the deck (R329).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from firmware_py.table.family import FamilyOptionsError, Options
from firmware_py.user_files import MAX_DECK, UserFileError, read_limited_text
from rules.errors import RuleError
from rules.states.connect import Connection
from rules.states.deck import Deck, deck_from_data, deck_from_toml, shipped_deck
from rules.states.game import PLAYERS, TEAM_PLAYERS
from rules.states.scoring import Scoring
from rules.states.table_actions import StartTable
from rules.states.table_game import TARGETS, new_table_game

OPTION_NAMES = ("players", "teams", "scoring", "knocking", "connect", "target", "deck")
KERNEL_FLAGS = ("game", "format", "round")  # the simulator's flags for other families
E = TypeVar("E", Scoring, Connection)
# The options come from the config's [states] or from a script's setup line (R344).
STANDARD_SCORING = (
    'set scoring = "standard" in [states] (in a script: "scoring": "standard" in its setup)'
)


@dataclass(frozen=True, slots=True)
class StatesOptions:
    players: tuple[str, ...]  # one name per seat, clockwise
    seats: tuple[str, ...]
    deck: Deck
    teams: bool = False
    scoring: Scoring = Scoring.STANDARD
    knocking: bool = True
    connect: Connection = Connection.GROUP
    target: int | None = None  # None: the scoring's own (15, or 75)

    def name_of(self, seat: str) -> str:
        return self.players[self.seats.index(seat)]

    def seat_of(self, player: str) -> str:
        return self.seats[self.players.index(player)]

    @property
    def names(self) -> dict[str, str]:
        return dict(zip(self.seats, self.players, strict=True))

    def start(self) -> StartTable:
        return StartTable(
            players=self.players,
            teams=self.teams,
            scoring=self.scoring,
            knocking=self.knocking,
            connect=self.connect,
            target=self.target,
            cards=self.deck.entries(),
            water_cards=self.deck.water_cards,
        )


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_options(options: Options, seats: tuple[str, ...]) -> StatesOptions:
    """The family's options from plain JSON; FamilyOptionsError names the option at fault."""
    for name in options:
        if name in KERNEL_FLAGS:
            raise FamilyOptionsError(name, "not a STATES option (STATES has no games or rounds)")
        if name not in OPTION_NAMES:
            raise FamilyOptionsError(name, f"unknown (expected {', '.join(OPTION_NAMES)})")
    teams = _flag(options, "teams", False)
    wanted = (TEAM_PLAYERS,) if teams else tuple(PLAYERS)
    if len(seats) not in wanted:
        expected = (
            f"{TEAM_PLAYERS} seats for two teams"
            if teams
            else f"{PLAYERS.start} to {PLAYERS.stop - 1} seats"
        )
        raise FamilyOptionsError(
            "seats", f"STATES is played by 2 to 4: expected {expected}, got {len(seats)}"
        )
    parsed = StatesOptions(
        players=_players(options.get("players"), seats),
        seats=seats,
        deck=_deck(options.get("deck")),
        teams=teams,
        scoring=_choice(options, "scoring", Scoring, Scoring.STANDARD),
        knocking=_flag(options, "knocking", True),
        connect=_choice(options, "connect", Connection, Connection.GROUP),
        target=_target(options.get("target")),
    )
    try:
        new_table_game(parsed.start())  # the rules core checks the names and the deck
    except RuleError as error:
        option = "players" if "player" in str(error) else "deck"
        raise FamilyOptionsError(
            option, str(error).replace("play the standard scoring", STANDARD_SCORING)
        ) from None
    return parsed


def fresh_options(options: Options) -> dict[str, Any]:
    """A new table's options: its deck file read into them, so the journal keeps the deck."""
    fresh = dict(options)
    fresh["deck"] = deck_data(_deck(fresh.get("deck")))
    return fresh


def deck_data(deck: Deck) -> dict[str, Any]:
    """A deck as the deck file holds it, in plain JSON."""
    cards: dict[str, dict[str, Any]] = {}
    for code, face in deck.faces.items():
        card: dict[str, Any] = {}
        if face.colour is not None:
            card["colour"] = face.colour
        if face.value is not None:
            card["value"] = face.value
        if card:
            cards[code] = card
    return {"water_cards": deck.water_cards, "cards": cards}


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


def _flag(options: Options, name: str, default: bool) -> bool:
    value = options.get(name, default)
    if not isinstance(value, bool):
        raise FamilyOptionsError(name, f"expected true or false, got {_shown(value)}")
    return value


def _choice(options: Options, name: str, kind: type[E], default: E) -> E:
    value = options.get(name, default.value)
    for member in kind:
        if value == member.value:
            return member
    expected = " or ".join(repr(member.value) for member in kind)
    raise FamilyOptionsError(name, f"expected {expected}, got {_shown(value)}")


def _target(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in TARGETS:
        raise FamilyOptionsError(
            "target",
            f"expected a score from {TARGETS.start} to {TARGETS.stop - 1}, got {_shown(value)}",
        )
    return value


def _deck(value: Any) -> Deck:
    """The shipped deck (none given), a deck file's path, or a deck kept in the options."""
    try:
        if value is None:
            return shipped_deck()
        if isinstance(value, dict):
            return deck_from_data(value)
        if isinstance(value, str) and value:
            return _deck_file(Path(value))
    except RuleError as error:
        raise FamilyOptionsError("deck", str(error)) from None
    raise FamilyOptionsError(
        "deck", f"expected a deck file's path or none (the shipped deck), got {_shown(value)}"
    )


def _deck_file(path: Path) -> Deck:
    try:  # at most MAX_DECK, and only a regular file: /dev/zero filled the memory, a FIFO
        # waited forever (R773, R947), as Guesstimation's deck is read
        text = read_limited_text(path, MAX_DECK, "a deck's TOML")
    except UserFileError as error:
        raise FamilyOptionsError("deck", str(error)) from None
    try:
        return deck_from_toml(text)
    except RuleError as error:
        raise FamilyOptionsError("deck", f"{path}: {error}") from None
