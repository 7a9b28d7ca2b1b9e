"""The table's durable journal: an append-only SQLite record of inputs and decisions.

Every input the controller sees (an edge with its timestamps, a clock advance, a pin read) and
every event it emits goes in, in order. Entries are committed in one transaction before any
display shows their effect (WAL, ``synchronous=FULL``), so after a power cut the journal holds
every decision that was shown and nothing that was not. Rows are never updated or deleted: an
UNDO is a new entry. Every row is checked on the way back (its checksum, its shape, the
sequence without gaps): a damaged journal is refused, never shown and never silently reset.

With its outbox in use (a table on the tournament hub, docs/hub.md) each decision is also queued
in the ``outbox`` table in the same transaction, and leaves it only once the hub has confirmed
that its record holds it: the outbox is a queue of entries still to deliver, not part of the record.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_py.table import journal_file
from firmware_py.table.journal_file import APPLICATION_ID, Found, JournalError
from firmware_py.table.journal_format import (
    ENTRY_COLUMNS,
    ROW_COLUMNS,
    BadRow,
    Entry,
    checksum,
    decode_row,
    encode_body,
    outbox_checksum,
)

__all__ = ["Entry", "Journal", "JournalCorrupt", "JournalError", "JournalWriteError", "Outgoing"]

# 3: the outbox (docs/hub.md); 2: entries carry a checksum, the file an application id (R125).
# A schema-2 journal is read as it is, and given its (empty) outbox when opened to record to.
SCHEMA_VERSION = 3
OUTBOX_SCHEMA = """
CREATE TABLE outbox (
    seq INTEGER PRIMARY KEY REFERENCES entries(seq),
    session TEXT NOT NULL,
    crc INTEGER NOT NULL
);
"""
SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('session', 'input', 'event')),
    t REAL NOT NULL,
    wall TEXT NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL
);
{OUTBOX_SCHEMA}"""
TABLES_OF_SCHEMA = {2: {"meta", "entries"}, 3: {"meta", "entries", "outbox"}}
# SQLite's result codes for a problem with the file's content; any other code (busy, read-only,
# I/O error, disk full, cannot open) is a problem with where it lives, and leaves it be.
DAMAGE_CODES = {
    sqlite3.SQLITE_ERROR,
    sqlite3.SQLITE_CORRUPT,
    sqlite3.SQLITE_NOTADB,
    sqlite3.SQLITE_SCHEMA,
    sqlite3.SQLITE_MISMATCH,
    sqlite3.SQLITE_FORMAT,
    sqlite3.SQLITE_RANGE,
    sqlite3.SQLITE_TOOBIG,
    sqlite3.SQLITE_CONSTRAINT,
}


class JournalCorrupt(JournalError):
    """A journal whose content cannot be trusted. ``moved_to`` is where ``gametable run`` put
    it; everything else leaves it where it is."""

    def __init__(self, path: Path, reason: str, moved_to: Path | None = None) -> None:
        self.path = path
        self.reason = reason
        self.moved_to = moved_to
        if moved_to is None:
            message = f"journal {path} is damaged ({reason}); it was left as it is"
        else:
            message = (
                f"journal {path} is damaged ({reason}): moved aside to {moved_to}; "
                "the next start begins a new match"
            )
        super().__init__(message)


