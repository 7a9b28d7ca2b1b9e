"""A tournament as plain data: its config, teams, paired rounds and current results.

The shell loads this from the record, asks it what to do (pair a round, check a result, rank
the teams, find the championship teams), and stores the answer. Nothing here reads a clock
or a file; the only chance is the config's seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rules.errors import IllegalAction, InvalidInput
from rules.tournament.attendance import EVERYONE, Attendance, missed_before_joining
from rules.tournament.config import PairingMethod, TournamentConfig
from rules.tournament.formats import RoundPlan, round_plan
from rules.tournament.pairing import pair_round
from rules.tournament.qualify import PlayoffGame, Qualification, qualify
from rules.tournament.records import Match, MatchResult, RoundPairing
from rules.tournament.standings import Standing, standings
from rules.tournament.teams import Entrant, check_entrants, find_entrant, name_key


@dataclass(frozen=True, slots=True)
class Tournament:
    config: TournamentConfig
    entrants: tuple[Entrant, ...]
    rounds: tuple[RoundPairing, ...] = ()
    results: tuple[MatchResult, ...] = ()  # the current result of each match played
    attendance: Attendance = EVERYONE  # withdrawals and check-in (R1040-R1042)

    def __post_init__(self) -> None:
        check_entrants(self.entrants)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(entrant.name for entrant in self.entrants)

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def plan(self, number: int) -> RoundPlan:
        _check_in_range(self.config, number)
        return round_plan(self.config.format, number)

    def standings(self) -> tuple[Standing, ...]:
        """The standings from every result entered so far; a late team's rounds missed
        before it joined score as byes (R1042)."""
        return standings(
            self.names,
            self.results,
            [
                *(rnd.bye for rnd in self.rounds if rnd.bye is not None),
                *missed_before_joining(self.names, self.rounds),
            ],
            self.config.tiebreaks,
            self.config.bye,
        )

    def missing_results(self) -> list[tuple[int, int]]:
        """(round, table) of every paired match that has no result yet."""
        entered = {(result.round, result.table) for result in self.results}
        return [
            (rnd.round, match.table)
            for rnd in self.rounds
            for match in rnd.matches
            if (rnd.round, match.table) not in entered
        ]

    def pair(self, number: int) -> RoundPairing:
        """Round ``number``'s pairing: the next round, once every earlier match has a result."""
        _check_in_range(self.config, number)
        if number <= len(self.rounds):
            raise IllegalAction(
                f"round {number} is already paired: expected round {self.next_round}"
            )
        if number > self.next_round:
            raise IllegalAction(
                f"round {number} cannot be paired before round {self.next_round}: "
                f"expected round {self.next_round}"
            )
        missing = self.missing_results()
        if missing:
            tables = ", ".join(f"round {r} table {t}" for r, t in missing[:4])
            more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
            raise IllegalAction(
                f"round {number} cannot be paired yet: no result for {tables}{more}"
            )
        table = self.standings()
        swiss = self.config.pairing is PairingMethod.SWISS
        return pair_round(
            number,
            self.attendance.field(number, self._pairing_order(table, number)),
            self.rounds,
            wins={row.team: row.wins for row in table} if swiss else None,
            schools={entrant.name: entrant.school for entrant in self.entrants},
            avoid_same_school=self.config.avoid_same_school,
            seed=self.config.seed,
            rounds_after=self.config.rounds - number,
        )

    def unpairable(self, number: int) -> RoundPairing:
        """Round ``number``'s pairing, if it may be undone (R820): the latest round paired,
        while none of its results is in; IllegalAction in words otherwise."""
        _check_in_range(self.config, number)
        if not self.rounds:
            raise IllegalAction(f"round {number} is not paired: no pairing to undo")
        latest = self.rounds[-1]
        if number > latest.round:
            raise IllegalAction(
                f"round {number} is not paired: expected the latest round, {latest.round}"
            )
        if number != latest.round:
            raise IllegalAction(
                f"round {number} is not the latest round: only round {latest.round}'s "
                "pairing can be undone"
            )
        entered = sorted(r.table for r in self.results if r.round == number)
        if entered:
            tables = ", ".join(str(table) for table in entered[:4])
            more = f" and {len(entered) - 4} more" if len(entered) > 4 else ""
            raise IllegalAction(
                f"round {number}'s pairing cannot be undone: a result is in "
                f"(table {tables}{more}); amend a wrong result instead"
            )
        return latest

    def match(self, number: int, table: int) -> Match:
        return paired_match(self.config, self.rounds, number, table)

    def result(self, number: int, table: int, a_points: int, b_points: int) -> MatchResult:
        """A checked result for the match at ``table`` in round ``number``."""
        return checked_result(self.config, self.rounds, number, table, (a_points, b_points))

    @property
    def complete(self) -> bool:
        return len(self.rounds) == self.config.rounds and not self.missing_results()

    def qualification(self, played: Sequence[PlayoffGame] = ()) -> Qualification:
        """The championship teams, once every round has been played, after the playoff games
        ``played`` (each with its two teams: one the standings no longer seed is refused,
        R960)."""
        if len(self.rounds) < self.config.rounds:
            raise IllegalAction(
                f"the championship comes after round {self.config.rounds}: "
                f"round {self.next_round} is not paired yet"
            )
        missing = self.missing_results()
        if missing:
            r, t = missing[0]
            raise IllegalAction(
                f"the championship comes after every result: round {r} table {t} has none"
            )
        # a withdrawn team plays no championship: the next team takes its place (R1044)
        eligible = [row for row in self.standings() if row.team not in self.attendance.withdrawn]
        found = qualify(eligible, self.config.qualify, self.config.seed)
        return found.with_played(played)

    def entrant(self, name: str) -> Entrant:
        return find_entrant(self.entrants, name)

    def _pairing_order(self, table: Sequence[Standing], number: int) -> list[str]:
        """Best placed first; teams sharing a rank in an order drawn from the seed."""
        draw = random.Random(f"{self.config.seed}:round {number}:order")
        lots = {name: draw.random() for name in sorted(self.names, key=name_key)}
        return [row.team for row in sorted(table, key=lambda row: (row.rank, lots[row.team]))]


