"""The tournament's day: its events, each a record of its own, and the event each table plays
for (issue 27, R1116-R1119).

A day of several events (GeoPlunge Combo 4 and Combo 3 beside a Pentathlon event, four
divisions of six games at a national tournament) is one **day record** naming one tournament
record per event. An event's record is a tournament record exactly as one event's is alone,
so every command and page that works on a record works on an event unchanged, and an event is
closed, exported or restored alone. The day record holds only what spans the events: the
tournament's name and time zone, its events, which event each table plays for (with who moved
it, when and why), and the hub's ledger of how far each table's journals are held (so a table
has one confirmation stream whatever its event: ``hub/wire/ledger.py``).
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from firmware_py.director.record.file import (
    DAY_HEADER_ID,
    SQLITE_HEADER,
    connect_record,
    create_private_beside,
    remove_with_sides,
)
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.user_files import UserFileError, put_new_in_place, require_nothing_at
from rules.errors import IllegalAction, InvalidInput

# A day record is told from a tournament record before SQLite opens it: its header's
# application_id (bytes 68-71) says "gtdy", and its user_version is the day schema's.
DAY_APPLICATION_ID = int.from_bytes(DAY_HEADER_ID, "big")
DAY_SCHEMA_VERSION = 1
SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,22}[a-z0-9])?")
MAX_NAME = 80
MAX_EVENTS = 64  # a national tournament's 4 divisions x 6 games is 24
MAX_TABLE = 999  # as the wire's (hub_wire.MAX_TABLE)

DAY_SCHEMA = (
    """CREATE TABLE day (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL,
        time_zone TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL
    )""",
    """CREATE TABLE day_events (
        slug TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        record TEXT NOT NULL UNIQUE,
        position INTEGER NOT NULL UNIQUE,
        added_at TEXT NOT NULL,
        added_by TEXT NOT NULL
    )""",
    """CREATE TABLE table_assignments (
        id INTEGER PRIMARY KEY,
        table_number INTEGER NOT NULL,
        event TEXT NOT NULL REFERENCES day_events (slug),
        at TEXT NOT NULL,
        by TEXT NOT NULL,
        reason TEXT NOT NULL
    )""",
    "CREATE INDEX table_assignments_by_table ON table_assignments (table_number, id)",
)


@dataclass(frozen=True, slots=True)
class DayEvent:
    """One event of the day: its short name on the wire and in addresses, its name, its
    record."""

    slug: str
    name: str
    record: Path  # absolute
    position: int


@dataclass(frozen=True, slots=True)
class Assignment:
    """A table given to an event: from ``at``, by whom and why."""

    table: int
    event: str
    at: str
    by: str
    reason: str


def check_slug(slug: str) -> str:
    if not SLUG.fullmatch(slug):
        raise InvalidInput(
            f"event {slug!r} is not an event's short name: expected 1-24 lower-case letters, "
            "digits and inner hyphens, like combo4-junior"
        )
    return slug


def check_text(value: str, what: str) -> str:
    text = value.strip()
    if not text or len(text) > MAX_NAME or not text.isprintable():
        raise InvalidInput(f"{what} {value!r}: expected one line of 1-{MAX_NAME} characters")
    return text


def check_time_zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(
            f"time zone {name!r} is not known: expected an IANA name like America/Chicago"
        ) from None
    return name


def is_day_file(path: Path) -> bool:
    """Whether ``path`` is a day record by its header (anything unreadable is not)."""
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except OSError:
        return False
    return header.startswith(SQLITE_HEADER) and header[68:72] == DAY_HEADER_ID


def require_day_file(path: Path, *, record_advice: str | None = None) -> None:
    """A day record, told by its header before SQLite touches it. ``record_advice`` says what
    to do with a tournament record named as the day: the command's own way to name one (a
    ``gametable day`` command has none, so by default it says how to add it to a day)."""
    if not path.exists():
        raise InvalidInput(
            f"no day at {path}: start one with "
            f"'gametable day new {path} --name NAME --time-zone ZONE'"
        )
    if not path.is_file():
        raise InvalidInput(f"{path} is not a day record: not a regular file")
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror or error}") from None
    if not header.startswith(SQLITE_HEADER) or len(header) < 100:
        raise InvalidInput(f"{path} is not a day record: not an SQLite database")
    if int.from_bytes(header[68:72], "big") != DAY_APPLICATION_ID:
        advice = record_advice or (
            f"add it to a day with 'gametable day event DAY SLUG NAME --record {path}'"
        )
        raise InvalidInput(f"{path} is not a day record (a tournament record? {advice})")
    version = int.from_bytes(header[60:64], "big")
    if version != DAY_SCHEMA_VERSION:
        raise InvalidInput(
            f"{path} is a day record of schema {version}: expected {DAY_SCHEMA_VERSION}"
        )


class DayRecord:
    """The day record's file: its events and the tables' assignments."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path

    # --- making and opening --------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, *, name: str, time_zone: str, now: str, by: str) -> DayRecord:
        """A new day at ``path``, where nothing may be yet; made whole under a name of its own
        and only then given ``path`` (as a tournament record is: R700)."""
        name = check_text(name, "tournament name")
        time_zone = check_time_zone(time_zone)
        try:
            require_nothing_at(path, "a new day record")
        except UserFileError as error:
            raise IllegalAction(str(error)) from None
        if not path.parent.is_dir():
            raise InvalidInput(f"cannot create {path}: no directory {path.parent}")
        making = create_private_beside(path)
        try:
            day = cls(connect_record(making, create=True), making)
            try:
                with day.writing():
                    for statement in DAY_SCHEMA:
                        day._db.execute(statement)
                    day._db.execute(
                        "INSERT INTO day VALUES (1, ?, ?, ?, ?)", (name, time_zone, now, by)
                    )
                    day._db.execute(f"PRAGMA application_id = {DAY_APPLICATION_ID}")
                    day._db.execute(f"PRAGMA user_version = {DAY_SCHEMA_VERSION}")
            finally:
                day.close()
            put_new_in_place(making, path)
        except UserFileError as error:
            raise IllegalAction(str(error)) from None
        except OSError as error:
            raise InvalidInput(f"cannot create {path}: {error.strerror or error}") from None
        finally:
            remove_with_sides(making)
        return cls.open(path)

    @classmethod
    def open(cls, path: Path, *, record_advice: str | None = None) -> DayRecord:
        require_day_file(path, record_advice=record_advice)
        return cls(connect_record(path, create=False), path)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> DayRecord:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connection(self) -> sqlite3.Connection:
        return self._db

    def writing(self) -> AbstractContextManager[None]:
        """One write transaction (as ``TournamentDB.writing``: the hub's ledger uses it)."""
        return self._write()

    @contextmanager
    def _write(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # --- the day ---------------------------------------------------------------------------

    def _founding(self) -> sqlite3.Row:
        row = self._db.execute("SELECT * FROM day WHERE id = 1").fetchone()
        if row is None:
            raise InvalidInput(f"{self.path} is not a day record: it names no tournament")
        return row  # type: ignore[no-any-return]

    @property
    def name(self) -> str:
        return str(self._founding()["name"])

    @property
    def time_zone(self) -> str:
        return str(self._founding()["time_zone"])

    def identity(self) -> str:
        """The day's identity for the hub's confirmations (as ``TournamentDB.identity``): a
        digest of its founding row, so another day, even of the same name, has another."""
        row = self._founding()
        founding = [row["name"], row["time_zone"], row["created_at"], row["created_by"], "day"]
        return hashlib.sha256(json.dumps(founding).encode()).hexdigest()[:32]

    # --- events ----------------------------------------------------------------------------

    def events(self) -> tuple[DayEvent, ...]:
        rows = self._db.execute("SELECT * FROM day_events ORDER BY position").fetchall()
        return tuple(self._event(row) for row in rows)

    def _folder(self) -> Path:
        """The folder the day's file is in, its symlinks resolved: an event's record kept by
        its relative path is beside the day's real file, wherever a link to it is (R1150)."""
        return self.path.resolve().parent

    def _event(self, row: sqlite3.Row) -> DayEvent:
        record = Path(row["record"])
        if not record.is_absolute():
            record = self._folder() / record
        return DayEvent(row["slug"], row["name"], record, int(row["position"]))

    def event(self, slug: str) -> DayEvent:
        for event in self.events():
            if event.slug == slug:
                return event
        known = ", ".join(event.slug for event in self.events()) or "none yet"
        raise InvalidInput(f"no event {slug!r} in {self.path.name}: its events are {known}")

    def add_event(self, slug: str, name: str, record: Path, *, now: str, by: str) -> DayEvent:
        """An event of the day, played in an existing tournament record."""
        slug = check_slug(slug)
        name = check_text(name, "event name")
        events = self.events()
        if any(event.slug == slug for event in events):
            raise IllegalAction(f"the day already has an event {slug!r}: choose another name")
        if any(event.name == name for event in events):
            raise IllegalAction(f"the day already has an event named {name!r}")
        if len(events) >= MAX_EVENTS:
            raise IllegalAction(f"a day holds at most {MAX_EVENTS} events")
        record_path = record.absolute()
        _require_event_record(record)
        TournamentDB.open(record_path).close()  # a tournament record, or refused in words
        if any(event.record.resolve() == record_path.resolve() for event in events):
            raise IllegalAction(f"{record} is already an event of this day")
        # its folder's links resolved as the day's are (R1150); a link to a record is kept
        beside = record_path.parent.resolve() / record_path.name
        stored = _relative_if_beside(beside, self._folder())
        position = 1 + max((event.position for event in events), default=0)
        with self.writing():
            self._db.execute(
                "INSERT INTO day_events VALUES (?, ?, ?, ?, ?, ?)",
                (slug, name, stored, position, now, by),
            )
        return self.event(slug)

    def open_events(self) -> dict[str, TournamentDB]:
        """Every event's record, open (the caller closes them); one that names no time zone
        reads its times in the day's (R1162)."""
        opened: dict[str, TournamentDB] = {}
        try:
            for event in self.events():
                opened[event.slug] = open_event_record(event)
                opened[event.slug].default_zone = self.time_zone  # R1162
        except InvalidInput as error:
            for record in opened.values():
                record.close()
            raise InvalidInput(f"event {event.slug!r} of {self.path.name}: {error}") from None
        return opened

    def open_record(self, path: Path) -> TournamentDB:
        """An event's record, open: one that names no time zone reads its times in the day's
        (R1162), so its page does not show UTC under the day's zone."""
        record = TournamentDB.open(path)
        record.default_zone = self.time_zone
        return record

    # --- the tables' events ----------------------------------------------------------------

    def assignments(self) -> dict[int, Assignment]:
        """Each table's current event: the newest assignment of each."""
        rows = self._db.execute(
            "SELECT * FROM table_assignments WHERE id IN "
            "(SELECT MAX(id) FROM table_assignments GROUP BY table_number) "
            "ORDER BY table_number"
        ).fetchall()
        return {int(row["table_number"]): _assignment(row) for row in rows}

    def tables_of(self, event: str) -> tuple[int, ...]:
        """The tables whose newest assignment is to ``event``, lowest first: read by every
        request of an event's grid and each pairing, so the numbers alone (``assignments``
        builds every table's whole assignment)."""
        rows = self._db.execute(
            "SELECT table_number FROM table_assignments WHERE event = ? AND id IN "
            "(SELECT MAX(id) FROM table_assignments GROUP BY table_number) "
            "ORDER BY table_number",
            (event,),
        ).fetchall()
        return tuple(int(row[0]) for row in rows)

    def event_of(self, table: int) -> str | None:
        row = self._db.execute(
            "SELECT event FROM table_assignments WHERE table_number = ? ORDER BY id DESC LIMIT 1",
            (table,),
        ).fetchone()
        return None if row is None else str(row["event"])

    def assignment_history(self, table: int) -> tuple[Assignment, ...]:
        rows = self._db.execute(
            "SELECT * FROM table_assignments WHERE table_number = ? ORDER BY id", (table,)
        ).fetchall()
        return tuple(_assignment(row) for row in rows)

    def assign(
        self,
        tables: Sequence[int],
        event: str,
        *,
        now: str,
        by: str,
        reason: str,
        busy: dict[int, str] | None = None,
    ) -> tuple[int, ...]:
        """Give ``tables`` to ``event``; returns the tables that moved (a table already the
        event's is left as it is). ``busy`` names, per table, why it cannot move now (its
        match unfinished in its event: the caller reads the events' records); any busy
        table refuses the whole change, in words."""
        self.event(event)  # a known event, or refused naming those there are
        reason = check_text(reason, "reason")
        if not tables:
            raise InvalidInput("no tables named: expected numbers like 1-12,15")
        for table in tables:
            if not 1 <= table <= MAX_TABLE:
                raise InvalidInput(f"table {table}: expected a number 1-{MAX_TABLE}")
        current = self.assignments()
        moving = sorted({t for t in tables if getattr(current.get(t), "event", None) != event})
        held = [f"table {t}: {busy[t]}" for t in moving if busy and t in busy]
        if held:
            raise IllegalAction(
                "nothing moved: " + "; ".join(held) + " (a table moves between rounds)"
            )
        with self.writing():
            self._db.executemany(
                "INSERT INTO table_assignments (table_number, event, at, by, reason) "
                "VALUES (?, ?, ?, ?, ?)",
                [(table, event, now, by, reason) for table in moving],
            )
        return tuple(moving)


def _require_event_record(record: Path) -> None:
    """What ``gametable day event --record`` names: a tournament record made before; one not
    there, or a day record, is refused saying how to make the event's record (R1151)."""
    if not record.exists():
        raise InvalidInput(
            f"no tournament at {record}: make the event's record first, with 'gametable "
            f"tournament new --format FORMAT --teams CSV --db {record}' (a Pentathlon event: "
            f"'gametable tournament pentathlon new --players CSV --db {record}')"
        )
    if is_day_file(record):
        raise InvalidInput(
            f"{record} is a day record, not an event's: expected a tournament record, made "
            "with 'gametable tournament new'"
        )


def event_record_gone(event: DayEvent) -> InvalidInput | None:
    """The words for an event whose record is not where the day keeps it: to be put back,
    never started anew, since the event's rounds and results are in it (R1151)."""
    if event.record.exists():
        return None
    return InvalidInput(
        f"no tournament at {event.record}, where the day keeps event {event.slug!r}'s record: "
        "expected it there (moved or deleted? put it back)"
    )


def open_event_record(event: DayEvent) -> TournamentDB:
    """The event's record, open, or refused in words (one gone: ``event_record_gone``)."""
    gone = event_record_gone(event)
    if gone is not None:
        raise gone
    return TournamentDB.open(event.record)


def _assignment(row: sqlite3.Row) -> Assignment:
    return Assignment(int(row["table_number"]), row["event"], row["at"], row["by"], row["reason"])


def _relative_if_beside(record: Path, directory: Path) -> str:
    """An event's record beside the day (or below it) is kept by its relative path, so a
    day's folder copied elsewhere (a backup restored on another laptop) still finds it."""
    try:
        return str(record.relative_to(directory))
    except ValueError:
        return str(record)


def parse_table_list(text: str) -> tuple[int, ...]:
    """``1-12,15`` -> (1, ..., 12, 15); refused in words naming the bad part."""
    tables: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        bounds = (low, high) if dash else (low,)
        # digits 0-9 only, as a room's tables (R1110): int() reads "1_0", "+3" and other
        # scripts' digits too, and would move tables nobody meant (R1152)
        if not all(bound.isascii() and bound.isdigit() for bound in bounds):
            raise InvalidInput(
                f"tables {text!r}: {part!r} is not a table or a range: expected like 1-12,15"
            )
        first, last = _table_bound(low), _table_bound(bounds[-1])
        if not 1 <= first <= last <= MAX_TABLE:
            raise InvalidInput(
                f"tables {text!r}: {part!r} is not a range of tables: "
                f"expected numbers 1-{MAX_TABLE}, low to high"
            )
        tables.extend(range(first, last + 1))
    return tuple(dict.fromkeys(tables))


def _table_bound(digits: str) -> int:
    """A range's bound as a number; one longer than any table is past them all (never int()
    of 5,000 digits: a ValueError past Python's limit, R941)."""
    return int(digits) if len(digits) <= len(str(MAX_TABLE)) else MAX_TABLE + 1


def day_event(day: Path, event: str | None) -> DayEvent:
    """Event ``event`` of the day at ``day`` (a command's ``--day DAY --event SLUG``), or
    InvalidInput naming the day's events when none is given or it is not one of them, or
    naming its record when that is not where the day keeps it."""
    with DayRecord.open(day, record_advice=f"name it with --db {day}") as record:
        if not event:
            known = ", ".join(e.slug for e in record.events()) or "none yet"
            raise InvalidInput(f"--day {day} needs --event SLUG: its events are {known}")
        found = record.event(event)
    gone = event_record_gone(found)
    if gone is not None:
        raise gone
    return found


def event_record(day: Path, event: str | None) -> Path:
    """The record of ``event`` of the day at ``day``, as ``day_event`` finds it."""
    return day_event(day, event).record
