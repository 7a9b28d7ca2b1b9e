"""Contig 60: running scores from 60 down; 5 in a row, 0 or less, or the depletion of chips.

Wins: 5 chips of the player's colour in a row (declared); a running score of 0 or less within
a turn with a difference of 3 or more (declared); at the beginning of a turn a player with no
chips, when the running scores differ by 3 or more (awarded: the lower score wins). At the
time limit the lower score wins by 3 or more, else a tie.

The board is not modelled: a placement's points are entered as announced (R204), so the
record keeps each player's running score and chips, not where the chips lie.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.actions import Action, register
from rules.errors import IllegalAction
from rules.pentathlon.catalogue import (
    OTHER,
    ChallengeRule,
    Effect,
    Game,
    StartMethod,
)
from rules.pentathlon.monitor_actions import StartPentathlon
from rules.pentathlon.play import GameRules, Play, check_points, require_turn
from rules.pentathlon.players import Pair, Player, of, with_value
from rules.pentathlon.results import How, Result, lower_by, scores_text

START_SCORE = 60
WIN_MARGIN = 3
CHALLENGE_BONUS = 2  # a Correct challenger subtracts 2 from the running score
IN_A_ROW = 5


@register("pentathlon.contig.play")
@dataclass(frozen=True, slots=True)
class ContigPlay(Action):
    """The player on turn places a chip; ``score`` is the points it scores, as announced."""

    score: int


@register("pentathlon.contig.capture")
@dataclass(frozen=True, slots=True)
class ContigCapture(Action):
    """The player on turn captures the opponent's pass: ``score`` is the covered space's
    score; twice it is subtracted. Then the player takes a regular turn."""

    score: int


@dataclass(frozen=True, slots=True)
class ContigBoard:
    chips_each: int
    scores: Pair[int] = (START_SCORE, START_SCORE)
    chips: Pair[int] = (0, 0)  # chips left
    placed: Pair[bool | None] = (None, None)  # a chip in the player's latest turn; None: no
    # turn yet, or that pass has been captured
    captured: bool = False  # the player on turn has captured a pass this turn
    played: bool = False  # the player on turn has placed this turn's chip


# C on recording, announcing, placing, scoring or a captured pass: the prior state is restored,
# the challenger subtracts 2 and begins a turn. Other: restored, and the challenger begins.
_SCORED = (Effect.RESTORE, Effect.CHALLENGER_SUBTRACTS_2, Effect.CHALLENGER_BEGINS_TURN)
_OTHER = (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN)


def _restore(board: ContigBoard, player: Player, prior: ContigBoard) -> ContigBoard:
    """``player``'s score and chips as their turn began; the undone turn is no pass to capture."""
    return replace(
        board,
        scores=with_value(board.scores, player, of(prior.scores, player)),
        chips=with_value(board.chips, player, of(prior.chips, player)),
        placed=with_value(board.placed, player, None),
    )


def adjudicate(scores: Pair[int], how: How, why: str) -> Result:
    """The lower running score wins by 3 or more, else a tie (the time limit; R205)."""
    winner = lower_by(scores, WIN_MARGIN)
    verdict = (
        f"{winner} has the lower score by {WIN_MARGIN} or more"
        if winner
        else f"the scores differ by less than {WIN_MARGIN}"
    )
    return Result(winner, how, f"{why}: {verdict} ({scores_text(scores)})")


def _check_score(score: int) -> int:
    return check_points(score, "score")


