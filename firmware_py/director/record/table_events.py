"""The results the tables reported through the hub, and what the hub made of each.

One row of ``table_events`` per decision of a table's journal (the table, the journal's id, the
decision's place in it), written in the transaction that applied it (``hub/wire/apply.py``), so
a decision is applied once however often it arrives; with the outcome (one of ``OUTCOMES``) and
a note the problem queue and a match's history show.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from firmware_py.director.record.schema import HUB_SCHEMA_VERSION
from firmware_py.director.record.upgrades import schema_version

_COLUMNS = """table_number, journal, seq, decided_at, received_at, round, a_points, b_points,
    outcome, note"""


@dataclass(frozen=True, slots=True)
class TableEvent:
    """A match result a table reported through the hub, and what the hub made of it."""

    table: int
    journal: str  # the id of the table's journal
    seq: int  # the decision's place in it
    decided_at: str  # the table's clock
    received_at: str  # the hub's clock
    round: int | None
    a_points: int | None
    b_points: int | None
    outcome: str  # one of OUTCOMES
    note: str

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "journal": self.journal,
            "seq": self.seq,
            "decided_at": self.decided_at,
            "received_at": self.received_at,
            "round": self.round,
            "a_points": self.a_points,
            "b_points": self.b_points,
            "outcome": self.outcome,
            "note": self.note,
        }


def seen(db: sqlite3.Connection, table: int, journal: str, seq: int) -> bool:
    return (
        db.execute(
            "SELECT 1 FROM table_events WHERE table_number = ? AND journal = ? AND seq = ?",
            (table, journal, seq),
        ).fetchone()
        is not None
    )


def later(
    db: sqlite3.Connection, table: int, journal: str, round_number: int, seq: int
) -> int | None:
    row = db.execute(
        """SELECT MAX(seq) FROM table_events
           WHERE table_number = ? AND journal = ? AND round = ? AND seq > ?""",
        (table, journal, round_number, seq),
    ).fetchone()
    return None if row[0] is None else int(row[0])


def find(db: sqlite3.Connection, table: int, journal: str, seq: int) -> TableEvent | None:
    row = db.execute(
        f"""SELECT {_COLUMNS} FROM table_events
           WHERE table_number = ? AND journal = ? AND seq = ?""",
        (table, journal, seq),
    ).fetchone()
    return None if row is None else TableEvent(*row)


def journal_of_result(db: sqlite3.Connection, table: int, round_number: int) -> str | None:
    row = db.execute(
        """SELECT journal FROM table_events
           WHERE table_number = ? AND round = ? AND outcome IN ('recorded', 'amended')
           ORDER BY id DESC LIMIT 1""",
        (table, round_number),
    ).fetchone()
    return None if row is None else str(row[0])


def in_order(db: sqlite3.Connection) -> tuple[TableEvent, ...]:
    if schema_version(db) < HUB_SCHEMA_VERSION:
        return ()
    rows = db.execute(f"SELECT {_COLUMNS} FROM table_events ORDER BY id")
    return tuple(TableEvent(*row) for row in rows)


def add(db: sqlite3.Connection, event: TableEvent) -> None:
    db.execute(
        f"""INSERT INTO table_events ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)""",
        (
            event.table,
            event.journal,
            event.seq,
            event.decided_at,
            event.received_at,
            event.round,
            event.a_points,
            event.b_points,
            event.outcome,
            event.note,
        ),
    )
