"""Read a Guesstimation deck file (TOML) into the rules core's plain-data ``Deck``.

TOML floats are read as exact decimals (``parse_float=Decimal``), so ``answer = 8848.86`` means
what it says; text answers ("8848.86") are the documented form.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

from firmware_py.user_files import MAX_DECK, UserFileError, read_limited_text
from rules.errors import InvalidInput
from rules.guesstimation.deck import Deck, deck_from_data

SAMPLE_DECK = Path(__file__).resolve().parents[3] / "config/guesstimation-sample-deck.toml"


def load_deck(path: Path) -> Deck:
    try:  # at most MAX_DECK, and only a regular file: never a FIFO's wait (R773)
        text = read_limited_text(path, MAX_DECK, "a deck's TOML")
    except UserFileError as error:
        raise InvalidInput(str(error)) from None
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"{path}: not a TOML deck ({error})") from None
    except RecursionError:
        raise InvalidInput(f"{path}: not a TOML deck (nested too deeply)") from None
    try:
        return deck_from_data(data)
    except InvalidInput as error:
        raise InvalidInput(f"{path}: {error}") from None
