"""The Combo 4 match: All/Call rotation, points, shuffle reminders and the end of time.

The match clock lives in the shell; it tells the match that time is up with ``match.time_up``.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from rules.actions import Action, register
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.common import GameContext, GameState
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.scoring import DEFAULT_POINTS, GameResult, PointTable, score_game
from rules.geoplunge.teams import Team

GAME_NUMBERS = (1, 2, 3, 4, 5)
PICKS_PER_TEAM = 2
MATCH_MINUTES = 20
# The longest day a tournament runs Combo 4 rounds, and the longest match it sets: bounds the
# table's config and a replayed log alike (a log is data anybody can write).
ROUNDS = 99
LONGEST_MATCH_MINUTES = 120


class MatchKind(StrEnum):
    ALL = "all"
    CALL = "call"


class TimeUpRule(StrEnum):
    """What becomes of the game in progress when the match clock runs out (docs/rulings.md)."""

    ABANDON = "abandon"  # the unfinished game scores nothing; the match ends now
    FINISH = "finish"  # the game in progress is played out and counts; no further game
    TIE = "tie"  # the unfinished game is scored as a tie, 5 points each


def match_kind(round_number: int) -> MatchKind:
    """Odd rounds play All matches, even rounds Call matches."""
    if not 1 <= round_number <= ROUNDS:
        raise InvalidInput(f"round {round_number}: expected a Combo 4 round 1 to {ROUNDS}")
    return MatchKind.ALL if round_number % 2 else MatchKind.CALL


def check_match_minutes(minutes: int) -> None:
    if not 1 <= minutes <= LONGEST_MATCH_MINUTES:
        raise InvalidInput(
            f"match length {minutes} minutes: expected 1 to {LONGEST_MATCH_MINUTES} minutes"
        )


def check_picks(picks: tuple[int, ...], team: str) -> frozenset[int]:
    chosen = frozenset(picks)
    if len(picks) != PICKS_PER_TEAM or len(chosen) != PICKS_PER_TEAM:
        raise InvalidInput(f"team {team} picks {list(picks)}: expected 2 different games")
    if not chosen <= set(GAME_NUMBERS):
        raise InvalidInput(f"team {team} picks {list(picks)}: games are numbered 1 to 5")
    return chosen


def game_cycle(
    kind: MatchKind, picks: tuple[tuple[int, ...], tuple[int, ...]] | None = None
) -> tuple[int, ...]:
    """One cycle of the match's game order; play repeats the cycle until time is up.

    All: games 1 to 5. Call: the union of both teams' secret picks, in game-number order.
    """
    if kind is MatchKind.ALL:
        if picks is not None:
            raise InvalidInput("an All match plays every game: it takes no picks")
        return GAME_NUMBERS
    if picks is None:
        raise InvalidInput("a Call match needs both teams' picks: 2 games each")
    return tuple(sorted(check_picks(picks[0], "A") | check_picks(picks[1], "B")))


SHUFFLE_AFTER_GAME: dict[int, tuple[str, ...]] = {
    1: ("GeoPlunge",),
    2: ("GeoPlunge",),
    3: ("Map",),
    4: ("GeoPlunge", "Power"),
    5: (),
}
DECKS_BETWEEN_MATCHES = ("GeoPlunge", "Map", "Power", "Clue", "Challenge")


def shuffle_after(game: int) -> tuple[str, ...]:
    """The decks to shuffle once ``game`` is over (rulebook: Shuffling the Cards)."""
    return SHUFFLE_AFTER_GAME[game]


@register("match.start")
@dataclass(frozen=True, slots=True)
class StartMatch(Action):
    round: int
    minutes: int = MATCH_MINUTES
    on_time_up: TimeUpRule = TimeUpRule.ABANDON


@register("match.picks")
@dataclass(frozen=True, slots=True)
class CallPicks(Action):
    """Both teams' secret picks for a Call match, revealed together."""

    a: tuple[int, ...]
    b: tuple[int, ...]


@register("match.next_game")
@dataclass(frozen=True, slots=True)
class NextGame(Action):
    """The dealer starts the next game of the rotation."""


@register("match.time_up")
@dataclass(frozen=True, slots=True)
class TimeUp(Action):
    """The match clock has run out."""


@dataclass(frozen=True, slots=True)
class PlayedGame:
    number: int
    result: GameResult | None  # None: abandoned when time ran out
    plunging: frozenset[Team]
    points: tuple[int, int]  # (A, B)


@dataclass(frozen=True, slots=True)
class MatchResult:
    winner: Team | None
    scores: tuple[int, int]


