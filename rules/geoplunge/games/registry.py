"""The games by level and number: the matches and the replay look games up here.

Level 4 (Combo 4) and Level 3 (Combo 3) both number their games 1 to 5 in rulebook order:
Border-Up, State IQ, Dashing States, Play the Ranks or Border Zap, Chummy Challenge.
"""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput
from rules.geoplunge.games.border_up import BorderUpRules
from rules.geoplunge.games.chummy_challenge import ChummyChallenge
from rules.geoplunge.games.common import GameRules
from rules.geoplunge.games.dashing_states import DashingStates
from rules.geoplunge.games.game4 import Game4Rules
from rules.geoplunge.games.level3.border_up import BorderUpLevel3
from rules.geoplunge.games.level3.chummy_challenge import ChummyChallengeLevel3
from rules.geoplunge.games.level3.dashing_states import DashingStatesLevel3
from rules.geoplunge.games.level3.game4 import Game4Level3
from rules.geoplunge.games.level3.state_iq import StateIQLevel3
from rules.geoplunge.games.state_iq import StateIQ

GAMES: dict[int, GameRules[Any]] = {
    1: BorderUpRules(),
    2: StateIQ(),
    3: DashingStates(),
    4: Game4Rules(),
    5: ChummyChallenge(),
}
LEVEL_3_GAMES: dict[int, GameRules[Any]] = {
    1: BorderUpLevel3(),
    2: StateIQLevel3(),
    3: DashingStatesLevel3(),
    4: Game4Level3(),
    5: ChummyChallengeLevel3(),
}
GAMES_BY_LEVEL: dict[int, dict[int, GameRules[Any]]] = {4: GAMES, 3: LEVEL_3_GAMES}
LEVELS = tuple(sorted(GAMES_BY_LEVEL))


def check_level(level: int) -> int:
    if level not in GAMES_BY_LEVEL:
        raise InvalidInput(f"level {level}: expected {' or '.join(map(str, LEVELS))}")
    return level


def game_rules(number: int, level: int = 4) -> GameRules[Any]:
    games = GAMES_BY_LEVEL[check_level(level)]
    try:
        return games[number]
    except KeyError:
        raise InvalidInput(f"game {number}: expected a game number 1 to 5") from None