class JournalWriteError(JournalError):
    """A commit failed (disk full, I/O error): nothing of it was recorded."""


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A decision waiting in the outbox: the event entry and the start of its session."""

    seq: int
    wall: str
    session: dict[str, Any]
    event: dict[str, Any]


def _wall() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        *,
        next_seq: int,
        release: Callable[[], None] = lambda: None,
        outbox: bool = False,
    ) -> None:
        self._db = connection
        self.path = path
        self._next_seq = next_seq
        self._release = release
        self.outbox = outbox  # decisions are queued for the hub (the recorder gives their session)
        self._pending: list[tuple[str, float, str, str, str | None]] = []

    @classmethod
    def open_read_only(cls, path: Path) -> Journal:
        """Open a journal to read it: nothing is created, changed or moved (R121). Anything
        that is not a sound journal raises ``JournalError`` in one line."""
        found = journal_file.identify(path)
        if found is Found.NOTHING:
            raise JournalError(f"journal {path} does not exist")
        connection, release = journal_file.connect_read_only(path)
        try:
            next_seq = _check(connection, path, found)
        except BaseException:
            connection.close()
            release()
            raise
        return cls(connection, path, next_seq=next_seq, release=release)

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        new: bool = False,
        move_damaged_aside: bool = False,
        outbox: bool = False,
    ) -> Journal:
        """Open the journal to record to, creating it if there is none.

        ``new`` moves an existing journal aside first (``.old-<time>``). A damaged journal
        raises ``JournalCorrupt``; with ``move_damaged_aside`` (``gametable run`` only, R120)
        it is first moved aside (``.corrupt-<time>``). Anything else that cannot be used
        raises ``JournalError`` and is left exactly as it was. ``outbox``: the table reports
        to the hub, so its decisions are queued for the broker as they are committed.
        """
        found = journal_file.identify(path)
        journal_file.require_writable(path)
        release: Callable[[], None] = _nothing_to_release
        if found is not Found.NOTHING:
            # before anything is moved or read: never move aside a journal a table records to
            release = journal_file.lock_writer(path)
            try:
                problem = _problem_with(path)  # a damaged journal is never opened to write
                if new:
                    why = "corrupt" if isinstance(problem, JournalCorrupt) else "old"
                    journal_file.move_aside(path, why)
                    found = Found.NOTHING
                elif isinstance(problem, JournalCorrupt) and move_damaged_aside:
                    raise _moved_aside(path, problem.reason)
                elif problem is not None:
                    raise problem
            except BaseException:
                release()
                raise
            if found is Found.NOTHING:
                release()  # the lock of the journal moved aside
        if found is Found.NOTHING:
            journal_file.create(path, _initialise)
            release = journal_file.lock_writer(path)
        try:
            connection = journal_file.connect_read_write(path)
        except sqlite3.Error as error:
            release()
            raise JournalError(f"cannot open journal {path} to write: {error}") from None
        try:
            _upgrade_to_outbox(connection)
            (count,) = connection.execute("SELECT count(*) FROM entries").fetchone()
        except sqlite3.Error as error:
            connection.close()
            release()
            raise JournalError(f"cannot open journal {path} to write: {error}") from None
        return cls(connection, path, next_seq=count + 1, release=release, outbox=outbox)

    def set_aside(self, reason: str) -> JournalError:
        """Close the journal and move it aside as damaged (``gametable run`` only, when it does
        not replay): the error to report."""
        self.close()
        return _moved_aside(self.path, reason)

    # --- writing ------------------------------------------------------------------------

    def add(
        self,
        kind: str,
        t: float,
        body: dict[str, Any],
        *,
        session: Mapping[str, Any] | None = None,
    ) -> None:
        """Queue an entry; it is durable only after ``commit``. ``session`` (the start action
        of the session a decision belongs to) also puts the entry in the outbox, in the same
        transaction."""
        queued = None if session is None else encode_body(session)
        # a float, as the REAL column gives it back: 7200 and 7200.0 checksum differently
        self._pending.append((kind, float(t), _wall(), encode_body(body), queued))

    @property
    def pending(self) -> int:
        return len(self._pending)

    def commit(self) -> None:
        """Write every queued entry in one transaction, or none of them."""
        if not self._pending:
            return
        rows = [
            (seq, kind, t, wall, body, checksum(seq, kind, t, wall, body))
            for seq, (kind, t, wall, body, _) in enumerate(self._pending, start=self._next_seq)
        ]
        queued = [
            (seq, session, outbox_checksum(seq, session))
            for seq, (*_, session) in enumerate(self._pending, start=self._next_seq)
            if session is not None
        ]
        try:
            with self._db:
                self._db.executemany(
                    "INSERT INTO entries(seq, kind, t, wall, body, crc) VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
                self._db.executemany(
                    "INSERT INTO outbox(seq, session, crc) VALUES (?, ?, ?)", queued
                )
        except sqlite3.Error as error:
            raise JournalWriteError(f"journal {self.path}: write failed ({error})") from None
        self._next_seq += len(rows)
        self._pending.clear()

    # --- reading ------------------------------------------------------------------------

    def entries(self) -> Iterator[Entry]:
        """Every committed entry, in order; a row that fails its checks raises
        ``JournalCorrupt`` (it was checked when the journal was opened, so only a file damaged
        since then can)."""
        return _entries(self._db, self.path)

    # --- the outbox -----------------------------------------------------------------------

    def outgoing(self, *, after: int, limit: int) -> list[Outgoing]:
        """The decisions in the outbox after ``after``, oldest first, each checked as every
        entry is; a row that fails raises ``JournalCorrupt``."""
        try:
            rows = self._db.execute(
                f"""SELECT CAST(o.session AS BLOB), o.crc, {ENTRY_COLUMNS}
                    FROM outbox o JOIN entries e ON e.seq = o.seq
                    WHERE o.seq > ? ORDER BY o.seq LIMIT ?""",
                (after, limit),
            ).fetchall()
            return [_outgoing(row) for row in rows]
        except BadRow as error:
            raise JournalCorrupt(self.path, f"outbox: {error}") from None
        except sqlite3.Error as error:
            raise _classify(error, self.path, Found.JOURNAL) from None

    def confirmed(self, *, through: int) -> None:
        """Take the decisions the hub has applied (every one up to ``through``) out of the
        outbox, in one transaction."""
        try:
            with self._db:
                self._db.execute("DELETE FROM outbox WHERE seq <= ?", (through,))
        except sqlite3.Error as error:
            raise JournalWriteError(f"journal {self.path}: outbox write failed ({error})") from None

    def identity(self) -> str:
        """The journal's own id (a schema-2 journal has one once it is recorded to)."""
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
        except sqlite3.Error as error:
            raise _classify(error, self.path, Found.JOURNAL) from None
        if row is None or not isinstance(row[0], str) or not row[0]:
            raise JournalCorrupt(self.path, "it has no id")
        return row[0]

    def undelivered(self) -> int:
        """How many decisions wait in the outbox."""
        try:
            (count,) = self._db.execute("SELECT count(*) FROM outbox").fetchone()
        except sqlite3.Error as error:
            raise _classify(error, self.path, Found.JOURNAL) from None
        return int(count)

    def is_empty(self) -> bool:
        return self._next_seq == 1 and not self._pending

    def drop_pending_after(self, count: int) -> None:
        """Forget queued entries past the first ``count`` (an input that changed nothing)."""
        del self._pending[count:]

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._release()