class MatchProgress:
    """What Combo 4 and Combo 3 matches share: the games played, the game in progress, time up.

    A mixin for the frozen match-state dataclasses, which declare these fields.
    """

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # so ``replace`` takes a subclass

    cycle: tuple[int, ...]
    played: tuple[PlayedGame, ...]
    current_number: int | None
    current: Any  # the game in progress: a GameState
    time_up: bool
    on_time_up: TimeUpRule
    points: PointTable

    @property
    def over(self) -> bool:
        return self.time_up and self.current is None

    @property
    def scores(self) -> tuple[int, int]:
        return (sum(g.points[0] for g in self.played), sum(g.points[1] for g in self.played))

    @property
    def next_game(self) -> int | None:
        if not self.cycle or self.time_up:
            return None
        return self.cycle[len(self.played) % len(self.cycle)]

    @property
    def shuffle_reminder(self) -> tuple[str, ...]:
        if self.over:
            return DECKS_BETWEEN_MATCHES
        if self.current is None and self.played:
            return shuffle_after(self.played[-1].number)
        return ()

    @property
    def result(self) -> MatchResult | None:
        if not self.over:
            return None
        a, b = self.scores
        winner = None if a == b else (Team.A if a > b else Team.B)
        return MatchResult(winner, (a, b))


def last_winner(played: tuple[PlayedGame, ...]) -> Team | None:
    if not played:
        return None
    last = played[-1].result
    return last.winner if last else None


MatchT = TypeVar("MatchT", bound=MatchProgress)


def scored_game(
    number: int, result: GameResult | None, game: GameState, points: PointTable
) -> PlayedGame:
    """A finished (or, with ``result`` None, abandoned) game with its points."""
    plunging = game.plunging or frozenset()
    if result is None:
        return PlayedGame(number, None, plunging, (0, 0))
    scored = score_game(result, plunging, points)
    return PlayedGame(number, result, plunging, (scored[Team.A], scored[Team.B]))


def finish_game(state: MatchT, result: GameResult | None, game: GameState) -> MatchT:
    """``state`` with the game in progress over (abandoned when ``result`` is None) and scored."""
    assert state.current_number is not None
    played = scored_game(state.current_number, result, game, state.points)
    return replace(state, played=(*state.played, played), current=None, current_number=None)


def apply_time_up(state: MatchT) -> MatchT:
    """The match clock has run out: the game in progress is abandoned, finished or tied."""
    if state.time_up:
        raise IllegalAction("time is already up")
    timed_out = replace(state, time_up=True)
    if state.current is None or state.on_time_up is TimeUpRule.FINISH:
        return timed_out
    if state.on_time_up is TimeUpRule.TIE:
        tie = GameResult(None, reason="time ran out; scored as a tie")
        return finish_game(timed_out, tie, state.current)
    return finish_game(timed_out, None, state.current)


@dataclass(frozen=True, slots=True)
class MatchState(MatchProgress):
    round: int
    kind: MatchKind
    minutes: int
    on_time_up: TimeUpRule
    cycle: tuple[int, ...] = ()
    played: tuple[PlayedGame, ...] = ()
    current_number: int | None = None
    current: Any = None  # the game in progress: a GameState
    time_up: bool = False
    points: PointTable = DEFAULT_POINTS

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        if not self.cycle:
            return "picks"
        return "in_game" if self.current is not None else "between_games"

    @property
    def game4_lead(self) -> Team | None:
        """The team that leads Game 4's first trick: the most recent game's winner.

        In an All match that game is always Dashing States; in a Call match it is whatever was
        played last. None (a tie, or Game 4 first) means a statehood draw decides.
        """
        return last_winner(self.played)


def new_match(start: StartMatch) -> MatchState:
    kind = match_kind(start.round)
    check_match_minutes(start.minutes)
    return MatchState(
        round=start.round,
        kind=kind,
        minutes=start.minutes,
        on_time_up=start.on_time_up,
        cycle=game_cycle(kind) if kind is MatchKind.ALL else (),
    )


def apply_match(state: MatchState, action: Action) -> MatchState:
    if state.over:
        raise GameOver("the match is over: it accepts no more actions")
    if isinstance(action, CallPicks):
        if state.phase != "picks":
            raise IllegalAction("picks are made once, before a Call match's first game")
        return replace(state, cycle=game_cycle(state.kind, (action.a, action.b)))
    if isinstance(action, NextGame):
        if state.phase != "between_games":
            expected = "both teams' picks" if state.phase == "picks" else "the end of this game"
            raise IllegalAction(f"cannot start the next game now: expected {expected}")
        number = state.next_game
        assert number is not None
        context = GameContext(level=4, lead=state.game4_lead)
        return replace(state, current_number=number, current=game_rules(number).start(context))
    if isinstance(action, TimeUp):
        return apply_time_up(state)
    if state.current is None or state.current_number is None:
        raise IllegalAction(f"{action.kind!r} needs a game in progress: press NEXT to start one")
    game = game_rules(state.current_number).apply(state.current, action)
    if game.result is not None:
        return finish_game(replace(state, current=game), game.result, game)
    return replace(state, current=game)