class PairedRound(Protocol):
    """A paired round, as much of it as checking one result needs."""

    def match_at(self, table: int) -> Match: ...


class PairedRounds(Protocol):
    """The rounds paired so far, first to last: a Tournament's tuple, or a view of a record
    that reads only the round asked for (the hub's, R725)."""

    def __len__(self) -> int: ...

    def __getitem__(self, position: int, /) -> PairedRound: ...


def paired_match(config: TournamentConfig, paired: PairedRounds, number: int, table: int) -> Match:
    """The match at ``table`` in round ``number``: a round of the tournament's, paired, that
    has the table."""
    _check_in_range(config, number)
    if number > len(paired):
        raise InvalidInput(f"round {number} is not paired yet: no table {table} to score")
    return paired[number - 1].match_at(table)


def checked_result(
    config: TournamentConfig,
    paired: PairedRounds,
    number: int,
    table: int,
    points: tuple[int, int],
) -> MatchResult:
    """A checked result for the match at ``table`` in round ``number`` (team A's points, team
    B's): the match paired, the points a match can score and a multiple of the format's step."""
    match = paired_match(config, paired, number, table)
    result = MatchResult(number, table, match.a, match.b, *points)
    step = config.format.points_step
    for side, scored in zip("AB", points, strict=True):
        if scored % step:
            raise InvalidInput(
                f"team {side} points {scored}: a {config.format.value} score is a "
                f"multiple of {step}"
            )
    return result


def _check_in_range(config: TournamentConfig, number: int) -> None:
    if not 1 <= number <= config.rounds:
        raise InvalidInput(f"round {number}: expected a round from 1 to {config.rounds}")
