"""Who is here: check-in marks per round, withdrawals, and the standings' release switch.

Three append-only tables of their own, each row with who and when (R1040-R1043):

- ``team_checkins``: a team marked present or absent for a round before it is paired; a later
  mark for the same round and team overrides an earlier one (both stay readable);
- ``team_withdrawals``: a team withdrawn, with why: never paired again (one row per team);
- ``standings_releases``: the standings hidden from the public page and projector, or
  released; the latest row stands, and with none they are public (as before).

Like ``reopenings`` (R850), the tables are made by the first write that needs them, in its
transaction, and by ``new`` with the rest: the schema version stays, so an older gametable
reads the record as before (it pairs everyone and shows the standings).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalAction
from rules.tournament.attendance import Attendance, CheckIn, check_reason, require_markable

_TABLES = ("team_checkins", "team_withdrawals", "standings_releases")
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS team_checkins (
        id INTEGER PRIMARY KEY,
        round INTEGER NOT NULL CHECK (round >= 1),
        team INTEGER NOT NULL REFERENCES teams(id),
        present INTEGER NOT NULL CHECK (present IN (0, 1)),
        marked_by TEXT NOT NULL,
        marked_at TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS team_withdrawals (
        team INTEGER PRIMARY KEY REFERENCES teams(id),
        after_round INTEGER NOT NULL CHECK (after_round >= 0),
        withdrawn_by TEXT NOT NULL,
        withdrawn_at TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0))""",
    """CREATE TABLE IF NOT EXISTS standings_releases (
        id INTEGER PRIMARY KEY,
        public INTEGER NOT NULL CHECK (public IN (0, 1)),
        set_by TEXT NOT NULL,
        set_at TEXT NOT NULL)""",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS {table}_{verb}_refused BEFORE {verb.upper()}
        ON {table} BEGIN SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for table in _TABLES
        for verb in ("update", "delete")
    ),
)


@dataclass(frozen=True, slots=True)
class Withdrawal:
    team: str
    after_round: int  # the rounds paired when it withdrew
    withdrawn_by: str
    withdrawn_at: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "team": self.team,
            "after_round": self.after_round,
            "withdrawn_by": self.withdrawn_by,
            "withdrawn_at": self.withdrawn_at,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Release:
    """Whether the standings are public, and who set it when (nobody: public by default)."""

    public: bool = True
    set_by: str | None = None
    set_at: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"public": self.public, "set_by": self.set_by, "set_at": self.set_at}


def _make(db: sqlite3.Connection) -> None:
    for statement in SCHEMA:
        db.execute(statement)


def _has(db: sqlite3.Connection, table: str) -> bool:
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
    return found.fetchone() is not None


def _paired(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM live_rounds").fetchone()[0])


def _team(db: sqlite3.Connection, team_id: int) -> str:
    return str(db.execute("SELECT name FROM teams WHERE id = ?", (team_id,)).fetchone()[0])


def mark(
    db: sqlite3.Connection, number: int, team_id: int, *, present: bool, now: str, by: str
) -> CheckIn:
    """Mark a team present or absent for round ``number`` (in the caller's transaction)."""
    team = _team(db, team_id)
    require_markable(number, team, _paired(db), frozenset(withdrawals_by_team(db)))
    _make(db)
    db.execute(
        """INSERT INTO team_checkins (round, team, present, marked_by, marked_at)
           VALUES (?,?,?,?,?)""",
        (number, team_id, int(present), by, now),
    )
    return CheckIn(number, team, present)


def withdraw(db: sqlite3.Connection, team_id: int, *, now: str, by: str, reason: str) -> Withdrawal:
    """Withdraw a team for good (in the caller's transaction): never paired again (R1041)."""
    reason = check_reason(reason)
    team = _team(db, team_id)
    earlier = withdrawals_by_team(db).get(team)
    if earlier is not None:
        raise IllegalAction(
            f"{team} has already withdrawn (by {earlier.withdrawn_by} at "
            f"{earlier.withdrawn_at}): a team withdraws once"
        )
    _make(db)
    paired = _paired(db)
    db.execute(
        """INSERT INTO team_withdrawals (team, after_round, withdrawn_by, withdrawn_at, reason)
           VALUES (?,?,?,?,?)""",
        (team_id, paired, by, now, reason),
    )
    return Withdrawal(team, paired, by, now, reason)


def withdrawals_by_team(db: sqlite3.Connection) -> dict[str, Withdrawal]:
    if not _has(db, "team_withdrawals"):
        return {}
    rows = db.execute(
        """SELECT t.name, w.after_round, w.withdrawn_by, w.withdrawn_at, w.reason
           FROM team_withdrawals w JOIN teams t ON t.id = w.team ORDER BY w.withdrawn_at, t.id"""
    )
    return {row[0]: Withdrawal(*row) for row in rows}


def checkin_history(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every mark, first to last, with who and when: the export's."""
    if not _has(db, "team_checkins"):
        return []
    rows = db.execute(
        """SELECT c.round, t.name, c.present, c.marked_by, c.marked_at FROM team_checkins c
           JOIN teams t ON t.id = c.team ORDER BY c.id"""
    )
    return [
        {"round": r, "team": name, "present": bool(here), "marked_by": by, "marked_at": at}
        for r, name, here, by, at in rows
    ]


def attendance(db: sqlite3.Connection) -> Attendance:
    """The withdrawn teams and every round's current marks (the latest per round and team)."""
    checkins: tuple[CheckIn, ...] = ()
    if _has(db, "team_checkins"):
        rows = db.execute(
            """SELECT c.round, t.name, c.present FROM team_checkins c JOIN teams t
               ON t.id = c.team WHERE c.id = (SELECT MAX(id) FROM team_checkins l
               WHERE l.round = c.round AND l.team = c.team) ORDER BY c.round, c.team"""
        )
        checkins = tuple(CheckIn(r, name, bool(here)) for r, name, here in rows)
    return Attendance(frozenset(withdrawals_by_team(db)), checkins)


def set_release(db: sqlite3.Connection, *, public: bool, now: str, by: str) -> Release:
    """Hide the standings from the public page and projector, or release them (R1043)."""
    if release(db).public == public:
        state = "already public" if public else "already hidden"
        raise IllegalAction(f"the standings are {state}: nothing changed")
    _make(db)
    db.execute(
        "INSERT INTO standings_releases (public, set_by, set_at) VALUES (?,?,?)",
        (int(public), by, now),
    )
    return Release(public, by, now)


def release(db: sqlite3.Connection) -> Release:
    if not _has(db, "standings_releases"):
        return Release()
    row = db.execute(
        "SELECT public, set_by, set_at FROM standings_releases ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return Release() if row is None else Release(bool(row[0]), row[1], row[2])


def release_history(db: sqlite3.Connection) -> list[dict[str, Any]]:
    if not _has(db, "standings_releases"):
        return []
    rows = db.execute("SELECT public, set_by, set_at FROM standings_releases ORDER BY id")
    return [Release(bool(public), by, at).to_json() for public, by, at in rows]


def export(db: sqlite3.Connection) -> dict[str, Any]:
    """The export's part: every mark, every withdrawal, every release switch."""
    return {
        "checkins": checkin_history(db),
        "team_withdrawals": [w.to_json() for w in withdrawals_by_team(db).values()],
        "standings_releases": release_history(db),
    }
