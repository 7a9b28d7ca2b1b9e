"""What a STATES action decided, announced as events, and the OLED's big line for it.

A claim is a ``claim`` (the states shown, the verdict, who judged); a knock a ``knock``; a hand
scored a ``hand_result`` (how, the winners, each side's points and bonus) and a ``score``; the
end of the game a ``game_result``. The big line is short (seat letters, at most 15 characters).
"""

from __future__ import annotations

from typing import Any

from firmware_py.families.states.options import StatesOptions
from firmware_py.table.family import Report
from rules.states.table_game import TableGame

Events = list[tuple[str, dict[str, Any]]]


def report(before: TableGame, after: TableGame, options: StatesOptions) -> Report:
    events: Events = []
    message: str | None = None
    was, now = before.hand, after.hand
    if now is not None and was is not None and len(now.claims) > len(was.claims):
        claim = now.claims[-1]
        events.append(
            (
                "claim",
                {
                    "player": claim.player,
                    "states": list(claim.states),
                    "connects": claim.connects,
                    "judged_by": claim.by,
                    "reason": claim.reason,
                },
            )
        )
        seat = options.seat_of(claim.player)
        message = f"{seat} CONNECTS" if claim.connects else f"{seat}: NO, PLAY ON"
    if now is not None and now.knocker is not None and (was is None or was.knocker is None):
        events.append(("knock", {"player": now.knocker}))
        message = f"{options.seat_of(now.knocker)} KNOCKS"
    if now is not None and now.won is not None and (was is None or was.won is None):
        winners = "".join(options.seat_of(player) for player in now.won.winners)
        message = f"{winners} WINS HAND" if now.won.showdown is not None else message
    if len(after.played) > len(before.played):
        record = after.played[-1]
        won = record.won
        events.append(
            (
                "hand_result",
                {
                    "hand": record.number,
                    "how": won.how.value,
                    "winners": list(won.winners),
                    "points": dict(zip(after.sides, record.points, strict=True)),
                    "bonus": dict(zip(after.sides, record.bonus, strict=True)),
                },
            )
        )
        events.append(("score", scores(after, options)))
        message = " ".join(
            f"{_side_seats(after, index, options)} +{points}"
            for index, points in enumerate(record.points)
            if points
        )
    if after.champion is not None and before.champion is None:
        events.append(
            (
                "game_result",
                {
                    "winner": after.champion,
                    "scores": dict(zip(after.sides, after.scores, strict=True)),
                },
            )
        )
        index = after.sides.index(after.champion)
        message = f"{_side_seats(after, index, options)} WINS"
    return Report(events, message)


def scores(game: TableGame, options: StatesOptions) -> dict[str, int]:
    """Each seat's score: its side's (partners show the same)."""
    return {options.seat_of(player): game.scores[game.side_of(player)] for player in game.players}


def _side_seats(game: TableGame, side: int, options: StatesOptions) -> str:
    return "+".join(options.seat_of(p) for p in game.players if game.side_of(p) == side)
