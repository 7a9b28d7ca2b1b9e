"""The five games and what the monitor needs to know of each: the challengeable rules.

Every game lists its challengeable rules (plus "other"), what a Correct ("C") ruling on each
does, and the topics the rulebook says are not challengeable (refused, with the reason, and
nothing recorded).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.errors import InvalidInput


class Game(StrEnum):
    CONTIG_60 = "contig-60"
    FAB_A_DIFFY = "fab-a-diffy"
    JUGGLE = "juggle"
    QUEENS_AND_GUARDS = "queens-guards"
    STARS_AND_BARS = "stars-bars"

    @classmethod
    def parse(cls, text: str) -> Game:
        try:
            return cls(text.strip().lower())
        except ValueError:
            names = ", ".join(game.value for game in cls)
            raise InvalidInput(f"unknown game {text!r}: expected one of {names}") from None


class StartMethod(StrEnum):
    """How the beginning player is found (each game's START rule)."""

    DIE_TOSS = "die-toss"  # each tosses one die; the lower toss begins
    STRIP_DRAW = "strip-draw"  # each draws a strip; the lower value begins
    CHIP_IN_HAND = "chip-in-hand"  # the player with the starting colour begins
    FIRST_STAR_CARD = "first-star-card"  # the first to draw a card with stars begins


class Effect(StrEnum):
    """What a Correct ruling does, as the games' CORRECT - "C" rules say."""

    RESTORE = "restore"  # the challenged player's part of the game back to before the turn
    CHALLENGER_SUBTRACTS_2 = "challenger-subtracts-2"  # Contig 60: from the running score
    TRICK_TO_CHALLENGER = "trick-to-challenger"  # Fab-a-Diffy: the trick's 3 strips
    SUBTRACT_CARD_POINTS = "subtract-card-points"  # Stars & Bars: back to the prior score
    SUBTRACT_STACK_POINTS = "subtract-stack-points"  # Stars & Bars: only the stack points
    CHALLENGER_BEGINS_TURN = "challenger-begins-turn"
    CHALLENGER_EXTRA_TURN = "challenger-extra-turn"  # Fab-a-Diffy: not involving a trick


class Ruling(StrEnum):
    CORRECT = "C"
    INCORRECT = "I"
    INAPPROPRIATE = "IA"

    @property
    def strike(self) -> bool:
        """I and IA count towards the three that end the game as a loss."""
        return self is not Ruling.CORRECT


@dataclass(frozen=True, slots=True)
class ChallengeRule:
    key: str
    title: str
    on_correct: tuple[Effect, ...]
    goal: bool = False  # about the game's intended goal: C on a declared win wins it (R222)
    only: Ruling | None = None  # the one ruling the rulebook allows


OTHER = "other"
NOT_CHALLENGEABLE = {
    "start": "the starting rules are not challengeable: the Monitor oversees them",
    "flag": "passing of the flag card is not challengeable: the Monitor oversees it",
    "time": "time (the one-minute turn, the game time limit) is not challengeable: "
    "the Monitor oversees it",
}


def find_rule(rules: tuple[ChallengeRule, ...], key: str) -> ChallengeRule:
    for rule in rules:
        if rule.key == key:
            return rule
    raise KeyError(key)
