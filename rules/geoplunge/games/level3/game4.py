"""Game 4 (Level 3): turn a Power card for the version, then PTR1, PTR2 or Border Zap.

Level 4's wrapper (``rules.geoplunge.games.game4``) with the Level 3 Play the Ranks machine.
Level 3's Border Zap differs from Level 4's only in the physical deal (one face-up card each and one
discard instead of two), so it is Level 4's machine unchanged (ruling R71).
"""

from __future__ import annotations

from rules.atlas import Atlas
from rules.errors import InvalidInput
from rules.geoplunge.games.common import GameContext
from rules.geoplunge.games.game4 import Game4Rules, Game4State
from rules.geoplunge.games.level3.play_the_ranks import PlayTheRanksLevel3

LEVEL = 3


class Game4Level3(Game4Rules):
    def __init__(self, atlas: Atlas | None = None) -> None:
        super().__init__(atlas)
        self._ranks = PlayTheRanksLevel3(atlas)

    def start(self, context: GameContext) -> Game4State:
        if context.level != LEVEL:
            raise InvalidInput(f"{self.title} (Level 3) level {context.level}: expected level 3")
        return super().start(context)
