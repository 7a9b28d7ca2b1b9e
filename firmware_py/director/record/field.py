"""The field entered from the page (issue 27, R1062, R1063): teams added to the record's
tournament from a teams CSV or a spreadsheet's pasted rows, checked as ``gametable tournament
new`` checks its CSV, each line named when it is bad, and saved only once the director confirms
the preview.

Teams are added only before round 1 is paired: a team that arrives later is a late addition.
The record stays append-only: each added team's row says who added it and when
(``team_additions``); the schema version stays, as for ``team_short_names``: a reader that does
not know the table misses only who added a team.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Entrant, Tournament, name_key
from rules.tournament.short_names import short_names
from rules.tournament.teams import TeamsPreview, preview_teams_csv

_FIELD_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS team_additions (
        team INTEGER PRIMARY KEY REFERENCES teams(id),
        added_at TEXT NOT NULL,
        added_by TEXT NOT NULL)""",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS team_additions_{verb}_refused BEFORE {verb.upper()}
        ON team_additions BEGIN SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for verb in ("update", "delete")
    ),
)
PASTED = "the pasted rows"
# What the page takes at once: 512 teams of a 40-character name, an 80-character school and
# four players, with room to spare (the CLI reads a file of up to 1 MiB)
MAX_PASTED = 256 * 1024
LATE = (
    "round 1 is paired: the field is entered before round 1 only; add a team that arrives "
    "later as a late addition"
)


@dataclass(frozen=True, slots=True)
class FieldPreview:
    """A teams CSV as it would be added to the record's field: ``field`` teams are in it now
    (the confirmation names it: a field changed since adds nothing, R1063)."""

    teams: TeamsPreview
    field: int

    @property
    def may_add(self) -> bool:
        return bool(self.teams.entrants) and not self.teams.problems


def field_in_record(record: TournamentDB) -> tuple[Entrant, ...]:
    """The teams in the record, each with the short name it has (given or derived): a new
    team may take neither its name nor its short name."""
    shorts = record.short_names()
    return tuple(
        Entrant(e.name, e.school, e.players, shorts.get(e.name, e.short)) for e in record.entrants()
    )


def preview_field(record: TournamentDB, text: str, source: str = PASTED) -> FieldPreview:
    """``text`` checked against the record's field, nothing saved (R1062)."""
    _require_before_round_1(record)
    if len(text) > MAX_PASTED:
        raise InvalidInput(
            f"{source}: {len(text)} characters: expected at most {MAX_PASTED} (a field of "
            "at most 512 teams)"
        )
    entered = field_in_record(record)
    return FieldPreview(preview_teams_csv(text, source, entered), len(entered))


def add_field(
    record: TournamentDB, text: str, *, expected: int, now: str, by: str
) -> tuple[Entrant, ...]:
    """Add the teams of ``text`` to the field, checked again as they are saved: refused in
    words with any bad line, after round 1 is paired, or when the field has changed from the
    ``expected`` teams the preview saw (R1063). The teams added."""
    record.keep_short_names(now=now, by=by)  # a record made before them: kept first
    with record.writing():
        preview = preview_field(record, text)
        if preview.field != expected:
            raise IllegalAction(
                f"the field has changed since this preview ({expected} teams then, "
                f"{preview.field} now): preview the teams again"
            )
        if preview.teams.problems:
            raise InvalidInput(preview.teams.problems[0])
        if not preview.teams.entrants:
            raise InvalidInput(f"{PASTED}: no team: expected a line a team after the header")
        _insert(record, preview.teams.entrants, now=now, by=by)
    return preview.teams.entrants


def added_by(record: TournamentDB) -> dict[str, tuple[str, str]]:
    """Who added each team from the page, and when, by its name (R1063)."""
    if not _has_additions(record):
        return {}
    rows = record.connection.execute(
        "SELECT t.name, a.added_by, a.added_at FROM team_additions a JOIN teams t ON t.id = a.team"
    )
    return {row["name"]: (row["added_by"], row["added_at"]) for row in rows}


def _require_before_round_1(record: TournamentDB) -> None:
    record.require_open("entering teams")
    if record.paired_round_count():
        raise IllegalAction(LATE)


def _insert(record: TournamentDB, entrants: Sequence[Entrant], *, now: str, by: str) -> None:
    db = record.connection
    field = field_in_record(record)
    Tournament(record.config(), (*record.entrants(), *entrants))  # the whole field, checked
    shorts = short_names(
        [e.name for e in (*field, *entrants)], [e.short for e in (*field, *entrants)]
    )[len(field) :]
    for statement in _FIELD_SCHEMA:
        db.execute(statement)
    for entrant, short in zip(entrants, shorts, strict=True):
        team = db.execute(
            "INSERT INTO main.teams (name, name_key, school, players) VALUES (?,?,?,?)",
            (entrant.name, name_key(entrant.name), entrant.school, json.dumps(entrant.players)),
        ).lastrowid
        db.execute(
            """INSERT INTO team_short_names (team, short, short_key, given, kept_at, kept_by)
               VALUES (?,?,?,?,?,?)""",
            (team, short, short.casefold(), int(bool(entrant.short)), now, by),
        )
        db.execute(
            "INSERT INTO team_additions (team, added_at, added_by) VALUES (?,?,?)",
            (team, now, by),
        )


def _has_additions(record: TournamentDB) -> bool:
    found = record.connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_additions'"
    ).fetchone()
    return found is not None
