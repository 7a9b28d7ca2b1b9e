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
Each decision sent names the one sent before it (``prev``), so the hub sees a gap (R710). When a
journal is moved aside (``--new-journal``, damaged, or not replaying), what its outbox still
held is carried into the new journal's ``carried`` table, under the old journal's id, and sent
from there (R713).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
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
    carried_checksum,
    checksum,
    column_text,
    decode_row,
    encode_body,
    outbox_checksum,
)

__all__ = ["Entry", "Journal", "JournalCorrupt", "JournalError", "JournalWriteError", "Outgoing"]

# 4: decisions carried over from the journal before (R713); 3: the outbox (docs/hub.md);
# 2: entries carry a checksum, the file an application id (R125). An older journal is read as
# it is, and given what it lacks when opened to record to.
SCHEMA_VERSION = 4
OUTBOX_SCHEMA = """
CREATE TABLE outbox (
    seq INTEGER PRIMARY KEY REFERENCES entries(seq),
    session TEXT NOT NULL,
    crc INTEGER NOT NULL
);
"""
CARRIED_SCHEMA = """
CREATE TABLE carried (
    journal TEXT NOT NULL,
    seq INTEGER NOT NULL,
    prev INTEGER NOT NULL,
    wall TEXT NOT NULL,
    session TEXT NOT NULL,
    event TEXT NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (journal, seq)
);
"""
DELIVERED_KEY = "delivered"  # meta: the seq up to which the hub confirmed the outbox (R710)
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
TABLES_OF_SCHEMA = {
    2: {"meta", "entries"},
    3: {"meta", "entries", "outbox"},
    4: {"meta", "entries", "outbox", "carried"},
}
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
    """A decision waiting for the hub: the journal it was decided in, its entry, the start of
    its session, the decision sent before it from that journal (``prev``, 0: none) and whether
    it is the oldest the table still holds of that journal (``first_held``)."""

    journal: str
    seq: int
    wall: str
    session: dict[str, Any]
    event: dict[str, Any]
    prev: int = 0
    first_held: bool = False


def wall_now() -> str:
    """The wall time of an entry made now, as the journal keeps it."""
    return wall_text(datetime.now(UTC))


def wall_text(at: datetime) -> str:
    """An entry's wall time as the journal keeps it: UTC, ISO 8601, to the millisecond."""
    return at.astimezone(UTC).isoformat(timespec="milliseconds")


