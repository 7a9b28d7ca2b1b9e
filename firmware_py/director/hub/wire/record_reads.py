"""What the hub reads of each record, read again only once the record has changed (issue 27).

The hub publishes every record's rounds each second and at once after each change from the page
(``Hub._publish_pairings``): on a day of 24 events that read all 24 records every time, and 24
events paired at once read them 24 x 24 times, the most of each Pair's answer (bench/
day_scale.py). A record that has not changed since it was last read gives what it gave then.

A record has changed when its connection has written a row since (``total_changes``: the page's
changes and the hub's results, on the records the hub holds open) or another connection has
committed to its file since (``PRAGMA data_version``: a ``gametable tournament`` command beside
the hub). Either mark moving, even for a write that was rolled back, only costs a read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Generic, TypeVar

from firmware_py.director.record.tournament_db import TournamentDB

T = TypeVar("T")
Mark = tuple[int, int]


def change_mark(connection: sqlite3.Connection) -> Mark:
    """What moves whenever the record is written, by this connection or by another."""
    (version,) = connection.execute("PRAGMA data_version").fetchone()
    return int(version), connection.total_changes


class UntilChanged(Generic[T]):
    """``read(record)`` of each open record, kept until the record changes. Kept by the record
    itself: a record opened again is another connection, whose marks start again."""

    def __init__(self, read: Callable[[TournamentDB], T]) -> None:
        self._read = read
        self._kept: dict[TournamentDB, tuple[Mark, T]] = {}

    def __call__(self, record: TournamentDB) -> T:
        mark = change_mark(record.connection)
        kept = self._kept.get(record)
        if kept is not None and kept[0] == mark:
            return kept[1]
        value = self._read(record)
        self._kept[record] = (mark, value)
        return value
