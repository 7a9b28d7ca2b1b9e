"""Rooms: named rooms (in a building, or not) holding numbered tables (issue 27, R1110-R1113).

One append-only table of its own, ``room_changes``: each row a room added (its name, building
and tables) or removed, with who and when. The rooms standing are, per name, the latest row if
it is not a removal. A table is in at most one room standing (R1111).

Like ``team_checkins`` (R1040), the table is made by the first write that needs it, in its
transaction, and by ``new`` with the rest: the schema version stays, so an older gametable reads
the record as before (tables without rooms).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalAction, InvalidInput
from rules.tournament.records import spell_tables
from rules.tournament.teams import clean_text, name_key

MAX_NAME = 64  # a room's or a building's name: a heading and a sheet's line, not a paragraph
MAX_TABLE = 999  # the table numbers a hall has; a bigger one is a typing slip (R1110)

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS room_changes (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
        name_key TEXT NOT NULL,
        building TEXT NOT NULL,
        tables TEXT NOT NULL,
        removed INTEGER NOT NULL CHECK (removed IN (0, 1)),
        changed_by TEXT NOT NULL,
        changed_at TEXT NOT NULL)""",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS room_changes_{verb}_refused BEFORE {verb.upper()}
        ON room_changes BEGIN SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for verb in ("update", "delete")
    ),
)


@dataclass(frozen=True, slots=True)
class Room:
    name: str
    building: str  # "" for none
    tables: tuple[int, ...]  # ascending
    added_by: str
    added_at: str

    @property
    def place(self) -> str:
        """Read before a table's number: "Ballroom B", or "East Hall, Ballroom B"."""
        return f"{self.building}, {self.name}" if self.building else self.name

    def to_json(self) -> dict[str, Any]:
        return {
            "room": self.name,
            "building": self.building or None,
            "tables": list(self.tables),
            "added_by": self.added_by,
            "added_at": self.added_at,
        }


def parse_tables(text: str) -> tuple[int, ...]:
    """``9-16``, ``3,5,7`` or ``1-4,9``: the table numbers, ascending, each once (R1110)."""
    expected = "expected table numbers such as 9-16 or 1,3,5 or 1-4,9"
    numbers: set[int] = set()
    for piece in text.split(","):
        part = piece.strip()
        low, dash, high = part.partition("-")
        first = _table_number(low.strip(), text, expected)
        last = _table_number(high.strip(), text, expected) if dash else first
        if last < first:
            raise InvalidInput(f"tables {text!r}: {part!r} runs backwards: {expected}")
        numbers.update(range(first, last + 1))
    return tuple(sorted(numbers))