class Journal:
    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        *,
        next_seq: int,
        release: Callable[[], None] = lambda: None,
        outbox: bool = False,
        wall: Callable[[], str] = wall_now,
    ) -> None:
        self._db = connection
        self._wall = wall  # each entry's wall time, for people (the table's clock: may be unset)
        self.path = path
        self._next_seq = next_seq
        self._release = release
        self.outbox = outbox  # decisions are queued for the hub (the recorder gives their session)
        self._pending: list[tuple[str, float, str, str, str | None]] = []
        # what became of the undelivered decisions of the journal moved aside for this one
        self.carried_over = 0
        self.lost_over = 0
        self._identity: str | None = None

    @classmethod
    def open_read_only(cls, path: Path, *, writer_place_held: bool = False) -> Journal:
        """Open a journal to read it: nothing is created, changed or moved (R121). Anything
        that is not a sound journal raises ``JournalError`` in one line. ``writer_place_held``:
        the caller holds the journal's writer's lock, so no table records to it (R901)."""
        found = journal_file.identify(path)
        if found is Found.NOTHING:
            raise JournalError(f"journal {path} does not exist")
        connection, release = journal_file.connect_read_only(
            path, writer_place_held=writer_place_held
        )
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
        wall: Callable[[], str] = wall_now,
    ) -> Journal:
        """Open the journal to record to, creating it if there is none.

        ``new`` moves an existing journal aside first (``.old-<time>``). A damaged journal
        raises ``JournalCorrupt``; with ``move_damaged_aside`` (``gametable run`` only, R120)
        it is first moved aside (``.corrupt-<time>``). Anything else that cannot be used
        raises ``JournalError`` and is left exactly as it was. ``outbox``: the table reports
        to the hub, so its decisions are queued for the broker as they are committed.
        ``wall``: the clock each entry's wall time is read from (``wall_text`` of now).
        """
        journal_file.identify(path)  # what is not a journal is refused before anything
        journal_file.require_writable(path)
        done_opening = journal_file.lock_opening(path)  # one table opens at a time (R906)
        try:
            return cls._open_to_record(path, new, move_damaged_aside, outbox, wall)
        finally:
            done_opening()

    @classmethod
    def _open_to_record(
        cls,
        path: Path,
        new: bool,
        move_damaged_aside: bool,
        outbox: bool,
        wall: Callable[[], str],
    ) -> Journal:
        """``open``'s work, by the one table opening a journal in its directory (R906)."""
        found = journal_file.identify(path)  # again: as it is now, not before the wait
        carried = _Carried()
        if found is not Found.NOTHING:
            release, carried = _take_over(path, new, move_damaged_aside)
        elif _adopt_interrupted(path):  # a successor made whole, its rename cut short
            release = journal_file.lock_writer(path)
        else:
            journal_file.create(path, _initialise)
            release = journal_file.lock_writer(path)
        try:
            journal_file.require_side_files_writable(path)  # never first at the first commit
        except JournalError:
            release()
            raise
        try:
            connection = journal_file.connect_read_write(path)
        except sqlite3.Error as error:
            release()
            why = journal_file.reason(error, path)
            raise JournalError(f"cannot open journal {path} to write: {why}") from None
        try:
            _upgrade(connection)
            (count,) = connection.execute("SELECT count(*) FROM entries").fetchone()
        except sqlite3.Error as error:
            connection.close()
            release()
            why = journal_file.reason(error, path)
            raise JournalError(f"cannot open journal {path} to write: {why}") from None
        journal = cls(
            connection, path, next_seq=count + 1, release=release, outbox=outbox, wall=wall
        )
        journal.carried_over, journal.lost_over = len(carried.rows), carried.lost
        return journal

    def set_aside(self, reason: str) -> JournalError:
        """Close the journal and move it aside as damaged (``gametable run`` only, when it does
        not replay): the error to report. What it had not delivered goes on in the new journal
        made in its place (R713). The writer's lock is held until it is moved: a table
        started meanwhile never takes it for a journal to record to (R906)."""
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        try:
            return _moved_aside(self.path, reason)
        finally:
            self._release()

    # --- writing ------------------------------------------------------------------------

    def add(
        self,
        kind: str,
        t: float,
        body: dict[str, Any],
        *,
        session: Mapping[str, Any] | None = None,
    ) -> str:
        """Queue an entry; it is durable only after ``commit``. ``session`` (the start action
        of the session a decision belongs to) also puts the entry in the outbox, in the same
        transaction. Returns the entry's wall time, as it will be kept."""
        queued = None if session is None else encode_body(session)
        wall = self._wall()
        # a float, as the REAL column gives it back: 7200 and 7200.0 checksum differently
        self._pending.append((kind, float(t), wall, encode_body(body), queued))
        return wall

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
            why = journal_file.reason(error, self.path)
            raise JournalWriteError(f"journal {self.path}: write failed ({why})") from None
        self._next_seq += len(rows)
        self._pending.clear()

    # --- reading ------------------------------------------------------------------------

    def entries(self) -> Iterator[Entry]:
        """Every committed entry, in order; a row that fails its checks raises
        ``JournalCorrupt`` (it was checked when the journal was opened, so only a file damaged
        since then can)."""
        return _entries(self._db, self.path)

    # --- the outbox -----------------------------------------------------------------------

    def streams(self) -> list[str]:
        """The journals whose decisions wait for the hub: those carried over from the journals
        before this one, oldest first, then this one's own."""
        try:
            tables = _tables(self._db)
            if "outbox" not in tables:
                return []  # schema 2: never on the hub
            rows = (
                self._db.execute(
                    "SELECT journal FROM carried GROUP BY journal ORDER BY MIN(rowid)"
                ).fetchall()
                if "carried" in tables
                else []
            )
        except sqlite3.Error as error:
            raise _classify(error, self.path, Found.JOURNAL) from None
        own = self.identity()
        return [str(journal) for (journal,) in rows if journal != own] + [own]

    def outgoing(self, *, after: int, limit: int, journal: str | None = None) -> list[Outgoing]:
        """The decisions of ``journal`` (default: this one's own outbox) after ``after``, oldest
        first, each chained to the one before it and checked as every entry is; a row that
        fails raises ``JournalCorrupt``."""
        own = self.identity()
        try:
            if journal is not None and journal != own:
                return self._carried(journal, after, limit)
            rows = self._db.execute(
                f"""SELECT CAST(o.session AS BLOB), o.crc, {ENTRY_COLUMNS}
                    FROM outbox o JOIN entries e ON e.seq = o.seq
                    WHERE o.seq > ? ORDER BY o.seq LIMIT ?""",
                (after, limit),
            ).fetchall()
            if not rows:
                return []
            first = rows[0][2]
            (before,) = self._db.execute(
                "SELECT MAX(seq) FROM outbox WHERE seq < ?", (first,)
            ).fetchone()
            prev = self._delivered() if before is None else int(before)
            items: list[Outgoing] = []
            for row in rows:
                # a row the hub already confirmed (put back by hand) names the one before it
                prev = min(prev, int(str(row[2])) - 1)
                item = _outgoing(own, prev, before is None and not items, row)
                items.append(item)
                prev = item.seq
            return items
        except BadRow as error:
            raise JournalCorrupt(self.path, f"outbox: {error}") from None
        except sqlite3.Error as error:
            raise _classify(error, self.path, Found.JOURNAL) from None

    def _carried(self, journal: str, after: int, limit: int) -> list[Outgoing]:
        rows = self._db.execute(
            """SELECT seq, prev, CAST(wall AS BLOB), CAST(session AS BLOB),
                      CAST(event AS BLOB), crc
               FROM carried WHERE journal = ? AND seq > ? ORDER BY seq LIMIT ?""",
            (journal, after, limit),
        ).fetchall()
        if not rows:
            return []
        (before,) = self._db.execute(
            "SELECT MAX(seq) FROM carried WHERE journal = ? AND seq < ?", (journal, rows[0][0])
        ).fetchone()
        return [
            _carried_outgoing(journal, row, first_held=before is None and index == 0)
            for index, row in enumerate(rows)
        ]

    def confirmed(self, *, through: int, journal: str | None = None) -> None:
        """Take the decisions the hub holds (every one of ``journal``, default this one's own,
        up to ``through``) out of the outbox, in one transaction."""
        try:
            with self._db:
                if journal is not None and journal != self.identity():
                    self._db.execute(
                        "DELETE FROM carried WHERE journal = ? AND seq <= ?", (journal, through)
                    )
                    return
                self._db.execute("DELETE FROM outbox WHERE seq <= ?", (through,))
                self._db.execute(
                    """INSERT INTO meta(key, value) VALUES (?, ?)
                       ON CONFLICT(key) DO UPDATE SET value = excluded.value
                       WHERE CAST(value AS INTEGER) < CAST(excluded.value AS INTEGER)""",
                    (DELIVERED_KEY, str(through)),
                )
        except sqlite3.Error as error:
            raise JournalWriteError(f"journal {self.path}: outbox write failed ({error})") from None

    def _delivered(self) -> int:
        """The seq up to which the hub confirmed this journal's outbox (0: nothing yet)."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (DELIVERED_KEY,)).fetchone()
        if row is None:
            return 0
        value = row[0]
        if not (isinstance(value, str) and value.isdecimal()):
            raise JournalCorrupt(self.path, f"meta {DELIVERED_KEY} {value!r} is not a seq")
        return int(value)

    @property
    def last_seq(self) -> int:
        """The seq of the last entry committed (0: none): a link started now may have been
        preceded by one that sent every decision up to it (R927)."""
        return self._next_seq - 1

    def identity(self) -> str:
        """The journal's own id (a schema-2 journal has one once it is recorded to). Read once:
        it never changes, and the hub link asks for it at every send."""
        if self._identity is not None:
            return self._identity
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
        except sqlite3.Error as error:
            raise _classify(error, self.path, Found.JOURNAL) from None
        if row is None or not isinstance(row[0], str) or not row[0]:
            raise JournalCorrupt(self.path, "it has no id")
        self._identity = row[0]
        return row[0]

    def undelivered(self) -> int:
        """How many decisions wait for the hub (this journal's and those carried over)."""
        try:
            (count,) = self._db.execute(
                "SELECT (SELECT count(*) FROM outbox) + (SELECT count(*) FROM carried)"
            ).fetchone()
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


def _take_over(
    path: Path, new: bool, move_damaged_aside: bool
) -> tuple[Callable[[], None], _Carried]:
    """The writer's lock of the journal at ``path``, moved aside first (``new``, or damaged
    with ``move_damaged_aside``), and what it had not delivered, carried into the new one."""
    # before anything is moved or read: never move aside a journal a table records to
    release = journal_file.lock_writer(path)
    carried = _Carried()
    try:
        journal_file.drop_second_names(path)  # a kill cut a move aside short (R900)
        problem = _problem_with(path)  # a damaged journal is never opened to write
        if new:
            why = "corrupt" if isinstance(problem, JournalCorrupt) else "old"
            carried = _undelivered_of(path)
            _replace(path, why, carried)
        elif isinstance(problem, JournalCorrupt) and move_damaged_aside:
            raise _moved_aside(path, problem.reason)
        elif problem is not None:
            raise problem
    except BaseException:
        release()
        raise
    if new:  # the new journal's lock, before the one moved aside is let go (R906)
        try:
            release_new = journal_file.lock_writer(path)
        finally:
            release()
        release = release_new
    return release, carried


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {
        name
        for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }


class _OtherSchema(JournalError):
    """A journal of another schema version: readable by the gametable that wrote it."""


_OTHER_SCHEMA = "read it with that gametable; `gametable run --new-journal` moves it aside"


PAGE_SIZE = 1024  # bytes: SQLite's smallest page


def _initialise(connection: sqlite3.Connection, carried: Sequence[_CarriedRow] = ()) -> None:
    """A new journal's tables, with what the journal before it had not delivered (R713)."""
    # Small pages: a commit appends one frame per changed page to the WAL and syncs it, so a
    # decision writes about 4.3 kB to the card instead of 5.9 kB with 4 KiB pages (make bench,
    # the storage target of docs/service.md). Set before the first write; SQLite keeps it.
    connection.execute(f"PRAGMA page_size={PAGE_SIZE}")
    connection.execute("PRAGMA journal_mode=WAL")  # from the start: never a rollback journal
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute(f"PRAGMA application_id={APPLICATION_ID}")
    connection.executescript(SCHEMA + CARRIED_SCHEMA)
    connection.execute("INSERT INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    connection.execute("INSERT INTO meta(key, value) VALUES ('id', ?)", (_new_id(),))
    connection.executemany(
        """INSERT OR IGNORE INTO carried(journal, seq, prev, wall, session, event, crc)
           VALUES (?, ?, ?, ?, ?, ?, ?)""",
        carried,
    )
    connection.commit()


def _new_id() -> str:
    """A journal's identity: its entries' sequence numbers start at 1 in every journal, so the
    hub knows a decision by its table, this and its sequence number."""
    return uuid.uuid4().hex


def _upgrade(connection: sqlite3.Connection) -> None:
    """An older journal opened to record to gets what it lacks, in one transaction: a schema-2
    journal its (empty) outbox and an identity, a schema-3 one its (empty) carried decisions.
    The entries are untouched, and an older gametable then refuses it as newer rather than
    misreading it."""
    (schema,) = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if schema not in ("2", "3"):
        return
    connection.execute("BEGIN IMMEDIATE")  # sqlite3 would run the CREATE outside a transaction
    try:
        if schema == "2":
            connection.execute(OUTBOX_SCHEMA)
            connection.execute("INSERT INTO meta(key, value) VALUES ('id', ?)", (_new_id(),))
        connection.execute(CARRIED_SCHEMA)
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
    except sqlite3.Error:
        connection.rollback()
        raise
    connection.commit()


# A carried decision as stored: journal, seq, prev, wall, session, event, crc.
_CarriedRow = tuple[str, int, int, str, str, str, int]


@dataclass
class _Carried:
    """What a journal moved aside had not delivered: the rows to carry, and how many of its
    decisions could not be read (a damaged journal's)."""

    rows: list[_CarriedRow] = field(default_factory=list)
    lost: int = 0


def _undelivered_of(path: Path) -> _Carried:
    """Every decision the journal at ``path`` had not delivered (its own outbox's and those it
    carried itself), to carry into the journal made in its place. A damaged journal gives what
    can be read in order; from the first row that cannot, the rest is counted as lost."""
    carried = _Carried()
    try:  # only ever called by the one writer, before it records (R901)
        connection, release = journal_file.connect_read_only(path, writer_place_held=True)
    except (sqlite3.Error, JournalError):
        return carried
    reader = Journal(connection, path, next_seq=0, release=release)
    try:
        for stream in reader.streams():
            after = 0
            while batch := reader.outgoing(after=after, limit=500, journal=stream):
                carried.rows.extend(_carried_row(item) for item in batch)
                after = batch[-1].seq
    except (JournalError, sqlite3.Error):
        carried.lost = max(0, _undelivered_rows(connection) - len(carried.rows))
    finally:
        reader.close()
    return carried


def _undelivered_rows(connection: sqlite3.Connection) -> int:
    """How many rows wait in a (damaged) journal's outbox and carried decisions, as far as
    SQLite can count them."""
    total = 0
    for table in ("outbox", "carried"):
        with contextlib.suppress(sqlite3.Error):
            total += int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    return total


def _carried_row(item: Outgoing) -> _CarriedRow:
    session, event = encode_body(item.session), encode_body(item.event)
    crc = carried_checksum((item.journal, item.seq, item.prev, item.wall, session, event))
    return (item.journal, item.seq, item.prev, item.wall, session, event, crc)


def _carried_outgoing(journal: str, row: tuple[object, ...], *, first_held: bool) -> Outgoing:
    seq, prev, wall, session, event, crc = row
    where = f"carried decision {journal[:8]}/{seq}"
    texts = [column_text(value, where) for value in (wall, session, event)]
    if type(seq) is not int or type(prev) is not int or type(crc) is not int:
        raise BadRow(f"{where} has a malformed number")
    assert isinstance(seq, int) and isinstance(prev, int)
    if crc != carried_checksum((journal, seq, prev, texts[0], texts[1], texts[2])):
        raise BadRow(f"{where} does not match its checksum")
    try:
        decoded = [json.loads(text) for text in texts[1:]]
    except (ValueError, RecursionError):
        raise BadRow(f"{where} is not valid JSON") from None
    if not all(isinstance(value, dict) for value in decoded):
        raise BadRow(f"{where} is not a session and an event")
    return Outgoing(journal, seq, texts[0], decoded[0], decoded[1], prev, first_held)


def _outgoing(journal: str, prev: int, first_held: bool, row: tuple[object, ...]) -> Outgoing:
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
    return Outgoing(journal, seq, entry.wall, session, entry.body, prev, first_held)


def _moved_aside(path: Path, reason: str) -> JournalError:
    """A damaged journal moved aside, or why it could not be (it is then left as it is). What
    it had not delivered goes into a new journal made in its place at once (R713)."""
    carried = _undelivered_of(path)
    if not (carried.rows or carried.lost):
        try:
            return JournalCorrupt(path, reason, journal_file.move_aside(path, "corrupt"))
        except JournalError as cannot:
            return JournalError(f"journal {path} is damaged ({reason}); {cannot}")
    try:
        moved = _replace(path, "corrupt", carried)
    except JournalError as cannot:
        return JournalError(f"journal {path} is damaged ({reason}); {cannot}")
    reason += f"; {len(carried.rows)} undelivered decisions go on from the new journal"
    if carried.lost:
        reason += f", {carried.lost} could not be read"
    return JournalCorrupt(path, reason, moved)


def _replace(path: Path, why: str, carried: _Carried) -> Path:
    """Put a new journal, carrying what ``path`` had not delivered, in the place of the journal
    at ``path``, moved aside as ``why``: the new one is made whole first, so that a kill at any
    moment leaves the undelivered decisions in a journal the next start uses (R713). A journal
    reached through a symbolic link is refused before anything is made (R902)."""
    if path.is_symlink():
        raise JournalError(f"cannot move {path} aside: {journal_file.symlink_words(path)}")
    making = journal_file.prepare(path, lambda connection: _initialise(connection, carried.rows))
    moved = journal_file.move_aside(path, why)
    journal_file.install(making, path)
    return moved


def _adopt_interrupted(path: Path) -> bool:
    """No journal at ``path``, but its successor made whole beside it (a kill between moving
    the old one aside and renaming the new one into place): put it in its place."""
    making = journal_file.creating(path)
    if not making.exists():
        return False
    try:
        Journal.open_read_only(making).close()
        journal_file.settle(making)  # its last pages may still be in its -wal: into the file
    except JournalError:
        return False  # a creation cut short: create() removes it
    journal_file.install(making, path)
    return True


def _problem_with(path: Path) -> JournalCorrupt | _OtherSchema | None:
    """Why a journal cannot be recorded to, if it cannot; what is not a journal raises."""
    try:
        Journal.open_read_only(path, writer_place_held=True).close()
    except (JournalCorrupt, _OtherSchema) as problem:
        return problem
    return None


def _check(connection: sqlite3.Connection, path: Path, found: Found) -> int:
    """Check a journal read-only from end to end; the next sequence number."""
    try:
        tables = _tables(connection)
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
