"""A closed tournament's record is final until a director reopens it (R850).

The tournament is closed while its champion stands: the latest row of ``champions`` (the one no
row supersedes) that no row of ``reopenings`` names. Reopening is a row of its own, with who,
when and why, in the append-only ``reopenings`` table (made by the first reopening, in its
transaction: the schema version stays, as for the staff table, R810); closing again records the
champion anew, superseding the reopened one with a reason that says so. Nothing is updated or
deleted, so every closing and reopening stays readable in order (``export``).

While closed, every change to the tournament is refused in words (:meth:`Closing.refusal`) that
name the champion, who recorded it and when, and how to reopen. Only the closing's own amendment
(``gametable tournament championship --winner NAME --amend --reason``), reopening, and lodging a
protest (which changes no result) remain.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from firmware_py.director.record.venue import UTC_ZONE, read_venue
from rules.errors import IllegalAction, InvalidInput, echoed

HOW_TO_REOPEN = (
    "a director reopens it with a reason (Reopen on the page's /close, or "
    "gametable tournament reopen --reason TEXT)"
)
CLOSED_AGAIN = "closed again after it was reopened"

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS reopenings (
        id INTEGER PRIMARY KEY,
        champion INTEGER NOT NULL UNIQUE REFERENCES champions(id),
        reopened_by TEXT NOT NULL,
        reopened_at TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0))""",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS reopenings_{verb}_refused BEFORE {verb.upper()}
        ON reopenings BEGIN SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for verb in ("update", "delete")
    ),
)


@dataclass(frozen=True, slots=True)
class Closing:
    """The champion that stands, and who recorded it when: the tournament is closed."""

    row: int  # its row in ``champions``
    champion: str
    closed_by: str
    closed_at: str
    closed_at_shown: str = ""  # as the venue reads it (R962); the ISO time when not given

    def refusal(self, doing: str) -> IllegalAction:
        """Why ``doing`` cannot be done now, in one line."""
        return IllegalAction(
            f"{doing}: the tournament is closed ({self.champion} recorded as champion by "
            f"{self.closed_by} at {self.closed_at_shown or self.closed_at}): {HOW_TO_REOPEN}"
        )

    def to_json(self) -> dict[str, Any]:
        return {"champion": self.champion, "closed_by": self.closed_by, "closed_at": self.closed_at}


@dataclass(frozen=True, slots=True)
class Reopening:
    """A closing undone: the champion it had, and who reopened it, when and why."""

    champion: str
    closed_by: str
    closed_at: str
    reopened_by: str
    reopened_at: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "champion": self.champion,
            "closed_by": self.closed_by,
            "closed_at": self.closed_at,
            "reopened_by": self.reopened_by,
            "reopened_at": self.reopened_at,
            "reason": self.reason,
        }


def standing_champion(db: sqlite3.Connection) -> sqlite3.Row | None:
    """The latest champion row (none supersedes it), reopened or not: each row supersedes the
    one standing before it, so the chain is one line and its end is the newest row. The hub
    asks for each table's result (R725): ``champions`` holds a row per closing or amendment, a
    handful whatever the field."""
    row: sqlite3.Row | None = db.execute(
        """SELECT champions.id, teams.name, champions.entered_by, champions.entered_at
           FROM champions JOIN teams ON teams.id = champions.team
           ORDER BY champions.id DESC LIMIT 1"""
    ).fetchone()
    return row


def last_closing(db: sqlite3.Connection) -> int:
    """The latest closing's champion row, standing or reopened (0: never closed): what the
    page's Close form names, to be checked when it is sent (R857)."""
    row = standing_champion(db)
    return 0 if row is None else int(row["id"])


def require_seen(db: sqlite3.Connection, expected: int, zone: str = UTC_ZONE) -> None:
    """Refuse closing from a form drawn before the latest reopening (R857): ``expected``, the
    latest closing the form saw (``last_closing``), is no longer the latest. A tournament
    closed meanwhile is left to ``set_champion``'s own refusal ("already recorded")."""
    latest = last_closing(db)
    if expected == latest or closing(db) is not None:
        return
    if latest == 0:
        raise IllegalAction(
            f"closing the tournament: the form names closing {expected}, which the record does "
            "not hold: nothing recorded; look at /close again"
        )
    last = reopenings(db)[-1]  # the latest closing was reopened: this is its reopening
    when = read_venue(db, zone).when
    raise IllegalAction(
        "closing the tournament: the page was drawn before the latest reopening "
        f"({last.champion} recorded as champion by {last.closed_by} at "
        f"{when(last.closed_at)}, reopened by {last.reopened_by} at {when(last.reopened_at)}: "
        f"{echoed(last.reason)}), so "
        "what it showed may have changed since: nothing recorded; look at /close again"
    )


def closing(db: sqlite3.Connection, zone: str = UTC_ZONE) -> Closing | None:
    """The closing that stands, or None: never closed, or reopened since; ``zone``: a record's
    time zone when it names none (R1162)."""
    row = standing_champion(db)
    if row is None or _reopened(db, int(row["id"])):
        return None
    at = row["entered_at"]
    shown = read_venue(db, zone).when(at)
    return Closing(int(row["id"]), str(row["name"]), row["entered_by"], at, shown)


def reopen(
    db: sqlite3.Connection, *, now: str, by: str, reason: str, expected: int | None = None
) -> Closing:
    """Reopen the tournament (in the caller's write transaction); the closing it undid.
    ``expected``: the closing (its champion row) the page showed; another is refused (R856)."""
    reason = reason.strip()
    if not reason:
        raise InvalidInput("reopening the tournament with an empty reason: expected why")
    closed = closing(db)
    if closed is None:
        raise IllegalAction(
            "the tournament is not closed: nothing to reopen (it closes when its champion is "
            "recorded)"
        )
    if expected is not None and expected != closed.row:
        raise IllegalAction(
            "reopening the tournament: the closing the page showed was reopened since, and the "
            f"tournament closed again ({closed.champion} recorded as champion by "
            f"{closed.closed_by} at {closed.closed_at_shown}): nothing reopened; look at /close "
            "again"
        )
    for statement in SCHEMA:
        db.execute(statement)
    db.execute(
        "INSERT INTO reopenings (champion, reopened_by, reopened_at, reason) VALUES (?,?,?,?)",
        (closed.row, by, now, reason),
    )
    return closed


def reopenings(db: sqlite3.Connection) -> tuple[Reopening, ...]:
    """Every reopening, oldest first."""
    if not _has_table(db):
        return ()
    rows = db.execute(
        """SELECT t.name, c.entered_by, c.entered_at, r.reopened_by, r.reopened_at, r.reason
           FROM reopenings r JOIN champions c ON c.id = r.champion JOIN teams t ON t.id = c.team
           ORDER BY r.id"""
    )
    return tuple(Reopening(*row) for row in rows)


def _reopened(db: sqlite3.Connection, champion_row: int) -> bool:
    if not _has_table(db):
        return False
    found = db.execute("SELECT 1 FROM reopenings WHERE champion = ?", (champion_row,))
    return found.fetchone() is not None


def _has_table(db: sqlite3.Connection) -> bool:
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'reopenings'")
    return found.fetchone() is not None
