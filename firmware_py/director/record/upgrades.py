"""An older record brought up to date in place: the tables and indexes its schema lacks.

``schema`` says what each version adds; this module runs it on an open record's connection (in
the caller's write transaction), and reads which version the record is at. ``TournamentDB``'s
``upgrade_for_*`` and ``index_for_hub`` call it as the hub starts; a write that needs a newer
table (undoing a pairing, a playoff game's decision) calls it in its own transaction, so a
refusal leaves the record as it was.
"""

from __future__ import annotations

import sqlite3

from firmware_py.director.record.schema import (
    DECISIONS_SCHEMA,
    DECISIONS_SCHEMA_VERSION,
    HUB_SCHEMA,
    HUB_SCHEMA_VERSION,
    PENTATHLON_INDEXES,
    PENTATHLON_SCHEMA,
    PENTATHLON_SCHEMA_VERSION,
    RESULT_INDEXES,
    UNDO_SCHEMA,
    UNDO_SCHEMA_VERSION,
    create_indexes,
)

# What each version adds over the one before, oldest first.
_PARTS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (HUB_SCHEMA_VERSION, HUB_SCHEMA),
    (PENTATHLON_SCHEMA_VERSION, (*PENTATHLON_SCHEMA, *create_indexes(PENTATHLON_INDEXES))),
    (UNDO_SCHEMA_VERSION, UNDO_SCHEMA),
    (DECISIONS_SCHEMA_VERSION, DECISIONS_SCHEMA),
)


def schema_version(db: sqlite3.Connection) -> int:
    """The record's schema version (SQLite's ``user_version``)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def upgrade(db: sqlite3.Connection, schema: int, to: int) -> None:
    """The tables a record of ``schema`` lacks up to schema ``to`` (in a transaction)."""
    for version, statements in _PARTS:
        if schema < version <= to:
            for statement in statements:
                db.execute(statement)
    db.execute(f"PRAGMA user_version = {to}")


def missing_indexes(db: sqlite3.Connection) -> dict[str, str]:
    """The indexes the hub's lookups use (R725) that the record lacks, by name."""
    wanted = dict(RESULT_INDEXES)
    if schema_version(db) >= PENTATHLON_SCHEMA_VERSION:
        wanted.update(PENTATHLON_INDEXES)
    for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'"):
        wanted.pop(row[0], None)
    return wanted
