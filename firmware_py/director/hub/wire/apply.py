"""A table's reported match result, into the tournament record once (docs/hub.md, R170-R175).

A decision is known by its table, its journal's id and its place in the journal: the first
delivery is applied and kept in ``table_events`` in the same transaction, so a second delivery
of it changes nothing. (A table's new journal numbers its entries from 1 again: its id tells
its decisions from the old journal's.) Only a
match's result bears on the record; every other decision is for the director's eyes.

What the hub makes of a result, by the rules the director's own entries follow (R170-R175):

- no result yet: it is recorded, entered by "table N";
- the same points as the current result: nothing changes;
- other points, the current result being this table's own, reported by the same journal: the
  table changed its result (an UNDO and a replay at the table), recorded as an amendment that
  says so; reported by another journal of the table, a conflict (R928: a client on the table's
  account can invent a journal, and an amendment would replace the table's result unseen);
- other points, the current result being the director's (or anyone else's): a conflict; the
  director's entry stands until the director amends it with a reason;
- a result older than one this table already reported for the round: superseded;
- a match the record does not have (a round not paired, a table not in it) or points no match
  scores: refused, saying why;
- no match of the tournament (the championship, a single game, the other format): not recorded;
- anything, while the tournament is closed (R850): nothing is written but the note. Points other
  than the record's are a conflict whose note says the tournament was closed, by whom and when,
  and how to reopen: it stays in the director's queue until the result is amended (after
  reopening) or agrees; a match without a result is refused, likewise kept.

A Pentathlon table's confirmed game (``game_over``) goes to the record's Pentathlon event by
the same rules (``apply_pentathlon``, R268).

Applying one costs the same whatever the tournament's size (R725): a duplicate is known by the
index of ``table_events`` alone, and a result is checked by ``rules.tournament``'s own check
(``checked_result``) over lookups of the one match it is for, never the whole record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from firmware_py.director.hub.wire.apply_pentathlon import apply_game_over, is_pentathlon_result
from firmware_py.director.record.closing import Closing
from firmware_py.director.record.tournament_db import (
    TABLE_SOURCE,
    ResultEntry,
    TableEvent,
    TournamentDB,
)
from firmware_py.table.hub_wire import Decision, journal_names
from rules.errors import RuleError
from rules.tournament import TournamentConfig, TournamentFormat
from rules.tournament.records import MAX_MATCH_POINTS
from rules.tournament.state import checked_result

MATCH_RESULT = "match_result"
# The start action of a tournament match at the table, by the tournament's format.
MATCH_STARTS = {"match.start": TournamentFormat.COMBO4, "match3.start": TournamentFormat.COMBO3}


@dataclass(frozen=True, slots=True)
class Applied:
    """What became of one delivery: ``event`` is None for a decision already applied."""

    table: int
    seq: int
    event: TableEvent | None


def bears_on_the_record(decision: Decision) -> bool:
    return decision.name == MATCH_RESULT or is_pentathlon_result(decision)


@dataclass(frozen=True, slots=True)
class _Reported:
    """A table's match result as it arrived: its round and points when it has them."""

    table: int
    decision: Decision
    received_at: str

    @property
    def start(self) -> str:
        return str(self.decision.session.get("action"))

    @property
    def round(self) -> int | None:
        number = self.decision.session.get("round")
        return number if self.start in MATCH_STARTS and _count(number, 1) else None

    @property
    def points(self) -> tuple[int, int] | None:
        """The points as the table sent them, any sign: judged in ``_points_fault``."""
        a, b = self.decision.event.get("A"), self.decision.event.get("B")
        return (a, b) if type(a) is int and type(b) is int else None

    @property
    def by(self) -> str:
        return f"table {self.table}"

    def event(self, outcome: str, note: str) -> TableEvent:
        a, b = self.points or (None, None)
        return TableEvent(
            self.table,
            self.decision.journal,
            self.decision.seq,
            self.decision.wall,
            self.received_at,
            self.round,
            a,
            b,
            outcome,
            note,
        )


def apply_result(record: TournamentDB, table: int, decision: Decision, *, now: str) -> Applied:
    """Apply a table's ``match_result`` decision (or a Pentathlon table's ``game_over``), once,
    in one transaction with the note of it."""
    if is_pentathlon_result(decision):
        return Applied(table, decision.seq, apply_game_over(record, table, decision, now=now))
    with record.writing():
        config = record.config()  # a record without a tournament: InvalidInput, as ever
        if record.table_event_seen(table, decision.journal, decision.seq):
            return Applied(table, decision.seq, None)
        reported = _Reported(table, decision, now)
        event = reported.event(*_judged(record, config, reported))
        record.add_table_event(event)
    return Applied(table, decision.seq, event)


