"""Points for one game: the same table for every GeoPlunge game."""

from __future__ import annotations

from dataclasses import dataclass

from rules.geoplunge.teams import Team


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended. ``winner`` None is a tie; ``bonus`` only ever goes with a winner."""

    winner: Team | None
    bonus: bool = False
    reason: str = ""

    def __post_init__(self) -> None:
        if self.winner is None and self.bonus:
            raise ValueError("a tie cannot carry the bonus")


@dataclass(frozen=True, slots=True)
class PointTable:
    tie: int = 5
    win: int = 10
    bonus: int = 10
    one_plunging: int = 10
    both_plunging: int = 20


DEFAULT_POINTS = PointTable()


def score_game(
    result: GameResult, plunging: frozenset[Team], points: PointTable = DEFAULT_POINTS
) -> dict[Team, int]:
    """Tie: 5 each whatever the plunges. Winner: 10, +10 bonus, +10/+20 for one/both plunging."""
    if result.winner is None:
        return {Team.A: points.tie, Team.B: points.tie}
    earned = points.win
    if result.bonus:
        earned += points.bonus
    if len(plunging) == 2:
        earned += points.both_plunging
    elif len(plunging) == 1:
        earned += points.one_plunging
    return {result.winner: earned, result.winner.other: 0}
