"""How far the record holds each table's journals: the hub's side of the delivery protocol
(docs/hub.md "Nothing lost, nothing doubled", R710-R712).

For every (table, journal) the ledger keeps ``through``: the seq up to which the record holds
every decision of that journal. A decision is taken only when it follows on (its ``prev`` is at
most ``through``), so ``through`` never passes a decision the hub has not handled. It lives in
the record file itself (``hub_deliveries``), written in batches: the hub publishes a
confirmation only for what a batch has made durable, so a hub killed at any moment confirms
nothing its record could forget.

Beside it, the ledger keeps a digest of what each decision it took said (R920, R921), the newest
``MAX_DIGESTS_PER_TABLE`` of each table, so that a journal entry that comes again is known as a
copy only when it says the same: one that says something else, or one the ledger moved past
without ever taking (another history of the same journal), is a conflict for the director. Per
journal, ``checked_from`` is the seq at and below which the ledger can no longer tell (digests
let go, or a journal held before digests were kept): there a copy is taken on trust, as before.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractContextManager
from enum import Enum
from typing import Protocol

LEDGER_SCHEMA = """
CREATE TABLE IF NOT EXISTS hub_deliveries (
    table_number INTEGER NOT NULL,
    journal TEXT NOT NULL,
    through INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    activity INTEGER NOT NULL,
    PRIMARY KEY (table_number, journal)
)"""
DIGESTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS hub_digests (
    table_number INTEGER NOT NULL,
    journal TEXT NOT NULL,
    seq INTEGER NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (table_number, journal, seq)
)"""
# What the ledger remembers of the content of each table's decisions (R920): a table decides a
# few hundred things a day; a copy older than this is taken on trust.
MAX_DIGESTS_PER_TABLE = 2048


class LedgerStore(Protocol):
    """The file the ledger lives in: a tournament record (``hub run --db``), or the day record
    (``hub run --day``: one confirmation stream per table whatever its event, R1116)."""

    @property
    def connection(self) -> sqlite3.Connection: ...

    def writing(self) -> AbstractContextManager[None]: ...


class Seen(Enum):
    """What a decision at or below ``through`` is to the ledger."""

    COPY = "copy"  # the same content as the decision taken at that seq
    DIFFERENT = "different"  # other content than the decision taken at that seq
    NEVER_TAKEN = "never taken"  # the ledger moved past that seq without taking it
    UNKNOWN = "unknown"  # too old to tell (taken on trust as a copy)


