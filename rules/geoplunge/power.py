"""What the Power cards carry, face value by face value.

The card images are missing from the rulebooks, so the deck's composition is unknown
(docs/rulings.md): actions carry the face value that matters at that moment (a left-corner
base, a category, a version, a clue-letter order, circle colours) instead of a card identity.
"""

from __future__ import annotations

from enum import StrEnum

from rules.errors import InvalidInput

BASES = (1, 10, 20, 30, 50)


class Game4Version(StrEnum):
    """The version named at the bottom of the Power card turned for Game 4."""

    PTR1 = "ptr1"
    PTR2 = "ptr2"
    PTB = "ptb"

    @classmethod
    def parse(cls, text: str) -> Game4Version:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise InvalidInput(
                f"unknown Game 4 version {text!r}: expected ptr1, ptr2 or ptb"
            ) from None


def check_base(base: int) -> int:
    if base not in BASES:
        raise InvalidInput(f"base {base} is not on any Power card: expected 1, 10, 20, 30 or 50")
    return base


def check_clue_order(order: str) -> str:
    """The A/B/C letter order in a Power card's upper right corner, e.g. ``BAC``."""
    normalised = order.strip().upper()
    if sorted(normalised) != ["A", "B", "C"]:
        raise InvalidInput(f"clue order {order!r}: expected the letters A, B and C once each")
    return normalised


class QuestionColour(StrEnum):
    """Chummy Challenge question colours; the card images are missing, see docs/rulings.md."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"
    PURPLE = "purple"

    @classmethod
    def parse(cls, text: str) -> QuestionColour:
        try:
            return cls(text.strip().lower())
        except ValueError:
            colours = ", ".join(colour.value for colour in cls)
            raise InvalidInput(f"unknown question colour {text!r}: expected {colours}") from None
