"""The STATES deck: 48 state cards with a colour and a point value, the bonus states AK and HI,
and the water cards.

The rulebook prints only six values, so a deck may be incomplete (R300): a card's colour or
value is ``None`` until the organiser fills it in. ``deck_from_toml`` reads a deck file's text
(the shell reads the file), naming the key path of any fault; ``Deck.entries`` and
``deck_from_entries`` carry a deck inside a start action, so a log replays without the file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rules.atlas import Atlas, default_atlas
from rules.errors import InvalidInput, UnknownState

WATER = "water"  # every water card is alike: a deal's order names each one "water"
BONUS_STATES = ("AK", "HI")  # placed face up on sight; +1 (alternate: +5) to a winning holder
DEFAULT_WATER_CARDS = 4  # R301: the rulebook does not say how many
WATER_CARDS = range(11)
CARD_VALUES = range(1, 100)
UNKNOWN = "?"  # a colour or value not filled in yet, in a start action's entry
MAX_COLOUR = 20
_COLOUR = re.compile(r"[a-z]+(?:[ -][a-z]+)*")


@dataclass(frozen=True, slots=True)
class CardFace:
    """What the back and the corner of one state card show; ``None``: not known yet."""

    colour: str | None = None
    value: int | None = None


def playing_states(atlas: Atlas | None = None) -> tuple[str, ...]:
    """The 48 states played for connections and colours, in postal-code order."""
    atlas = atlas or default_atlas()
    return tuple(sorted(code for code in atlas.codes if code not in BONUS_STATES))


@dataclass(frozen=True, slots=True)
class Deck:
    faces: Mapping[str, CardFace]  # every playing state, in postal-code order
    water_cards: int

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card of a full deck, as a deal's order names them."""
        return (*self.faces, *BONUS_STATES, *(WATER,) * self.water_cards)

    def colour(self, code: str) -> str | None:
        return self.faces[code].colour if code in self.faces else None

    def value(self, code: str) -> int | None:
        return self.faces[code].value if code in self.faces else None

    @property
    def without_colour(self) -> tuple[str, ...]:
        return tuple(code for code, face in self.faces.items() if face.colour is None)

    @property
    def without_value(self) -> tuple[str, ...]:
        return tuple(code for code, face in self.faces.items() if face.value is None)

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(sorted({f.colour for f in self.faces.values() if f.colour is not None}))

    def entries(self) -> tuple[str, ...]:
        """The deck as a start action carries it: ``"DE blue 8"``, ``"PA ? 2"``; a card with
        neither colour nor value is left out."""
        return tuple(
            f"{code} {face.colour or UNKNOWN} {UNKNOWN if face.value is None else face.value}"
            for code, face in self.faces.items()
            if face != CardFace()
        )


def require_complete(
    deck: Deck, *, colours: bool, values: bool, needed_for: str, otherwise: str
) -> None:
    """Refuse a deck that lacks what a game needs, naming every card still missing."""
    missing = sorted(
        {*(deck.without_colour if colours else ()), *(deck.without_value if values else ())}
    )
    if missing:
        what = "colour and value" if colours and values else "colour" if colours else "value"
        raise InvalidInput(
            f"{needed_for} needs every card's {what}: the deck lacks it for "
            f"{len(missing)} card(s): {', '.join(missing)}; fill them in the deck file, or "
            f"{otherwise}"
        )


def deck_from_faces(
    faces: Mapping[str, CardFace], water_cards: int, atlas: Atlas | None = None
) -> Deck:
    if water_cards not in WATER_CARDS:
        raise InvalidInput(
            f"water_cards {water_cards}: expected {WATER_CARDS.start} to {WATER_CARDS.stop - 1}"
        )
    _one_spelling_per_colour(faces)
    return Deck({code: faces.get(code, CardFace()) for code in playing_states(atlas)}, water_cards)


def _one_spelling_per_colour(faces: Mapping[str, CardFace]) -> None:
    """Two colours that differ only in their spaces or dashes ("bl ue" beside "blue") are one
    colour mistyped, never two colours (R773): a knock of "three blues" would not be one."""
    spelt: dict[str, tuple[str, str]] = {}  # letters only -> (the first spelling, its card)
    for code, face in faces.items():
        if face.colour is None:
            continue
        letters = face.colour.replace(" ", "").replace("-", "")
        first = spelt.setdefault(letters, (face.colour, code))
        if first[0] != face.colour:
            raise InvalidInput(
                f"{code}: colour {face.colour!r} is {first[1]}'s {first[0]!r} spelt another "
                "way: expected one spelling of each colour"
            )


