"""The table's durable journal: an append-only SQLite record of inputs and decisions.

Every input the controller sees (an edge with its timestamps, a clock advance, a pin read) and
every event it emits goes in, in order. Entries are committed in one transaction before any
display shows their effect (WAL, ``synchronous=FULL``), so after a power cut the journal holds
every decision that was shown and nothing that was not. Rows are never updated or deleted: an
UNDO is a new entry. A journal that cannot be read is moved aside, never silently reset.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('session', 'input', 'event')),
    t REAL NOT NULL,
    wall TEXT NOT NULL,
    body TEXT NOT NULL
);
"""


class JournalError(Exception):
    """The journal cannot be used; ``str()`` is one line naming the file."""


class JournalCorrupt(JournalError):
    def __init__(self, path: Path, moved_to: Path, reason: str) -> None:
        self.path = path
        self.moved_to = moved_to
        super().__init__(
            f"journal {path} is unreadable ({reason}): moved aside to {moved_to}; "
            "start with --new-journal to begin a new match"
        )


class JournalWriteError(JournalError):
    """A commit failed (disk full, I/O error): nothing of it was recorded."""


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    kind: str  # session | input | event
    t: float  # the controller's clock (monotonic seconds)
    wall: str  # when, for people (UTC ISO 8601)
    body: dict[str, Any]


def _wall() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        self._pending: list[tuple[str, float, str, str]] = []

    @classmethod
    def open(cls, path: Path, *, new: bool = False) -> Journal:
        """Open (or create) the journal. ``new`` moves an existing one aside first.

        An unreadable journal is moved aside with a timestamp and reported as
        ``JournalCorrupt``: the caller must not start a match on top of it.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        if new and path.exists():
            _move_aside(path, "old")
        if not path.exists():
            _create(path)
        connection: sqlite3.Connection | None = None
        try:
            connection = _connect(path)
            _check(connection)
        except (sqlite3.DatabaseError, ValueError, OSError) as error:
            if connection is not None:
                connection.close()
            moved = _move_aside(path, "corrupt")
            raise JournalCorrupt(path, moved, _reason(error)) from None
        os.chmod(path, 0o640)  # the service user's record, not the world's
        return cls(connection, path)

    # --- writing ------------------------------------------------------------------------

    def add(self, kind: str, t: float, body: dict[str, Any]) -> None:
        """Queue an entry; it is durable only after ``commit``."""
        self._pending.append((kind, t, _wall(), json.dumps(body, separators=(",", ":"))))

    @property
    def pending(self) -> int:
        return len(self._pending)

    def commit(self) -> None:
        """Write every queued entry in one transaction, or none of them."""
        if not self._pending:
            return
        try:
            with self._db:
                self._db.executemany(
                    "INSERT INTO entries(kind, t, wall, body) VALUES (?, ?, ?, ?)", self._pending
                )
        except sqlite3.Error as error:
            raise JournalWriteError(f"journal {self.path}: write failed ({error})") from None
        self._pending.clear()

    # --- reading ------------------------------------------------------------------------

    def entries(self) -> Iterator[Entry]:
        rows = self._db.execute("SELECT seq, kind, t, wall, body FROM entries ORDER BY seq")
        for seq, kind, t, wall, body in rows:
            yield Entry(seq, kind, t, wall, json.loads(body))

    def is_empty(self) -> bool:
        return self._db.execute("SELECT 1 FROM entries LIMIT 1").fetchone() is None

    def drop_pending_after(self, count: int) -> None:
        """Forget queued entries past the first ``count`` (an input that changed nothing)."""
        del self._pending[count:]

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()


def _create(path: Path) -> None:
    """Make an empty journal under another name and rename it into place: a power cut during
    creation leaves no half-made journal behind (the rename is atomic)."""
    making = path.with_name(f"{path.name}.creating")
    for leftover in (making, Path(f"{making}-journal")):
        leftover.unlink(missing_ok=True)
    connection = sqlite3.connect(making)
    try:
        connection.execute("PRAGMA synchronous=FULL")
        connection.executescript(SCHEMA)
        connection.execute(
            "INSERT INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
        )
        connection.commit()
    finally:
        connection.close()
    os.replace(making, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # the rename itself survives a power cut
    finally:
        os.close(directory)


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level="DEFERRED", check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut
    return connection


def _check(connection: sqlite3.Connection) -> None:
    (verdict,) = connection.execute("PRAGMA quick_check").fetchone()
    if verdict != "ok":
        raise ValueError(f"integrity check: {verdict}")
    row = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None or row[0] != str(SCHEMA_VERSION):
        raise ValueError(f"schema {row[0] if row else 'missing'}, expected {SCHEMA_VERSION}")
    for (body,) in connection.execute("SELECT body FROM entries"):
        json.loads(body)


def _move_aside(path: Path, why: str) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    counter = 1
    while target.exists():
        target = path.with_name(f"{path.name}.{why}-{stamp}-{counter}")
        counter += 1
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(f"{target}{suffix}")
    return target


def _reason(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__
