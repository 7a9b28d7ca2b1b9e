"""The tournament record: one SQLite file, append-only, every entry with who and when.

Teams, rounds, pairings (with their table numbers), byes, match results, playoff games, the
champion and protests. Nothing is ever updated or deleted (triggers refuse it): a result is
corrected by an amendment that supersedes it and says why, and the history stays readable.

Every write runs in one ``BEGIN IMMEDIATE`` transaction, so a rejected command changes nothing
and two tables entering results at once cannot both win a race for the same match. The
decisions themselves (what to pair, who ranks where) come from ``rules.tournament``.

``TournamentDB`` is the one class callers use: it opens the file, holds the connection and the
transaction, checks that the tournament is open before a change (R850), and hands each question
to the module of its concern (issue 27: the record split by concern), each a set of functions
over the connection:

- ``schema`` the tables and versions, ``upgrades`` an older record brought up to date,
  ``file`` what is refused before SQLite opens a file;
- ``founding`` the configuration and the teams as entered (short names, the view as edited);
- ``rounds`` the rounds, their pairings and byes, a pairing undone (the live views, R820);
- ``results`` every version of a match's result; ``table_events`` what the hub applied;
- ``playoff`` the playoff games and the champion; ``closing`` the closing and reopening;
- ``protests``, ``attendance``, ``rooms``, ``venue``; ``export_json`` the whole record.

Why delegation and not mixins: the class stays the one index of what a record can do, each
method a line naming the module that does it, with one connection and no method resolution
order to follow; and the modules are those the record's older parts already were (``closing``,
``attendance``, ``rooms``, ``venue``: functions over a connection), which read and test alone.
The parts that build on the record as a whole (``draw``, ``teams``, ``field``, ``pentathlon``,
the day) stand above it and take a ``TournamentDB``.

The names other modules read from here (the schema's versions, the sources, the dataclasses)
are re-exported.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

from firmware_py.director.record import attendance as record_attendance
from firmware_py.director.record import closing as record_closing
from firmware_py.director.record import (
    export_json,
    founding,
    playoff,
    protests,
    results,
    rounds,
    table_events,
    upgrades,
    venue,
)
from firmware_py.director.record import rooms as record_rooms
from firmware_py.director.record.attendance import Release, Withdrawal
from firmware_py.director.record.closing import Closing, Reopening
from firmware_py.director.record.file import (
    BUSY_SECONDS,
    SQLITE_HEADER,
    connect_record,
    create_private_beside,
    other_schema,
    remove_with_sides,
    require_new,
    require_sqlite_file,
    unreadable,
)
from firmware_py.director.record.founding import TEAM_EDITS_SCHEMA, define_edited_teams
from firmware_py.director.record.protests import Protest
from firmware_py.director.record.results import ResultEntry
from firmware_py.director.record.rooms import Room
from firmware_py.director.record.rounds import WithdrawnRound
from firmware_py.director.record.schema import (
    DECISIONS_SCHEMA_VERSION,
    DIRECTOR_SOURCE,
    HUB_SCHEMA,
    HUB_SCHEMA_VERSION,
    OUTCOMES,
    PENTATHLON_SCHEMA_VERSION,
    READABLE_SCHEMAS,
    SCHEMA,
    SCHEMA_VERSION,
    TABLE_SOURCE,
    UNDO_SCHEMA_VERSION,
    create_indexes,
)
from firmware_py.director.record.table_events import TableEvent
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
)
from rules.tournament.short_names import short_names
from rules.tournament.state import PairedRounds

__all__ = [  # with the names the record's parts hold, read from here elsewhere
    "DECISIONS_SCHEMA_VERSION",
    "DIRECTOR_SOURCE",
    "HUB_SCHEMA_VERSION",
    "OUTCOMES",
    "PENTATHLON_SCHEMA_VERSION",
    "READABLE_SCHEMAS",
    "SCHEMA_VERSION",
    "SQLITE_HEADER",
    "TABLE_SOURCE",
    "TEAM_EDITS_SCHEMA",
    "UNDO_SCHEMA_VERSION",
    "Protest",
    "ResultEntry",
    "TableEvent",
    "TournamentDB",
    "WithdrawnRound",
    "define_edited_teams",
]


class RecordGone(sqlite3.OperationalError):
    """The record's file was deleted or replaced since it was opened (R1170): nothing is
    written to it, as for a record busy, so a hub holds what it would write (its tables keep
    it and send it again) and the page says so, rather than writing where no one reads."""


def _file_identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` as the system knows it (device, inode); None: nothing there."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


class TournamentDB:
    """A tournament record. Open with :meth:`create` or :meth:`open`; close when done."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._db = connection
        self.path = path
        # the file opened, told again before every write (R1170): a hub runs for a day, and a
        # record deleted or replaced under it would take its results into a file no one reads
        self._where = path.absolute()
        self._opened = _file_identity(self._where)
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
                founding.found(record._db, config, entrants, now=now, by=by)

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
                rounds.define_live_views(record._db)
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
            raise unreadable(path, error) from None
        if version not in READABLE_SCHEMAS:
            record.close()
            raise other_schema(path, version)
        try:
            rounds.define_live_views(record._db)
        except sqlite3.DatabaseError as error:
            record.close()
            raise unreadable(path, error) from None
        return record

    def identity(self) -> str:
        """This record's identity, for the hub's confirmations: a digest of its founding row
        (the configuration with its seed, when and by whom it was made), so another record,
        even of the same teams, has another."""
        return founding.identity(self._db)

    # -- an older record brought up to date (upgrades) ---------------------------------------

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
        wanted = upgrades.missing_indexes(self._db)
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
        if founding.has_short_names(self._db) or not self.has_tournament():
            return False
        with self._write():
            founding.keep_short_names(self._db, {}, now=now, by=by)  # none could be given before
        return True

    def upgrade_for_pentathlon(self) -> bool:
        """Give a record of schema 1 or 2 the hub's and the Pentathlon's tables, in one
        transaction; True if it did."""
        schema = self._schema()
        if schema >= PENTATHLON_SCHEMA_VERSION:
            return False
        with self._write():
            upgrades.upgrade(self._db, schema, PENTATHLON_SCHEMA_VERSION)
        return True

    def upgrade_for_undo(self) -> bool:
        """Give an older record the tables of rounds' pairings undone (and every table before
        them), in one transaction; True if it did. The hub does it as it starts, so that its
        readers skip a round a command undoes while it runs (R820)."""
        schema = self._schema()
        if schema >= UNDO_SCHEMA_VERSION:
            return False
        with self._write():
            upgrades.upgrade(self._db, schema, UNDO_SCHEMA_VERSION)
        rounds.define_live_views(self._db)
        return True

    # -- the connection and its transactions -----------------------------------------------

    @property
    def schema(self) -> int:
        return self._schema()

    @property
    def connection(self) -> sqlite3.Connection:
        """The record's connection, for the parts that build on the whole record (``pentathlon``,
        ``draw``, ``teams``, ``field``) and the hub's ledger."""
        return self._db

    def writing(self) -> AbstractContextManager[None]:
        """One write transaction, as every command's (for the parts above the record)."""
        return self._write()

    def _schema(self) -> int:
        return upgrades.schema_version(self._db)

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
            self._require_still_in_place()
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextmanager
    def waiting_at_most(self, seconds: float) -> Iterator[None]:
        """Writes in this block wait at most ``seconds`` for the record another program holds
        (then sqlite3.OperationalError, "database is locked"), not the usual ``BUSY_SECONDS``:
        a day's hub never stalls every event for one event's record (R1171)."""
        self._db.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
        try:
            yield
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")

    def _require_still_in_place(self) -> None:
        """The file at the record's path is still the one opened, else RecordGone (R1170)."""
        if self._opened is not None and _file_identity(self._where) != self._opened:
            raise RecordGone(
                f"{self.path.name} was deleted or replaced since it was opened: nothing was "
                "written to it; put the record back there, or start again to open the one "
                "there now"
            )

    @contextmanager
    def transaction(self) -> Iterator[Tournament]:
        """Read the tournament and write in one transaction: what is decided from the state
        read here cannot be overtaken by another writer before it is stored."""
        with self._write():
            yield self.load()

    # -- the tournament as founded (founding) ------------------------------------------------

    def has_tournament(self) -> bool:
        """Whether the record holds a GeoPlunge tournament (a Pentathlon event may be alone)."""
        return founding.has_tournament(self._db)

    def config(self) -> TournamentConfig:
        return founding.config(self._db, self.path)

    def entrants(self) -> tuple[Entrant, ...]:
        """The teams as entered, each with the short name given at registration (if any)."""
        return founding.entrants(self._db)

    def short_names(self) -> dict[str, str]:
        """Every team's short name by its full name (R830-R832): as the record keeps them, or,
        in a record made before them that the hub has not started on, as they would be
        derived."""
        return founding.short_names(self._db)

    def load(self) -> Tournament:
        return Tournament(
            self.config(),
            self.entrants(),
            self.rounds(),
            self.results(),
            record_attendance.attendance(self._db),
        )

    # -- the rounds and their pairings (rounds) ----------------------------------------------

    def rounds(self) -> tuple[RoundPairing, ...]:
        return rounds.rounds(self._db)

    def round_plans(self) -> dict[int, dict[str, Any]]:
        return rounds.round_plans(self._db)

    def paired_rounds(self) -> PairedRounds:
        """The paired rounds as ``rules.tournament``'s checks ask for them, read one lookup
        at a time (the hub's, R725): no more of the record than one result needs."""
        return rounds.RecordRounds(self._db)

    def paired_round_count(self) -> int:
        return rounds.paired_round_count(self._db)

    def paired_round_number(self, position: int) -> int:
        """The number of the ``position``-th paired round (from 1), as ``rounds()`` orders them."""
        return rounds.paired_round_number(self._db, position)

    def paired_match(self, round_number: int, table: int) -> Match | None:
        return rounds.paired_match(self._db, round_number, table)

    def paired_tables(self, round_number: int) -> tuple[int, ...]:
        """The tables round ``round_number`` is played at, ascending."""
        return rounds.paired_tables(self._db, round_number)

    def paired_table_count(self, round_number: int) -> int:
        return rounds.paired_table_count(self._db, round_number)

    def add_round(self, pairing: RoundPairing, plan: RoundPlan, *, now: str, by: str) -> None:
        """Store a round's pairing, table numbers and bye (call inside :meth:`transaction`).
        A round is paired once, or again after its pairing is undone: then under a new slot
        (R820)."""
        self.require_open(f"pairing round {pairing.round}")
        rounds.add_round(self._db, pairing, plan, now=now, by=by)

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
            rounds.withdraw_round(self._db, number, now=now, by=by, reason=reason)
        rounds.define_live_views(self._db)
        return undone

    def withdrawn_rounds(self) -> tuple[WithdrawnRound, ...]:
        """Every pairing undone, oldest first, with its matches: the record's history."""
        return rounds.withdrawn_rounds(self._db)

    # -- the results and their history (results) ---------------------------------------------

    def results(self) -> tuple[MatchResult, ...]:
        """The current (latest) result of every match that has one."""
        return results.results(self._db)

    def result_history(self, round_number: int, table: int) -> tuple[ResultEntry, ...]:
        """Every version of one match's result, first to current."""
        return results.result_history(self._db, round_number, table)

    def current_result(self, round_number: int, table: int) -> ResultEntry | None:
        history = self.result_history(round_number, table)
        return history[-1] if history else None

    def last_result_change(self) -> str | None:
        """When the latest result version (first or amendment) was entered; None: none."""
        return results.last_result_change(self._db)

    def add_result(
        self,
        result: MatchResult,
        *,
        now: str,
        by: str,
        source: str = TABLE_SOURCE,
        amend_reason: str | None = None,
    ) -> ResultEntry:
        """Store a match's result (call inside :meth:`transaction`). A second result for the
        same match conflicts unless it is an amendment with a reason; the amendment supersedes
        the current version."""
        self.require_open(f"round {result.round} table {result.table}'s result")
        return results.add_result(
            self._db, result, now=now, by=by, source=source, amend_reason=amend_reason
        )

    # -- the results the tables reported through the hub (table_events) ----------------------

    def table_event_seen(self, table: int, journal: str, seq: int) -> bool:
        """Whether the hub has already applied this decision of this table's journal."""
        return table_events.seen(self._db, table, journal, seq)

    def later_table_event(
        self, table: int, journal: str, round_number: int, seq: int
    ) -> int | None:
        """The place of a later result the same journal reported for the same round, if any:
        QoS 1 may deliver an old decision after a newer one."""
        return table_events.later(self._db, table, journal, round_number, seq)

    def table_event(self, table: int, journal: str, seq: int) -> TableEvent | None:
        """What the hub applied of this decision of this table's journal, if it did."""
        return table_events.find(self._db, table, journal, seq)

    def journal_of_table_result(self, table: int, round_number: int) -> str | None:
        """The journal whose report made the table's current result of the round, if a table
        report made it (R928): only the same journal may change it without the director."""
        return table_events.journal_of_result(self._db, table, round_number)

    def table_events(self) -> tuple[TableEvent, ...]:
        """Every result the tables reported through the hub, in the order it applied them."""
        return table_events.in_order(self._db)

    def add_table_event(self, event: TableEvent) -> None:
        table_events.add(self._db, event)

    # -- the playoff and the champion (playoff, closing) -------------------------------------

    def playoff_games(self) -> tuple[PlayoffGame, ...]:
        """The playoff games recorded since the last void, in order, each with what it decided
        (None for a game recorded before the record kept it, R968)."""
        return playoff.playoff_games(self._db)

    def last_playoff_game(self) -> int:
        """The latest playoff game recorded, voided or not (its row; 0: none): what the page's
        Void form names, so that a game voided and recorded again since is not voided (R964)."""
        return playoff.last_playoff_game(self._db)

    def add_playoff_game(self, game: PlayoffGame, *, now: str, by: str) -> None:
        """Record ``game`` (in the caller's write transaction) with what it decided, so that a
        later change can never read it as deciding something else (R968). A record of an older
        schema is given the decisions' table in the same transaction."""
        self.require_open("a playoff game")
        playoff.add_playoff_game(self._db, game, now=now, by=by)

    def void_playoff(self, *, now: str, by: str, reason: str) -> int:
        """Void every playoff game recorded so far (they stay in the history); how many."""
        self.require_open("voiding the playoff")
        return playoff.void_playoff(self._db, now=now, by=by, reason=reason)

    def set_champion(
        self, team: str, *, now: str, by: str, amend_reason: str | None = None
    ) -> None:
        """Record the champion, which closes the tournament (R850); amend the one that stands
        with a reason; or, once reopened, close it again (the new row supersedes the reopened
        one, saying so)."""
        playoff.set_champion(self._db, team, now=now, by=by, amend_reason=amend_reason)

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

    def reopen(self, *, now: str, by: str, reason: str, expected: int | None = None) -> Closing:
        """Reopen the closed tournament with a reason, in a transaction of its own (R850):
        the champion no longer stands, and the record may change again. The closing undone;
        ``expected``: the closing the caller saw (``Closing.row``), another refused (R856)."""
        with self._write():
            return record_closing.reopen(self._db, now=now, by=by, reason=reason, expected=expected)

    # -- protests (protests) -----------------------------------------------------------------

    def add_protest(
        self, round_number: int | None, table: int | None, text: str, *, now: str, by: str
    ) -> Protest:
        """Lodge a protest, even while closed (R850): it changes no result."""
        return protests.add_protest(self._db, round_number, table, text, now=now, by=by)

    def protests(self) -> tuple[Protest, ...]:
        return protests.protests(self._db)

    # -- the tournament's name and time zone (venue, R962) -----------------------------------

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

    # -- attendance and the standings' release (attendance, R1040-R1043) ---------------------

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

    # -- rooms (rooms, R1110-R1113) ----------------------------------------------------------

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

    # -- export (export_json) ----------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The whole record as JSON-ready data: config, teams, rounds with every result
        version, playoff (voided games too), champion history and protests."""
        return export_json.record_json(self._db, self.path)

    # -- helpers ---------------------------------------------------------------------------

    def _team_id(self, name: str) -> int:
        return founding.team_id(self._db, name)
