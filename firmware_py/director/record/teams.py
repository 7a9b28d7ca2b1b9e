"""A team or its players edited (issue 27, R1067): its name, school or players, with a
reason; the record keeps the old values with who and when (``team_edits``, defined in
``tournament_db`` with the view every reader reads the teams through). The sheets, the pages,
the standings and the tables' pairings show the team as it stands from then on."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from firmware_py.director.record.tournament_db import (
    TEAM_EDITS_SCHEMA,
    TournamentDB,
    define_edited_teams,
)
from rules.errors import InvalidInput
from rules.tournament import Entrant, find_entrant, name_key
from rules.tournament.teams import PLAYER_SEPARATOR, check_edited, clean_text, one_line_reason


@dataclass(frozen=True, slots=True)
class TeamEdit:
    """One edit of a team, as recorded: what it was, what it became, who, when and why."""

    before: Entrant
    after: Entrant
    reason: str
    edited_by: str
    edited_at: str

    @property
    def change(self) -> str:
        """What changed, in words: "name 'Eagels' to 'Eagles'; players 'Ann' to 'Ann; Bo'"."""
        parts = []
        for what, old, new in (
            ("name", self.before.name, self.after.name),
            ("school", self.before.school, self.after.school),
            ("players", _roster(self.before), _roster(self.after)),
        ):
            if old != new:
                parts.append(f"{what} {old!r} to {new!r}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "team": self.after.name,
            "before": _entrant_json(self.before),
            "after": _entrant_json(self.after),
            "reason": self.reason,
            "edited_by": self.edited_by,
            "edited_at": self.edited_at,
        }


def edit_team(
    record: TournamentDB,
    team: str,
    *,
    name: str | None = None,
    school: str | None = None,
    players: str | None = None,
    reason: str,
    now: str,
    by: str,
) -> TeamEdit:
    """Edit ``team`` (any case): its ``name``, ``school`` and ``players`` (separated by ``;``),
    each None to keep it; with ``reason``. Checked as a teams CSV's line is (R1067); refused in
    words when nothing changes, without a reason, or once the tournament is closed."""
    reason = one_line_reason(reason)
    if not reason:
        raise InvalidInput(f"editing team {team!r} with an empty reason: expected why")
    with record.writing():
        record.require_open(f"editing team {team!r}")
        field = record.entrants()
        before = find_entrant(field, team)
        where = f"team {before.name!r}"
        after = replace(
            before,
            name=before.name if name is None else clean_text(name, f"{where}'s name"),
            school=before.school if school is None else clean_text(school, f"{where}'s school"),
            players=before.players if players is None else _players(players, where),
        )
        others = [e for e in field if name_key(e.name) != name_key(before.name)]
        check_edited(after, others, where)
        if after == before:
            raise InvalidInput(
                f"{where}: nothing to change: expected a new name, school or players"
            )
        db = record.connection
        # the team as it stands (through the view once the record has edits)
        team_id = db.execute(
            "SELECT id FROM teams WHERE name_key = ?", (name_key(before.name),)
        ).fetchone()
        for statement in TEAM_EDITS_SCHEMA:
            db.execute(statement)
        db.execute(
            """INSERT INTO main.team_edits (team, name, name_key, school, players, old_name,
               old_school, old_players, reason, edited_by, edited_at)
               VALUES (?,?,?,?,?,?,?,?,?,?,?)""",
            (
                team_id[0],
                after.name,
                name_key(after.name),
                after.school,
                json.dumps(list(after.players)),
                before.name,
                before.school,
                json.dumps(list(before.players)),
                reason,
                by,
                now,
            ),
        )
    define_edited_teams(record.connection)  # this connection reads the edit at once
    return TeamEdit(before, after, reason, by, now)


def prepare_team_edits(record: TournamentDB) -> bool:
    """Give the record the edits' table before any edit, so a running hub reads an edit a
    command makes at once (its connection's view reads the table); True if it did."""
    if not record.has_tournament():
        return False
    found = record.connection.execute(
        "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'team_edits'"
    ).fetchone()
    if found is not None:
        return False
    with record.writing():
        for statement in TEAM_EDITS_SCHEMA:
            record.connection.execute(statement)
    define_edited_teams(record.connection)
    return True


def team_edits(record: TournamentDB) -> tuple[TeamEdit, ...]:
    """Every edit of a team, oldest first, with its old and new values."""
    db = record.connection
    found = db.execute(
        "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'team_edits'"
    ).fetchone()
    if found is None:
        return ()
    rows = db.execute("SELECT * FROM main.team_edits ORDER BY id").fetchall()
    return tuple(
        TeamEdit(
            Entrant(row["old_name"], row["old_school"], tuple(json.loads(row["old_players"]))),
            Entrant(row["name"], row["school"], tuple(json.loads(row["players"]))),
            row["reason"],
            row["edited_by"],
            row["edited_at"],
        )
        for row in rows
    )


def _players(text: str, where: str) -> tuple[str, ...]:
    names = (clean_text(name, f"{where}'s players") for name in text.split(PLAYER_SEPARATOR))
    return tuple(name for name in names if name)


def _roster(entrant: Entrant) -> str:
    return f"{PLAYER_SEPARATOR} ".join(entrant.players)


def _entrant_json(entrant: Entrant) -> dict[str, Any]:
    return {"name": entrant.name, "school": entrant.school, "players": list(entrant.players)}
