"""Where a table's decisions go: the one record (``hub run --db``), or an event of the day
(``hub run --day``, issue 27, R1116, R1120-R1123).

In a day, each event is a tournament record of its own and the day record says which event
each table plays for. A match result goes to the event whose round names that round at that
table: a table moved to another event between rounds may still send its last round's result
late, and it belongs to the event it was played in (R1121). Anything else goes to the table's
current event. A table with no event, in a day of several, has nowhere to go: the hub holds its
results back (R1120) until the director gives it one. Whether a decision was applied before is
asked of every event's record, so a result applied to one event is never applied to another.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from firmware_py.director.hub.wire.apply import MATCH_STARTS
from firmware_py.director.hub.wire.ledger import LedgerStore
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TableEvent, TournamentDB
from firmware_py.table.hub_wire import Decision, TablesEvent, table_number
from rules.errors import RuleError

log = logging.getLogger("gametable")


@dataclass(frozen=True, slots=True)
class Route:
    """Where a decision goes: the event's short name (None for ``--db``'s one record) and its
    record."""

    event: str | None
    record: TournamentDB

    def logged(self) -> str:
        """The event as the hub's log lines name it (R1123)."""
        return "" if self.event is None else f" for_event={self.event}"


class EventRouter:
    """The hub's records and which of them each table's decisions go to."""

    def __init__(self, *, record: TournamentDB | None = None, day: DayRecord | None = None) -> None:
        if (record is None) == (day is None):
            raise ValueError("a hub serves one record or one day")
        self.record = record
        self.day = day
        self.events: dict[str, TournamentDB] = {} if day is None else day.open_events()
        self._names: dict[str, str] = {}
        self._assigned: dict[int, str] = {}
        self._unopened: set[str] = set()  # events said once that their record would not open
        self.refresh()

    @property
    def ledger_store(self) -> LedgerStore:
        """Where the hub's ledger lives: one confirmation stream per table, whatever its event
        (the day's record in a day)."""
        store: LedgerStore | None = self.day if self.day is not None else self.record
        assert store is not None
        return store

    @property
    def path(self) -> Path:
        where = self.day if self.day is not None else self.record
        assert where is not None
        return where.path

    def identity(self) -> str:
        """The identity in the hub's confirmations and status: the day's in a day."""
        if self.day is not None:
            return self.day.identity()
        assert self.record is not None
        return self.record.identity()

    def records(self) -> dict[str | None, TournamentDB]:
        """Every record the hub serves: by event in a day, else the one under None."""
        if self.record is not None:
            return {None: self.record}
        return {slug: record for slug, record in self.events.items()}

    def close(self) -> None:
        for record in self.events.values():
            record.close()
        self.events.clear()

    # --- the day, read again as the hub polls -----------------------------------------------

    def refresh(self) -> set[int]:
        """Read the day's events and assignments again (an event added, a table moved while
        the hub runs); the tables whose event changed."""
        if self.day is None:
            return set()
        events = self.day.events()
        for event in events:
            if event.slug not in self.events:
                self._open(event.slug, event.record)
        self._names = {event.slug: event.name for event in events if event.slug in self.events}
        assigned = {table: a.event for table, a in self.day.assignments().items()}
        changed = {
            table
            for table in assigned.keys() | self._assigned.keys()
            if assigned.get(table) != self._assigned.get(table)
        }
        self._assigned = assigned
        return changed

    def _open(self, slug: str, path: Path) -> None:
        try:
            assert self.day is not None  # events are a day's
            self.events[slug] = self.day.open_record(path)
        except (RuleError, sqlite3.Error) as error:  # a record moved or damaged: said once
            if slug not in self._unopened:
                self._unopened.add(slug)
                log.warning("event=hub_event_unopened for_event=%s error=%s", slug, error)

    def tables_events(self) -> dict[int, TablesEvent]:
        """Each assigned table's event as the tables read it (``tournament/tables/<t>/event``)."""
        return {
            table: TablesEvent(slug, self._names[slug])
            for table, slug in self._assigned.items()
            if slug in self._names
        }

    # --- routing ---------------------------------------------------------------------------

    def for_table(self, table: int) -> Route | None:
        """The table's current event; in a day of one event, that event for every table; None
        for a table with no event in a day of several (R1120)."""
        if self.record is not None:
            return Route(None, self.record)
        slug = self._assigned.get(table)
        if slug is not None and slug in self.events:
            return Route(slug, self.events[slug])
        if slug is None and len(self.events) == 1:
            only, record = next(iter(self.events.items()))
            return Route(only, record)
        return None

    def for_result(self, table: int, decision: Decision) -> Route | None:
        """A match result to the event whose round names that round at that table (the table's
        own event first, if several do); anything else, or a round no event has at that
        table, to the table's current event (R1121)."""
        if self.record is not None:
            return Route(None, self.record)
        number = decision.session.get("round")
        if decision.session.get("action") in MATCH_STARTS and type(number) is int:
            played = [
                slug
                for slug, record in self.events.items()
                if record.paired_match(number, table) is not None
            ]
            if len(played) == 1:
                return Route(played[0], self.events[played[0]])
            if played:
                current = self._assigned.get(table)
                slug = current if current in played else played[0]
                return Route(slug, self.events[slug])
        return self.for_table(table)

    def holding(self, table: int, journal: str, seq: int) -> TableEvent | None:
        """What a record applied of this decision, whichever event's: idempotence by (table,
        journal, seq) across every record of the day (R1122)."""
        for record in self.records().values():
            held = record.table_event(table, journal, seq)
            if held is not None:
                return held
        return None


def no_event_words(table: int) -> str:
    """The director's problem for a table's result with no event to go to (R1120)."""
    return f"table {table} plays for no event: assign it on the day page"


def is_event_round_topic(topic: str) -> bool:
    """Whether ``topic`` is an event's round: ``tournament/events/<slug>/rounds/<n>/pairings``
    or ``tournament/events/<slug>/pentathlon/rounds/<n>/seats``."""
    parts = topic.split("/")
    if len(parts) < 6 or parts[:2] != ["tournament", "events"]:
        return False
    if parts[3:] and parts[3] == "pentathlon":
        return len(parts) == 7 and parts[4] == "rounds" and parts[6] == "seats"
    return len(parts) == 6 and parts[3] == "rounds" and parts[5] == "pairings"


def tables_event_of(topic: str) -> int | None:
    """The table of a ``tournament/tables/<t>/event`` topic, or None."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[:2] != ["tournament", "tables"] or parts[3] != "event":
        return None
    return table_number(parts[2])
