"""Guesstimation logs: JSON Lines whose first action is ``guesstimation.start``.

``start`` and ``apply`` are the family's session protocol (a registry can pick the family by
the first action's kind prefix, ``FAMILY``); ``replay_log`` rebuilds a game from a log, naming
the line of the first fault, and ``summary`` is the board as plain JSON data.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.actions import Action
from rules.errors import InvalidLog
from rules.guesstimation.actions import FAMILY, StartGuesstimation
from rules.guesstimation.numbers import number_text
from rules.guesstimation.rolloff import RollOff
from rules.guesstimation.session import (
    GuesstimationState,
    Round,
    apply_action,
    expecting,
    new_game,
)
from rules.log import dump_log, parse_log, replay_actions

__all__ = ["FAMILY", "apply", "dump_log", "parse_log", "replay", "replay_log", "start", "summary"]
FIRST_LINE = "guesstimation.start"


def start(action: Action) -> GuesstimationState:
    if not isinstance(action, StartGuesstimation):
        raise InvalidLog(f"a Guesstimation log starts with {FIRST_LINE}, not {action.kind!r}")
    return new_game(action)


def apply(state: GuesstimationState, action: Action) -> GuesstimationState:
    return apply_action(state, action)


def replay(actions: Iterable[Action]) -> GuesstimationState:
    return replay_actions(actions, start, apply, FIRST_LINE)


def replay_log(lines: Iterable[str]) -> GuesstimationState:
    """Replay a log, naming the line of the first action the rules refuse."""
    return replay_actions(parse_log(lines), start, apply, FIRST_LINE, locate=True)


def summary(state: GuesstimationState) -> dict[str, Any]:
    """The board and the game so far as plain JSON data (numbers as exact decimal text)."""
    return {
        "family": FAMILY,
        "players": list(state.players),
        "finish": state.finish,
        "positions": dict(zip(state.players, state.positions, strict=True)),
        "phase": state.phase,
        "expecting": expecting(state),
        "leader": state.leader,
        "chip": state.chip,
        "finalists": list(state.finalists),
        "champion": state.champion,
        "over": state.over,
        "rolloff": _rolloff_json(state.rolloff),
        "current": _round_json(state.current, state.players) if state.current else None,
        "rounds": [_round_json(played, state.players) for played in state.played],
    }


def _rolloff_json(rolloff: RollOff | None) -> dict[str, Any] | None:
    if rolloff is None:
        return None
    return {
        "for": rolloff.purpose.value,
        "contenders": list(rolloff.contenders),
        "rolls": {roll.player: roll.value for roll in rolloff.rolls},
        "tied_before": [{roll.player: roll.value for roll in rolls} for rolls in rolloff.earlier],
    }


def _round_json(played: Round, seats: tuple[str, ...]) -> dict[str, Any]:
    question = played.question
    duel = played.duel
    outcome = played.outcome
    return {
        "round": played.number,
        "leader": played.leader,
        "final": played.final,
        "question": played.die,
        "text": question.text if question else None,
        "card": question.card if question else None,
        "chip_possession": question.chip if question else None,
        "measured": question.measured if question else None,
        "units": played.units.value if played.units else None,
        "duel": (
            {"dueler": duel.dueler, "opponent": duel.opponent, "wager": duel.wager}
            if duel
            else None
        ),
        "guesses": {guess.player: number_text(guess.value) for guess in played.guesses},
        "answer": number_text(played.answer) if played.answer is not None else None,
        "outcome": (
            {
                "winners": list(outcome.winners),
                "exact": list(outcome.exact),
                "moves": {move.player: move.spaces for move in outcome.moves},
                "positions": dict(zip(seats, outcome.positions, strict=True)),
                "chip": outcome.chip,
            }
            if outcome
            else None
        ),
    }
