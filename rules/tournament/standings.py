"""Standings: match wins first, then the configured tiebreak order; exact ties share a rank.

Ranks are "competition" ranks: 1, 2, 2, 4. Teams sharing a rank are listed by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.tournament.config import ByePolicy, ByeResult, Tiebreak
from rules.tournament.records import MatchResult
from rules.tournament.teams import name_key


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    team: str
    wins: int
    ties: int
    losses: int
    byes: int
    points: int
    points_against: int
    opponents_wins: int

    @property
    def played(self) -> int:
        """Matches played, byes not counted."""
        return self.wins + self.ties + self.losses - self.byes

    @property
    def point_difference(self) -> int:
        return self.points - self.points_against

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "team": self.team,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "byes": self.byes,
            "played": self.played,
            "points": self.points,
            "points_against": self.points_against,
            "point_difference": self.point_difference,
            "opponents_wins": self.opponents_wins,
        }


@dataclass(slots=True)
class _Tally:
    wins: int = 0
    ties: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    against: int = 0
    opponents: list[str] = field(default_factory=list)


def standings(
    teams: Sequence[str],
    results: Sequence[MatchResult],
    byes: Sequence[str] = (),
    tiebreaks: Sequence[Tiebreak] = (),
    bye: ByePolicy = ByePolicy(),  # noqa: B008 - frozen, so one shared default is safe
) -> tuple[Standing, ...]:
    """The standings after ``results`` (one per match played) and ``byes`` (one per bye)."""
    tallies = {team: _Tally() for team in teams}
    beat: Counter[tuple[str, str]] = Counter()
    for result in results:
        for team in (result.a, result.b):
            scored, conceded = result.points_of(team)
            tally = tallies[team]
            tally.points += scored
            tally.against += conceded
            tally.opponents.append(result.opponent_of(team))
        if result.winner is None:
            tallies[result.a].ties += 1
            tallies[result.b].ties += 1
        else:
            assert result.loser is not None
            tallies[result.winner].wins += 1
            tallies[result.loser].losses += 1
            beat[result.winner, result.loser] += 1
    for team in byes:
        _score_bye(tallies[team], bye)
    opponents_wins = {
        team: sum(tallies[opponent].wins for opponent in tally.opponents)
        for team, tally in tallies.items()
    }
    keys = _keys(tallies, opponents_wins, beat)
    groups = _refine([list(teams)], lambda group: {t: tallies[t].wins for t in group})
    for tiebreak in tiebreaks:
        groups = _refine(groups, keys[tiebreak])
    rows: list[Standing] = []
    for group in groups:
        rank = len(rows) + 1
        for team in sorted(group, key=name_key):
            tally = tallies[team]
            rows.append(
                Standing(
                    rank=rank,
                    team=team,
                    wins=tally.wins,
                    ties=tally.ties,
                    losses=tally.losses,
                    byes=tally.byes,
                    points=tally.points,
                    points_against=tally.against,
                    opponents_wins=opponents_wins[team],
                )
            )
    return tuple(rows)


def _score_bye(tally: _Tally, bye: ByePolicy) -> None:
    tally.byes += 1
    tally.points += bye.points
    if bye.result is ByeResult.WIN:
        tally.wins += 1
    elif bye.result is ByeResult.TIE:
        tally.ties += 1
    else:
        tally.losses += 1


# A key gives each team of a group of tied teams a number; higher ranks first.
_Key = Callable[[Sequence[str]], dict[str, int]]


def _keys(
    tallies: dict[str, _Tally], opponents_wins: dict[str, int], beat: Counter[tuple[str, str]]
) -> dict[Tiebreak, _Key]:
    def head_to_head(group: Sequence[str]) -> dict[str, int]:
        return {t: sum(beat[t, other] for other in group if other != t) for t in group}

    return {
        Tiebreak.POINTS: lambda group: {t: tallies[t].points for t in group},
        Tiebreak.POINT_DIFFERENCE: lambda group: {
            t: tallies[t].points - tallies[t].against for t in group
        },
        Tiebreak.HEAD_TO_HEAD: head_to_head,
        Tiebreak.OPPONENTS_WINS: lambda group: {t: opponents_wins[t] for t in group},
        Tiebreak.LOSSES: lambda group: {t: -tallies[t].losses for t in group},
    }


def _refine(groups: list[list[str]], key: _Key) -> list[list[str]]:
    """Split each group of tied teams by ``key``, best first; equal values stay together."""
    refined: list[list[str]] = []
    for group in groups:
        if len(group) == 1:
            refined.append(group)
            continue
        values = key(group)
        for value in sorted(set(values.values()), reverse=True):
            refined.append([team for team in group if values[team] == value])
    return refined
