"""The tournament record: one SQLite file, append-only, every entry with who and when.

Teams, rounds, pairings (with their table numbers), byes, match results, playoff games, the
champion and protests. Nothing is ever updated or deleted (triggers refuse it): a result is
corrected by an amendment that supersedes it and says why, and the history stays readable.

Every write runs in one ``BEGIN IMMEDIATE`` transaction, so a rejected command changes nothing
and two tables entering results at once cannot both win a race for the same match. The
decisions themselves (what to pair, who ranks where) come from ``rules.tournament``.

The record's tables, its schema versions and their upgrades' statements are in
``record_schema``; opening and creating the file itself (what is refused before SQLite touches
it) in ``record_file`` (issue 27: the record split by concern). Both are re-exported here where
other modules read them.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from firmware_py.director.record import attendance as record_attendance
from firmware_py.director.record import closing as record_closing
from firmware_py.director.record import rooms as record_rooms
from firmware_py.director.record import venue
from firmware_py.director.record.attendance import Release, Withdrawal
from firmware_py.director.record.closing import Closing, Reopening
from firmware_py.director.record.file import (
    SQLITE_HEADER,
    connect_record,
    create_private_beside,
    other_schema,
    remove_with_sides,
    require_new,
    require_sqlite_file,
)
from firmware_py.director.record.rooms import Room
from firmware_py.director.record.schema import (
    DECISIONS_SCHEMA,
    DECISIONS_SCHEMA_VERSION,
    DIRECTOR_SOURCE,
    HUB_SCHEMA,
    HUB_SCHEMA_VERSION,
    OUTCOMES,
    PENTATHLON_INDEXES,
    PENTATHLON_SCHEMA,
    PENTATHLON_SCHEMA_VERSION,
    READABLE_SCHEMAS,
    RESULT_INDEXES,
    SCHEMA,
    SCHEMA_VERSION,
    SHORT_NAMES_SCHEMA,
    TABLE_SOURCE,
    UNDO_SCHEMA,
    UNDO_SCHEMA_VERSION,
    create_indexes,
)
from firmware_py.director.record.venue import Venue
from firmware_py.user_files import UserFileError, put_new_in_place
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import (
    Entrant,
    Match,
    MatchResult,
    PlayoffGame,
    RoundPairing,
    RoundPlan,
    Tournament,
    TournamentConfig,
    name_key,
)
from rules.tournament.records import no_table
from rules.tournament.short_names import short_names
from rules.tournament.state import PairedRounds

__all__ = [  # with the names record_schema and record_file hold, read from here elsewhere
    "DECISIONS_SCHEMA_VERSION",
    "DIRECTOR_SOURCE",
    "HUB_SCHEMA_VERSION",
    "OUTCOMES",
    "PENTATHLON_SCHEMA_VERSION",
    "READABLE_SCHEMAS",
    "SCHEMA_VERSION",
    "SQLITE_HEADER",
    "TABLE_SOURCE",
    "UNDO_SCHEMA_VERSION",
    "Protest",
    "ResultEntry",
    "TableEvent",
    "TournamentDB",
    "WithdrawnRound",
]

# What every reader reads (R820): the rounds, pairings and byes of the rounds not withdrawn,
# by the round's number; per connection (TEMP), as the record's schema has them. CROSS JOIN
# keeps the rounds (a few dozen rows) outside, so a match is found by its index (R725).
_LIVE_ROUNDS = {
    False: "SELECT number, number AS slot, kind, minutes, paired_at, paired_by FROM rounds",
    True: """SELECT COALESCE(round_slots.round, rounds.number) AS number, rounds.number AS slot,
        kind, minutes, paired_at, paired_by FROM rounds
        LEFT JOIN round_slots ON round_slots.slot = rounds.number
        WHERE rounds.number NOT IN (SELECT slot FROM round_withdrawals)""",
}
_LIVE_VIEWS = (
    """CREATE TEMP VIEW live_pairings AS SELECT pairings.id, live_rounds.number AS round,
        table_number, team_a, team_b FROM live_rounds CROSS JOIN pairings
        ON pairings.round = live_rounds.slot""",
    """CREATE TEMP VIEW live_byes AS SELECT live_rounds.number AS round, team FROM live_rounds
        CROSS JOIN byes ON byes.round = live_rounds.slot""",
)


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """One version of a match's result, as entered."""

    version: int
    a_points: int
    b_points: int
    source: str
    entered_by: str
    entered_at: str
    reason: str | None  # why it amends the version before; None for the first

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "a_points": self.a_points,
            "b_points": self.b_points,
            "source": self.source,
            "entered_by": self.entered_by,
            "entered_at": self.entered_at,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class TableEvent:
    """A match result a table reported through the hub, and what the hub made of it."""

    table: int
    journal: str  # the id of the table's journal
    seq: int  # the decision's place in it
    decided_at: str  # the table's clock
    received_at: str  # the hub's clock
    round: int | None
    a_points: int | None
    b_points: int | None
    outcome: str  # one of OUTCOMES
    note: str

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "journal": self.journal,
            "seq": self.seq,
            "decided_at": self.decided_at,
            "received_at": self.received_at,
            "round": self.round,
            "a_points": self.a_points,
            "b_points": self.b_points,
            "outcome": self.outcome,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class WithdrawnRound:
    """A round's pairing undone (R820): what it was, and who undid it, when and why."""

    pairing: RoundPairing
    kind: str
    minutes: int
    paired_at: str
    paired_by: str
    withdrawn_at: str
    withdrawn_by: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.pairing.round,
            "kind": self.kind,
            "minutes": self.minutes,
            "paired_at": self.paired_at,
            "paired_by": self.paired_by,
            "pairings": [{"table": m.table, "A": m.a, "B": m.b} for m in self.pairing.matches],
            "bye": self.pairing.bye,
            "withdrawn_at": self.withdrawn_at,
            "withdrawn_by": self.withdrawn_by,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Protest:
    number: int
    round: int | None
    table: int | None
    lodged_by: str
    lodged_at: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "protest": self.number,
            "round": self.round,
            "table": self.table,
            "lodged_by": self.lodged_by,
            "lodged_at": self.lodged_at,
            "text": self.text,
        }


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


