"""Points for a won hand, in the rulebook's standard scoring or its alternate scoring.

Standard: connecting 4, knocking 3 (4 for the knocker's 4-card knock), +1 per bonus state the
winning side holds, game to 15. Alternate: connecting 10 plus the four states' values, knocking
5 plus the winning colour's cards (R305, R314), +5 per bonus state, game to 75.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rules.states.deck import Deck


class Scoring(StrEnum):
    STANDARD = "standard"
    ALTERNATE = "alternate"


@dataclass(frozen=True, slots=True)
class PointTable:
    connect: int
    knock: int
    four_card_knock: int  # the knocker's win with 4 cards of one colour
    bonus: int  # per bonus state (AK, HI) the winning side holds
    target: int  # the first side to reach it wins the game
    adds_card_values: bool  # the alternate scoring adds the winning cards' values

    def connect_points(self, states: Iterable[str], deck: Deck) -> int:
        return self.connect + (self._values(states, deck) if self.adds_card_values else 0)

    def knock_points(self, winning_total: int, *, four_card_knock: bool) -> int:
        base = self.four_card_knock if four_card_knock else self.knock
        return base + (winning_total if self.adds_card_values else 0)

    def bonus_points(self, bonus_states: int) -> int:
        return self.bonus * bonus_states

    @staticmethod
    def _values(states: Iterable[str], deck: Deck) -> int:
        values = [deck.value(code) for code in states]
        assert all(v is not None for v in values)  # an alternate game has every value (R300)
        return sum(v for v in values if v is not None)


POINT_TABLES = {
    Scoring.STANDARD: PointTable(
        connect=4, knock=3, four_card_knock=4, bonus=1, target=15, adds_card_values=False
    ),
    # "collect 5 points, plus the total of all the cards you used to knock": the 4th card's
    # value is in that total, so a 4-card knock earns nothing more (R314).
    Scoring.ALTERNATE: PointTable(
        connect=10, knock=5, four_card_knock=5, bonus=5, target=75, adds_card_values=True
    ),
}
