"""Challenges as first-class records: who challenged, which rule, every ruling and by whom.

One record per challenged rule; an announcement of several rules is several records, ruled
in the order announced. The Game Monitor rules first; either player may then ask for a 2nd
opinion (the Game Leader) and a 3rd, final one (the Tournament Director). A ruling is final
once play has resumed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from rules.pentathlon.catalogue import Ruling
from rules.pentathlon.players import Player

STRIKES_TO_LOSE = 3


class Official(StrEnum):
    MONITOR = "monitor"
    GAME_LEADER = "game-leader"
    TOURNAMENT_DIRECTOR = "tournament-director"


OPINION_ORDER = (Official.MONITOR, Official.GAME_LEADER, Official.TOURNAMENT_DIRECTOR)


@dataclass(frozen=True, slots=True)
class RulingEntry:
    ruling: Ruling
    by: Official
    asked_by: Player | None = None  # who held up the Opinion Card; None for the monitor's


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    number: int  # 1, 2, ... in the game
    challenger: Player
    rule: str
    announcement: int  # records announced together share this number
    of_declared_win: bool  # the challenged player had declared a win
    rulings: tuple[RulingEntry, ...] = ()
    effect: str = ""  # what the ruling in force did
    final: bool = False  # play has resumed: the ruling can no longer change
    in_force: bool = True  # False: ruled after a third I/IA had already ended the game

    @property
    def ruling(self) -> Ruling | None:
        """The ruling in force: the latest one."""
        return self.rulings[-1].ruling if self.rulings else None

    @property
    def next_official(self) -> Official | None:
        """Who rules next if asked: None once the Tournament Director has ruled."""
        count = len(self.rulings)
        return OPINION_ORDER[count] if count < len(OPINION_ORDER) else None


def strikes(records: Iterable[ChallengeRecord], player: Player) -> int:
    """The I and IA rulings in force against ``player``'s challenges."""
    return sum(
        1
        for record in records
        if record.challenger is player
        and record.in_force
        and record.ruling is not None
        and record.ruling.strike
    )


def warning(count: int) -> str | None:
    """The Monitor's warning after a player's first and second I/IA."""
    if count <= 0 or count >= STRIKES_TO_LOSE:
        return None
    left = STRIKES_TO_LOSE - count
    return f"{count} I/IA so far: {left} more {'ends' if left == 1 else 'end'} the game as a loss"
