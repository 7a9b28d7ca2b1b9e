"""Who is here to be paired: check-in per round, withdrawal, and a late team's missed rounds.

Plain data from the record (who marked what is the record's business, not this module's):

- a **withdrawn** team is never paired again (R1041); its games stay and count as before;
- a round's **check-in** is used once any team has a mark for it: then every active team must
  be marked, and only those marked present are paired (R1040); a round without marks pairs
  every active team, as before check-in existed;
- a team that first plays after round 1 (a **late team**) is credited the event's bye for
  each round paired before it joined (R1042); a round missed after it has played scores
  nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import IllegalAction, InvalidInput
from rules.tournament.records import RoundPairing
from rules.tournament.teams import name_key


@dataclass(frozen=True, slots=True)
class CheckIn:
    """A team's mark for a round: present (to be paired) or absent. The latest mark counts."""

    round: int
    team: str
    present: bool


@dataclass(frozen=True, slots=True)
class Attendance:
    """The teams withdrawn, and every round's current check-in marks (one per team and round)."""

    withdrawn: frozenset[str] = frozenset()
    checkins: tuple[CheckIn, ...] = ()

    def marks(self, number: int) -> dict[str, bool]:
        """Round ``number``'s marks: team -> present."""
        return {mark.team: mark.present for mark in self.checkins if mark.round == number}

    def active(self, teams: Sequence[str]) -> list[str]:
        """``teams`` (in their order) less the withdrawn."""
        return [team for team in teams if team not in self.withdrawn]

    def field(self, number: int, teams: Sequence[str]) -> list[str]:
        """The teams round ``number`` pairs, in the order of ``teams`` (R1040, R1041)."""
        active = self.active(teams)
        marks = self.marks(number)
        if not marks:
            if len(active) < 2 <= len(teams):
                raise IllegalAction(
                    f"round {number} cannot be paired: {len(active)} team(s) active, the "
                    f"other {len(teams) - len(active)} withdrawn; expected at least 2"
                )
            return active
        unmarked = sorted((team for team in active if team not in marks), key=name_key)
        if unmarked:
            named = ", ".join(unmarked[:4]) + (
                f" and {len(unmarked) - 4} more" if len(unmarked) > 4 else ""
            )
            raise IllegalAction(
                f"round {number} cannot be paired yet: check-in is in use and {len(unmarked)} "
                f"team(s) are not marked ({named}): mark each present or absent"
            )
        here = [team for team in active if marks[team]]
        if len(here) < 2:
            raise IllegalAction(
                f"round {number} cannot be paired: {len(here)} team(s) checked in, "
                "expected at least 2"
            )
        return here


EVERYONE = Attendance()  # no withdrawal, no check-in: every team is paired, as before R1040


def require_markable(number: int, team: str, paired: int, withdrawn: frozenset[str]) -> None:
    """Refuse a check-in mark for ``team`` in round ``number`` when ``paired`` rounds are
    paired: a mark is for the next round, before it is paired, of a team not withdrawn."""
    if number <= paired:
        raise IllegalAction(
            f"round {number} is already paired: check-in is for round {paired + 1}, "
            "before it is paired"
        )
    if number > paired + 1:
        raise IllegalAction(
            f"round {number} is not next: check-in is for round {paired + 1}, before it is paired"
        )
    if team in withdrawn:
        raise IllegalAction(f"{team} has withdrawn: a withdrawn team is never paired again")


def missed_before_joining(teams: Sequence[str], rounds: Sequence[RoundPairing]) -> list[str]:
    """One entry per round a late team missed before its first game or bye (R1042), to be
    scored as the event's bye; a team not yet in any round has joined nothing and gets none."""
    missed: list[str] = []
    for team in teams:
        first = next(
            (
                position
                for position, rnd in enumerate(rounds)
                if rnd.bye == team or any(team in (m.a, m.b) for m in rnd.matches)
            ),
            None,
        )
        if first is not None:
            missed += [team] * first
    return missed


def check_reason(reason: str) -> str:
    """A withdrawal's reason: not empty."""
    reason = reason.strip()
    if not reason:
        raise InvalidInput("withdrawing a team with an empty reason: expected why")
    return reason
