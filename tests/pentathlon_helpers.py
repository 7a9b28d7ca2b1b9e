"""Building Pentathlon games for tests: a game is its start and a list of actions."""

from __future__ import annotations

from rules.actions import Action
from rules.pentathlon.catalogue import Game, Ruling
from rules.pentathlon.monitor import PentathlonGame, apply, start
from rules.pentathlon.monitor_actions import Challenge, PassFlag, Rule, start_action
from rules.pentathlon.players import Player

A, B = Player.A, Player.B
CORRECT, INCORRECT, INAPPROPRIATE = Ruling.CORRECT, Ruling.INCORRECT, Ruling.INAPPROPRIATE
MINUTES = 30
CHIPS = 20


def new_game(game: Game, **options: object) -> PentathlonGame:
    chips = options.get("chips", CHIPS if game is Game.CONTIG_60 else None)
    assert chips is None or isinstance(chips, int)
    return start(start_action(game, MINUTES, chips=chips))


def play(state: PentathlonGame, *actions: Action) -> PentathlonGame:
    for action in actions:
        state = apply(state, action)
    return state


def game_of(game: Game, *actions: Action) -> PentathlonGame:
    return play(new_game(game), *actions)


def ruled(challenger: Player, rule: str, ruling: Ruling) -> tuple[Action, Action]:
    """A one-rule challenge and the monitor's ruling on it."""
    return Challenge(challenger, (rule,)), Rule(ruling)


def turns(first: Player, count: int) -> list[Action]:
    """``count`` flag passes starting with ``first``'s: turns with no play."""
    passes: list[Action] = []
    player = first
    for _ in range(count):
        passes.append(PassFlag(player))
        player = player.other
    return passes
