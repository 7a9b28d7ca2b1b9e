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
from rules.pentathlon.play import (
    RULINGS_BEFORE_ISSUE_20,
    RULINGS_ISSUE_20,
    Check,
    GameRules,
    Play,
    check_points,
    require_turn,
)
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
STACK_CARDS = 4  # a stack scores once it holds 4 or more cards
HAND = 4  # "each player has a total of 4 cards placed face up on the player's side"


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


@register("pentathlon.sb.stack_count")
@dataclass(frozen=True, slots=True)
class StackCount(Action):
    """``asked_by`` asked the Monitor the number of cards in a stack; the Monitor reported
    ``cards`` (R791)."""

    asked_by: Player
    cards: int


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
    # What the pieces allow (R783): at most this many cards are on the board (the CPA's 4 from
    # the start, one a card placed, less at least 4 a stack removed); the CPA stacks turned over
    # and not yet removed; whether the four CPA stacks have been removed once (before that,
    # each of the CPA's 4 stacks holds at least its starting card); each player's cards placed.
    on_board: int = CPA_STACKS
    cpa_turned_over: int = 0
    cpa_cleared: bool = False
    cards_placed: Pair[int] = (0, 0)
    stack_undo: Pair[tuple[int, int, bool]] = ((0, 0, False), (0, 0, False))  # a C restores it


def check_stacks(board: StarsBoard, action: ScoreStacks) -> None:
    """The stacks scored must be on the board: 4 or more cards each (R783)."""
    stack_points(action)
    untouched = CPA_STACKS - board.cpa_turned_over
    if action.cpa_turned > untouched:
        raise IllegalAction(
            f"stacks: {action.cpa_turned} CPA stacks turned over, but {untouched} of the "
            f"{CPA_STACKS} are not turned over yet (R783)"
        )
    turned = board.cpa_turned_over + action.cpa_turned
    if action.cpa_removed and turned < CPA_STACKS:
        raise IllegalAction(
            f"stacks: the CPA stacks are removed once all {CPA_STACKS} are turned over; "
            f"{turned} would be (R783)"
        )
    least_cpa = 0 if board.cpa_cleared else CPA_STACKS - turned  # a starting card each
    needed = STACK_CARDS * (turned + action.opa_removed) + least_cpa
    if needed > board.on_board:
        raise IllegalAction(
            f"stacks: {turned} CPA stacks turned over and {action.opa_removed} OPA stacks "
            f"removed need at least {needed} cards on the board; at most {board.on_board} are "
            "(the CPA's 4 and the cards placed, less the stacks removed) (R783)"
        )


def a_stack_can_score(board: StarsBoard) -> bool:
    """The board's cards can make a stack to score now: a CPA stack to turn over, the four
    turned-over CPA stacks to remove, or an OPA stack to remove (R783, R749)."""
    least = (ScoreStacks(cpa_turned=1), ScoreStacks(cpa_removed=True), ScoreStacks(opa_removed=1))
    for stacks in least:
        try:
            check_stacks(board, stacks)
        except IllegalAction:
            continue
        return True
    return False


