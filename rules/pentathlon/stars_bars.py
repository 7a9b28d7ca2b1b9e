"""Stars & Bars: running scores up from 0; the monitor awards the win at the end of a round.

A round game. At the end of a round a player wins who is over 140 points and at least 15
ahead, or more than 40 ahead. At the time limit, once the round is complete: 15 or more ahead
wins, else a tie. Points for 4-card stacks are scored at the beginning of a turn, before
touching a card: in the Central Playing Area 2 for turning a stack over and 4 for removing the
four turned-over stacks (6 for both); in the Outer Playing Area 2 for removing a stack (R240).
A card's placement points are entered as announced (R241).
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
    Ruling,
    StartMethod,
)
from rules.pentathlon.monitor_actions import StartPentathlon
from rules.pentathlon.play import Check, GameRules, Play, require_turn
from rules.pentathlon.players import Pair, Player, of, with_value
from rules.pentathlon.results import How, Result, higher_by, scores_text

HIGH_SCORE = 140  # "over 140 points at the end of a round"
HIGH_SCORE_LEAD = 15  # "... and at least 15 points ahead"
RUNAWAY_LEAD = 40  # "over 40 points ahead of opponent at the end of a round"
TIME_LIMIT_LEAD = 15  # "15 or greater points ahead" at the time limit
CPA_STACKS = 4  # the Central Playing Area's stacks
CPA_TURN_OVER_POINTS = 2
CPA_REMOVE_ALL_POINTS = 4
OPA_REMOVE_POINTS = 2


@register("pentathlon.sb.stacks")
@dataclass(frozen=True, slots=True)
class ScoreStacks(Action):
    """At the beginning of a turn, before touching a card: the 4-card stacks turned over in
    the CPA, whether the four turned-over CPA stacks were removed, and stacks removed in the
    OPA."""

    cpa_turned: int = 0
    cpa_removed: bool = False
    opa_removed: int = 0


@register("pentathlon.sb.place")
@dataclass(frozen=True, slots=True)
class PlaceCard(Action):
    """The player on turn places a card; ``points`` as scored by the Scoring Criteria."""

    points: int


@register("pentathlon.sb.cards_out")
@dataclass(frozen=True, slots=True)
class CardsOut(Action):
    """Both players have no more cards to place: the end of the game."""


def stack_points(action: ScoreStacks) -> int:
    if not 0 <= action.cpa_turned <= CPA_STACKS or action.opa_removed < 0:
        raise InvalidInput(
            f"stacks: cpa_turned {action.cpa_turned} (0 to {CPA_STACKS}), opa_removed "
            f"{action.opa_removed} (0 or more)"
        )
    return (
        CPA_TURN_OVER_POINTS * action.cpa_turned
        + CPA_REMOVE_ALL_POINTS * action.cpa_removed
        + OPA_REMOVE_POINTS * action.opa_removed
    )


@dataclass(frozen=True, slots=True)
class StarsBoard:
    scores: Pair[int] = (0, 0)
    card_points: Pair[int] = (0, 0)  # each player's latest turn: points for the card placed
    stack_points: Pair[int] = (0, 0)  # ... and for 4-card stacks
    placed: bool = False  # the player on turn has placed this turn's card
    stacked: bool = False  # ... has scored stack points this turn


def round_end_award(scores: Pair[int]) -> Result | None:
    leader = higher_by(scores, 1)
    if leader is None:
        return None
    lead = abs(scores[0] - scores[1])
    top = max(scores)
    if top > HIGH_SCORE and lead >= HIGH_SCORE_LEAD:
        why = f"over {HIGH_SCORE} points and {HIGH_SCORE_LEAD} or more ahead"
    elif lead > RUNAWAY_LEAD:
        why = f"more than {RUNAWAY_LEAD} points ahead"
    else:
        return None
    return Result(leader, How.AWARD, f"end of a round: {leader} is {why} ({scores_text(scores)})")


def time_limit_award(
    scores: Pair[int], how: How = How.TIME_LIMIT, why: str = "time limit"
) -> Result:
    leader = higher_by(scores, TIME_LIMIT_LEAD)
    if leader is None:
        verdict = f"the scores differ by less than {TIME_LIMIT_LEAD}"
    else:
        verdict = f"{leader} is {TIME_LIMIT_LEAD} or more ahead"
    return Result(leader, how, f"{why}: {verdict} ({scores_text(scores)})")


class StarsAndBars(GameRules):
    game = Game.STARS_AND_BARS
    title = "Stars & Bars"
    round_game = True
    starts_by = StartMethod.FIRST_STAR_CARD
    challenge_rules: ClassVar[tuple[ChallengeRule, ...]] = (
        ChallengeRule(
            "card-placement",
            "Card placement and its points (Scoring Criteria)",
            (Effect.SUBTRACT_CARD_POINTS,),
        ),
        ChallengeRule(
            "stack-points",
            "Points for turning over or removing 4-card stacks",
            (Effect.SUBTRACT_STACK_POINTS,),
        ),
        ChallengeRule("announcing", "Announcing the turn's points and the running score", ()),
        ChallengeRule("card-laid", "Card laid is played", ()),
        ChallengeRule(
            "stack-not-turned",
            "Not turning over or removing a 4-card stack",
            (),
            only=Ruling.INAPPROPRIATE,
        ),
        ChallengeRule(OTHER, "Other", ()),
    )
    not_challengeable: ClassVar[dict[str, str]] = {
        "draw-card": "drawing a card to complete the hand is not challengeable: the Monitor "
        "reminds the player",
        "stack-check": "checking a turned-over or removed stack is not challengeable: the "
        "Monitor always checks it",
    }

    def new_board(self, start: StartPentathlon) -> StarsBoard:
        return StarsBoard()

    def begin_turn(self, board: Any, player: Player, received: bool) -> StarsBoard:
        assert isinstance(board, StarsBoard)
        return replace(
            board,
            card_points=with_value(board.card_points, player, 0),
            stack_points=with_value(board.stack_points, player, 0),
            placed=False,
            stacked=False,
        )

    def move(self, play: Play, action: Action) -> Play:
        board = play.board
        assert isinstance(board, StarsBoard)
        player = play.holder
        if isinstance(action, ScoreStacks):
            require_turn(play)
            points = stack_points(action)
            if board.placed:
                raise IllegalAction(
                    "stack points are scored before touching a card: after placing a card, "
                    "stacks may be turned over but score nothing"
                )
            if board.stacked:
                raise IllegalAction(f"{player} has scored stack points this turn")
            board = _add(replace(board, stacked=True), player, points)
            board = replace(board, stack_points=with_value(board.stack_points, player, points))
            return replace(play, board=board)
        if isinstance(action, PlaceCard):
            require_turn(play)
            if action.points < 0:
                raise InvalidInput(f"points {action.points}: expected 0 or more")
            if board.placed:
                raise IllegalAction(f"{player} has placed this turn's card: pass the flag card")
            board = _add(replace(board, placed=True), player, action.points)
            board = replace(board, card_points=with_value(board.card_points, player, action.points))
            return replace(play, board=board, played=True)
        if isinstance(action, CardsOut):
            require_turn(play)
            return replace(play, pending=self._cards_out(play), pending_check=Check.CARDS_OUT)
        return super().move(play, action)

    def _cards_out(self, play: Play) -> Result:
        board = play.board
        assert isinstance(board, StarsBoard)
        return time_limit_award(board.scores, How.AWARD, "no cards left to place (R242)")

    def correct(
        self, board: Any, effect: Effect, challenger: Player, prior: Any
    ) -> tuple[Any, str]:
        assert isinstance(board, StarsBoard)
        challenged = challenger.other
        if effect is Effect.SUBTRACT_CARD_POINTS:
            points = of(board.card_points, challenged)
            board = _add(board, challenged, -points)
            board = replace(board, card_points=with_value(board.card_points, challenged, 0))
            return board, (
                f"{challenged} subtracts the card's {points} points (running score "
                f"{of(board.scores, challenged)}); the card goes to the discard pile"
            )
        if effect is Effect.SUBTRACT_STACK_POINTS:
            points = of(board.stack_points, challenged)
            board = _add(board, challenged, -points)
            board = replace(board, stack_points=with_value(board.stack_points, challenged, 0))
            return board, (
                f"{challenged} subtracts only the {points} stack points (running score "
                f"{of(board.scores, challenged)}); the card placed stays"
            )
        return board, ""

    def round_end(self, play: Play) -> Result | None:
        board = play.board
        assert isinstance(board, StarsBoard)
        return round_end_award(board.scores)

    def time_limit(self, play: Play) -> Result | None:
        board = play.board
        assert isinstance(board, StarsBoard)
        return time_limit_award(board.scores)

    def recheck(self, play: Play, check: Check) -> Result | None:
        if check is Check.CARDS_OUT:
            return self._cards_out(play)
        return super().recheck(play, check)

    def scores(self, board: Any) -> dict[str, Any]:
        assert isinstance(board, StarsBoard)
        return {"running_score": {"A": board.scores[0], "B": board.scores[1]}}


def _add(board: StarsBoard, player: Player, points: int) -> StarsBoard:
    return replace(
        board, scores=with_value(board.scores, player, of(board.scores, player) + points)
    )
