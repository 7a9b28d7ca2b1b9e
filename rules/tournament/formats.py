"""The two tournament formats and the kind of each round (rulebooks: Format).

Combo 3: 8 rounds, 1-4 in the morning (20 minutes, every game in order), 5-8 in the
afternoon (12 minutes, the two teams pick a game each). Combo 4: odd rounds All, even rounds
Call, 20 minutes each; how many rounds is configuration. How a match is played within a
round belongs to the match rules (``rules.geoplunge.match`` and the Level 3 match); this module only
names the round.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.errors import InvalidInput
from rules.geoplunge.match import MATCH_MINUTES, MatchKind, match_kind


class TournamentFormat(StrEnum):
    COMBO3 = "combo3"
    COMBO4 = "combo4"

    @property
    def points_step(self) -> int:
        """Every score in the format is a multiple of this: GeoPlunge's games score 5 for a
        tie, 10 for a win and 10 or 20 more for the bonus and plunging (rules.geoplunge.scoring)."""
        return 5

    @classmethod
    def parse(cls, text: str) -> TournamentFormat:
        try:
            return cls(text.strip().casefold())
        except ValueError:
            raise InvalidInput(f"unknown format {text!r}: expected combo3 or combo4") from None


class RoundKind(StrEnum):
    MORNING = "morning"
    AFTERNOON = "afternoon"
    ALL = "all"
    CALL = "call"


COMBO3_ROUNDS = 8
COMBO3_MORNING_ROUNDS = 4
COMBO4_DEFAULT_ROUNDS = 8  # the rulebook names no number (docs/rulings.md R95)
MAX_ROUNDS = 99
MINUTES: dict[RoundKind, int] = {
    RoundKind.MORNING: 20,
    RoundKind.AFTERNOON: 12,
    RoundKind.ALL: MATCH_MINUTES,
    RoundKind.CALL: MATCH_MINUTES,
}


@dataclass(frozen=True, slots=True)
class RoundPlan:
    number: int
    kind: RoundKind
    minutes: int


def check_round_count(fmt: TournamentFormat, rounds: int | None) -> int:
    """The number of rounds: Combo 3 always has 8; Combo 4 any from 1 (default 8)."""
    if fmt is TournamentFormat.COMBO3:
        if rounds not in (None, COMBO3_ROUNDS):
            raise InvalidInput(
                f"a combo3 tournament of {rounds} rounds: expected {COMBO3_ROUNDS} "
                "(4 morning and 4 afternoon rounds)"
            )
        return COMBO3_ROUNDS
    if rounds is None:
        return COMBO4_DEFAULT_ROUNDS
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(f"{rounds} rounds: expected 1 to {MAX_ROUNDS}")
    return rounds


def round_kind(fmt: TournamentFormat, number: int) -> RoundKind:
    """Combo 3: morning for rounds 1-4, afternoon after. Combo 4: All odd, Call even."""
    if number < 1:
        raise InvalidInput(f"round {number}: expected a round number from 1")
    if fmt is TournamentFormat.COMBO3:
        return RoundKind.MORNING if number <= COMBO3_MORNING_ROUNDS else RoundKind.AFTERNOON
    return RoundKind.ALL if match_kind(number) is MatchKind.ALL else RoundKind.CALL


def round_plan(fmt: TournamentFormat, number: int) -> RoundPlan:
    kind = round_kind(fmt, number)
    return RoundPlan(number, kind, MINUTES[kind])