def round_end_award(scores: Pair[int], *, over_140_ends: bool = True) -> Result | None:
    """The end of a round: a win by the GOAL's ways, or (``over_140_ends``, R747) a tie when a
    player is over 140 points without being 15 ahead: END OF GAME, and no way to win is met."""
    leader = higher_by(scores, 1)
    lead = abs(scores[0] - scores[1])
    top = max(scores)
    if leader is not None and top > HIGH_SCORE and lead >= HIGH_SCORE_LEAD:
        why = f"over {HIGH_SCORE} points and {HIGH_SCORE_LEAD} or more ahead"
    elif leader is not None and lead > RUNAWAY_LEAD:
        why = f"more than {RUNAWAY_LEAD} points ahead"
    elif over_140_ends and top > HIGH_SCORE:
        over = [player.value for player in Player if of(scores, player) > HIGH_SCORE]
        who = f"{' and '.join(over)} {'is' if len(over) == 1 else 'are'}"
        return Result(
            None,
            How.AWARD,
            f"end of a round: {who} over {HIGH_SCORE} points, the game ends, and the "
            f"scores differ by less than {HIGH_SCORE_LEAD}: a tie (R747) ({scores_text(scores)})",
        )
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
    note_kinds: ClassVar[tuple[type[Action], ...]] = (StackCount,)
    not_challengeable: ClassVar[dict[str, str]] = {
        "draw-card": "drawing a card to complete the hand is not challengeable: the Monitor "
        "reminds the player",
        "stack-check": "checking a turned-over or removed stack is not challengeable: the "
        "Monitor always checks it",
    }

    def check_note(self, play: Play, action: Action) -> None:
        assert isinstance(action, StackCount)
        board = play.board
        assert isinstance(board, StarsBoard)
        if not 1 <= action.cards <= board.on_board:
            raise InvalidInput(
                f"a stack of {action.cards} cards: expected 1 to {board.on_board}, the most "
                "cards on the board (R791)"
            )

    def new_board(self, start: StartPentathlon) -> StarsBoard:
        return StarsBoard()

    def begin_turn(self, board: Any, player: Player, received: bool) -> StarsBoard:
        assert isinstance(board, StarsBoard)
        return replace(
            board,
            card_points=with_value(board.card_points, player, 0),
            stack_points=with_value(board.stack_points, player, 0),
            stack_undo=with_value(
                board.stack_undo, player, (0, board.cpa_turned_over, board.cpa_cleared)
            ),
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
            if play.rulings != RULINGS_BEFORE_ISSUE_20:  # bounded since issue 20 (R783, R796)
                check_stacks(board, action)
            board = _add(replace(board, stacked=True), player, points)
            board = replace(board, stack_points=with_value(board.stack_points, player, points))
            return replace(play, board=_stacks_taken(board, player, action))
        if isinstance(action, PlaceCard):
            require_turn(play)
            check_points(action.points, "points")
            if board.placed:
                raise IllegalAction(f"{player} has placed this turn's card: pass the flag card")
            board = _add(replace(board, placed=True), player, action.points)
            placed = of(board.cards_placed, player) + 1
            board = replace(
                board,
                card_points=with_value(board.card_points, player, action.points),
                on_board=board.on_board + 1,
                cards_placed=with_value(board.cards_placed, player, placed),
            )
            return replace(play, board=board, played=True)
        if isinstance(action, CardsOut):
            require_turn(play)
            if play.rulings != RULINGS_BEFORE_ISSUE_20:  # since issue 20 (R784, R796)
                _check_cards_out(board, player)
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
            # the card goes to the discard pile: off the board, and out of the hand all the same
            board = replace(board, on_board=max(0, board.on_board - 1))
            return board, (
                f"{challenged} subtracts the card's {points} points (running score "
                f"{of(board.scores, challenged)}); the card goes to the discard pile"
            )
        if effect is Effect.SUBTRACT_STACK_POINTS:
            points = of(board.stack_points, challenged)
            board = _add(board, challenged, -points)
            board = replace(board, stack_points=with_value(board.stack_points, challenged, 0))
            board = _stacks_restored(board, challenged)
            return board, (
                f"{challenged} subtracts only the {points} stack points (running score "
                f"{of(board.scores, challenged)}); the card placed stays"
            )
        return board, ""

    def round_end(self, play: Play) -> Result | None:
        board = play.board
        assert isinstance(board, StarsBoard)
        # a player over 140 without 15 ahead ends the game since rulings 3 (R747, R796)
        return round_end_award(board.scores, over_140_ends=play.rulings > RULINGS_ISSUE_20)

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


def most_stacks(board: StarsBoard, cpa_turned: int | None) -> int:
    """The most stacks the board allows: CPA stacks to turn over (``cpa_turned`` None), or OPA
    stacks to remove once ``cpa_turned`` are turned over this turn (R783)."""
    if cpa_turned is None:
        turnable = range(CPA_STACKS - board.cpa_turned_over, -1, -1)
        return next(t for t in turnable if _fits(board, t, 0) or t == 0)
    return max(
        0,
        max(
            (n for n in range(board.on_board // STACK_CARDS + 1) if _fits(board, cpa_turned, n)),
            default=0,
        ),
    )


def _fits(board: StarsBoard, cpa_turned: int, opa_removed: int) -> bool:
    try:
        check_stacks(board, ScoreStacks(cpa_turned, False, opa_removed))
    except (IllegalAction, InvalidInput):
        return False
    return True


def _stacks_taken(board: StarsBoard, player: Player, action: ScoreStacks) -> StarsBoard:
    """The stacks scored leave the board (removed) or stay turned over (R783)."""
    removed = STACK_CARDS * (action.opa_removed + (CPA_STACKS if action.cpa_removed else 0))
    turned = 0 if action.cpa_removed else board.cpa_turned_over + action.cpa_turned
    undo = (removed, board.cpa_turned_over, board.cpa_cleared)
    return replace(
        board,
        on_board=board.on_board - removed,
        cpa_turned_over=turned,
        cpa_cleared=board.cpa_cleared or action.cpa_removed,
        stack_undo=with_value(board.stack_undo, player, undo),
    )


def _stacks_restored(board: StarsBoard, player: Player) -> StarsBoard:
    """A Correct stack-points challenge: the stacks are back as they were (R783)."""
    removed, turned, cleared = of(board.stack_undo, player)
    return replace(
        board,
        on_board=board.on_board + removed,
        cpa_turned_over=turned,
        cpa_cleared=cleared,
        stack_undo=with_value(board.stack_undo, player, (0, turned, cleared)),
    )


def _check_cards_out(board: StarsBoard, player: Player) -> None:
    """ "END OF GAME when BOTH players have no more cards to place": at the beginning of a turn,
    and only once each player has placed at least the 4 cards of the starting hand (R784)."""
    if board.placed:
        raise IllegalAction(f"{player} has placed a card this turn: cards out is at a turn's start")
    short = [p for p in Player if of(board.cards_placed, p) < HAND]
    if short:
        counts = ", ".join(f"{p} {of(board.cards_placed, p)}" for p in short)
        raise IllegalAction(
            f"cards out: both players place every card of their hand of {HAND} first; "
            f"cards placed: {counts} (R784)"
        )
