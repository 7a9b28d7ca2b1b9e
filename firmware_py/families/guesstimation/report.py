"""What a Guesstimation action decided, announced as events, and the OLED's big line for it.

A judged round is a ``round_result`` (the answer, the winners, the exact guesses, each move,
the board and the chip) and a ``score`` (every piece's space, by seat); the Dueling Chip
changing hands is a ``chip``; the end of the game a ``game_result``. The big line is short
(seat letters, at most 15 characters): the page and the scoreboard give the names.
"""

from __future__ import annotations

from typing import Any

from firmware_py.families.guesstimation.options import GuesstimationOptions
from firmware_py.table.family import Report
from rules.guesstimation.numbers import number_text
from rules.guesstimation.rolloff import RollFor, RollOff
from rules.guesstimation.session import GuesstimationState, Round

Events = list[tuple[str, dict[str, Any]]]


def report(
    before: GuesstimationState, after: GuesstimationState, options: GuesstimationOptions
) -> Report:
    events: Events = []
    message = _roll_message(before, after, options)
    judged_before, judged_after = _judged(before), _judged(after)
    if len(judged_after) > len(judged_before):
        judged = judged_after[-1]
        events += [_round_result(judged, after), ("score", positions(after, options))]
        message = _round_message(judged, options)
    if after.chip != before.chip:
        events.append(("chip", {"holder": after.chip}))
    if after.champion is not None and before.champion is None:
        events.append(("game_result", {"winner": after.champion, "positions": dict(_board(after))}))
        message = f"{options.seat_of(after.champion)} WINS"
    return Report(events, message)


def positions(state: GuesstimationState, options: GuesstimationOptions) -> dict[str, int]:
    """Every piece's space from Start, by seat."""
    return {options.seat_of(player): space for player, space in _board(state)}


def _board(state: GuesstimationState) -> list[tuple[str, int]]:
    return list(zip(state.players, state.positions, strict=True))


def _judged(state: GuesstimationState) -> list[Round]:
    """Every round with an outcome, the one waiting for a chip roll-off included."""
    rounds = [*state.played, *((state.current,) if state.current is not None else ())]
    return [played for played in rounds if played.outcome is not None]


def _round_result(judged: Round, after: GuesstimationState) -> tuple[str, dict[str, Any]]:
    outcome = judged.outcome
    assert outcome is not None and judged.answer is not None
    return (
        "round_result",
        {
            "round": judged.number,
            "final": judged.final,
            "answer": number_text(judged.answer),
            "winners": list(outcome.winners),
            "exact": list(outcome.exact),
            "moves": {move.player: move.spaces for move in outcome.moves},
            "positions": dict(zip(after.players, outcome.positions, strict=True)),
            "chip": outcome.chip,
        },
    )


def _round_message(judged: Round, options: GuesstimationOptions) -> str:
    """ "A+C +2", "B +3 C -3", "A WINS FINAL": who moved, by seat."""
    outcome = judged.outcome
    assert outcome is not None
    if judged.final:
        winners = "".join(options.seat_of(player) for player in outcome.winners)
        return f"{winners} WINS FINAL" if len(winners) == 1 else f"{winners} TIED: AGAIN"
    if not outcome.moves:
        return "NOBODY MOVES"
    by_spaces: dict[int, list[str]] = {}
    for move in outcome.moves:
        by_spaces.setdefault(move.spaces, []).append(options.seat_of(move.player))
    return " ".join(
        f"{''.join(seats)} {spaces:+d}" for spaces, seats in sorted(by_spaces.items(), reverse=True)
    )


def _roll_message(
    before: GuesstimationState, after: GuesstimationState, options: GuesstimationOptions
) -> str | None:
    """The roll just made: "B ROLLED 5", "QUESTION 4", "A LEADS", "CHIP: C", "TIE: ROLL"."""
    if before.rolloff is not None:
        return _rolloff_message(before.rolloff, after, options)
    current, was = after.current, before.current
    if current is not None and was is not None and was.die is None and current.die is not None:
        return f"QUESTION {current.die}"
    return None


def _rolloff_message(
    rolloff: RollOff, after: GuesstimationState, options: GuesstimationOptions
) -> str | None:
    now = after.rolloff
    if now is not None and now.purpose is rolloff.purpose:
        if len(now.earlier) > len(rolloff.earlier):
            return "TIE: ROLL AGAIN"
        if now.rolls:
            roll = now.rolls[-1]
            return f"{options.seat_of(roll.player)} ROLLED {roll.value}"
        return None
    if rolloff.purpose is RollFor.FIRST_LEADER and after.leader is not None:
        return f"{options.seat_of(after.leader)} LEADS"
    if rolloff.purpose is RollFor.CHIP_TIE and after.chip is not None:
        return f"CHIP: {options.seat_of(after.chip)}"
    return None  # a tied duel decided: the round's result says who moved
