"""How a game ends: the winner (or a tie), how it was decided, and in words."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.pentathlon.players import Pair, Player


class How(StrEnum):
    GOAL = "goal"  # a declared goal, not challenged or confirmed by an I/IA ruling
    AWARD = "award"  # the Monitor's award by the game's rules (not at the time limit)
    TIME_LIMIT = "time-limit"  # the time-limit adjudication
    THREE_STRIKES = "three-i-ia"  # three I and/or IA rulings: a loss for that player
    CHALLENGED_WIN = "challenged-win"  # a Correct challenge of the opponent's declared win
    AGREEMENT = "agreement"  # Queens & Guards: both agree no one can move within the rules
    DIRECTOR = "director"  # the Tournament Director stopped the game and gave the result (R748)


@dataclass(frozen=True, slots=True)
class Result:
    winner: Player | None  # None: a tie
    how: How
    detail: str

    def outcome(self, player: Player) -> str:
        if self.winner is None:
            return "tie"
        return "win" if self.winner is player else "loss"


def lower_by(scores: Pair[int], margin: int) -> Player | None:
    """The player whose score is lower by ``margin`` or more, else None (a tie)."""
    a, b = scores
    if b - a >= margin:
        return Player.A
    if a - b >= margin:
        return Player.B
    return None


def higher_by(scores: Pair[int], margin: int) -> Player | None:
    """The player whose score is higher by ``margin`` or more, else None (a tie)."""
    return lower_by((-scores[0], -scores[1]), margin)


def scores_text(scores: Pair[int]) -> str:
    return f"A {scores[0]}, B {scores[1]}"
