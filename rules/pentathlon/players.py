"""The two Pentathletes at a game: Player A and Player B, as on the Scoring Flag Card."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from rules.errors import InvalidInput

T = TypeVar("T")


class Player(StrEnum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Player:
        return Player.B if self is Player.A else Player.A

    @classmethod
    def parse(cls, text: str) -> Player:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise InvalidInput(f"unknown player {text!r}: expected A or B") from None


Pair = tuple[T, T]  # one value per player, A's first


def of(pair: Pair[T], player: Player) -> T:
    return pair[0] if player is Player.A else pair[1]


def with_value(pair: Pair[T], player: Player, value: T) -> Pair[T]:
    return (value, pair[1]) if player is Player.A else (pair[0], value)
