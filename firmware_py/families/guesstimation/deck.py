"""Read a Guesstimation deck file (TOML) into the rules core's plain-data ``Deck``.

TOML floats are read as exact decimals (``parse_float=Decimal``), so ``answer = 8848.86`` means
what it says; text answers ("8848.86") are the documented form.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

from rules.errors import InvalidInput
from rules.guesstimation.deck import Deck, deck_from_data

SAMPLE_DECK = Path(__file__).resolve().parents[3] / "config/guesstimation-sample-deck.toml"


def load_deck(path: Path) -> Deck:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidInput(f"cannot read {path}: expected UTF-8 text") from None
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
