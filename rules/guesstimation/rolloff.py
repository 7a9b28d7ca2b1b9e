"""Die roll-offs: each contender rolls once, the highest roll wins, the tied highest roll again.

The table rolls a real die (or the shell draws from a seeded generator); the value arrives in
an action, so the rules core holds no randomness and a log replays the same rolls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from rules.errors import IllegalAction, InvalidInput

DIE_FACES = range(1, 7)


class RollFor(StrEnum):
    """What a roll-off decides."""

    FIRST_LEADER = "first_leader"  # the first Round Leader of the game
    DUEL_TIE = "duel_tie"  # a duel whose two guesses are equally close
    CHIP_TIE = "chip_tie"  # the Dueling Chip, among players tied on a chip-possession question


@dataclass(frozen=True, slots=True)
class Roll:
    player: str
    value: int


@dataclass(frozen=True, slots=True)
class RollOff:
    """A roll-off in progress; ``earlier`` keeps the rolls of the rounds that ended tied."""

    purpose: RollFor
    contenders: tuple[str, ...]  # in seat order
    rolls: tuple[Roll, ...] = ()
    earlier: tuple[tuple[Roll, ...], ...] = ()

    @property
    def waiting_for(self) -> tuple[str, ...]:
        rolled = {roll.player for roll in self.rolls}
        return tuple(player for player in self.contenders if player not in rolled)


def check_die(value: int) -> int:
    if value not in DIE_FACES:
        raise InvalidInput(f"die roll {value}: expected 1 to 6")
    return value


def add_roll(rolloff: RollOff, player: str, value: int) -> RollOff | str:
    """The roll-off after ``player`` rolls ``value``: the winner's name once it is decided."""
    check_die(value)
    if player not in rolloff.contenders:
        raise IllegalAction(
            f"{player} is not in this roll-off: expected a roll from "
            f"{', '.join(rolloff.waiting_for)}"
        )
    if player not in rolloff.waiting_for:
        raise IllegalAction(
            f"{player} has already rolled: expected a roll from {', '.join(rolloff.waiting_for)}"
        )
    rolls = (*rolloff.rolls, Roll(player, value))
    if len(rolls) < len(rolloff.contenders):
        return replace(rolloff, rolls=rolls)
    highest = max(roll.value for roll in rolls)
    top = {roll.player for roll in rolls if roll.value == highest}
    if len(top) == 1:
        (winner,) = top
        return winner
    tied = tuple(player for player in rolloff.contenders if player in top)
    return RollOff(rolloff.purpose, tied, earlier=(*rolloff.earlier, rolls))
