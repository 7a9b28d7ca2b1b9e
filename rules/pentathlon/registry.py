"""The five games' rules, by game."""

from __future__ import annotations

from rules.pentathlon.catalogue import Game
from rules.pentathlon.contig import Contig60
from rules.pentathlon.fab_a_diffy import FabADiffy
from rules.pentathlon.juggle import Juggle
from rules.pentathlon.play import GameRules
from rules.pentathlon.queens_guards import QueensAndGuards
from rules.pentathlon.stars_bars import StarsAndBars

GAMES: dict[Game, GameRules] = {
    rules.game: rules
    for rules in (Contig60(), FabADiffy(), Juggle(), QueensAndGuards(), StarsAndBars())
}


def game_rules(game: Game) -> GameRules:
    return GAMES[game]
