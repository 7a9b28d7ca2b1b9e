"""The hall campaign's checker: what the tables decided against what the record holds.

It reads only durable facts, once everything has stopped: each table's journals (the one it
records to and every one moved aside beside it: ``--new-journal``'s ``.old-<time>``, a damaged
one's ``.corrupt-<time>``), each with its id, its decisions (its ``event`` entries) and its
outbox; and the tournament record: ``table_events`` (each result the hub applied, by table,
journal id and seq), the results and their versions, and, when the hub keeps it,
``hub_deliveries`` (per table and journal, the seq up to which the record holds every decision).

- **decisions checked**: with ``deliveries``, every decision of every journal; without it, only
  the decisions that bear on the record (a ``match_result``, a Pentathlon ``game_over``), the
  only ones the record keeps a trace of.
- **lost**: a decision checked that the record does not hold: not covered by its journal's
  ``deliveries`` row, or (one that bears on the record) with no ``table_events`` row.
- **doubled**: a decision the record holds twice: two ``table_events`` rows for one journal id,
  or more results entered by a table for a match than the hub recorded or amended for it.
- **left in outboxes**: decisions still waiting in the table's journal at the end, in its
  outbox or carried over from a journal moved aside (which keeps its outbox as it was when it
  was carried into its successor, R713: what it held is checked by "lost"); both must be empty.
- **amendments**: every result the director entered (an amendment with its reason, or a first
  entry) must still stand at the end, unless a later entry of the director replaced it: a
  table's result after it is a conflict and changes nothing (R172).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from firmware_py.table.journal import Journal, JournalError
from firmware_py.table.journal_file import SIDE_FILES, connect_read_only

MATCH_RESULT = "match_result"
GAME_OVER = "game_over"
PENTATHLON = "pentathlon"
HELD = ("recorded", "amended")  # the outcomes that write a result
# the hub's ledger in the record (firmware_py/director/hub/wire/ledger.py)
LEDGER = "hub_deliveries"
WHAT_DELIVERIES = ("table", "journal", "through")  # what the columns of ``deliveries`` name


@dataclass(frozen=True, slots=True)
class JournalDecision:
    """One decision of a table's journal: its journal id and what it decided."""

    table: int
    journal: str
    seq: int
    event: str
    bears: bool  # on the record: a match's result, a Pentathlon game's confirmed result


@dataclass(slots=True)
class TableJournals:
    """What a table's journals hold: every decision, and what still waits in the outboxes."""

    decisions: list[JournalDecision] = field(default_factory=list)
    waiting: int = 0  # decisions left in the outboxes
    journals: int = 0
    unreadable: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Verdict:
    checked: int
    lost: int
    doubled: int
    waiting: int  # left in outboxes
    journals: int
    unreadable: tuple[str, ...]
    amendments: int  # the director's entries in the record
    amendments_standing: int  # ... still the current result, or replaced by the director
    by_deliveries: bool  # the record keeps ``deliveries``: every decision is checked
    lost_examples: tuple[str, ...] = ()

    @property
    def amendments_overridden(self) -> int:
        return self.amendments - self.amendments_standing

    @property
    def sound(self) -> bool:
        return not (
            self.lost
            or self.doubled
            or self.waiting
            or self.unreadable
            or self.amendments_overridden
        )

    def lines(self) -> list[str]:
        mode = "every decision (deliveries)" if self.by_deliveries else "results only"
        return [
            f"decisions checked: {self.checked} ({mode}, {self.journals} journals)",
            f"lost: {self.lost}",
            f"doubled: {self.doubled}",
            f"left in outboxes: {self.waiting}",
            f"unreadable journals: {len(self.unreadable)}",
            f"director's entries: {self.amendments}, standing: {self.amendments_standing}",
        ]


def journal_files(path: Path) -> list[Path]:
    """A table's journal and those moved aside beside it (``<name>.<why>-<time>``)."""
    found = [path] if path.exists() else []
    for candidate in sorted(path.parent.glob(f"{path.name}.*")):
        if not candidate.name.endswith((*SIDE_FILES, ".creating")):  # a creation cut short
            found.append(candidate)
    return found


def read_table(table: int, path: Path) -> TableJournals:
    """Every decision of a table's journals, read-only (nothing beside them is written)."""
    read = TableJournals()
    for file in journal_files(path):
        try:
            journal = Journal.open_read_only(file)
        except JournalError as error:
            read.unreadable.append(str(error))
            continue
        try:
            identity = journal.identity()
            entries = list(journal.entries())
            if file == path:  # one moved aside handed what it had not delivered on (R713)
                read.waiting += journal.undelivered()
        except JournalError as error:
            read.unreadable.append(str(error))
            continue
        finally:
            journal.close()
        read.journals += 1
        first = entries[0].body if entries else {}
        family = first.get("settings", {}).get("family") if isinstance(first, dict) else None
        for entry in entries:
            if entry.kind != "event":
                continue
            name = str(entry.body.get("event"))
            bears = name == MATCH_RESULT or (name == GAME_OVER and family == PENTATHLON)
            read.decisions.append(JournalDecision(table, identity, entry.seq, name, bears))
    return read