def _table_number(text: str, whole: str, expected: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise InvalidInput(f"tables {whole!r}: {text!r} is not a table number: {expected}")
    number = int(text)
    if not 1 <= number <= MAX_TABLE:
        raise InvalidInput(
            f"tables {whole!r}: table {number} is out of range: expected 1 to {MAX_TABLE}"
        )
    return number


def check_room_name(text: str, what: str = "the room") -> str:
    """A room's or building's name as kept: one line, plain text, 1 to 64 characters."""
    cleaned = clean_text(text, what)
    if not cleaned and what == "the room":
        raise InvalidInput(f"{what} is empty: expected a name such as 'Ballroom B'")
    if len(cleaned) > MAX_NAME:
        raise InvalidInput(f"{what} is {len(cleaned)} characters: expected at most {MAX_NAME}")
    return cleaned


def _make(db: sqlite3.Connection) -> None:
    for statement in SCHEMA:
        db.execute(statement)


def rooms(db: sqlite3.Connection) -> tuple[Room, ...]:
    """The rooms standing, by their first table."""
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'room_changes'")
    if found.fetchone() is None:
        return ()
    latest = db.execute(
        """SELECT name, building, tables, removed, changed_by, changed_at FROM room_changes c
           WHERE id = (SELECT MAX(id) FROM room_changes WHERE name_key = c.name_key)"""
    )
    standing = [
        Room(str(row[0]), str(row[1]), _tables(str(row[2])), str(row[4]), str(row[5]))
        for row in latest
        if not row[3]
    ]
    return tuple(sorted(standing, key=lambda room: room.tables))


def _tables(text: str) -> tuple[int, ...]:
    return tuple(int(number) for number in text.split(","))


def add(
    db: sqlite3.Connection,
    name: str,
    tables: Iterable[int],
    *,
    building: str = "",
    now: str,
    by: str,
) -> Room:
    """Add a room holding ``tables`` (in the caller's transaction); refused in words when the
    name is taken or a table is already in another room (R1111)."""
    name = check_room_name(name)
    building = check_room_name(building, "the building")
    numbers = tuple(sorted(set(tables)))
    if not numbers:
        raise InvalidInput(f"room {name!r}: no tables: expected table numbers such as 9-16")
    standing = rooms(db)
    for room in standing:
        if name_key(room.name) == name_key(name):
            raise IllegalAction(
                f"a room named {room.name!r} already exists (tables {spell_tables(room.tables)}): "
                f"remove it first to change it"
            )
    for room in standing:
        shared = sorted(set(room.tables) & set(numbers))
        if shared:
            raise IllegalAction(
                f"{'table' if len(shared) == 1 else 'tables'} {spell_tables(shared)} "
                f"{'is' if len(shared) == 1 else 'are'} already in {room.name}: a table is in "
                f"one room at most (remove {room.name!r} first)"
            )
    _make(db)
    db.execute(
        """INSERT INTO room_changes (name, name_key, building, tables, removed, changed_by,
           changed_at) VALUES (?,?,?,?,0,?,?)""",
        (name, name_key(name), building, ",".join(map(str, numbers)), by, now),
    )
    return Room(name, building, numbers, by, now)


def remove(
    db: sqlite3.Connection,
    name: str,
    *,
    now: str,
    by: str,
    seen: tuple[int, ...] | None = None,
) -> Room:
    """Remove a room (in the caller's transaction): its tables are then in no room. ``seen``:
    the room's tables as a page showed them; a room that holds others now (removed and added
    again since) is not removed (R1115)."""
    standing = {name_key(room.name): room for room in rooms(db)}
    room = standing.get(name_key(name))
    if room is None:
        known = ", ".join(repr(room.name) for room in standing.values()) or "none yet"
        raise InvalidInput(f"unknown room {name!r}: expected one of the rooms ({known})")
    if seen is not None and seen != room.tables:
        raise IllegalAction(
            f"room {room.name!r} has changed since this page was loaded (tables "
            f"{spell_tables(seen)} then, {spell_tables(room.tables)} now): nothing removed; "
            "look at the rooms again"
        )
    db.execute(
        """INSERT INTO room_changes (name, name_key, building, tables, removed, changed_by,
           changed_at) VALUES (?,?,?,?,1,?,?)""",
        (room.name, name_key(room.name), room.building, ",".join(map(str, room.tables)), by, now),
    )
    return room


def history(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every room added or removed, first to last, with who and when: the export's."""
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'room_changes'")
    if found.fetchone() is None:
        return []
    rows = db.execute(
        """SELECT name, building, tables, removed, changed_by, changed_at FROM room_changes
           ORDER BY id"""
    )
    return [
        {
            "room": row[0],
            "building": row[1] or None,
            "tables": list(_tables(row[2])),
            "change": "removed" if row[3] else "added",
            "by": row[4],
            "at": row[5],
        }
        for row in rows
    ]


def room_of(standing: Iterable[Room], table: int) -> Room | None:
    """The room ``table`` is in, or None."""
    return next((room for room in standing if table in room.tables), None)


def table_label(standing: Iterable[Room], table: int) -> str:
    """ "Ballroom B, table 14" for a table in a room; "table 14" for one in none (R1112)."""
    room = room_of(standing, table)
    return f"table {table}" if room is None else f"{room.place}, table {table}"