class Contig60(GameRules):
    game = Game.CONTIG_60
    title = "Contig 60"
    round_game = False
    starts_by = StartMethod.DIE_TOSS
    challenge_rules: ClassVar[tuple[ChallengeRule, ...]] = (
        ChallengeRule("recording", "Recording the 3 dice values on the Scoring Flag Card", _SCORED),
        ChallengeRule(
            "announcing", "Announcing the number sentence (order of operations)", _SCORED
        ),
        ChallengeRule("placing", "Placing the chip on the corresponding space", _SCORED),
        ChallengeRule("scoring", "Recording and announcing the running score", _SCORED),
        ChallengeRule("captured-pass", "Capturing a pass", _SCORED),
        ChallengeRule("five-in-a-row", "5 in a row of the player's own colour", _OTHER, goal=True),
        ChallengeRule(
            "score-zero-or-less",
            "A running score of 0 or less with a difference of 3 or more",
            _OTHER,
            goal=True,
        ),
        ChallengeRule("piece-laid", "Piece laid is played", _OTHER),
        ChallengeRule(OTHER, "Other", _OTHER),
    )
    goals: ClassVar[dict[str, str]] = {
        "five-in-a-row": "5 chips of the player's colour in a row",
        "score-zero-or-less": "a running score of 0 or less, 3 or more below the opponent's",
    }

    def new_board(self, start: StartPentathlon) -> ContigBoard:
        assert start.chips is not None
        return ContigBoard(chips_each=start.chips, chips=(start.chips, start.chips))

    def begin_turn(self, board: Any, player: Player, received: bool) -> ContigBoard:
        assert isinstance(board, ContigBoard)
        return replace(
            board, placed=with_value(board.placed, player, False), captured=False, played=False
        )

    def move(self, play: Play, action: Action) -> Play:
        if not isinstance(action, ContigPlay | ContigCapture):
            return super().move(play, action)
        require_turn(play)
        board = play.board
        assert isinstance(board, ContigBoard)
        player = play.holder
        score = _check_score(action.score)
        if board.played:
            raise IllegalAction(f"{player} has placed this turn's chip: pass the flag card")
        if of(board.chips, player) == 0:
            raise IllegalAction(f"{player} has no chips left")
        if isinstance(action, ContigCapture):
            board, points = self._capture(board, player), 2 * score
        else:
            board, points = replace(board, played=True), score
        board = replace(
            board,
            scores=with_value(board.scores, player, of(board.scores, player) - points),
            chips=with_value(board.chips, player, of(board.chips, player) - 1),
            placed=with_value(board.placed, player, True),
        )
        return replace(play, board=board, played=True)

    def _capture(self, board: ContigBoard, player: Player) -> ContigBoard:
        if board.captured:
            raise IllegalAction(f"{player} has captured a pass this turn already")
        if of(board.placed, player.other) is not False:
            raise IllegalAction(
                f"no pass to capture: {player.other} did not pass the flag card without placing "
                "a chip in their latest turn"
            )
        return replace(board, captured=True, placed=with_value(board.placed, player.other, None))

    def correct(
        self, board: Any, effect: Effect, challenger: Player, prior: Any
    ) -> tuple[ContigBoard, str]:
        assert isinstance(board, ContigBoard) and isinstance(prior, ContigBoard)
        challenged = challenger.other
        if effect is Effect.RESTORE:
            board = _restore(board, challenged, prior)
            return board, (
                f"the game is restored to before {challenged}'s turn: {challenged}'s running "
                f"score {of(board.scores, challenged)}, {of(board.chips, challenged)} chips"
            )
        if effect is Effect.CHALLENGER_SUBTRACTS_2:
            score = of(board.scores, challenger) - CHALLENGE_BONUS
            board = replace(board, scores=with_value(board.scores, challenger, score))
            return board, f"{challenger} subtracts {CHALLENGE_BONUS}: running score {score}"
        return board, ""

    def declaration_doubt(self, play: Play, player: Player, goal: str) -> str | None:
        board = play.board
        assert isinstance(board, ContigBoard)
        if goal == "five-in-a-row":
            placed = board.chips_each - of(board.chips, player)
            if placed < IN_A_ROW:
                chips = "chip" if placed == 1 else "chips"
                return f"{player} has placed {placed} {chips}: 5 in a row needs 5"
            return None
        score, other = of(board.scores, player), of(board.scores, player.other)
        if score > 0 or other - score < WIN_MARGIN:
            return (
                f"{player}'s running score is {score} against {other}: a win by score needs 0 "
                f"or less and {WIN_MARGIN} or more below the opponent"
            )
        return None

    def end_of_turn(self, play: Play) -> Result | None:
        board = play.board
        assert isinstance(board, ContigBoard)
        if min(board.scores) > 0:
            return None
        return adjudicate(board.scores, How.AWARD, "a running score of 0 or less (R205)")

    def turn_start(self, play: Play) -> Result | None:
        board = play.board
        assert isinstance(board, ContigBoard)
        if of(board.chips, play.holder) > 0:
            return None
        return adjudicate(
            board.scores, How.AWARD, f"{play.holder} has no chips at the beginning of a turn"
        )

    def time_limit(self, play: Play) -> Result | None:
        board = play.board
        assert isinstance(board, ContigBoard)
        return adjudicate(board.scores, How.TIME_LIMIT, "time limit")

    def scores(self, board: Any) -> dict[str, Any]:
        assert isinstance(board, ContigBoard)
        return {
            "running_score": {"A": board.scores[0], "B": board.scores[1]},
            "chips_left": {"A": board.chips[0], "B": board.chips[1]},
        }
