"""The event a day's staff account is limited to (issue 27, R1142).

A day's staff accounts are the day record's (``StaffRecord(day)``); an account may be given
one event (results staff who enter Combo 4 Junior's results and nothing else): it holds its
role on that event's pages and is refused on every other event's, in words. A director is every
event's director and is never limited. Kept as the staff table is, append-only: each row says
what an account was limited to from then on (no event: every event), the latest row standing.
"""

from __future__ import annotations

from firmware_py.director.hub.staff import StaffHolder

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS staff_events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        event TEXT,
        entered_by TEXT NOT NULL,
        entered_at TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS staff_events_by_name ON staff_events(name, id)",
)


class StaffEvents:
    """Which event each of a day's staff accounts is limited to."""

    def __init__(self, holder: StaffHolder) -> None:
        self.holder = holder

    def event_of(self, name: str) -> str | None:
        """The one event ``name`` is staff of, or None: every event."""
        db = self.holder.connection
        made = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'staff_events'"
        ).fetchone()
        if made is None:  # no account was ever limited
            return None
        row = db.execute(
            "SELECT event FROM staff_events WHERE name = ? ORDER BY id DESC LIMIT 1", (name,)
        ).fetchone()
        return None if row is None or row["event"] is None else str(row["event"])

    def limit(self, name: str, event: str | None, *, now: str, by: str) -> None:
        """From now on ``name`` is staff of ``event`` alone (None: of every event); the caller
        refuses a director's (R1142)."""
        with self.holder.writing():
            for statement in _SCHEMA:
                self.holder.connection.execute(statement)
            self.holder.connection.execute(
                "INSERT INTO staff_events (name, event, entered_by, entered_at) VALUES (?,?,?,?)",
                (name, event, by, now),
            )
