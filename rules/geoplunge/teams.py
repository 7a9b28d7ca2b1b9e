"""The two sides of a GeoPlunge table. Other games' seats are configuration in the shell."""

from __future__ import annotations

from enum import StrEnum

from rules.errors import InvalidInput


class Team(StrEnum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Team:
        return Team.B if self is Team.A else Team.A

    @classmethod
    def parse(cls, text: str) -> Team:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise InvalidInput(f"unknown team {text!r}: expected A or B") from None


def parse_teams(texts: list[str] | tuple[str, ...]) -> frozenset[Team]:
    return frozenset(Team.parse(text) for text in texts)