def _judged(record: TournamentDB, config: TournamentConfig, reported: _Reported) -> tuple[str, str]:
    """The outcome and its note; a result recorded or amended is written here."""
    number, points = reported.round, reported.points
    if number is None:
        return "not recorded", _no_tournament_match(reported.start)
    played, held = MATCH_STARTS[reported.start], config.format
    if played is not held:
        return "not recorded", f"a {played.value} match in a {held.value} tournament"
    fault = _points_fault(reported.decision.event, played.points_step)
    if fault is not None or points is None:
        return "refused", fault or "the result has no points"
    decision = reported.decision
    later = record.later_table_event(reported.table, decision.journal, number, decision.seq)
    if later is not None:
        return "superseded", f"{reported.by} reported a later result (journal entry {later})"
    try:
        result = checked_result(config, record.paired_rounds(), number, reported.table, points)
    except RuleError as error:
        return "refused", str(error)
    score = f"{points[0]}-{points[1]}"
    current = record.current_result(number, reported.table)
    closed = record.closing()
    if closed is not None:
        return _while_closed(closed, score, current)
    if current is None:
        entry = record.add_result(
            result, now=reported.received_at, by=reported.by, source=TABLE_SOURCE
        )
        return "recorded", f"{score}, version {entry.version}"
    was = f"{current.a_points}-{current.b_points}"
    if was == score:
        return "unchanged", f"{score} is already recorded (by {current.entered_by})"
    if current.source == TABLE_SOURCE and current.entered_by == reported.by:
        by_journal = record.journal_of_table_result(reported.table, number)
        if by_journal is not None and by_journal != decision.journal:
            # another journal of the table's account: a new journal after --new-journal, or a
            # client that read the table's password; the hub cannot tell which (R928)
            this, that = journal_names(decision.journal, by_journal)
            return "conflict", (
                f"the table's journal {this} reports {score}; {was}, reported by its journal "
                f"{that}, stands: amend it with a reason if the table is right"
            )
        entry = record.add_result(
            result,
            now=reported.received_at,
            by=reported.by,
            source=TABLE_SOURCE,
            amend_reason=(
                f"{reported.by} changed its result at the table "
                f"(journal entry {reported.decision.seq})"
            ),
        )
        return "amended", f"{was} became {score}, version {entry.version}"
    return "conflict", (
        f"the table reports {score}; {was} entered by {current.entered_by} stands: "
        "amend it with a reason if the table is right"
    )


def _while_closed(closed: Closing, score: str, current: ResultEntry | None) -> tuple[str, str]:
    """A table's result arriving while the tournament is closed: nothing changes (R850)."""
    if current is not None and f"{current.a_points}-{current.b_points}" == score:
        return "unchanged", f"{score} is already recorded (by {current.entered_by})"
    said = str(closed.refusal(f"the table reports {score}, not applied"))
    if current is None:
        return "refused", f"{said}; then enter the result"
    return "conflict", (
        f"{said}; {current.a_points}-{current.b_points} entered by {current.entered_by} "
        "stands: once reopened, amend it with a reason if the table is right"
    )


def _points_fault(event: dict[str, object], step: int) -> str | None:
    """What is wrong with a result's points, in words (R198), or None."""
    for side in ("A", "B"):
        points = event.get(side)
        if points is None:
            return f"the result has no points for team {side}: expected a whole number"
        if type(points) is not int:
            shown = json.dumps(points)[:20]
            return f"team {side} points {shown} is not a whole number: expected one, like 40"
        expected = f"expected 0 to {MAX_MATCH_POINTS}, a multiple of {step}"
        if points < 0:
            return f"team {side} points {points} is a negative score: {expected}"
        if points > MAX_MATCH_POINTS:
            return f"team {side} points {points} is more than any match scores: {expected}"
        if points % step:
            return f"team {side} points {points} is not a multiple of {step}: {expected}"
    return None


def _count(value: object, lowest: int) -> bool:
    return type(value) is int and value >= lowest


def _no_tournament_match(start: str) -> str:
    if start == "championship.start":
        return "the championship's result is the director's to enter"
    return f"a {start} session is no match of the tournament"
