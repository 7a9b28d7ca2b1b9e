"""The matches' results and their history: every version as entered, the latest standing.

A result is never changed in place: an amendment is a new row that supersedes the current one
and says why (``supersedes``, ``reason``), so the history of a match stays readable, first to
current. Who entered it (a table through the hub, or a director) is its ``source``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from firmware_py.director.record.schema import TABLE_SOURCE
from firmware_py.director.record.venue import read_venue
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import MatchResult

_PAIRING_JOIN = """JOIN live_pairings p ON p.id = r.pairing
    JOIN teams a ON a.id = p.team_a JOIN teams b ON b.id = p.team_b"""


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One version of a match's result, as entered."""

    version: int
    a_points: int
    b_points: int
    source: str
    entered_by: str
    entered_at: str
    reason: str | None  # why it amends the version before; None for the first

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "a_points": self.a_points,
            "b_points": self.b_points,
            "source": self.source,
            "entered_by": self.entered_by,
            "entered_at": self.entered_at,
            "reason": self.reason,
        }


def results(db: sqlite3.Connection) -> tuple[MatchResult, ...]:
    """The current (latest) result of every match that has one."""
    rows = db.execute(
        f"""SELECT p.round, p.table_number, a.name AS a, b.name AS b, r.a_points, r.b_points
            FROM results r {_PAIRING_JOIN}
            WHERE NOT EXISTS (SELECT 1 FROM results s WHERE s.supersedes = r.id)
            ORDER BY p.round, p.table_number"""
    )
    return tuple(
        MatchResult(
            row["round"], row["table_number"], row["a"], row["b"], row["a_points"], row["b_points"]
        )
        for row in rows
    )


def result_history(
    db: sqlite3.Connection, round_number: int, table: int
) -> tuple[ResultEntry, ...]:
    """Every version of one match's result, first to current."""
    rows = db.execute(
        """SELECT r.* FROM results r WHERE r.pairing = (SELECT id FROM live_pairings
           WHERE round = ? AND table_number = ?) ORDER BY r.id""",
        (round_number, table),
    ).fetchall()
    return tuple(
        ResultEntry(
            version,
            row["a_points"],
            row["b_points"],
            row["source"],
            row["entered_by"],
            row["entered_at"],
            row["reason"],
        )
        for version, row in enumerate(rows, start=1)
    )


def last_result_change(db: sqlite3.Connection) -> str | None:
    found: str | None = db.execute("SELECT MAX(entered_at) FROM results").fetchone()[0]
    return found


def add_result(
    db: sqlite3.Connection,
    result: MatchResult,
    *,
    now: str,
    by: str,
    source: str = TABLE_SOURCE,
    amend_reason: str | None = None,
) -> ResultEntry:
    """Store a match's result (in the caller's transaction): a second one for the same match
    is refused in words unless it amends the current version with a reason."""
    where = f"round {result.round} table {result.table}"
    pairing = db.execute(
        "SELECT id FROM live_pairings WHERE round = ? AND table_number = ?",
        (result.round, result.table),
    ).fetchone()
    if pairing is None:
        raise InvalidInput(f"{where} is not paired: expected a table of a paired round")
    current = _current_result(db, pairing["id"])
    if amend_reason is None and current is not None:
        raise IllegalAction(
            f"{where} already has a result ({current['a_points']}-{current['b_points']}, "
            f"entered by {current['entered_by']} at "
            f"{read_venue(db).when(current['entered_at'])}): "
            "expected an amendment with a reason to change it"
        )
    if amend_reason is not None:
        if current is None:
            raise IllegalAction(f"{where} has no result to amend: expected a first result")
        if not amend_reason.strip():
            raise InvalidInput("an amendment with an empty reason: expected why it changes")
    db.execute(
        """INSERT INTO results (pairing, a_points, b_points, source, entered_by, entered_at,
           supersedes, reason) VALUES (?,?,?,?,?,?,?,?)""",
        (
            pairing["id"],
            result.a_points,
            result.b_points,
            source,
            by,
            now,
            None if current is None else current["id"],
            None if amend_reason is None else amend_reason.strip(),
        ),
    )
    return result_history(db, result.round, result.table)[-1]


def _current_result(db: sqlite3.Connection, pairing: int) -> sqlite3.Row | None:
    row: sqlite3.Row | None = db.execute(
        """SELECT * FROM results r WHERE r.pairing = ?
           AND NOT EXISTS (SELECT 1 FROM results s WHERE s.supersedes = r.id)""",
        (pairing,),
    ).fetchone()
    return row
