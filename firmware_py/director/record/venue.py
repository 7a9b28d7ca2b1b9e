"""The tournament's name and its venue's time zone (R962): two settings of the record, shown
on every page of the hub and every printed sheet.

Each change is a row of the append-only ``tournament_settings`` table (made by the first
setting, in its transaction: the schema version stays, as for ``staff`` and ``reopenings``),
with who and when; the latest row of each setting stands. A record without one has no name
(the pages say "Tournament", and how to name it) and keeps the time in UTC.

The record keeps every time as ISO 8601 in UTC (``2026-11-29T05:34:07+00:00``); a person reads
it in the venue's time zone, as ``Sun 29 Nov 2026, 23:34 CST`` (:meth:`Venue.when`).
"""

from __future__ import annotations

import sqlite3
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from rules.errors import InvalidInput, echoed
from rules.text import unprintable
from rules.tournament.teams import clean_text

MAX_NAME = 80  # characters: a header line and a sheet's title
UTC_ZONE = "UTC"
# Names the time zone database holds that are no venue's zone (R966): "localtime" is this
# machine's own setting, whatever it becomes; "Factory" says "-00", "local time not set".
NOT_A_VENUE = frozenset({"localtime", "Factory", "posixrules"})
UNNAMED = "Tournament"  # the header of a record without a name
SETTINGS = ("name", "time_zone")

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tournament_settings (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL CHECK (key IN ('name', 'time_zone')),
        value TEXT NOT NULL CHECK (length(value) > 0),
        set_by TEXT NOT NULL,
        set_at TEXT NOT NULL)""",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS tournament_settings_{verb}_refused BEFORE {verb.upper()}
        ON tournament_settings BEGIN
        SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for verb in ("update", "delete")
    ),
)


@dataclass(frozen=True, slots=True)
class Venue:
    """The tournament's name (None: not named yet) and the venue's IANA time zone."""

    name: str | None = None
    time_zone: str = UTC_ZONE

    @property
    def title(self) -> str:
        """The name, or "Tournament" while it has none."""
        return self.name or UNNAMED

    def when(self, iso: str) -> str:
        """A time of the record (ISO 8601) as a person at the venue reads it: "Sun 29 Nov
        2026, 23:34 CST". Text that is no such time is shown as it is."""
        try:
            moment = datetime.fromisoformat(iso)
        except ValueError:
            return iso
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        local = moment.astimezone(_zone(self.time_zone))
        return f"{local:%a} {local.day} {local:%b %Y, %H:%M} {local.tzname() or self.time_zone}"

    def clock(self, at: float) -> str:
        """A moment (seconds since the epoch) as the venue's wall clock reads it: "05:47 CST"
        (the problem queue's "since", R1181)."""
        local = datetime.fromtimestamp(at, _zone(self.time_zone))
        return f"{local:%H:%M} {local.tzname() or self.time_zone}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "time_zone": self.time_zone}


def check_name(text: str) -> str:
    """A tournament's name as the record keeps it: one line of printable text, at most
    MAX_NAME characters (runs of spaces made one, as team names are)."""
    expected = f"expected one line of at most {MAX_NAME} printable characters"
    if len(text.strip().splitlines()) > 1:
        raise InvalidInput(f"the tournament's name: {expected}, got more than one line")
    name = clean_text(text, "the tournament's name")
    if not name:
        raise InvalidInput(f"the tournament's name is empty: {expected}")
    if (at_fault := unprintable(name)) is not None:
        raise InvalidInput(f"the tournament's name: {expected}, got {at_fault}")
    if len(name) > MAX_NAME:
        raise InvalidInput(f"the tournament's name: {expected}, got {len(name)} characters")
    return name


def check_time_zone(text: str) -> str:
    """An IANA time zone name this machine knows (``America/Chicago``, ``Europe/Berlin``,
    ``UTC``), spelt as the database spells it; anything else is refused in one line."""
    zone = text.strip()
    known = zoneinfo.available_timezones() - NOT_A_VENUE
    if zone in known:
        return zone
    matches = sorted(name for name in known if name.casefold() == zone.casefold())
    hint = f" (did you mean {matches[0]}?)" if matches else ""
    raise InvalidInput(
        f"unknown time zone {echoed(zone)}{hint}: expected an IANA name such as "
        "America/Chicago, Europe/Berlin or UTC"
    )


def read_venue(db: sqlite3.Connection, zone: str = UTC_ZONE) -> Venue:
    """The settings that stand: the latest row of each; a record without the table has none.
    ``zone``: the time zone of a record that names none (UTC; an event's day's, R1162)."""
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tournament_settings'"
    ).fetchone()
    if found is None:
        return Venue(time_zone=zone)
    rows = db.execute(
        """SELECT key, value FROM tournament_settings WHERE id IN
           (SELECT MAX(id) FROM tournament_settings GROUP BY key)"""
    )
    latest = {row[0]: row[1] for row in rows}
    return Venue(latest.get("name"), latest.get("time_zone", zone))


def set_setting(db: sqlite3.Connection, key: str, value: str, *, now: str, by: str) -> None:
    """Record a setting (in the caller's write transaction), checked as above."""
    if key not in SETTINGS:
        raise InvalidInput(f"unknown setting {echoed(key)}: expected one of {', '.join(SETTINGS)}")
    for statement in SCHEMA:
        db.execute(statement)
    db.execute(
        "INSERT INTO tournament_settings (key, value, set_by, set_at) VALUES (?,?,?,?)",
        (key, value, by, now),
    )


def settings_history(db: sqlite3.Connection) -> list[dict[str, str]]:
    """Every setting recorded, oldest first (for ``export``)."""
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tournament_settings'"
    ).fetchone()
    if found is None:
        return []
    rows = db.execute("SELECT key, value, set_by, set_at FROM tournament_settings ORDER BY id")
    return [{"key": k, "value": v, "set_by": b, "set_at": a} for k, v, b, a in rows]


def _zone(key: str) -> zoneinfo.ZoneInfo:
    """The zone, or UTC when this machine no longer knows it (its tzdata changed): a time is
    always shown, never an error."""
    try:
        return zoneinfo.ZoneInfo(key)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(UTC_ZONE)
