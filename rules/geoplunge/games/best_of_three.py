"""The best-of-three series shared by Dashing States (races) and Chummy Challenge (challenges).

One team winning the first two rounds wins with the bonus; two ties in the first two rounds tie
the game; anything else goes to a third round, after which a team needs 2 of the 3 to win (no
bonus) and the game is otherwise a tie.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import IllegalAction
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

MAX_ROUNDS = 3

Round = Team | None  # a round's winner; None is a tied round


def wins(results: Sequence[Round], team: Team) -> int:
    return sum(1 for winner in results if winner is team)


def series_result(results: Sequence[Round], unit: str = "round") -> GameResult | None:
    """The game's result once the series is decided, or None while another round is needed.

    ``unit`` names a round in the result's reason ("race", "challenge"). Results past the
    deciding round are refused: they mean the caller kept playing a finished game (three
    rounds always decide, so this also caps the series at ``MAX_ROUNDS``).
    """
    for played in range(2, len(results)):
        if _decide(results[:played], unit) is not None:
            raise IllegalAction(
                f"the series was decided after {unit} {played}: expected no {unit} {played + 1}"
            )
    return _decide(results, unit)


def _decide(results: Sequence[Round], unit: str) -> GameResult | None:
    if len(results) < 2:
        return None
    if len(results) == 2:
        return _after_two(results[0], results[1], unit)
    for team in Team:
        if wins(results, team) >= 2:
            return GameResult(team, bonus=False, reason=f"Team {team} won 2 of 3 {unit}s")
    return GameResult(None, reason=f"no team won 2 of 3 {unit}s")


def _after_two(first: Round, second: Round, unit: str) -> GameResult | None:
    if first is not None and first is second:
        return GameResult(first, bonus=True, reason=f"Team {first} won the first two {unit}s")
    if first is None and second is None:
        return GameResult(None, reason=f"the first two {unit}s were ties")
    return None  # split, or one win and one tie: a third round decides
