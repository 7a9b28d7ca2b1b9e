"""Juggle: cover the board with polyominoes, pieces of one colour touching at no edge or corner.

A round game. A win is declared; if the beginning player declares, the second player completes
a turn first (both reaching the goal in one round is a tie, R221). At the time limit, after the
round, the monitor counts each board's empty spaces (touching pieces challenged then are removed
first): fewer by 3 or more wins, else a tie. ``juggle_board`` checks a board typed as text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.actions import Action, register
from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import (
    OTHER,
    ChallengeRule,
    Effect,
    Game,
    StartMethod,
)
from rules.pentathlon.monitor_actions import StartPentathlon
from rules.pentathlon.play import MAX_POINTS, Check, GameRules, Play
from rules.pentathlon.players import Pair, Player
from rules.pentathlon.results import How, Result, lower_by

WIN_MARGIN = 3


@register("pentathlon.juggle.count")
@dataclass(frozen=True, slots=True)
class CountEmpty(Action):
    """At the time limit: the empty spaces on each board, touching pieces removed first."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class JuggleBoards:
    empty: Pair[int] | None = None  # counted at the time limit


def count_result(empty: Pair[int]) -> Result:
    winner = lower_by(empty, WIN_MARGIN)
    counts = f"empty spaces: A {empty[0]}, B {empty[1]}"
    if winner is None:
        return Result(None, How.TIME_LIMIT, f"time limit: {counts}, a difference of 2 or less")
    return Result(winner, How.TIME_LIMIT, f"time limit: {counts}, {winner} fewer by 3 or more")


class Juggle(GameRules):
    game = Game.JUGGLE
    title = "Juggle"
    round_game = True
    starts_by = StartMethod.DIE_TOSS
    challenge_rules: ClassVar[tuple[ChallengeRule, ...]] = (
        ChallengeRule(
            "selection",
            "Selecting polyominoes (exact or calculated value, 6 is wild, placed or returned)",
            (Effect.CHALLENGER_BEGINS_TURN,),
        ),
        ChallengeRule(
            "placement",
            "Placement: pieces of one colour touching at an edge or corner, or overlapping",
            (Effect.CHALLENGER_BEGINS_TURN,),
            goal=True,
        ),
        ChallengeRule(
            "board-covered",
            "The board completely covered",
            (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN),
            goal=True,
        ),
        ChallengeRule(
            "piece-laid", "Piece laid is played", (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN)
        ),
        ChallengeRule(OTHER, "Other", (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN)),
    )
    goals: ClassVar[dict[str, str]] = {
        "board-covered": "the board completely covered, no like-coloured pieces touching",
    }

    def new_board(self, start: StartPentathlon) -> JuggleBoards:
        return JuggleBoards()

    def move(self, play: Play, action: Action) -> Play:
        if not isinstance(action, CountEmpty):
            return super().move(play, action)
        if not play.counting:
            raise IllegalAction(
                "the empty spaces are counted once time is called and the round is complete"
            )
        if not (0 <= action.a <= MAX_POINTS and 0 <= action.b <= MAX_POINTS):
            raise InvalidInput(
                f"empty spaces {action.a}, {action.b}: expected 0 to {MAX_POINTS} each (R787)"
            )
        empty = (action.a, action.b)
        board = replace(play.board, empty=empty)
        return replace(
            play, board=board, pending=count_result(empty), pending_check=Check.TIME_LIMIT
        )

    def correct(
        self, board: Any, effect: Effect, challenger: Player, prior: Any
    ) -> tuple[Any, str]:
        if effect is Effect.RESTORE:
            return board, f"the board is restored to before {challenger.other}'s turn"
        return board, ""

    def time_limit(self, play: Play) -> Result | None:
        board = play.board
        assert isinstance(board, JuggleBoards)
        return None if board.empty is None else count_result(board.empty)

    def scores(self, board: Any) -> dict[str, Any]:
        assert isinstance(board, JuggleBoards)
        if board.empty is None:
            return {"empty_spaces": None}
        return {"empty_spaces": {"A": board.empty[0], "B": board.empty[1]}}
