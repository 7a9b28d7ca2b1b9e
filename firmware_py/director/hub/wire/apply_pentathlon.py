"""A Pentathlon table's confirmed game result, into the record's Pentathlon event once (R268).

The decision is the table's ``game_over`` (the monitor confirmed the result) in a session
started by ``pentathlon.start``: the winner and how, each player's final score and challenges.
The table knows its game but neither the round nor the players: the result goes to the latest
round's seat at that table for that game (``tournament pentathlon seat``). Then as for a
GeoPlunge match (R170-R175): recorded, unchanged, amended (the table's own result changed),
a conflict with the director's entry, superseded by a later decision of the same journal, or
refused saying why; and once per (table, journal id, entry), kept in ``table_events``.
"""

from __future__ import annotations

from typing import Any

from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import TABLE_SOURCE, TableEvent, TournamentDB
from firmware_py.table.hub_wire import Decision, journal_names
from rules.errors import RuleError
from rules.pentathlon.catalogue import Game
from rules.pentathlon.results import How
from rules.tournament.pentathlon import SIDES, Challenges, GameResult
from rules.tournament.pentathlon_check import check_result

GAME_OVER = "game_over"
START = "pentathlon.start"


def is_pentathlon_result(decision: Decision) -> bool:
    return decision.name == GAME_OVER and decision.session.get("action") == START


def apply_game_over(
    record: TournamentDB, table: int, decision: Decision, *, now: str
) -> TableEvent | None:
    """Apply the decision in one transaction with the note of it; None if applied before."""
    with record.writing():
        if record.table_event_seen(table, decision.journal, decision.seq):
            return None
        round_number, scores, outcome, note = _judged(
            PentathlonRecord(record), table, decision, now
        )
        event = TableEvent(
            table,
            decision.journal,
            decision.seq,
            decision.wall,
            now,
            round_number,
            scores[0],
            scores[1],
            outcome,
            note,
        )
        record.add_table_event(event)
    return event


def _judged(
    event: PentathlonRecord, table: int, decision: Decision, now: str
) -> tuple[int | None, tuple[int | None, int | None], str, str]:
    """(round, scores, outcome, note); a result recorded or amended is written here."""
    nothing: tuple[int | None, int | None] = (None, None)
    if not event.has_event():
        return (
            None,
            nothing,
            "not recorded",
            "a Pentathlon game: the record holds no Pentathlon event",
        )
    try:
        game = Game.parse(str(decision.session.get("game")))
    except RuleError as error:
        return None, nothing, "refused", str(error)
    seat = event.latest_seat(table, game)
    if seat is None:
        return (
            None,
            nothing,
            "refused",
            f"table {table} is not seated for {game.value} in any round",
        )
    try:
        result = GameResult(seat, *_reported(decision.event), _zero_points(decision.event))
    except (RuleError, KeyError, TypeError, ValueError) as error:
        return seat.round, nothing, "refused", f"the result cannot be read: {error}"
    try:
        check_result(result)  # a table's result is the rules core's; a hand-edited one may not be
    except RuleError as error:
        return seat.round, result.scores, "refused", f"the result contradicts itself: {error}"
    scores = result.scores
    by = f"table {table}"
    later = event.record.later_table_event(table, decision.journal, seat.round, decision.seq)
    if later is not None:
        return (
            seat.round,
            scores,
            "superseded",
            f"{by} reported a later result (journal entry {later})",
        )
    current = event.current(seat.round, seat.table)
    said = _said(result)
    if current is None:
        entry = event.add_result(result, now=now, by=by, source=TABLE_SOURCE)
        return seat.round, scores, "recorded", f"{said}, version {entry.version}"
    if current.result == result:
        return (
            seat.round,
            scores,
            "unchanged",
            f"{said} is already recorded (by {current.entered_by})",
        )
    by_journal = event.record.journal_of_table_result(table, seat.round)
    if by_journal is not None and by_journal != decision.journal:
        # another journal of the table's account: the hub cannot tell a new journal of the
        # table from one a client invented (R928)
        this, that = journal_names(decision.journal, by_journal)
        return (
            seat.round,
            scores,
            "conflict",
            (
                f"the table's journal {this} reports {said}; {_said(current.result)}, reported "
                f"by its journal {that}, stands: amend it with a reason if the table is right"
            ),
        )
    if current.source == TABLE_SOURCE and current.entered_by == by:
        reason = f"{by} changed its result at the table (journal entry {decision.seq})"
        entry = event.add_result(result, now=now, by=by, source=TABLE_SOURCE, amend_reason=reason)
        return (
            seat.round,
            scores,
            "amended",
            f"{_said(current.result)} became {said}, version {entry.version}",
        )
    return (
        seat.round,
        scores,
        "conflict",
        (
            f"the table reports {said}; {_said(current.result)} entered by {current.entered_by} "
            "stands: amend it with a reason if the table is right"
        ),
    )


def _reported(
    event: dict[str, Any],
) -> tuple[str | None, How, tuple[int | None, int | None], tuple[Challenges, Challenges]]:
    winner = event["winner"]
    if winner is not None and not isinstance(winner, str):
        raise ValueError(f"winner {winner!r}")
    scores = event.get("scores") or {}
    pair = tuple(_score(scores.get(side)) for side in SIDES)
    counts = event.get("challenges") or {}
    challenges = tuple(
        Challenges.from_json(counts[side]) if side in counts else Challenges() for side in SIDES
    )
    return winner, How(event["how"]), (pair[0], pair[1]), (challenges[0], challenges[1])


def _zero_points(event: dict[str, Any]) -> tuple[bool, bool]:
    """Who the Tournament Director gave 0 points for a Code of Conduct infraction, from the
    table's ``infractions`` (R789, R794); a game without them has none."""
    infractions = event.get("infractions", [])
    if not isinstance(infractions, list):
        raise ValueError(f"infractions {infractions!r}: expected a list")
    zeroed = set()
    for infraction in infractions:
        if not (
            isinstance(infraction, dict)
            and infraction.get("player") in SIDES
            and type(infraction.get("zero_points")) is bool
            and type(infraction.get("removal")) is bool
        ):
            raise ValueError(
                f"infraction {infraction!r}: expected its player (A or B), zero_points and removal"
            )
        if infraction["zero_points"]:
            zeroed.add(infraction["player"])
    return ("A" in zeroed, "B" in zeroed)


def _score(value: object) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise ValueError(f"score {value!r}: expected a whole number")
    return value


def _said(result: GameResult) -> str:
    seat = result.seat
    names = dict(zip(SIDES, (seat.a, seat.b), strict=True))
    zero = "".join(f", 0 points to {names[side]} ({side})" for side in result.zeroed)
    if result.winner is None:
        return f"a tie ({result.how.value}){zero}"
    name = names[result.winner]
    return f"{name} ({result.winner}) wins ({result.how.value}){zero}"
