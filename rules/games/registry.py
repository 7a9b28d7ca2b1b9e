"""The five Level 4 games by number: the match and the replay look games up here."""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput
from rules.games.border_up import BorderUpRules
from rules.games.chummy_challenge import ChummyChallenge
from rules.games.common import GameRules
from rules.games.dashing_states import DashingStates
from rules.games.game4 import Game4Rules
from rules.games.state_iq import StateIQ

GAMES: dict[int, GameRules[Any]] = {
    1: BorderUpRules(),
    2: StateIQ(),
    3: DashingStates(),
    4: Game4Rules(),
    5: ChummyChallenge(),
}


def game_rules(number: int) -> GameRules[Any]:
    try:
        return GAMES[number]
    except KeyError:
        raise InvalidInput(f"game {number}: expected a game number 1 to 5") from None