# --- Inside a start action ---------------------------------------------------------------------


def deck_from_entries(entries: Iterable[str], water_cards: int, atlas: Atlas | None = None) -> Deck:
    """The deck from a start action's ``cards``: ``"CODE COLOUR VALUE"``, ``?`` where unknown."""
    atlas = atlas or default_atlas()
    faces: dict[str, CardFace] = {}
    for entry in entries:
        words = entry.split()
        if len(words) < 3:  # a code, a colour of one or more words, a value
            raise InvalidInput(
                f"deck card {entry!r}: expected 'CODE COLOUR VALUE', e.g. 'DE blue 8' "
                f"('{UNKNOWN}' where not known)"
            )
        where = f"deck card {entry!r}"
        code = _playing_state(words[0], where, atlas)
        if code in faces:
            raise InvalidInput(f"{where}: {code} is given twice: expected each card once")
        colour_text = " ".join(words[1:-1])
        colour = None if colour_text == UNKNOWN else _colour(colour_text, where)
        value = None if words[-1] == UNKNOWN else _value_text(words[-1], where)
        faces[code] = CardFace(colour, value)
    return deck_from_faces(faces, water_cards, atlas)


def _value_text(text: str, where: str) -> int:
    if not text.isdigit() or int(text) not in CARD_VALUES:
        raise InvalidInput(f"{where}: value {text!r}: expected {_values_expected()}")
    return int(text)


# --- The deck file -----------------------------------------------------------------------------


def deck_from_toml(text: str, atlas: Atlas | None = None) -> Deck:
    """A deck file's text (TOML; docs/states.md, "The deck file")."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"the deck file is not TOML: {error}") from None
    except RecursionError:
        raise InvalidInput("the deck file is not a deck: nested too deeply") from None
    return deck_from_data(data, atlas)


def deck_from_data(data: Mapping[str, Any], atlas: Atlas | None = None) -> Deck:
    atlas = atlas or default_atlas()
    _only_keys(data, {"water_cards", "cards"}, "the deck file")
    water_cards = data.get("water_cards", DEFAULT_WATER_CARDS)
    if isinstance(water_cards, bool) or not isinstance(water_cards, int):
        raise InvalidInput(f"water_cards: expected a whole number, got {water_cards!r}")
    cards = data.get("cards", {})
    if not isinstance(cards, dict):
        raise InvalidInput("cards: expected a table [cards] of CODE = { colour, value }")
    faces: dict[str, CardFace] = {}
    for key, face in cards.items():
        where = f"cards.{key}"
        code = _playing_state(key, where, atlas)
        if code in faces:
            raise InvalidInput(f"{where}: {code} is given twice: expected each card once")
        faces[code] = _face(face, where)
    return deck_from_faces(faces, water_cards, atlas)


def _face(data: Any, where: str) -> CardFace:
    if not isinstance(data, dict):
        raise InvalidInput(f'{where}: expected {{ colour = "...", value = N }}, got {data!r}')
    _only_keys(data, {"colour", "value"}, where)
    colour = data.get("colour")
    if colour is not None:
        if not isinstance(colour, str):
            raise InvalidInput(f"{where}.colour: expected text, got {colour!r}")
        colour = _colour(colour, where)
    value = data.get("value")
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int) or value not in CARD_VALUES
    ):
        raise InvalidInput(f"{where}.value: expected {_values_expected()}, got {value!r}")
    return CardFace(colour, value)


def _playing_state(text: str, where: str, atlas: Atlas) -> str:
    try:
        code = atlas.code(text)
    except UnknownState as error:
        raise InvalidInput(f"{where}: {error}") from None
    if code in BONUS_STATES:
        raise InvalidInput(f"{where}: {code} is a bonus state: expected one of the 48 others")
    return code


def _colour(text: str, where: str) -> str:
    colour = " ".join(text.split()).lower()
    if len(colour) > MAX_COLOUR or not _COLOUR.fullmatch(colour):
        raise InvalidInput(
            f"{where}: colour {text!r}: expected a colour name of letters, e.g. 'blue'"
        )
    return colour


def _values_expected() -> str:
    return f"a whole number {CARD_VALUES.start} to {CARD_VALUES.stop - 1}"


def _only_keys(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise InvalidInput(
            f"{where}: unknown key(s) {', '.join(unknown)}: expected {', '.join(sorted(allowed))}"
        )


@cache
def shipped_deck() -> Deck:
    """The deck file this package ships: the rulebook's six values and nothing guessed."""
    text = resources.files("rules.states").joinpath("data/deck.toml").read_text(encoding="utf-8")
    return deck_from_toml(text)