class TournamentDB:
    """A tournament record. Open with :meth:`create` or :meth:`open`; close when done."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        # the time zone its times are read in when the record names none: UTC, or the day's
        # when the record is opened as an event of a day (R1162)
        self.default_zone = venue.UTC_ZONE

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: Path,
        config: TournamentConfig,
        entrants: Sequence[Entrant],
        *,
        now: str,
        by: str,
    ) -> TournamentDB:
        """A new record at ``path``, where nothing may be yet."""
        Tournament(config, tuple(entrants))  # checks the teams before touching the disk
        short_names([e.name for e in entrants], [e.short for e in entrants])  # and theirs

        def fill(record: TournamentDB) -> None:
            with record._write():
                record._db.execute(
                    "INSERT INTO tournament (id, config, created_at, created_by) VALUES (1,?,?,?)",
                    (json.dumps(config.to_json()), now, by),
                )
                record._db.executemany(
                    "INSERT INTO teams (name, name_key, school, players) VALUES (?,?,?,?)",
                    [
                        (e.name, name_key(e.name), e.school, json.dumps(list(e.players)))
                        for e in entrants
                    ],
                )
                record._keep_short_names({e.name: e.short for e in entrants}, now=now, by=by)

        return cls.create_record(path, fill)

    @classmethod
    def create_record(
        cls, path: Path, fill: Callable[[TournamentDB], None] = lambda record: None
    ) -> TournamentDB:
        """A new record at ``path``, where nothing may be yet (not even an empty file), with
        every table, filled by ``fill`` (the GeoPlunge tournament's ``create`` or the
        Pentathlon's start). It is made whole under a name of its own beside ``path`` and only
        then given the name, so a failure removes only that file and never what the user named
        (R700)."""
        require_new(path)
        making = create_private_beside(path)
        try:
            record = cls(connect_record(making, create=True), making)
            try:
                with record._write():
                    for statement in SCHEMA:
                        record._db.execute(statement)
                    record._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                record._define_live_views()
                fill(record)
            finally:
                record.close()  # the last connection: SQLite folds the -wal back and removes it
            put_new_in_place(making, path)
        except UserFileError as error:
            raise IllegalAction(f"{error} (choose another with --db)") from None
        except OSError as error:
            raise InvalidInput(f"cannot create {path}: {error.strerror or error}") from None
        finally:
            remove_with_sides(making)
        return cls.open(path)

    @classmethod
    def open(cls, path: Path) -> TournamentDB:
        if not path.exists():
            raise InvalidInput(
                f"no tournament at {path}: start one with 'gametable tournament new' "
                "or name the file with --db"
            )
        require_sqlite_file(path)  # anything else is refused before SQLite can touch it
        record = cls(connect_record(path, create=False), path)
        try:
            version = record._db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as error:
            record.close()
            raise InvalidInput(f"{path} is not a tournament record: {error}") from None
        if version not in READABLE_SCHEMAS:
            record.close()
            raise other_schema(path, version)
        try:
            record._define_live_views()
        except sqlite3.DatabaseError as error:
            record.close()
            raise InvalidInput(f"{path} is not a tournament record: {error}") from None
        return record

    def identity(self) -> str:
        """This record's identity, for the hub's confirmations: a digest of its founding row
        (the configuration with its seed, when and by whom it was made), so another record,
        even of the same teams, has another."""
        row = self._db.execute(
            "SELECT config, created_at, created_by FROM tournament WHERE id = 1"
        ).fetchone()
        if row is None and self._schema() >= PENTATHLON_SCHEMA_VERSION:
            # a record holding only a Pentathlon event is founded by that event's row
            row = self._db.execute(
                "SELECT config, created_at, created_by FROM pentathlon WHERE id = 1"
            ).fetchone()
        founding = json.dumps(list(row or ()), separators=(",", ":")).encode()
        return hashlib.sha256(founding).hexdigest()[:32]

    def upgrade_for_hub(self) -> bool:
        """Give a schema-1 record the hub's table, in one transaction; True if it did."""
        if self._schema() >= HUB_SCHEMA_VERSION:
            return False
        with self._write():
            for statement in HUB_SCHEMA:
                self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version = {HUB_SCHEMA_VERSION}")
        return True

    def index_for_hub(self) -> bool:
        """Give a record made before R725 the indexes the hub's lookups use, in one
        transaction; True if it lacked any. Indexes change nothing a reader sees, so the
        schema version stays (an older gametable reads the record as before)."""
        wanted = dict(RESULT_INDEXES)
        if self._schema() >= PENTATHLON_SCHEMA_VERSION:
            wanted.update(PENTATHLON_INDEXES)
        for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'index'"):
            wanted.pop(row[0], None)
        if not wanted:
            return False
        with self._write():
            for statement in create_indexes(wanted):
                self._db.execute(statement)
        return True

    def keep_short_names(self, *, now: str, by: str) -> bool:
        """Give a record made before short names its teams' short names, derived (R830), in
        one transaction; True if it did (a record without teams, or with them kept, has
        nothing to do)."""
        if self._has_short_names() or not self.has_tournament():
            return False
        with self._write():
            self._keep_short_names({}, now=now, by=by)  # none could be given before
        return True

    def _keep_short_names(self, given: Mapping[str, str], *, now: str, by: str) -> None:
        for statement in SHORT_NAMES_SCHEMA:
            self._db.execute(statement)
        teams = self._db.execute("SELECT id, name FROM teams ORDER BY id").fetchall()
        mine = [given.get(row["name"], "") for row in teams]
        shorts = short_names([row["name"] for row in teams], mine)
        self._db.executemany(
            """INSERT INTO team_short_names (team, short, short_key, given, kept_at, kept_by)
               VALUES (?,?,?,?,?,?)""",
            [
                (row["id"], short, short.casefold(), int(bool(own)), now, by)
                for row, short, own in zip(teams, shorts, mine, strict=True)
            ],
        )

    def upgrade_for_pentathlon(self) -> bool:
        """Give a record of schema 1 or 2 the hub's and the Pentathlon's tables, in one
        transaction; True if it did."""
        schema = self._schema()
        if schema >= PENTATHLON_SCHEMA_VERSION:
            return False
        with self._write():
            self._upgrade(schema, PENTATHLON_SCHEMA_VERSION)
        return True

    def upgrade_for_undo(self) -> bool:
        """Give an older record the tables of rounds' pairings undone (and every table before
        them), in one transaction; True if it did. The hub does it as it starts, so that its
        readers skip a round a command undoes while it runs (R820)."""
        schema = self._schema()
        if schema >= UNDO_SCHEMA_VERSION:
            return False
        with self._write():
            self._upgrade(schema, UNDO_SCHEMA_VERSION)
        self._define_live_views()
        return True

    def _upgrade(self, schema: int, to: int) -> None:
        """The tables a record of ``schema`` lacks up to schema ``to`` (in a transaction)."""
        parts: tuple[tuple[int, tuple[str, ...]], ...] = (
            (HUB_SCHEMA_VERSION, HUB_SCHEMA),
            (PENTATHLON_SCHEMA_VERSION, (*PENTATHLON_SCHEMA, *create_indexes(PENTATHLON_INDEXES))),
            (UNDO_SCHEMA_VERSION, UNDO_SCHEMA),
            (DECISIONS_SCHEMA_VERSION, DECISIONS_SCHEMA),
        )
        for version, statements in parts:
            if schema < version <= to:
                for statement in statements:
                    self._db.execute(statement)
        self._db.execute(f"PRAGMA user_version = {to}")

    def _define_live_views(self) -> None:
        """The views every reader reads (R820), as this record's schema has them."""
        undo = self._schema() >= UNDO_SCHEMA_VERSION
        for view in ("live_byes", "live_pairings", "live_rounds"):
            self._db.execute(f"DROP VIEW IF EXISTS temp.{view}")
        self._db.execute(f"CREATE TEMP VIEW live_rounds AS {_LIVE_ROUNDS[undo]}")
        for statement in _LIVE_VIEWS:
            self._db.execute(statement)
        define_edited_teams(self._db)  # the teams as edited (R1067)

    @property
    def schema(self) -> int:
        return self._schema()

    @property
    def connection(self) -> sqlite3.Connection:
        """The record's connection, for the part of it kept in its own module (the Pentathlon
        event's, ``pentathlon_record``)."""
        return self._db

    def writing(self) -> AbstractContextManager[None]:
        """One write transaction, as every command's (for ``pentathlon_record``)."""
        return self._write()

    def _schema(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> TournamentDB:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One transaction, taken at once; any error rolls all of it back."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def transaction(self) -> Iterator[Tournament]:
        """Read the tournament and write in one transaction: what is decided from the state
        read here cannot be overtaken by another writer before it is stored."""
        with self._write():
            yield self.load()

    # -- reading -------------------------------------------------------------------------

    def has_tournament(self) -> bool:
        """Whether the record holds a GeoPlunge tournament (a Pentathlon event may be alone)."""
        return self._db.execute("SELECT 1 FROM tournament").fetchone() is not None

    def config(self) -> TournamentConfig:
        row = self._db.execute("SELECT config FROM tournament").fetchone()
        if row is None:
            raise InvalidInput(f"{self.path} holds no tournament: expected one made by 'new'")
        return TournamentConfig.from_json(json.loads(row["config"]))

    def entrants(self) -> tuple[Entrant, ...]:
        """The teams as entered, each with the short name given at registration (if any)."""
        given = (
            "(SELECT short FROM team_short_names s WHERE s.team = t.id AND s.given = 1)"
            if self._has_short_names()
            else "NULL"
        )
        rows = self._db.execute(
            f"SELECT name, school, players, {given} AS short FROM teams t ORDER BY id"
        )
        return tuple(
            Entrant(
                row["name"], row["school"], tuple(json.loads(row["players"])), row["short"] or ""
            )
            for row in rows
        )

    def short_names(self) -> dict[str, str]:
        """Every team's short name by its full name (R830-R832): as the record keeps them, or,
        in a record made before them that the hub has not started on, as they would be
        derived."""
        if self._has_short_names():
            rows = self._db.execute(
                "SELECT t.name, s.short FROM teams t JOIN team_short_names s ON s.team = t.id"
            )
            return {row["name"]: row["short"] for row in rows}
        names = [row[0] for row in self._db.execute("SELECT name FROM teams ORDER BY id")]
        return dict(zip(names, short_names(names, [""] * len(names)), strict=True))

    def _has_short_names(self) -> bool:
        return (
            self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_short_names'"
            ).fetchone()
            is not None
        )

    def rounds(self) -> tuple[RoundPairing, ...]:
        byes = {
            row["round"]: row["name"]
            for row in self._db.execute(
                "SELECT b.round, t.name FROM live_byes b JOIN teams t ON t.id = b.team"
            )
        }
        matches: dict[int, list[Match]] = {}
        for row in self._db.execute(
            """SELECT p.round, p.table_number, a.name AS a, b.name AS b FROM live_pairings p
               JOIN teams a ON a.id = p.team_a JOIN teams b ON b.id = p.team_b
               ORDER BY p.round, p.table_number"""
        ):
            matches.setdefault(row["round"], []).append(
                Match(row["table_number"], row["a"], row["b"])
            )
        numbers = [
            row[0] for row in self._db.execute("SELECT number FROM live_rounds ORDER BY number")
        ]
        return tuple(
            RoundPairing(number, tuple(matches.get(number, ())), byes.get(number))
            for number in numbers
        )

    def round_plans(self) -> dict[int, dict[str, Any]]:
        return {
            row["number"]: dict(row)
            for row in self._db.execute(
                "SELECT number, kind, minutes, paired_at, paired_by FROM live_rounds "
                "ORDER BY number"
            )
        }

    def results(self) -> tuple[MatchResult, ...]:
        """The current (latest) result of every match that has one."""
        rows = self._db.execute(
            f"""SELECT p.round, p.table_number, a.name AS a, b.name AS b, r.a_points, r.b_points
                FROM results r {_PAIRING_JOIN}
                WHERE NOT EXISTS (SELECT 1 FROM results s WHERE s.supersedes = r.id)
                ORDER BY p.round, p.table_number"""
        )
        return tuple(
            MatchResult(
                row["round"],
                row["table_number"],
                row["a"],
                row["b"],
                row["a_points"],
                row["b_points"],
            )
            for row in rows
        )

    def load(self) -> Tournament:
        return Tournament(
            self.config(),
            self.entrants(),
            self.rounds(),
            self.results(),
            record_attendance.attendance(self._db),
        )

    def result_history(self, round_number: int, table: int) -> tuple[ResultEntry, ...]:
        """Every version of one match's result, first to current."""
        rows = self._db.execute(
            """SELECT r.* FROM results r WHERE r.pairing = (SELECT id FROM live_pairings
               WHERE round = ? AND table_number = ?) ORDER BY r.id""",
            (round_number, table),
        ).fetchall()
        return tuple(
            ResultEntry(
                version,
                row["a_points"],
                row["b_points"],
                row["source"],
                row["entered_by"],
                row["entered_at"],
                row["reason"],
            )
            for version, row in enumerate(rows, start=1)
        )

    def playoff_games(self) -> tuple[PlayoffGame, ...]:
        """The playoff games recorded since the last void, in order, each with what it decided
        (None for a game recorded before the record kept it, R968)."""
        decided = (
            "(SELECT d.decides FROM playoff_decisions d WHERE d.game = g.id)"
            if self._schema() >= DECISIONS_SCHEMA_VERSION
            else "NULL"
        )
        rows = self._db.execute(
            f"""SELECT a.name AS a, b.name AS b, w.name AS winner, {decided} AS decides
               FROM playoff_games g
               JOIN teams a ON a.id = g.team_a JOIN teams b ON b.id = g.team_b
               JOIN teams w ON w.id = g.winner
               WHERE g.id > (SELECT COALESCE(MAX(through_game), 0) FROM playoff_voids)
               ORDER BY g.id"""
        )
        return tuple(PlayoffGame(row["a"], row["b"], row["winner"], row["decides"]) for row in rows)

    def last_playoff_game(self) -> int:
        """The latest playoff game recorded, voided or not (its row; 0: none): what the page's
        Void form names, so that a game voided and recorded again since is not voided (R964)."""
        return int(self._db.execute("SELECT COALESCE(MAX(id), 0) FROM playoff_games").fetchone()[0])

    def champion(self) -> str | None:
        """The champion while the tournament is closed; None before, and once reopened."""
        closed = self.closing()
        return None if closed is None else closed.champion

    def closing(self) -> Closing | None:
        """The closing that stands (its champion, who, when), or None: the record is open."""
        return record_closing.closing(self._db, self.default_zone)

    def reopenings(self) -> tuple[Reopening, ...]:
        return record_closing.reopenings(self._db)

    def last_closing(self) -> int:
        """The latest closing (its champion row), standing or reopened; 0: never closed."""
        return record_closing.last_closing(self._db)

    def require_closing_seen(self, expected: int) -> None:
        """Refuse closing from a page drawn before the latest reopening, in words (R857)."""
        record_closing.require_seen(self._db, expected, self.default_zone)

    def require_open(self, doing: str) -> None:
        """Refuse ``doing`` in words while the tournament is closed (R850)."""
        closed = self.closing()
        if closed is not None:
            raise closed.refusal(doing)

    def last_result_change(self) -> str | None:
        """When the latest result version (first or amendment) was entered; None: none."""
        found: str | None = self._db.execute("SELECT MAX(entered_at) FROM results").fetchone()[0]
        return found

    def current_result(self, round_number: int, table: int) -> ResultEntry | None:
        history = self.result_history(round_number, table)
        return history[-1] if history else None

    def paired_rounds(self) -> PairedRounds:
        """The paired rounds as ``rules.tournament``'s checks ask for them, read one lookup
        at a time (the hub's, R725): no more of the record than one result needs."""
        return _RecordRounds(self)

    def paired_round_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM live_rounds").fetchone()[0])

    def paired_round_number(self, position: int) -> int:
        """The number of the ``position``-th paired round (from 1), as ``rounds()`` orders them."""
        row = self._db.execute(
            "SELECT number FROM live_rounds ORDER BY number LIMIT 1 OFFSET ?", (position - 1,)
        ).fetchone()
        if row is None:
            raise IndexError(f"no paired round at position {position}")
        return int(row[0])

    def paired_match(self, round_number: int, table: int) -> Match | None:
        row = self._db.execute(
            """SELECT a.name AS a, b.name AS b FROM live_pairings p
               JOIN teams a ON a.id = p.team_a JOIN teams b ON b.id = p.team_b
               WHERE p.round = ? AND p.table_number = ?""",
            (round_number, table),
        ).fetchone()
        return None if row is None else Match(table, row["a"], row["b"])

    def paired_tables(self, round_number: int) -> tuple[int, ...]:
        """The tables round ``round_number`` is played at, ascending."""
        rows = self._db.execute(
            "SELECT table_number FROM live_pairings WHERE round = ? ORDER BY table_number",
            (round_number,),
        )
        return tuple(int(row[0]) for row in rows)

    def paired_table_count(self, round_number: int) -> int:
        return int(
            self._db.execute(
                "SELECT COUNT(*) FROM live_pairings WHERE round = ?", (round_number,)
            ).fetchone()[0]
        )

    def table_event_seen(self, table: int, journal: str, seq: int) -> bool:
        """Whether the hub has already applied this decision of this table's journal."""
        return (
            self._db.execute(
                "SELECT 1 FROM table_events WHERE table_number = ? AND journal = ? AND seq = ?",
                (table, journal, seq),
            ).fetchone()
            is not None
        )

    def later_table_event(
        self, table: int, journal: str, round_number: int, seq: int
    ) -> int | None:
        """The place of a later result the same journal reported for the same round, if any:
        QoS 1 may deliver an old decision after a newer one."""
        row = self._db.execute(
            """SELECT MAX(seq) FROM table_events
               WHERE table_number = ? AND journal = ? AND round = ? AND seq > ?""",
            (table, journal, round_number, seq),
        ).fetchone()
        return None if row[0] is None else int(row[0])

    def table_event(self, table: int, journal: str, seq: int) -> TableEvent | None:
        """What the hub applied of this decision of this table's journal, if it did."""
        row = self._db.execute(
            """SELECT table_number, journal, seq, decided_at, received_at, round, a_points,
               b_points, outcome, note FROM table_events
               WHERE table_number = ? AND journal = ? AND seq = ?""",
            (table, journal, seq),
        ).fetchone()
        return None if row is None else TableEvent(*row)

    def journal_of_table_result(self, table: int, round_number: int) -> str | None:
        """The journal whose report made the table's current result of the round, if a table
        report made it (R928): only the same journal may change it without the director."""
        row = self._db.execute(
            """SELECT journal FROM table_events
               WHERE table_number = ? AND round = ? AND outcome IN ('recorded', 'amended')
               ORDER BY id DESC LIMIT 1""",
            (table, round_number),
        ).fetchone()
        return None if row is None else str(row[0])

    def table_events(self) -> tuple[TableEvent, ...]:
        """Every result the tables reported through the hub, in the order it applied them."""
        if self._schema() < HUB_SCHEMA_VERSION:
            return ()
        rows = self._db.execute(
            """SELECT table_number, journal, seq, decided_at, received_at, round, a_points,
               b_points, outcome, note FROM table_events ORDER BY id"""
        )
        return tuple(TableEvent(*row) for row in rows)

    def protests(self) -> tuple[Protest, ...]:
        rows = self._db.execute("SELECT * FROM protests ORDER BY id")
        return tuple(
            Protest(
                row["id"],
                row["round"],
                row["table_number"],
                row["lodged_by"],
                row["lodged_at"],
                row["text"],
            )
            for row in rows
        )

    # -- writing (call inside :meth:`transaction`) ---------------------------------------

    def add_round(self, pairing: RoundPairing, plan: RoundPlan, *, now: str, by: str) -> None:
        """Store a round's pairing, table numbers and bye. A round is paired once, or again
        after its pairing is undone: then under a new slot (R820)."""
        number = pairing.round
        self.require_open(f"pairing round {number}")
        if self._db.execute("SELECT 1 FROM live_rounds WHERE number = ?", (number,)).fetchone():
            raise IllegalAction(f"round {number} is already paired: a round is paired once")
        slot = number
        if self._db.execute("SELECT 1 FROM rounds WHERE number = ?", (number,)).fetchone():
            # its slot is held by a withdrawn pairing (only a record with the undo's tables
            # has one): a new slot past every one
            slot = int(self._db.execute("SELECT MAX(number) + 1 FROM rounds").fetchone()[0])
        self._db.execute(
            "INSERT INTO rounds (number, kind, minutes, paired_at, paired_by) VALUES (?,?,?,?,?)",
            (slot, plan.kind.value, plan.minutes, now, by),
        )
        if slot != number:
            self._db.execute("INSERT INTO round_slots (slot, round) VALUES (?,?)", (slot, number))
        self._db.executemany(
            "INSERT INTO pairings (round, table_number, team_a, team_b) VALUES (?,?,?,?)",
            [(slot, m.table, self._team_id(m.a), self._team_id(m.b)) for m in pairing.matches],
        )
        if pairing.bye is not None:
            self._db.execute(
                "INSERT INTO byes (round, team) VALUES (?,?)", (slot, self._team_id(pairing.bye))
            )

    def unpair_round(self, number: int, *, now: str, by: str, reason: str) -> RoundPairing:
        """Undo round ``number``'s pairing, in one transaction of its own (R820): the latest
        round, while none of its results is in. Nothing is deleted: the round is marked
        withdrawn, with who, when and why, and every reader skips it; the round can then be
        paired again. A record of an older schema is given the undo's tables in the same
        transaction, so a refusal leaves it as it was. Returns the pairing undone."""
        reason = reason.strip()
        if not reason:
            raise InvalidInput("undoing a pairing with an empty reason: expected why")
        with self._write():
            self.require_open(f"undoing round {number}'s pairing")
            undone = self.load().unpairable(number)
            if self._schema() < UNDO_SCHEMA_VERSION:
                self._upgrade(self._schema(), UNDO_SCHEMA_VERSION)
            self._db.execute(
                """INSERT INTO round_withdrawals (slot, withdrawn_at, withdrawn_by, reason)
                   VALUES ((SELECT slot FROM live_rounds WHERE number = ?), ?, ?, ?)""",
                (number, now, by, reason),
            )
        self._define_live_views()
        return undone

    def withdrawn_rounds(self) -> tuple[WithdrawnRound, ...]:
        """Every pairing undone, oldest first, with its matches: the record's history."""
        if self._schema() < UNDO_SCHEMA_VERSION:
            return ()
        rows = self._db.execute(
            """SELECT w.slot, COALESCE(s.round, r.number) AS round, r.kind, r.minutes,
               r.paired_at, r.paired_by, w.withdrawn_at, w.withdrawn_by, w.reason
               FROM round_withdrawals w JOIN rounds r ON r.number = w.slot
               LEFT JOIN round_slots s ON s.slot = w.slot ORDER BY w.withdrawn_at, w.slot"""
        ).fetchall()
        withdrawn = []
        for row in rows:
            matches = tuple(
                Match(match["table_number"], match["a"], match["b"])
                for match in self._db.execute(
                    """SELECT p.table_number, a.name AS a, b.name AS b FROM pairings p
                       JOIN teams a ON a.id = p.team_a JOIN teams b ON b.id = p.team_b
                       WHERE p.round = ? ORDER BY p.table_number""",
                    (row["slot"],),
                )
            )
            bye = self._db.execute(
                "SELECT t.name FROM byes b JOIN teams t ON t.id = b.team WHERE b.round = ?",
                (row["slot"],),
            ).fetchone()
            withdrawn.append(
                WithdrawnRound(
                    RoundPairing(row["round"], matches, None if bye is None else bye["name"]),
                    row["kind"],
                    row["minutes"],
                    row["paired_at"],
                    row["paired_by"],
                    row["withdrawn_at"],
                    row["withdrawn_by"],
                    row["reason"],
                )
            )
        return tuple(withdrawn)

    def add_result(
        self,
        result: MatchResult,
        *,
        now: str,
        by: str,
        source: str = TABLE_SOURCE,
        amend_reason: str | None = None,
    ) -> ResultEntry:
        """Store a match's result. A second result for the same match conflicts unless it is
        an amendment with a reason; the amendment supersedes the current version."""
        where = f"round {result.round} table {result.table}"
        self.require_open(f"{where}'s result")
        pairing = self._db.execute(
            "SELECT id FROM live_pairings WHERE round = ? AND table_number = ?",
            (result.round, result.table),
        ).fetchone()
        if pairing is None:
            raise InvalidInput(f"{where} is not paired: expected a table of a paired round")
        current = self._current_result(pairing["id"])
        if amend_reason is None and current is not None:
            raise IllegalAction(
                f"{where} already has a result ({current['a_points']}-{current['b_points']}, "
                f"entered by {current['entered_by']} at "
                f"{self.venue().when(current['entered_at'])}): "
                "expected an amendment with a reason to change it"
            )
        if amend_reason is not None:
            if current is None:
                raise IllegalAction(f"{where} has no result to amend: expected a first result")
            if not amend_reason.strip():
                raise InvalidInput("an amendment with an empty reason: expected why it changes")
        self._db.execute(
            """INSERT INTO results (pairing, a_points, b_points, source, entered_by, entered_at,
               supersedes, reason) VALUES (?,?,?,?,?,?,?,?)""",
            (
                pairing["id"],
                result.a_points,
                result.b_points,
                source,
                by,
                now,
                None if current is None else current["id"],
                None if amend_reason is None else amend_reason.strip(),
            ),
        )
        return self.result_history(result.round, result.table)[-1]

    def add_table_event(self, event: TableEvent) -> None:
        self._db.execute(
            """INSERT INTO table_events (table_number, journal, seq, decided_at, received_at,
               round, a_points, b_points, outcome, note) VALUES (?,?,?,?,?,?,?,?,?,?)""",
            (
                event.table,
                event.journal,
                event.seq,
                event.decided_at,
                event.received_at,
                event.round,
                event.a_points,
                event.b_points,
                event.outcome,
                event.note,
            ),
        )

    def add_playoff_game(self, game: PlayoffGame, *, now: str, by: str) -> None:
        """Record ``game`` (in the caller's write transaction) with what it decided, so that a
        later change can never read it as deciding something else (R968). A record of an older
        schema is given the decisions' table in the same transaction."""
        self.require_open("a playoff game")
        inserted = self._db.execute(
            """INSERT INTO playoff_games (team_a, team_b, winner, entered_by, entered_at)
               VALUES (?,?,?,?,?)""",
            (self._team_id(game.a), self._team_id(game.b), self._team_id(game.winner), by, now),
        )
        if game.decides is None:
            return
        if self._schema() < DECISIONS_SCHEMA_VERSION:
            self._upgrade(self._schema(), DECISIONS_SCHEMA_VERSION)
            self._define_live_views()  # an older record may have gained the undo's tables
        self._db.execute(
            "INSERT INTO playoff_decisions (game, decides) VALUES (?,?)",
            (inserted.lastrowid, game.decides),
        )

    def void_playoff(self, *, now: str, by: str, reason: str) -> int:
        """Void every playoff game recorded so far (they stay in the history); how many."""
        self.require_open("voiding the playoff")
        if not reason.strip():
            raise InvalidInput("voiding the playoff with an empty reason: expected why")
        games = len(self.playoff_games())
        if games == 0:
            raise IllegalAction("no playoff game is recorded: nothing to void")
        self._db.execute(
            """INSERT INTO playoff_voids (through_game, entered_by, entered_at, reason)
               VALUES ((SELECT MAX(id) FROM playoff_games), ?, ?, ?)""",
            (by, now, reason.strip()),
        )
        return games

    def set_champion(
        self, team: str, *, now: str, by: str, amend_reason: str | None = None
    ) -> None:
        """Record the champion, which closes the tournament (R850); amend the one that stands
        with a reason; or, once reopened, close it again (the new row supersedes the reopened
        one, saying so)."""
        row = record_closing.standing_champion(self._db)
        closed = self.closing()
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
        self._db.execute(
            """INSERT INTO champions (team, entered_by, entered_at, supersedes, reason)
               VALUES (?,?,?,?,?)""",
            (
                self._team_id(team),
                by,
                now,
                None if row is None else row["id"],
                None if amend_reason is None else amend_reason.strip(),
            ),
        )

    def venue(self) -> Venue:
        """The tournament's name and the venue's time zone (R962); a record that names no zone
        reads its times in ``default_zone`` (R1162)."""
        return venue.read_venue(self._db, self.default_zone)

    def set_venue(
        self, *, name: str | None = None, time_zone: str | None = None, now: str, by: str
    ) -> Venue:
        """Name the tournament and/or set the venue's time zone, each checked, in one
        transaction (R962); a closed tournament too: neither changes a result. What stands
        after."""
        settings = [
            *([] if name is None else [("name", venue.check_name(name))]),
            *([] if time_zone is None else [("time_zone", venue.check_time_zone(time_zone))]),
        ]
        with self._write():
            for key, value in settings:
                venue.set_setting(self._db, key, value, now=now, by=by)
        return self.venue()

    def reopen(self, *, now: str, by: str, reason: str, expected: int | None = None) -> Closing:
        """Reopen the closed tournament with a reason, in a transaction of its own (R850):
        the champion no longer stands, and the record may change again. The closing undone;
        ``expected``: the closing the caller saw (``Closing.row``), another refused (R856)."""
        with self._write():
            return record_closing.reopen(self._db, now=now, by=by, reason=reason, expected=expected)

    def add_protest(
        self, round_number: int | None, table: int | None, text: str, *, now: str, by: str
    ) -> Protest:
        # a protest is lodged even while closed (R850): it changes no result, and is often why
        # a director reopens
        if not text.strip():
            raise InvalidInput("a protest with no text: expected what is protested")
        if round_number is not None:
            self._check_round_and_table(round_number, table)
        cursor = self._db.execute(
            """INSERT INTO protests (round, table_number, lodged_by, lodged_at, text)
               VALUES (?,?,?,?,?)""",
            (round_number, table, by, now, text.strip()),
        )
        assert cursor.lastrowid is not None
        return Protest(cursor.lastrowid, round_number, table, by, now, text.strip())

    # -- attendance and the standings' release (record_attendance, R1040-R1043) -----------

    def mark_checkin(
        self, number: int, team: str, *, present: bool, now: str, by: str
    ) -> tuple[str, bool]:
        """Mark ``team`` present or absent for round ``number``, the next round, before it is
        paired (R1040), in one transaction of its own; (the team's name, present)."""
        with self._write():
            self.require_open(f"checking in {team} for round {number}")
            self.load().plan(number)  # a round of the tournament's, or refused in words
            checked = record_attendance.mark(
                self._db, number, self._team_id(team), present=present, now=now, by=by
            )
        return checked.team, checked.present

    def withdraw_team(self, team: str, *, now: str, by: str, reason: str) -> Withdrawal:
        """Withdraw ``team`` for good (R1041), in one transaction of its own."""
        with self._write():
            self.require_open(f"withdrawing {team}")
            return record_attendance.withdraw(
                self._db, self._team_id(team), now=now, by=by, reason=reason
            )

    def withdrawals(self) -> dict[str, Withdrawal]:
        """The teams withdrawn, by name."""
        return record_attendance.withdrawals_by_team(self._db)

    def standings_release(self) -> Release:
        """Whether the standings are public (R1043): by default, yes."""
        return record_attendance.release(self._db)

    def set_standings_release(self, *, public: bool, now: str, by: str) -> Release:
        with self._write():
            return record_attendance.set_release(self._db, public=public, now=now, by=by)

    # -- rooms (record_rooms, R1110-R1113) --------------------------------------------------

    def rooms(self) -> tuple[Room, ...]:
        """The rooms standing, by their first table."""
        return record_rooms.rooms(self._db)

    def add_room(
        self, name: str, tables: Sequence[int], *, building: str, now: str, by: str
    ) -> Room:
        """Add a room holding ``tables`` (R1111), in one transaction of its own."""
        with self._write():
            self.require_open(f"adding room {name!r}")
            return record_rooms.add(self._db, name, tables, building=building, now=now, by=by)

    def remove_room(
        self, name: str, *, now: str, by: str, seen: tuple[int, ...] | None = None
    ) -> Room:
        """Remove a room: its tables are then in none, in one transaction of its own;
        ``seen``: its tables as a page showed them (R1115)."""
        with self._write():
            self.require_open(f"removing room {name!r}")
            return record_rooms.remove(self._db, name, now=now, by=by, seen=seen)

    # -- export ----------------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The whole record as JSON-ready data: config, teams, rounds with every result
        version, playoff (voided games too), champion history and protests."""
        head = self._db.execute("SELECT created_at, created_by FROM tournament").fetchone()
        plans = self.round_plans()
        shorts = self.short_names()
        rounds = []
        for rnd in self.rounds():
            plan = plans[rnd.round]
            rounds.append(
                {
                    "round": rnd.round,
                    "kind": plan["kind"],
                    "minutes": plan["minutes"],
                    "paired_at": plan["paired_at"],
                    "paired_by": plan["paired_by"],
                    "pairings": [
                        {
                            "table": m.table,
                            "A": m.a,
                            "B": m.b,
                            "results": [
                                e.to_json() for e in self.result_history(rnd.round, m.table)
                            ],
                        }
                        for m in rnd.matches
                    ],
                    "bye": rnd.bye,
                }
            )
        return {
            "schema": self._schema(),
            "created_at": head["created_at"],
            "created_by": head["created_by"],
            "config": self.config().to_json(),
            "teams": [
                {
                    "name": e.name,
                    "school": e.school,
                    "players": list(e.players),
                    "short": shorts.get(e.name, ""),  # R832: given, or derived
                }
                for e in self.entrants()
            ],
            "rounds": rounds,
            "playoff_games": self._all_playoff_games(),
            "playoff_voids": self._playoff_voids(),
            "settings": venue.settings_history(self._db),
            "champions": self._all_champions(),
            "reopenings": [reopened.to_json() for reopened in self.reopenings()],
            "protests": [protest.to_json() for protest in self.protests()],
            "withdrawn_rounds": [undone.to_json() for undone in self.withdrawn_rounds()],
            "table_events": [event.to_json() for event in self.table_events()],
            **record_attendance.export(self._db),
            "rooms": record_rooms.history(self._db),
        }

    def _all_playoff_games(self) -> list[dict[str, Any]]:
        voided_through = self._db.execute(
            "SELECT COALESCE(MAX(through_game), 0) FROM playoff_voids"
        ).fetchone()[0]
        decided = (
            "(SELECT d.decides FROM playoff_decisions d WHERE d.game = g.id)"
            if self._schema() >= DECISIONS_SCHEMA_VERSION
            else "NULL"
        )
        rows = self._db.execute(
            f"""SELECT g.id, a.name AS a, b.name AS b, w.name AS winner, {decided} AS decides,
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

    def _playoff_voids(self) -> list[dict[str, Any]]:
        """Each void of the playoff: how many games it voided, who, when and why."""
        rows = self._db.execute(
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

    def _all_champions(self) -> list[dict[str, Any]]:
        rows = self._db.execute(
            """SELECT t.name, c.entered_by, c.entered_at, c.reason FROM champions c
               JOIN teams t ON t.id = c.team ORDER BY c.id"""
        )
        return [dict(row) for row in rows]

    # -- helpers ---------------------------------------------------------------------------

    def _team_id(self, name: str) -> int:
        row = self._db.execute("SELECT id FROM teams WHERE name_key = ?", (name_key(name),))
        found = row.fetchone()
        if found is None:
            raise InvalidInput(f"unknown team {name!r}: expected a team of this tournament")
        return int(found["id"])

    def _current_result(self, pairing: int) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._db.execute(
            """SELECT * FROM results r WHERE r.pairing = ?
               AND NOT EXISTS (SELECT 1 FROM results s WHERE s.supersedes = r.id)""",
            (pairing,),
        ).fetchone()
        return row

    def _check_round_and_table(self, round_number: int, table: int | None) -> None:
        if not self._db.execute(
            "SELECT 1 FROM live_rounds WHERE number = ?", (round_number,)
        ).fetchone():
            raise InvalidInput(f"round {round_number} is not paired: expected a paired round")
        if (
            table is not None
            and not self._db.execute(
                "SELECT 1 FROM live_pairings WHERE round = ? AND table_number = ?",
                (round_number, table),
            ).fetchone()
        ):
            raise InvalidInput(f"round {round_number} has no table {table}")


@dataclass(frozen=True, slots=True)
class _RecordRounds:
    """``PairedRounds`` over the record: its length and one round, each a lookup."""

    record: TournamentDB

    def __len__(self) -> int:
        return self.record.paired_round_count()

    def __getitem__(self, position: int, /) -> _RecordRound:
        return _RecordRound(self.record, self.record.paired_round_number(position + 1))


@dataclass(frozen=True, slots=True)
class _RecordRound:
    """``PairedRound`` over the record: one match, a lookup; the round's size only to say
    that it has no such table."""

    record: TournamentDB
    number: int

    def match_at(self, table: int) -> Match:
        match = self.record.paired_match(self.number, table)
        if match is None:
            raise no_table(self.number, table, self.record.paired_tables(self.number))
        return match


_PAIRING_JOIN = """JOIN live_pairings p ON p.id = r.pairing
    JOIN teams a ON a.id = p.team_a JOIN teams b ON b.id = p.team_b"""