def _nothing_to_release() -> None:
    pass


class _OtherSchema(JournalError):
    """A journal of another schema version: readable by the gametable that wrote it."""


_OTHER_SCHEMA = "read it with that gametable; `gametable run --new-journal` moves it aside"


def _initialise(connection: sqlite3.Connection) -> None:
    connection.execute("PRAGMA journal_mode=WAL")  # from the start: never a rollback journal
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute(f"PRAGMA application_id={APPLICATION_ID}")
    connection.executescript(SCHEMA)
    connection.execute("INSERT INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    connection.execute("INSERT INTO meta(key, value) VALUES ('id', ?)", (_new_id(),))
    connection.commit()


def _new_id() -> str:
    """A journal's identity: its entries' sequence numbers start at 1 in every journal, so the
    hub knows a decision by its table, this and its sequence number."""
    return uuid.uuid4().hex


def _upgrade_to_outbox(connection: sqlite3.Connection) -> None:
    """A schema-2 journal opened to record to gets its (empty) outbox and an identity, in one
    transaction: the entries are untouched, and an older gametable then refuses it as newer
    rather than misreading it."""
    (schema,) = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if schema != "2":
        return
    connection.execute("BEGIN IMMEDIATE")  # sqlite3 would run the CREATE outside a transaction
    try:
        connection.execute(OUTBOX_SCHEMA)
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
        connection.execute("INSERT INTO meta(key, value) VALUES ('id', ?)", (_new_id(),))
    except sqlite3.Error:
        connection.rollback()
        raise
    connection.commit()


def _outgoing(row: tuple[object, ...]) -> Outgoing:
    session_text, crc, *entry_row = row
    seq = entry_row[0]
    assert isinstance(seq, int)
    entry = decode_row(tuple(entry_row), seq)
    if entry.kind != "event":
        raise BadRow(f"entry {seq} is not a decision")
    try:
        text = session_text.decode("utf-8") if isinstance(session_text, bytes) else None
    except UnicodeDecodeError:
        text = None
    if text is None or crc != outbox_checksum(seq, text):
        raise BadRow(f"entry {seq}'s session does not match its checksum")
    try:
        session = json.loads(text)
    except (ValueError, RecursionError):
        raise BadRow(f"entry {seq}'s session is not valid JSON") from None
    if not isinstance(session, dict):
        raise BadRow(f"entry {seq}'s session is not an action")
    return Outgoing(seq, entry.wall, session, entry.body)


def _moved_aside(path: Path, reason: str) -> JournalError:
    """A damaged journal moved aside, or why it could not be (it is then left as it is)."""
    try:
        return JournalCorrupt(path, reason, journal_file.move_aside(path, "corrupt"))
    except JournalError as cannot:
        return JournalError(f"journal {path} is damaged ({reason}); {cannot}")


def _problem_with(path: Path) -> JournalCorrupt | _OtherSchema | None:
    """Why a journal cannot be recorded to, if it cannot; what is not a journal raises."""
    try:
        Journal.open_read_only(path).close()
    except (JournalCorrupt, _OtherSchema) as problem:
        return problem
    return None


def _check(connection: sqlite3.Connection, path: Path, found: Found) -> int:
    """Check a journal read-only from end to end; the next sequence number."""
    try:
        listed = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {name for (name,) in listed}
        if found is Found.UNTAGGED:
            raise _untagged(connection, path, tables)
        (verdict,) = connection.execute("PRAGMA integrity_check(1)").fetchone()
        if verdict != "ok":
            found_wrong = verdict.splitlines()[-1]  # after "*** in database main ***"
            raise JournalCorrupt(path, f"integrity check: {found_wrong}")
        if not {"meta", "entries"} <= tables:
            raise JournalCorrupt(path, f"tables {', '.join(sorted(tables)) or 'none'}")
        schema = _check_schema(connection, path)
        if tables != TABLES_OF_SCHEMA[schema]:
            raise JournalCorrupt(path, f"tables {', '.join(sorted(tables))} in schema {schema}")
        return sum(1 for _ in _entries(connection, path)) + 1
    except sqlite3.Error as error:
        raise _classify(error, path, found) from None
    except UnicodeDecodeError:  # SQLite's own text (a table's name, the schema row) damaged
        raise _damaged(path, found, "text that is not UTF-8") from None


def _untagged(connection: sqlite3.Connection, path: Path, tables: set[str]) -> JournalError:
    """Before application ids, a journal was known by its tables; anything else is not one."""
    if tables - {"sqlite_sequence"} != TABLES_OF_SCHEMA[2]:
        listed = ", ".join(sorted(tables - {"sqlite_sequence"})) or "none"
        return JournalError(f"{path} is not a journal (an SQLite database with tables {listed})")
    row = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    return _OtherSchema(
        f"journal {path} is from an older gametable (schema {row[0] if row else 'unknown'}, "
        f"entries without checksums); this one reads schema {SCHEMA_VERSION}: {_OTHER_SCHEMA}"
    )


def _check_schema(connection: sqlite3.Connection, path: Path) -> int:
    """The journal's schema, one this gametable reads (2 or 3)."""
    row = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    value = row[0] if row else None
    if not isinstance(value, str) or not value.isdecimal():
        raise JournalCorrupt(path, f"schema {value!r}, expected {SCHEMA_VERSION}")
    if int(value) not in TABLES_OF_SCHEMA:
        age = "a newer" if int(value) > SCHEMA_VERSION else "an older"
        raise _OtherSchema(
            f"journal {path} is from {age} gametable (schema {value}); this one reads "
            f"schema {min(TABLES_OF_SCHEMA)} to {SCHEMA_VERSION}: {_OTHER_SCHEMA}"
        )
    return int(value)


def _entries(connection: sqlite3.Connection, path: Path) -> Iterator[Entry]:
    try:
        rows = connection.execute(f"SELECT {ROW_COLUMNS} FROM entries ORDER BY seq")
        for expected, row in enumerate(rows, start=1):
            yield decode_row(row, expected)
    except BadRow as error:
        raise JournalCorrupt(path, str(error)) from None
    except sqlite3.Error as error:
        raise _classify(error, path, Found.JOURNAL) from None


def _classify(error: sqlite3.Error, path: Path, found: Found) -> JournalError:
    """A damaged journal, a file that is not one, or a file where it lives that cannot be read."""
    code = getattr(error, "sqlite_errorcode", None)
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    if code is not None and code & 0xFF not in DAMAGE_CODES:
        return JournalError(f"cannot read journal {path}: {reason}")
    return _damaged(path, found, reason)


def _damaged(path: Path, found: Found, reason: str) -> JournalError:
    if found is Found.UNTAGGED:  # only a tagged file is known to be a journal
        return JournalError(f"{path} is not a journal ({reason})")
    return JournalCorrupt(path, reason)
