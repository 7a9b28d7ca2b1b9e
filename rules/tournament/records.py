"""What a round is made of: its matches (table, team A, team B), its bye, and results."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Match:
    """One pairing of a round: the two teams and the table they play at."""

    table: int
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class RoundPairing:
    round: int
    matches: tuple[Match, ...]
    bye: str | None = None

    @property
    def teams(self) -> tuple[str, ...]:
        playing = tuple(team for match in self.matches for team in (match.a, match.b))
        return (*playing, self.bye) if self.bye is not None else playing

    def match_at(self, table: int) -> Match:
        for match in self.matches:
            if match.table == table:
                return match
        raise no_table(self.round, table, [match.table for match in self.matches])


def no_table(round_number: int, table: int, tables: Iterable[int]) -> InvalidInput:
    """The error for a table a round played at ``tables`` does not have: "from 1 to N" while
    its tables are 1 to N, else the tables it has (a match moved to a free table: R1068)."""
    numbers = sorted(tables)
    if numbers == list(range(1, len(numbers) + 1)):
        expected = f"a table from 1 to {len(numbers)}"
    else:
        expected = f"one of its tables ({spell_tables(numbers)})"
    return InvalidInput(f"round {round_number} has no table {table}: expected {expected}")


def spell_tables(numbers: Iterable[int]) -> str:
    """1,2,3,4,9 as "1-4, 9": how a person writes them."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def counted(number: int, one: str, many: str) -> str:
    """``1 match``, ``3 matches``: a count as a person says it (a round of one match is a
    two-team event's every round, R1183)."""
    return f"{number} {one if number == 1 else many}"


MAX_MATCH_POINTS = 10_000  # far above any match (a game scores at most 40), inside SQLite's int64


def _short(number: int) -> str:
    text = str(number)
    return text if len(text) <= 12 else f"{text[:6]}...({len(text)} digits)"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match's points. The winner is the team with more points; equal points is a tie (R74)."""

    round: int
    table: int
    a: str
    b: str
    a_points: int
    b_points: int

    def __post_init__(self) -> None:
        for side, points in (("A", self.a_points), ("B", self.b_points)):
            if not 0 <= points <= MAX_MATCH_POINTS:
                raise InvalidInput(
                    f"team {side} points {_short(points)}: expected 0 to {MAX_MATCH_POINTS}"
                )

    @property
    def winner(self) -> str | None:
        if self.a_points == self.b_points:
            return None
        return self.a if self.a_points > self.b_points else self.b

    @property
    def loser(self) -> str | None:
        if self.a_points == self.b_points:
            return None
        return self.b if self.a_points > self.b_points else self.a

    def points_of(self, team: str) -> tuple[int, int]:
        """(scored, conceded) for ``team``."""
        return (self.a_points, self.b_points) if team == self.a else (self.b_points, self.a_points)

    def opponent_of(self, team: str) -> str:
        return self.b if team == self.a else self.a
