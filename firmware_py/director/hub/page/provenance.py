"""Where each version of a match's result came from, in words (R818): a table's report (its
number, its journal and the entry in it), the director, or a staff member by name; when; and
why it amends the version before.

A result a table reported is found in ``table_events`` by its table, round, points and the
time the hub applied it (the hub enters the result and its note in one transaction, with the
same time). A result entered at the command line as a table's has no report and is told as
the table alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from firmware_py.director.record.tournament_db import (
    TABLE_SOURCE,
    ResultEntry,
    TableEvent,
    TournamentDB,
)

DIRECTOR = "director"
APPLIED = ("recorded", "amended")  # the hub's outcomes that entered a version


@dataclass(frozen=True, slots=True)
class ResultVersion:
    version: int
    a_points: int
    b_points: int
    origin: str  # "table 3, journal 5f1c0e7a entry 12", "the director", "staff member sam"
    at: str
    reason: str | None  # why it amends the version before; None for the first


def result_versions(
    record: TournamentDB,
    round_number: int,
    table: int,
    events: Sequence[TableEvent] | None = None,
) -> tuple[ResultVersion, ...]:
    """Every version of round ``round_number``'s result at ``table``, first to current;
    ``events``: the table's reports, when the caller has read them already."""
    history = record.result_history(round_number, table)
    if not history:
        return ()
    if events is None:
        events = [e for e in record.table_events() if e.table == table]
    reports = [e for e in events if e.round == round_number and e.outcome in APPLIED]
    return tuple(
        ResultVersion(
            entry.version,
            entry.a_points,
            entry.b_points,
            origin(entry, table, reports),
            entry.entered_at,
            entry.reason,
        )
        for entry in history
    )


def origin(entry: ResultEntry, table: int, reports: Sequence[TableEvent]) -> str:
    """Who entered ``entry``, in words."""
    if entry.source == TABLE_SOURCE:
        for report in reports:
            if report.received_at == entry.entered_at and (report.a_points, report.b_points) == (
                entry.a_points,
                entry.b_points,
            ):
                return f"table {table}, journal {report.journal[:8]} entry {report.seq}"
        return entry.entered_by
    if entry.entered_by == DIRECTOR:
        return "the director"
    return f"staff member {entry.entered_by}"
