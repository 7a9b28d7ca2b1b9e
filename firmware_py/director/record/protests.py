"""Protests: what a team or a coach protests, of a round or one of its tables, with who and when.

A protest is lodged even while the tournament is closed (R850): it changes no result, and is
often why a director reopens.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from firmware_py.director.record.rounds import check_round_and_table
from rules.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Protest:
    number: int
    round: int | None
    table: int | None
    lodged_by: str
    lodged_at: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "protest": self.number,
            "round": self.round,
            "table": self.table,
            "lodged_by": self.lodged_by,
            "lodged_at": self.lodged_at,
            "text": self.text,
        }


def add_protest(
    db: sqlite3.Connection,
    round_number: int | None,
    table: int | None,
    text: str,
    *,
    now: str,
    by: str,
) -> Protest:
    if not text.strip():
        raise InvalidInput("a protest with no text: expected what is protested")
    if round_number is not None:
        check_round_and_table(db, round_number, table)
    cursor = db.execute(
        """INSERT INTO protests (round, table_number, lodged_by, lodged_at, text)
           VALUES (?,?,?,?,?)""",
        (round_number, table, by, now, text.strip()),
    )
    assert cursor.lastrowid is not None
    return Protest(cursor.lastrowid, round_number, table, by, now, text.strip())


def protests(db: sqlite3.Connection) -> tuple[Protest, ...]:
    rows = db.execute("SELECT * FROM protests ORDER BY id")
    return tuple(
        Protest(
            row["id"],
            row["round"],
            row["table_number"],
            row["lodged_by"],
            row["lodged_at"],
            row["text"],
        )
        for row in rows
    )
