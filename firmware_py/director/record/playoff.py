"""The playoff and the champion: the games played after the rounds, each with what it decided
(R968), voided together when a director says why; and the champion recorded, which closes the
tournament (R850, ``closing`` reads what stands and reopens it).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from firmware_py.director.record import closing as record_closing
from firmware_py.director.record.founding import team_id
from firmware_py.director.record.rounds import define_live_views
from firmware_py.director.record.schema import DECISIONS_SCHEMA_VERSION
from firmware_py.director.record.upgrades import schema_version, upgrade
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import PlayoffGame


def _decided(db: sqlite3.Connection) -> str:
    """What a game decided, as a column: None for a record made before it was kept (R968)."""
    if schema_version(db) >= DECISIONS_SCHEMA_VERSION:
        return "(SELECT d.decides FROM playoff_decisions d WHERE d.game = g.id)"
    return "NULL"


def playoff_games(db: sqlite3.Connection) -> tuple[PlayoffGame, ...]:
    """The games recorded since the last void, in order."""
    rows = db.execute(
        f"""SELECT a.name AS a, b.name AS b, w.name AS winner, {_decided(db)} AS decides
           FROM playoff_games g
           JOIN teams a ON a.id = g.team_a JOIN teams b ON b.id = g.team_b
           JOIN teams w ON w.id = g.winner
           WHERE g.id > (SELECT COALESCE(MAX(through_game), 0) FROM playoff_voids)
           ORDER BY g.id"""
    )
    return tuple(PlayoffGame(row["a"], row["b"], row["winner"], row["decides"]) for row in rows)


def last_playoff_game(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COALESCE(MAX(id), 0) FROM playoff_games").fetchone()[0])


def add_playoff_game(db: sqlite3.Connection, game: PlayoffGame, *, now: str, by: str) -> None:
    """Record ``game`` with what it decided (in the caller's transaction), giving a record of
    an older schema the decisions' table first."""
    inserted = db.execute(
        """INSERT INTO playoff_games (team_a, team_b, winner, entered_by, entered_at)
           VALUES (?,?,?,?,?)""",
        (team_id(db, game.a), team_id(db, game.b), team_id(db, game.winner), by, now),
    )
    if game.decides is None:
        return
    if schema_version(db) < DECISIONS_SCHEMA_VERSION:
        upgrade(db, schema_version(db), DECISIONS_SCHEMA_VERSION)
        define_live_views(db)  # an older record may have gained the undo's tables
    db.execute(
        "INSERT INTO playoff_decisions (game, decides) VALUES (?,?)",
        (inserted.lastrowid, game.decides),
    )


def void_playoff(db: sqlite3.Connection, *, now: str, by: str, reason: str) -> int:
    """Void every game recorded so far (they stay in the history); how many."""
    if not reason.strip():
        raise InvalidInput("voiding the playoff with an empty reason: expected why")
    games = len(playoff_games(db))
    if games == 0:
        raise IllegalAction("no playoff game is recorded: nothing to void")
    db.execute(
        """INSERT INTO playoff_voids (through_game, entered_by, entered_at, reason)
           VALUES ((SELECT MAX(id) FROM playoff_games), ?, ?, ?)""",
        (by, now, reason.strip()),
    )
    return games


def set_champion(
    db: sqlite3.Connection, team: str, *, now: str, by: str, amend_reason: str | None = None
) -> None:
    """Record the champion, or amend the one that stands with a reason, or close a reopened
    tournament again (the new row supersedes the reopened one, saying so)."""
    row = record_closing.standing_champion(db)
    closed = record_closing.closing(db)
    if closed is not None and amend_reason is None:
        raise IllegalAction(
            f"the champion is already recorded ({closed.champion}, by {closed.closed_by} "
            f"at {closed.closed_at_shown or closed.closed_at}): expected an amendment with "
            "a reason to change it"
        )
    if amend_reason is not None:
        if closed is None and row is not None:
            raise IllegalAction(
                f"the tournament was reopened ({row['name']} no longer stands as champion): "
                "nothing to amend; record the champion anew (without --amend), which "
                "closes it again"
            )
        if closed is None:
            raise IllegalAction("no champion is recorded: nothing to amend")
        if not amend_reason.strip():
            raise InvalidInput("an amendment with an empty reason: expected why it changes")
    elif row is not None:
        amend_reason = record_closing.CLOSED_AGAIN
    db.execute(
        """INSERT INTO champions (team, entered_by, entered_at, supersedes, reason)
           VALUES (?,?,?,?,?)""",
        (
            team_id(db, team),
            by,
            now,
            None if row is None else row["id"],
            None if amend_reason is None else amend_reason.strip(),
        ),
    )


# -- the history, for the export -----------------------------------------------------------


def all_playoff_games(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every game recorded, voided ones too (``void``)."""
    voided_through = db.execute(
        "SELECT COALESCE(MAX(through_game), 0) FROM playoff_voids"
    ).fetchone()[0]
    rows = db.execute(
        f"""SELECT g.id, a.name AS a, b.name AS b, w.name AS winner, {_decided(db)} AS decides,
           g.entered_by, g.entered_at FROM playoff_games g JOIN teams a ON a.id = g.team_a
           JOIN teams b ON b.id = g.team_b JOIN teams w ON w.id = g.winner ORDER BY g.id"""
    )
    return [
        {
            "A": row["a"],
            "B": row["b"],
            "winner": row["winner"],
            "decides": row["decides"],
            "entered_by": row["entered_by"],
            "entered_at": row["entered_at"],
            "void": row["id"] <= voided_through,
        }
        for row in rows
    ]


def playoff_voids(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each void of the playoff: how many games it voided, who, when and why."""
    rows = db.execute(
        """SELECT v.through_game, v.entered_by, v.entered_at, v.reason,
           (SELECT COUNT(*) FROM playoff_games g WHERE g.id <= v.through_game
            AND g.id > COALESCE((SELECT MAX(w.through_game) FROM playoff_voids w
                                 WHERE w.id < v.id), 0)) AS games
           FROM playoff_voids v ORDER BY v.id"""
    )
    return [
        {
            "games": row["games"],
            "voided_by": row["entered_by"],
            "voided_at": row["entered_at"],
            "reason": row["reason"],
        }
        for row in rows
    ]


def all_champions(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every champion recorded, superseded ones too, with who, when and why."""
    rows = db.execute(
        """SELECT t.name, c.entered_by, c.entered_at, c.reason FROM champions c
           JOIN teams t ON t.id = c.team ORDER BY c.id"""
    )
    return [dict(row) for row in rows]
