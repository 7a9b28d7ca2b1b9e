"""Queens & Guards: the Queen on the centre hexagon, surrounded by the player's six guards.

The first to do so wins (the player declares; if not, the monitor declares the win for the
player who built it). A tie: both players agree a player cannot move within the rules, or all
six guards stand round the centre without the Queen. At the time limit, a tie if nobody has won.
The hexagon board is not modelled: moves are recorded, their legality is for challenges.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
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
from rules.pentathlon.play import GameRules, Play, require_turn
from rules.pentathlon.players import Player
from rules.pentathlon.results import How, Result


@register("pentathlon.qg.move")
@dataclass(frozen=True, slots=True)
class MovePiece(Action):
    """The player on turn moves a piece (or moves a trapped piece out of a trap)."""


@register("pentathlon.qg.trap_penalty")
@dataclass(frozen=True, slots=True)
class TrapPenalty(Action):
    """``player`` moved a piece into a trap, backwards, or a guard onto the Throne or centre:
    the opponent (on turn now) placed it on the outermost band, then completes a regular turn.
    Not a challenge, and not on the Challenge Record Sheet (R790)."""

    player: Player


class TieReason(StrEnum):
    AGREED = "agreed"  # both agree a player cannot move without breaking a rule
    GUARDS_WITHOUT_QUEEN = "guards-without-queen"  # six guards round the centre, no Queen


@register("pentathlon.qg.tie")
@dataclass(frozen=True, slots=True)
class DeclareTie(Action):
    reason: TieReason


@dataclass(frozen=True, slots=True)
class QueensBoard:
    """Nothing to keep: the hexagon board is not modelled."""


class QueensAndGuards(GameRules):
    game = Game.QUEENS_AND_GUARDS
    title = "Queens & Guards"
    round_game = False
    starts_by = StartMethod.CHIP_IN_HAND
    challenge_rules: ClassVar[tuple[ChallengeRule, ...]] = (
        ChallengeRule(
            "move",
            "Move-it use-it, and laid is played",
            (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN),
        ),
        ChallengeRule(
            "crown-and-throne",
            "Only the Queen may occupy the Starting Position and the Throne",
            (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN),
        ),
        ChallengeRule(
            "traps",
            "Traps and multiple traps: moving the trapped piece back",
            (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN),
        ),
        ChallengeRule(
            "queen-surrounded",
            "The Queen on the centre hexagon surrounded by the player's six guards",
            (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN),
            goal=True,
        ),
        ChallengeRule(OTHER, "Other", (Effect.RESTORE, Effect.CHALLENGER_BEGINS_TURN)),
    )
    not_challengeable: ClassVar[dict[str, str]] = {
        "into-trap": "moving into a trap, backwards, or a guard onto the Throne or centre is not "
        "challengeable: the opponent moves the piece to the outermost band",
        "trap-call": "say 'Trap', not 'Challenge': no penalty and nothing is recorded",
    }
    goals: ClassVar[dict[str, str]] = {
        "queen-surrounded": "the Queen on the centre hexagon surrounded by the player's 6 guards",
    }
    monitor_declares = True
    note_kinds: ClassVar[tuple[type[Action], ...]] = (TrapPenalty,)

    def check_note(self, play: Play, action: Action) -> None:
        assert isinstance(action, TrapPenalty)
        if action.player is play.holder:
            raise IllegalAction(
                f"{action.player} holds the flag card: the opponent, on turn, moves the piece "
                "of the player who moved into the trap"
            )
        if play.round == 1 and play.holder is play.beginner:
            raise IllegalAction(f"{action.player} has not moved yet: no piece to place")
        if play.played:
            raise IllegalAction(
                f"{play.holder} has moved this turn: the piece is placed before the turn (R790)"
            )

    def new_board(self, start: StartPentathlon) -> QueensBoard:
        return QueensBoard()

    def move(self, play: Play, action: Action) -> Play:
        if isinstance(action, MovePiece):
            require_turn(play)
            return replace(play, played=True)
        if isinstance(action, DeclareTie):
            require_turn(play)
            if action.reason is TieReason.AGREED:
                result = Result(None, How.AGREEMENT, "both players agree no one can move")
            else:
                result = Result(
                    None, How.AWARD, "all six guards round the centre without the Queen"
                )
            return replace(play, pending=result)
        return super().move(play, action)

    def correct(
        self, board: Any, effect: Effect, challenger: Player, prior: Any
    ) -> tuple[Any, str]:
        if effect is Effect.RESTORE:
            return board, f"the board is restored to before {challenger.other}'s turn"
        return board, ""

    def scores(self, board: Any) -> dict[str, Any]:
        return {}
