"""The start of a game: which game (unless the table is set for one), and who begins.

Who begins is the monitor's to say, however the game finds it (the lower die toss, the lower
strip, the starting colour, the first star card): the monitor enters it, and with it the first
turn and the game's clock begin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.pentathlon.flows.common import SCRATCH_GAME, act
from firmware_py.families.pentathlon.options import PentathlonOptions
from firmware_py.table.prompts import Outcome, Prompt, choice
from rules.actions import encode
from rules.pentathlon.catalogue import Game, StartMethod
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.registry import game_rules

WHO_BEGINS = {
    StartMethod.DIE_TOSS: "Who begins? (lower die toss)",
    StartMethod.STRIP_DRAW: "Who begins? (lower strip)",
    StartMethod.CHIP_IN_HAND: "Who begins? (starting colour)",
    StartMethod.FIRST_STAR_CARD: "Who begins? (first star card)",
}


def title(game: Game) -> str:
    return game_rules(game).title


def begin(game: PentathlonGame, scratch: Mapping[str, Any], options: PentathlonOptions) -> Prompt:
    current = game.settings.game
    if options.game is None and not scratch.get(SCRATCH_GAME):
        return _game_choice(current, options)
    minutes = game.settings.minutes
    outcomes = [
        Outcome(f"{seat} begins", act("begins", player=seat), clock_minutes=minutes)
        for seat in ("A", "B")
    ]
    return choice(f"p/begins/{current.value}", WHO_BEGINS[game.rules.starts_by], outcomes)


def _game_choice(current: Game, options: PentathlonOptions) -> Prompt:
    """The game the table is set for first: YES keeps it; another game starts that game. Either
    way the game is chosen: one YES goes on to who begins (R491)."""
    order = [current, *(game for game in Game if game is not current)]
    chosen = {SCRATCH_GAME: True}
    outcomes = [
        Outcome(title(game), scratch=chosen)
        if game is current
        else Outcome(title(game), scratch=chosen, new_session=encode(options.start(game)))
        for game in order
    ]
    return choice(f"p/game/{current.value}", "Which game?", outcomes)
