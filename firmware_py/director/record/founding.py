"""What a record was founded with: the tournament's configuration and its teams.

The founding row (``tournament``: the configuration with its seed, when and by whom) and the
record's identity drawn from it; the teams as entered, each with its short name (R830-R832),
found by name; and the view every reader reads the teams through once one is edited (R1067,
``teams`` makes the edits).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path

from firmware_py.director.record.schema import PENTATHLON_SCHEMA_VERSION, SHORT_NAMES_SCHEMA
from firmware_py.director.record.upgrades import schema_version
from rules.errors import InvalidInput
from rules.tournament import Entrant, TournamentConfig, name_key
from rules.tournament.short_names import short_names as derived_short_names

# A team's name, school and players as edited (issue 27, R1067): each edit a row of
# ``team_edits`` (append-only, with the old values, who, when and why), the latest one of a team
# standing. Once the record has an edit, every reader reads ``teams`` through a TEMP view of the
# same name and columns, which SQLite reads before ``main.teams``: the teams as they stand now.
# Rows are still added to ``main.teams`` by name. The schema version stays (as for
# ``team_short_names``): a reader that does not know the table reads the teams as entered.
TEAM_EDITS_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS main.team_edits (
        id INTEGER PRIMARY KEY,
        team INTEGER NOT NULL REFERENCES teams(id),
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        school TEXT NOT NULL,
        players TEXT NOT NULL,
        old_name TEXT NOT NULL,
        old_school TEXT NOT NULL,
        old_players TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        edited_by TEXT NOT NULL,
        edited_at TEXT NOT NULL)""",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS main.team_edits_{verb}_refused BEFORE {verb.upper()}
        ON team_edits BEGIN SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for verb in ("update", "delete")
    ),
)
_EDITED_TEAMS = """CREATE TEMP VIEW teams AS SELECT t.id AS id,
    COALESCE(e.name, t.name) AS name, COALESCE(e.name_key, t.name_key) AS name_key,
    COALESCE(e.school, t.school) AS school, COALESCE(e.players, t.players) AS players
    FROM main.teams t LEFT JOIN main.team_edits e
    ON e.id = (SELECT MAX(id) FROM main.team_edits WHERE team = t.id)"""


def define_edited_teams(db: sqlite3.Connection) -> None:
    """The teams as edited, for this connection's readers, once the record has edits."""
    db.execute("DROP VIEW IF EXISTS temp.teams")
    found = db.execute(
        "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'team_edits'"
    ).fetchone()
    if found is not None:
        db.execute(_EDITED_TEAMS)


def found(
    db: sqlite3.Connection,
    config: TournamentConfig,
    entrants: Sequence[Entrant],
    *,
    now: str,
    by: str,
) -> None:
    """Write the founding row and the teams with their short names (in a transaction)."""
    db.execute(
        "INSERT INTO tournament (id, config, created_at, created_by) VALUES (1,?,?,?)",
        (json.dumps(config.to_json()), now, by),
    )
    db.executemany(
        "INSERT INTO teams (name, name_key, school, players) VALUES (?,?,?,?)",
        [(e.name, name_key(e.name), e.school, json.dumps(list(e.players))) for e in entrants],
    )
    keep_short_names(db, {e.name: e.short for e in entrants}, now=now, by=by)


def identity(db: sqlite3.Connection) -> str:
    """A digest of the founding row: another record, even of the same teams, has another."""
    row = db.execute(
        "SELECT config, created_at, created_by FROM tournament WHERE id = 1"
    ).fetchone()
    if row is None and schema_version(db) >= PENTATHLON_SCHEMA_VERSION:
        # a record holding only a Pentathlon event is founded by that event's row
        row = db.execute(
            "SELECT config, created_at, created_by FROM pentathlon WHERE id = 1"
        ).fetchone()
    founding = json.dumps(list(row or ()), separators=(",", ":")).encode()
    return hashlib.sha256(founding).hexdigest()[:32]


def has_tournament(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM tournament").fetchone() is not None


def config(db: sqlite3.Connection, path: Path) -> TournamentConfig:
    row = db.execute("SELECT config FROM tournament").fetchone()
    if row is None:
        raise InvalidInput(f"{path} holds no tournament: expected one made by 'new'")
    return TournamentConfig.from_json(json.loads(row["config"]))


def created(db: sqlite3.Connection) -> sqlite3.Row:
    """When the tournament was founded, and by whom (``created_at``, ``created_by``)."""
    row: sqlite3.Row = db.execute("SELECT created_at, created_by FROM tournament").fetchone()
    return row


def entrants(db: sqlite3.Connection) -> tuple[Entrant, ...]:
    given = (
        "(SELECT short FROM team_short_names s WHERE s.team = t.id AND s.given = 1)"
        if has_short_names(db)
        else "NULL"
    )
    rows = db.execute(f"SELECT name, school, players, {given} AS short FROM teams t ORDER BY id")
    return tuple(
        Entrant(row["name"], row["school"], tuple(json.loads(row["players"])), row["short"] or "")
        for row in rows
    )


def short_names(db: sqlite3.Connection) -> dict[str, str]:
    if has_short_names(db):
        rows = db.execute(
            "SELECT t.name, s.short FROM teams t JOIN team_short_names s ON s.team = t.id"
        )
        return {row["name"]: row["short"] for row in rows}
    names = [row[0] for row in db.execute("SELECT name FROM teams ORDER BY id")]
    return dict(zip(names, derived_short_names(names, [""] * len(names)), strict=True))


def has_short_names(db: sqlite3.Connection) -> bool:
    return (
        db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_short_names'"
        ).fetchone()
        is not None
    )


def keep_short_names(
    db: sqlite3.Connection, given: Mapping[str, str], *, now: str, by: str
) -> None:
    """Make ``team_short_names`` and keep every team's short name: ``given`` by its full name,
    or derived (R830), in the caller's transaction."""
    for statement in SHORT_NAMES_SCHEMA:
        db.execute(statement)
    teams = db.execute("SELECT id, name FROM teams ORDER BY id").fetchall()
    mine = [given.get(row["name"], "") for row in teams]
    shorts = derived_short_names([row["name"] for row in teams], mine)
    db.executemany(
        """INSERT INTO team_short_names (team, short, short_key, given, kept_at, kept_by)
           VALUES (?,?,?,?,?,?)""",
        [
            (row["id"], short, short.casefold(), int(bool(own)), now, by)
            for row, short, own in zip(teams, shorts, mine, strict=True)
        ],
    )


def team_id(db: sqlite3.Connection, name: str) -> int:
    """A team's row by its name (as ``name_key`` reads it), or refused in words."""
    row = db.execute("SELECT id FROM teams WHERE name_key = ?", (name_key(name),))
    team = row.fetchone()
    if team is None:
        raise InvalidInput(f"unknown team {name!r}: expected a team of this tournament")
    return int(team["id"])
