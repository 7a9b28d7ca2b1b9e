"""The Combo 3 championship match: the championship games once each, most games won.

The two finalists play the championship games once each, in order (by default Games 1-4, ruling
R78; ``championship.start`` names others). Whichever team wins more games is the champion, and
the match ends as soon as the trailing team can no longer catch up (R79): with four games, one
team winning the first three, or two of the first three with the third a tie. Equal wins after
every game means a Border-Up tie-breaker, played again until it has a winner (R80). Games are
Level 3 games; points are not counted and there is no clock (R81).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.actions import Action, register
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.match import GAME_NUMBERS, NextGame, TimeUp
from rules.geoplunge.match3 import start_game
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

LEVEL = 3
DEFAULT_GAMES = (1, 2, 3, 4)
TIEBREAKER_GAME = 1  # Border-Up


def check_games(games: tuple[int, ...]) -> tuple[int, ...]:
    if not games:
        raise InvalidInput("no championship games: expected game numbers such as [1, 2, 3, 4]")
    for game in games:
        if game not in GAME_NUMBERS:
            raise InvalidInput(f"championship game {game}: expected game numbers 1 to 5")
    if len(set(games)) != len(games):
        raise InvalidInput(f"championship games {list(games)}: expected each game once")
    return games


def leader_beyond_reach(wins_a: int, wins_b: int, games_left: int) -> Team | None:
    """The team whose lead in games won is more than the games left, if any: it is champion."""
    if abs(wins_a - wins_b) <= games_left:
        return None
    return Team.A if wins_a > wins_b else Team.B


@register("championship.start")
@dataclass(frozen=True, slots=True)
class StartChampionship(Action):
    """The championship match; ``games`` are played once each, in this order."""

    games: tuple[int, ...] = DEFAULT_GAMES
    ptr_early_end: bool = True  # Play the Ranks ends at 6 tricks (R68)


@dataclass(frozen=True, slots=True)
class ChampionshipGame:
    number: int
    result: GameResult
    plunging: frozenset[Team]
    tiebreaker: bool = False


@dataclass(frozen=True, slots=True)
class ChampionshipState:
    games: tuple[int, ...]
    played: tuple[ChampionshipGame, ...] = ()
    current_number: int | None = None
    current: Any = None  # the game in progress: a Level 3 GameState
    ptr_early_end: bool = True

    def wins(self, team: Team) -> int:
        """Championship games won (tie-breakers are counted separately)."""
        return sum(1 for g in self.played if not g.tiebreaker and g.result.winner is team)

    @property
    def games_played(self) -> int:
        return sum(1 for g in self.played if not g.tiebreaker)

    @property
    def games_left(self) -> int:
        return len(self.games) - self.games_played

    @property
    def champion(self) -> Team | None:
        tiebreakers = [g for g in self.played if g.tiebreaker and g.result.winner is not None]
        if tiebreakers:
            return tiebreakers[0].result.winner
        return leader_beyond_reach(self.wins(Team.A), self.wins(Team.B), self.games_left)

    @property
    def over(self) -> bool:
        return self.champion is not None

    @property
    def needs_tiebreaker(self) -> bool:
        """Every championship game played and the games won are equal."""
        return self.games_left == 0 and self.champion is None

    @property
    def not_played(self) -> tuple[int, ...]:
        """Championship games left unplayed because the match was already decided."""
        return self.games[self.games_played :] if self.over else ()

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        if self.current is not None:
            return "in_game"
        return "tiebreaker" if self.needs_tiebreaker else "between_games"

    @property
    def next_game(self) -> int | None:
        if self.over or self.current is not None:
            return None
        return TIEBREAKER_GAME if self.needs_tiebreaker else self.games[self.games_played]

    @property
    def game4_lead(self) -> Team | None:
        """The most recent game's winner leads Game 4's first trick; None: a statehood draw."""
        return self.played[-1].result.winner if self.played else None


def new_championship(start: StartChampionship) -> ChampionshipState:
    return ChampionshipState(games=check_games(start.games), ptr_early_end=start.ptr_early_end)


def apply_championship(state: ChampionshipState, action: Action) -> ChampionshipState:
    if state.over:
        raise GameOver("the championship is over: it accepts no more actions")
    if isinstance(action, TimeUp):
        raise IllegalAction(
            "the championship match has no time limit: expected every game to be played out"
        )
    if isinstance(action, NextGame):
        number = state.next_game
        if number is None:
            raise IllegalAction("cannot start the next game now: expected the end of this game")
        return replace(
            state,
            current_number=number,
            current=start_game(number, state.game4_lead, state.ptr_early_end),
        )
    if state.current is None or state.current_number is None:
        raise IllegalAction(f"{action.kind!r} needs a game in progress: press NEXT to start one")
    game = game_rules(state.current_number, LEVEL).apply(state.current, action)
    if game.result is None:
        return replace(state, current=game)
    finished = ChampionshipGame(
        number=state.current_number,
        result=game.result,
        plunging=game.plunging or frozenset(),
        tiebreaker=state.needs_tiebreaker,
    )
    return replace(state, played=(*state.played, finished), current=None, current_number=None)
