"""A tournament's configuration: format, rounds, tiebreak order, bye policy, pairing, seed.

Stored with the tournament (as JSON) so that every later decision is made the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from rules.errors import InvalidInput
from rules.tournament.formats import TournamentFormat, check_round_count


class Tiebreak(StrEnum):
    """Keys that order teams with equal match wins, in the configured order (R96)."""

    POINTS = "points"  # total points scored, byes included
    POINT_DIFFERENCE = "point_difference"  # points scored minus points conceded
    HEAD_TO_HEAD = "head_to_head"  # matches won against the other teams still tied
    OPPONENTS_WINS = "opponents_wins"  # the sum of the opponents' match wins
    LOSSES = "losses"  # fewer lost matches first (a tie is better than a loss)


class ByeResult(StrEnum):
    WIN = "win"
    TIE = "tie"
    LOSS = "loss"


class Qualify(StrEnum):
    """How the two championship teams are chosen (R99)."""

    WINS = "wins"  # most match wins; any tie for a place goes to Border-Up playoffs
    STANDINGS = "standings"  # wins, then the tiebreak order; exact ties go to playoffs


class PairingMethod(StrEnum):
    SWISS = "swiss"  # teams with similar records meet (R90)
    RANDOM = "random"  # a seeded draw each round, records ignored


E = TypeVar("E", bound=StrEnum)

DEFAULT_TIEBREAKS = (Tiebreak.POINTS, Tiebreak.HEAD_TO_HEAD, Tiebreak.OPPONENTS_WINS)


@dataclass(frozen=True, slots=True)
class ByePolicy:
    """How a bye scores (R92): by default a win with no points, and nothing conceded."""

    result: ByeResult = ByeResult.WIN
    points: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.points <= MAX_BYE_POINTS:
            raise InvalidInput(f"bye points {self.points}: expected 0 to {MAX_BYE_POINTS}")


MAX_BYE_POINTS = 10_000  # as a match's points (records.MAX_MATCH_POINTS, R132)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    format: TournamentFormat
    rounds: int
    seed: int
    tiebreaks: tuple[Tiebreak, ...] = DEFAULT_TIEBREAKS
    bye: ByePolicy = field(default_factory=ByePolicy)
    avoid_same_school: bool = True
    qualify: Qualify = Qualify.WINS
    pairing: PairingMethod = PairingMethod.SWISS

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "rounds": self.rounds,
            "seed": self.seed,
            "tiebreaks": [key.value for key in self.tiebreaks],
            "bye": {"result": self.bye.result.value, "points": self.bye.points},
            "avoid_same_school": self.avoid_same_school,
            "qualify": self.qualify.value,
            "pairing": self.pairing.value,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentConfig:
        try:
            return cls(
                format=TournamentFormat(data["format"]),
                rounds=int(data["rounds"]),
                seed=int(data["seed"]),
                tiebreaks=tuple(Tiebreak(key) for key in data["tiebreaks"]),
                bye=ByePolicy(ByeResult(data["bye"]["result"]), int(data["bye"]["points"])),
                avoid_same_school=bool(data["avoid_same_school"]),
                qualify=Qualify(data["qualify"]),
                pairing=PairingMethod(data["pairing"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidInput(f"the stored tournament config is damaged: {error}") from None


def new_config(
    fmt: TournamentFormat,
    *,
    seed: int,
    rounds: int | None = None,
    tiebreaks: tuple[Tiebreak, ...] | None = None,
    bye: ByePolicy | None = None,
    avoid_same_school: bool = True,
    qualify: Qualify | None = None,
    pairing: PairingMethod = PairingMethod.SWISS,
) -> TournamentConfig:
    """A checked config with each format's defaults: Combo 3 qualifies by wins and playoffs
    (the rulebook), Combo 4 by the standings (its championship is "as configured")."""
    if qualify is None:
        qualify = Qualify.WINS if fmt is TournamentFormat.COMBO3 else Qualify.STANDINGS
    step = fmt.points_step
    if bye is not None and bye.points % step:  # a bye scores as a match does (R132)
        raise InvalidInput(f"bye points {bye.points}: a {fmt.value} score is a multiple of {step}")
    return TournamentConfig(
        format=fmt,
        rounds=check_round_count(fmt, rounds),
        seed=seed,
        tiebreaks=DEFAULT_TIEBREAKS if tiebreaks is None else tiebreaks,
        bye=ByePolicy() if bye is None else bye,
        avoid_same_school=avoid_same_school,
        qualify=qualify,
        pairing=pairing,
    )


def parse_tiebreaks(text: str) -> tuple[Tiebreak, ...]:
    """``points,head_to_head`` → the keys in that order; ``none`` (or "") → wins only."""
    if text.strip().casefold() in ("", "none"):
        return ()
    keys: list[Tiebreak] = []
    for word in text.split(","):
        try:
            key = Tiebreak(word.strip().casefold().replace("-", "_"))
        except ValueError:
            known = ", ".join(key.value for key in Tiebreak)
            raise InvalidInput(f"unknown tiebreak {word.strip()!r}: expected {known}") from None
        if key in keys:
            raise InvalidInput(f"tiebreak {key.value!r} is listed twice: expected each once")
        keys.append(key)
    return tuple(keys)


def parse_choice(kind: type[E], text: str, what: str) -> E:
    try:
        return kind(text.strip().casefold())
    except ValueError:
        known = ", ".join(choice.value for choice in kind)
        raise InvalidInput(f"unknown {what} {text!r}: expected {known}") from None