class Ledger:
    """Every (table, journal) the hub has heard from, with its ``through``: in memory for the
    loop (O(1) per decision), written to the record by ``flush``."""

    def __init__(self, record: LedgerStore, clock: Callable[[], str]) -> None:
        self.record = record
        self.clock = clock
        self._through: dict[tuple[int, str], int] = {}
        self._dirty: set[tuple[int, str]] = set()
        # table -> journal -> through, as durable in the record; a dict keeps the order of
        # activity (a journal moved to the end when it moves), so the newest is last
        self._durable: dict[int, dict[str, int]] = {}
        # table -> (journal, seq) -> digest, oldest first; seqs at or below checked_from of
        # their journal cannot be told any more
        self._digests: dict[int, OrderedDict[tuple[str, int], str]] = {}
        self._checked_from: dict[tuple[int, str], int] = {}
        self._new_digests: list[tuple[int, str, int, str]] = []
        self._dropped_digests: list[tuple[int, str, int]] = []
        self._forgotten: set[tuple[int, str]] = set()
        self._checked_moved: set[tuple[int, str]] = set()
        with record.writing():
            record.connection.execute(LEDGER_SCHEMA)
            record.connection.execute(DIGESTS_SCHEMA)
            columns = {
                row[1] for row in record.connection.execute("PRAGMA table_info(hub_deliveries)")
            }
            if "activity" not in columns:  # a ledger written before journals were ordered so
                record.connection.execute(
                    "ALTER TABLE hub_deliveries ADD COLUMN activity INTEGER NOT NULL DEFAULT 0"
                )
            if "checked_from" not in columns:  # a ledger written before digests were kept:
                # nothing it holds can be told from a copy
                record.connection.execute(
                    "ALTER TABLE hub_deliveries ADD COLUMN checked_from INTEGER"
                )
                record.connection.execute("UPDATE hub_deliveries SET checked_from = through")
        # the order of activity by a counter, never by the clock (a clock put back would make
        # a table's live journal look like its oldest)
        rows = record.connection.execute(
            """SELECT table_number, journal, through, activity, checked_from
               FROM hub_deliveries ORDER BY activity"""
        )
        self._activity = 0
        for table, journal, through, activity, checked_from in rows:
            self._activity = max(self._activity, int(activity))
            self._through[(int(table), str(journal))] = int(through)
            self._durable.setdefault(int(table), {})[str(journal)] = int(through)
            self._checked_from[(int(table), str(journal))] = int(checked_from or 0)
        digests = record.connection.execute(
            "SELECT table_number, journal, seq, digest FROM hub_digests ORDER BY rowid"
        )
        for table, journal, seq, digest in digests:
            self._digests.setdefault(int(table), OrderedDict())[(str(journal), int(seq))] = str(
                digest
            )

    def through(self, table: int, journal: str) -> int:
        """The seq up to which the record holds every decision of this journal (0: none)."""
        return self._through.get((table, journal), 0)

    def knows(self, table: int, journal: str) -> bool:
        return (table, journal) in self._through

    def advance(self, table: int, journal: str, seq: int) -> None:
        """The record now holds every decision of this journal up to ``seq``, none of them
        seen by this ledger (a confirmation an older hub left): below it, nothing can be told."""
        key = (table, journal)
        if seq > self._through.get(key, 0):
            self._through[key] = seq
            self._checked_from[key] = max(self._checked_from.get(key, 0), seq)
            self._dirty.add(key)

    def take(self, table: int, journal: str, seq: int, digest: str) -> None:
        """The record now holds this journal up to ``seq``, the decision at ``seq`` said what
        ``digest`` sums up (R920)."""
        key = (table, journal)
        if seq > self._through.get(key, 0):
            self._through[key] = seq
            self._dirty.add(key)
        self._checked_from.setdefault(key, 0)
        digests = self._digests.setdefault(table, OrderedDict())
        digests[(journal, seq)] = digest
        self._new_digests.append((table, journal, seq, digest))
        while len(digests) > MAX_DIGESTS_PER_TABLE:
            (old_journal, old_seq), _ = digests.popitem(last=False)
            old_key = (table, old_journal)
            self._checked_from[old_key] = max(self._checked_from.get(old_key, 0), old_seq)
            self._dropped_digests.append((table, old_journal, old_seq))
            self._checked_moved.add(old_key)  # written with the next flush, its activity kept

    def seen(self, table: int, journal: str, seq: int, digest: str) -> Seen:
        """What a decision at or below ``through`` is, by what the ledger remembers (R921)."""
        digests = self._digests.get(table)
        taken = None if digests is None else digests.get((journal, seq))
        if taken is not None:
            return Seen.COPY if taken == digest else Seen.DIFFERENT
        if seq <= self._checked_from.get((table, journal), 0):
            return Seen.UNKNOWN
        return Seen.NEVER_TAKEN

    def oldest_journal(self, table: int) -> str | None:
        """The table's journal that moved longest ago (the first to let go, R923)."""
        for journal in self._durable.get(table, {}):
            return journal
        return next((j for t, j in sorted(self._dirty) if t == table), None)

    def forget(self, table: int, journal: str) -> int:
        """Let go of a journal of the table (R923): what it held, and its digests; how far it
        was held."""
        key = (table, journal)
        through = self._through.pop(key, 0)
        self._checked_from.pop(key, None)
        self._dirty.discard(key)
        self._checked_moved.discard(key)
        self._durable.get(table, {}).pop(journal, None)
        digests = self._digests.get(table, OrderedDict())
        for seen in [k for k in digests if k[0] == journal]:
            del digests[seen]
        self._new_digests = [d for d in self._new_digests if (d[0], d[1]) != key]
        self._forgotten.add(key)
        return through

    def pending(self) -> bool:
        return bool(self._dirty or self._forgotten or self._new_digests or self._checked_moved)

    def flush(self) -> set[int]:
        """Write what moved since the last flush, in one transaction; the tables whose
        confirmation may now move. A busy record raises ``sqlite3.OperationalError`` and keeps
        everything to write for the next flush."""
        if not (self._dirty or self._forgotten or self._new_digests or self._checked_moved):
            return set()
        moved = [
            (table, journal, self._through[(table, journal)]) for table, journal in self._dirty
        ]
        now = self.clock()
        activity = self._activity + 1
        connection = self.record.connection
        with self.record.writing():
            connection.executemany(
                "DELETE FROM hub_deliveries WHERE table_number = ? AND journal = ?",
                sorted(self._forgotten),
            )
            connection.executemany(
                "DELETE FROM hub_digests WHERE table_number = ? AND journal = ?",
                sorted(self._forgotten),
            )
            connection.executemany(
                """INSERT INTO hub_deliveries(
                       table_number, journal, through, updated_at, activity, checked_from)
                   VALUES (?, ?, ?, ?, ?, ?)
                   ON CONFLICT(table_number, journal)
                   DO UPDATE SET through = excluded.through, updated_at = excluded.updated_at,
                                 activity = excluded.activity,
                                 checked_from = excluded.checked_from""",
                [
                    (table, journal, through, now, activity, self._checked_from[(table, journal)])
                    for table, journal, through in moved
                ],
            )
            connection.executemany(
                "INSERT OR REPLACE INTO hub_digests(table_number, journal, seq, digest) "
                "VALUES (?, ?, ?, ?)",
                self._new_digests,
            )
            connection.executemany(
                "DELETE FROM hub_digests WHERE table_number = ? AND journal = ? AND seq = ?",
                self._dropped_digests,
            )
            connection.executemany(
                "UPDATE hub_deliveries SET checked_from = ? WHERE table_number = ? AND journal = ?",
                [(self._checked_from[key], *key) for key in sorted(self._checked_moved)],
            )
        self._activity = activity
        self._dirty.clear()
        let_go = {table for table, _ in self._forgotten}
        self._forgotten.clear()
        self._new_digests.clear()
        self._dropped_digests.clear()
        self._checked_moved.clear()
        for table, journal, through in moved:
            journals = self._durable.setdefault(table, {})
            journals.pop(journal, None)
            journals[journal] = through
        return {table for table, _, _ in moved} | let_go

    def durable(self, table: int) -> list[tuple[str, int]]:
        """What the record durably holds of a table's journals, the most recently active
        first: what its confirmation says."""
        return list(reversed(self._durable.get(table, {}).items()))

    def tables(self) -> set[int]:
        return set(self._durable)

    def journals_of(self, table: int) -> int:
        """How many journals of the table the hub holds anything of (written or not)."""
        return len(self._durable.get(table, {})) + sum(
            1
            for t, journal in self._dirty
            if t == table and journal not in self._durable.get(t, {})
        )