@contextmanager
def reading(path: Path) -> Iterator[sqlite3.Connection]:
    """The record, read as a journal is read (journal_file.connect_read_only, R121): nothing is
    written, not even SQLite's files beside it; a record the hub is writing (in WAL mode) is
    read with the hub's latest commits."""
    connection, release = connect_read_only(path)
    try:
        yield connection
    finally:
        connection.close()
        release()


def deliveries(record: sqlite3.Connection) -> dict[tuple[int, str], int] | None:
    """``(table, journal) -> through`` from the record's ``hub_deliveries`` (the hub's ledger,
    R710), or None without it. The columns are found by name: one naming the table, one the
    journal, one ``through``."""
    found = record.execute(
        f"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '{LEDGER}'"
    ).fetchone()
    if found is None:
        return None
    columns = [str(row[1]) for row in record.execute(f"PRAGMA table_info({LEDGER})")]
    named = [next((name for name in columns if part in name), None) for part in WHAT_DELIVERIES]
    table, journal, through = named
    if table is None or journal is None or through is None:
        raise ValueError(
            f"the record's deliveries has columns {', '.join(columns)}: expected one naming "
            "the table, one the journal and one through"
        )
    rows = record.execute(f'SELECT "{table}", "{journal}", "{through}" FROM {LEDGER}')
    held: dict[tuple[int, str], int] = {}
    for number, identity, seq in rows:
        key = (int(number), str(identity))
        held[key] = max(held.get(key, 0), int(seq))
    return held


def check(journals: Mapping[int, Path], record_path: Path) -> Verdict:
    """The verdict on a campaign: ``journals`` is each table's journal path."""
    tables = {table: read_table(table, path) for table, path in journals.items()}
    with reading(record_path) as record:
        return judge(tables.values(), record)


def judge(tables: Iterable[TableJournals], record: sqlite3.Connection) -> Verdict:
    tables = list(tables)
    events = Counter(
        (int(table), str(journal), int(seq))
        for table, journal, seq in record.execute(
            "SELECT table_number, journal, seq FROM table_events"
        )
    )
    held = deliveries(record)
    checked = lost = 0
    examples: list[str] = []
    for read in tables:
        for decision in read.decisions:
            if held is None and not decision.bears:
                continue
            checked += 1
            key = (decision.table, decision.journal, decision.seq)
            covered = held is None or decision.seq <= held.get(key[:2], 0)
            if not covered or (decision.bears and key not in events):
                lost += 1
                if len(examples) < 10:
                    examples.append(
                        f"table {decision.table} journal {decision.journal[:8]} "
                        f"seq {decision.seq} ({decision.event})"
                    )
    doubled = sum(count - 1 for count in events.values() if count > 1)
    doubled += _results_doubled(record)
    entries, standing = _director_entries(record)
    return Verdict(
        checked=checked,
        lost=lost,
        doubled=doubled,
        waiting=sum(read.waiting for read in tables),
        journals=sum(read.journals for read in tables),
        unreadable=tuple(problem for read in tables for problem in read.unreadable),
        amendments=entries,
        amendments_standing=standing,
        by_deliveries=held is not None,
        lost_examples=tuple(examples),
    )


def _results_doubled(record: sqlite3.Connection) -> int:
    """Results entered by a table beyond those the hub recorded or amended for it: a decision
    applied twice."""
    marks = ", ".join("?" * len(HELD))
    applied = Counter(
        (int(table), int(number))
        for table, number in record.execute(
            f"SELECT table_number, round FROM table_events WHERE outcome IN ({marks})", HELD
        )
    )
    entered = Counter(
        (int(table), int(number))
        for table, number in record.execute(
            """SELECT p.table_number, p.round FROM results r JOIN pairings p ON p.id = r.pairing
               WHERE r.source = 'table'"""
        )
    )
    if _has_table(record, "pentathlon_results"):
        entered += Counter(
            (int(table), int(number))
            for table, number in record.execute(
                """SELECT s.table_number, s.round FROM pentathlon_results r
                   JOIN pentathlon_seats s ON s.id = r.seat WHERE r.source = 'table'"""
            )
        )
    return sum(max(0, count - applied[match]) for match, count in entered.items())


def _director_entries(record: sqlite3.Connection) -> tuple[int, int]:
    """The director's result entries, and how many of them stand: each is the current result,
    or only the director's own entries came after it."""
    entries = standing = 0
    histories: dict[int, list[str]] = {}
    for pairing, source in record.execute("SELECT pairing, source FROM results ORDER BY id"):
        histories.setdefault(int(pairing), []).append(str(source))
    for history in histories.values():
        for place, source in enumerate(history):
            if source != "director":
                continue
            entries += 1
            if all(later == "director" for later in history[place + 1 :]):
                standing += 1
    return entries, standing


def _has_table(record: sqlite3.Connection, name: str) -> bool:
    row = record.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return row is not None
