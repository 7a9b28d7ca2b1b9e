"""How far the record holds each table's journals: the hub's side of the delivery protocol
(docs/hub.md "Nothing lost, nothing doubled", R710-R712).

For every (table, journal) the ledger keeps ``through``: the seq up to which the record holds
every decision of that journal. A decision is taken only when it follows on (its ``prev`` is at
most ``through``), so ``through`` never passes a decision the hub has not handled. It lives in
the record file itself (``hub_deliveries``), written in batches: the hub publishes a
confirmation only for what a batch has made durable, so a hub killed at any moment confirms
nothing its record could forget.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_py.director.tournament_db import TournamentDB

LEDGER_SCHEMA = """
CREATE TABLE IF NOT EXISTS hub_deliveries (
    table_number INTEGER NOT NULL,
    journal TEXT NOT NULL,
    through INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    activity INTEGER NOT NULL,
    PRIMARY KEY (table_number, journal)
)"""


class Ledger:
    """Every (table, journal) the hub has heard from, with its ``through``: in memory for the
    loop (O(1) per decision), written to the record by ``flush``."""

    def __init__(self, record: TournamentDB, clock: Callable[[], str]) -> None:
        self.record = record
        self.clock = clock
        self._through: dict[tuple[int, str], int] = {}
        self._dirty: set[tuple[int, str]] = set()
        # table -> journal -> through, as durable in the record; a dict keeps the order of
        # activity (a journal moved to the end when it moves), so the newest is last
        self._durable: dict[int, dict[str, int]] = {}
        with record.writing():
            record.connection.execute(LEDGER_SCHEMA)
            columns = {
                row[1] for row in record.connection.execute("PRAGMA table_info(hub_deliveries)")
            }
            if "activity" not in columns:  # a ledger written before journals were ordered so
                record.connection.execute(
                    "ALTER TABLE hub_deliveries ADD COLUMN activity INTEGER NOT NULL DEFAULT 0"
                )
        # the order of activity by a counter, never by the clock (a clock put back would make
        # a table's live journal look like its oldest)
        rows = record.connection.execute(
            "SELECT table_number, journal, through, activity FROM hub_deliveries ORDER BY activity"
        )
        self._activity = 0
        for table, journal, through, activity in rows:
            self._activity = max(self._activity, int(activity))
            self._through[(int(table), str(journal))] = int(through)
            self._durable.setdefault(int(table), {})[str(journal)] = int(through)

    def through(self, table: int, journal: str) -> int:
        """The seq up to which the record holds every decision of this journal (0: none)."""
        return self._through.get((table, journal), 0)

    def knows(self, table: int, journal: str) -> bool:
        return (table, journal) in self._through

    def advance(self, table: int, journal: str, seq: int) -> None:
        """The record now holds every decision of this journal up to ``seq``."""
        key = (table, journal)
        if seq > self._through.get(key, 0):
            self._through[key] = seq
            self._dirty.add(key)

    def pending(self) -> bool:
        return bool(self._dirty)

    def flush(self) -> set[int]:
        """Write what moved since the last flush, in one transaction; the tables whose
        confirmation may now move. A busy record raises ``sqlite3.OperationalError`` and keeps
        everything to write for the next flush."""
        if not self._dirty:
            return set()
        moved = [
            (table, journal, self._through[(table, journal)]) for table, journal in self._dirty
        ]
        now = self.clock()
        activity = self._activity + 1
        with self.record.writing():
            self.record.connection.executemany(
                """INSERT INTO hub_deliveries(table_number, journal, through, updated_at, activity)
                   VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT(table_number, journal)
                   DO UPDATE SET through = excluded.through, updated_at = excluded.updated_at,
                                 activity = excluded.activity""",
                [(table, journal, through, now, activity) for table, journal, through in moved],
            )
        self._activity = activity
        self._dirty.clear()
        for table, journal, through in moved:
            journals = self._durable.setdefault(table, {})
            journals.pop(journal, None)
            journals[journal] = through
        return {table for table, _, _ in moved}

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
