"""The Combo 3 match: morning and afternoon rounds, points, shuffle reminders and the end of time.

Rounds 1-4 are morning rounds (20 minutes): the five Level 3 games in order, repeating. Rounds
5-8 are afternoon rounds (12 minutes): the team whose drawn card's statehood rank is closer to
1 picks a game, the other team picks a different one, and the two alternate in that order.
Games are scored and the match is won on points as in Combo 4 (ruling R74); the match clock
lives in the shell, which sends ``match.time_up`` (what happens to the game in progress:
``TimeUpRule``, ruling R9). Rulings R72-R77 in docs/rulings.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from rules.actions import Action, register
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.common import (
    DrawWinner,
    GameContext,
    GameState,
    StatehoodDraw,
    draw_result,
)
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.match import (
    GAME_NUMBERS,
    MatchProgress,
    NextGame,
    PlayedGame,
    TimeUp,
    TimeUpRule,
    apply_time_up,
    check_match_minutes,
    finish_game,
    last_winner,
)
from rules.geoplunge.scoring import DEFAULT_POINTS, PointTable
from rules.geoplunge.teams import Team

LEVEL = 3
ROUNDS = 8
MORNING_ROUNDS = 4
MORNING_MINUTES = 20
AFTERNOON_MINUTES = 12


class DayPart(StrEnum):
    MORNING = "morning"
    AFTERNOON = "afternoon"


def day_part(round_number: int) -> DayPart:
    """Rounds 1-4 are morning rounds, rounds 5-8 afternoon rounds."""
    if not 1 <= round_number <= ROUNDS:
        raise InvalidInput(f"round {round_number}: expected a Combo 3 round 1 to {ROUNDS}")
    return DayPart.MORNING if round_number <= MORNING_ROUNDS else DayPart.AFTERNOON


def round_minutes(round_number: int) -> int:
    """20 minutes in the morning, 12 in the afternoon."""
    return MORNING_MINUTES if day_part(round_number) is DayPart.MORNING else AFTERNOON_MINUTES


def afternoon_cycle(first: int, second: int) -> tuple[int, int]:
    """The draw winner's game, then the other team's different game; play repeats the pair."""
    for game in (first, second):
        if game not in GAME_NUMBERS:
            raise InvalidInput(f"game {game}: expected a game number 1 to 5")
    if first == second:
        raise InvalidInput(
            f"both teams picked game {first}: expected the other team to pick a different game"
        )
    return (first, second)


def game_cycle(round_number: int, picks: tuple[int, int] | None = None) -> tuple[int, ...]:
    """One cycle of a round's game order; play repeats the cycle until time is up."""
    if day_part(round_number) is DayPart.MORNING:
        if picks is not None:
            raise InvalidInput(f"round {round_number} is a morning round: it takes no picks")
        return GAME_NUMBERS
    if picks is None:
        raise InvalidInput(
            f"round {round_number} is an afternoon round: expected the two picked games"
        )
    return afternoon_cycle(*picks)


@register("match3.start")
@dataclass(frozen=True, slots=True)
class StartMatch3(Action):
    """A Combo 3 match; ``minutes`` None is the round's length (20 morning, 12 afternoon)."""

    round: int
    minutes: int | None = None
    on_time_up: TimeUpRule = TimeUpRule.ABANDON
    ptr_early_end: bool = True  # Play the Ranks ends at 6 tricks (R68)


@register("match3.afternoon_picks")
@dataclass(frozen=True, slots=True)
class AfternoonPicks(Action):
    """The afternoon's two games: ``first`` the draw winner's, ``second`` the other team's."""

    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Match3State(MatchProgress):
    round: int
    part: DayPart
    minutes: int
    on_time_up: TimeUpRule
    chooser: Team | None = None  # afternoon: the team that won the statehood draw
    cycle: tuple[int, ...] = ()
    played: tuple[PlayedGame, ...] = ()
    current_number: int | None = None
    current: Any = None  # the game in progress: a Level 3 GameState
    time_up: bool = False
    points: PointTable = DEFAULT_POINTS
    ptr_early_end: bool = True

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        if self.current is not None:
            return "in_game"
        if not self.cycle:
            return "draw" if self.chooser is None else "picks"
        return "between_games"

    @property
    def game4_lead(self) -> Team | None:
        """The team that leads Game 4's first trick: the most recent game's winner (R72).

        In a morning round that game is always Dashing States; in an afternoon round it is the
        other picked game. None (a tie, or Game 4 first) means a statehood draw decides.
        """
        return last_winner(self.played)


def new_match3(start: StartMatch3) -> Match3State:
    part = day_part(start.round)
    minutes = round_minutes(start.round) if start.minutes is None else start.minutes
    check_match_minutes(minutes)
    return Match3State(
        round=start.round,
        part=part,
        minutes=minutes,
        on_time_up=start.on_time_up,
        cycle=game_cycle(start.round) if part is DayPart.MORNING else (),
        ptr_early_end=start.ptr_early_end,
    )


def start_game(number: int, lead: Team | None, ptr_early_end: bool = True) -> GameState:
    """A Level 3 game, told who leads Game 4's first trick and whether 6 tricks end Play the
    Ranks early (R68)."""
    context = GameContext(level=LEVEL, lead=lead, ptr_early_end=ptr_early_end)
    state: GameState = game_rules(number, LEVEL).start(context)
    return state


def apply_match3(state: Match3State, action: Action) -> Match3State:
    if state.over:
        raise GameOver("the match is over: it accepts no more actions")
    if isinstance(action, TimeUp):
        return apply_time_up(state)
    if state.current is not None and state.current_number is not None:
        if isinstance(action, AfternoonPicks | NextGame):
            raise IllegalAction(f"{action.kind!r} during a game: expected the end of this game")
        game = game_rules(state.current_number, LEVEL).apply(state.current, action)
        if game.result is not None:
            return finish_game(replace(state, current=game), game.result, game)
        return replace(state, current=game)
    match action:
        case StatehoodDraw() | DrawWinner():
            _require_afternoon(state, "the statehood draw and the picks")
            if state.phase != "draw":
                raise IllegalAction("the statehood draw is made once, before the picks")
            return replace(state, chooser=draw_result(action))
        case AfternoonPicks():
            _require_afternoon(state, "the statehood draw and the picks")
            if state.phase != "picks":
                expected = "the statehood draw first" if state.phase == "draw" else "no new picks"
                raise IllegalAction(
                    f"the games are picked once, after the draw: expected {expected}"
                )
            return replace(state, cycle=afternoon_cycle(action.first, action.second))
        case NextGame():
            if state.phase != "between_games":
                expected = "the statehood draw" if state.phase == "draw" else "the two picks"
                raise IllegalAction(f"cannot start the next game now: expected {expected}")
            number = state.next_game
            assert number is not None
            return replace(
                state,
                current_number=number,
                current=start_game(number, state.game4_lead, state.ptr_early_end),
            )
    raise IllegalAction(f"{action.kind!r} needs a game in progress: press NEXT to start one")


def _require_afternoon(state: Match3State, what: str) -> None:
    if state.part is DayPart.MORNING:
        raise IllegalAction(
            f"round {state.round} is a morning round, which plays every game in order: "
            f"{what} belong to afternoon rounds"
        )
