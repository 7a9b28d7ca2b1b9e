"""A Mathematics Pentathlon event in the tournament record (its tables: ``tournament_db``'s
schema 3): the event's points, its Pentathletes, the seats of each round and each seat's game
result with every version kept. Append-only like the rest of the record: a result is
corrected by an amendment that says why (R267), entered by a table (through the hub) or the
director. The decisions (who may sit where, what a result is worth, who ranks where) come
from ``rules.tournament.pentathlon``.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.director.record.tournament_db import PENTATHLON_SCHEMA_VERSION, TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.results import How
from rules.tournament import name_key
from rules.tournament.pentathlon import (
    Challenges,
    GameResult,
    Pentathlete,
    PentathlonEvent,
    PentathlonPoints,
    Seat,
)
from rules.tournament.pentathlon_check import check_result
from rules.tournament.teams import one_line_reason

# The players given 0 points by the Tournament Director (R794), kept in the result's
# ``challenges`` column beside each player's counts: a record of schema 3 takes it as it is, and
# a result without it (every result entered before) is one without 0 points.
ZERO_POINTS = "zero_points"


@dataclass(frozen=True, slots=True)
class PentathlonEntry:
    """One version of a seat's game result, as entered."""

    version: int
    result: GameResult
    source: str
    entered_by: str
    entered_at: str
    reason: str | None  # why it amends the version before; None for the first

    def to_json(self) -> dict[str, Any]:
        return {
            **self.result.to_json(),
            "version": self.version,
            "source": self.source,
            "entered_by": self.entered_by,
            "entered_at": self.entered_at,
            "reason": self.reason,
        }


class PentathlonRecord:
    """The Pentathlon event of one tournament record (open the record, then this on it)."""

    def __init__(self, record: TournamentDB) -> None:
        self.record = record
        self._db = record.connection

    # -- starting ------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        path: Path,
        points: PentathlonPoints,
        players: tuple[Pentathlete, ...],
        *,
        now: str,
        by: str,
        name: str = "",
    ) -> TournamentDB:
        """The event in the record at ``path``: a new record, or one (a GeoPlunge tournament's)
        given the Pentathlon's tables. An event is started once per record."""

        def fill(record: TournamentDB) -> None:
            event = cls(record)
            if event.has_event():
                raise IllegalAction(
                    f"{path} holds a Pentathlon event already: it is started once; add "
                    "results to it, or start the next event in another record"
                )
            record.upgrade_for_pentathlon()
            with record.writing():
                event._db.execute(
                    "INSERT INTO pentathlon (id, config, created_at, created_by) VALUES (1,?,?,?)",
                    (json.dumps({"points": points.to_json(), **_named(name)}), now, by),
                )
                event._db.executemany(
                    "INSERT INTO pentathletes (name, name_key, division, school) VALUES (?,?,?,?)",
                    [(p.name, name_key(p.name), p.division, p.school) for p in players],
                )

        if not os.path.lexists(path):  # a new record, made whole before it has the name
            return TournamentDB.create_record(path, fill)
        record = TournamentDB.open(path)  # anything but a record is refused untouched
        try:
            fill(record)
        except BaseException:
            record.close()
            raise
        return record

    # -- reading -------------------------------------------------------------------------

    def has_event(self) -> bool:
        if self.record.schema < PENTATHLON_SCHEMA_VERSION:
            return False
        return self._db.execute("SELECT 1 FROM pentathlon").fetchone() is not None

    def _require_event(self) -> None:
        if not self.has_event():
            raise InvalidInput(
                f"{self.record.path} holds no Pentathlon event: start one with "
                "'gametable tournament pentathlon new'"
            )

    def points(self) -> PentathlonPoints:
        self._require_event()
        row = self._db.execute("SELECT config FROM pentathlon").fetchone()
        return PentathlonPoints.from_json(json.loads(row["config"])["points"])

    def name(self) -> str:
        """The event's name as the score cards print it ("" when it was started without one)."""
        self._require_event()
        row = self._db.execute("SELECT config FROM pentathlon").fetchone()
        return str(json.loads(row["config"]).get("name", ""))

    def event(self) -> PentathlonEvent:
        """The event as the rules see it: its current results only."""
        points = self.points()
        players = tuple(
            Pentathlete(row["name"], row["division"], row["school"])
            for row in self._db.execute("SELECT * FROM pentathletes ORDER BY id")
        )
        seats = tuple(self._seat(row) for row in self._db.execute(f"{_SEATS} ORDER BY s.id"))
        results = tuple(
            self._entry(row, 0).result
            for row in self._db.execute(
                f"""{_RESULTS} WHERE NOT EXISTS
                    (SELECT 1 FROM pentathlon_results n WHERE n.supersedes = r.id)
                    ORDER BY s.round, s.table_number"""
            )
        )
        return PentathlonEvent(points, players, seats, results)

    def history(self, round_number: int, table: int) -> tuple[PentathlonEntry, ...]:
        """Every version of one seat's result, first to current."""
        rows = self._db.execute(
            f"{_RESULTS} WHERE s.round = ? AND s.table_number = ? ORDER BY r.id",
            (round_number, table),
        ).fetchall()
        return tuple(self._entry(row, version) for version, row in enumerate(rows, start=1))

    def current(self, round_number: int, table: int) -> PentathlonEntry | None:
        history = self.history(round_number, table)
        return history[-1] if history else None

    def latest_seat(self, table: int, game: Game) -> Seat | None:
        """The latest round's seat at ``table`` for ``game``: where a table's result goes."""
        row = self._db.execute(
            f"{_SEATS} WHERE s.table_number = ? AND s.game = ? ORDER BY s.round DESC LIMIT 1",
            (table, game.value),
        ).fetchone()
        return None if row is None else self._seat(row)

    def export(self) -> dict[str, Any]:
        """The event as JSON-ready data: its points, players, every seat with every version of
        its result, and the standings."""
        event = self.event()
        return {
            "points": event.points.to_json(),
            "players": [player.to_json() for player in event.players],
            "seats": [
                {
                    **seat.to_json(),
                    "results": [e.to_json() for e in self.history(seat.round, seat.table)],
                }
                for seat in event.seats
            ],
            "standings": [row.to_json() for row in event.standings()],
        }

    # -- writing (inside ``record.writing()``) -------------------------------------------

    def add_seat(self, seat: Seat, *, now: str, by: str) -> None:
        self._db.execute(
            """INSERT INTO pentathlon_seats (round, table_number, game, player_a, player_b,
               seated_by, seated_at) VALUES (?,?,?,?,?,?,?)""",
            (
                seat.round,
                seat.table,
                seat.game.value,
                self._player_id(seat.a),
                self._player_id(seat.b),
                by,
                now,
            ),
        )

    def add_result(
        self,
        result: GameResult,
        *,
        now: str,
        by: str,
        source: str,
        amend_reason: str | None = None,
    ) -> PentathlonEntry:
        """Store a seat's result, once its own scores and challenges agree with it (R269,
        R340). A second one for the same seat is refused unless it is an amendment with a
        reason; the amendment supersedes the current version."""
        check_result(result)
        if amend_reason is not None:
            amend_reason = one_line_reason(amend_reason)  # R342
        seat = result.seat
        where = f"round {seat.round} table {seat.table}"
        row = self._db.execute(
            "SELECT id FROM pentathlon_seats WHERE round = ? AND table_number = ?",
            (seat.round, seat.table),
        ).fetchone()
        if row is None:
            raise InvalidInput(f"{where} is not seated: seat it first")
        current = self.current(seat.round, seat.table)
        if amend_reason is None and current is not None:
            raise IllegalAction(
                f"{where} already has a result ({_said(current.result)}, entered by "
                f"{current.entered_by} at {current.entered_at}): expected an amendment with "
                "a reason to change it"
            )
        if amend_reason is not None and current is None:
            raise IllegalAction(f"{where} has no result to amend: expected a first result")
        supersedes = None
        if current is not None:
            supersedes = self._db.execute(
                """SELECT r.id FROM pentathlon_results r WHERE r.seat = ? AND NOT EXISTS
                   (SELECT 1 FROM pentathlon_results n WHERE n.supersedes = r.id)""",
                (row["id"],),
            ).fetchone()["id"]
        challenges: dict[str, Any] = {
            side: c.to_json() for side, c in zip("AB", result.challenges, strict=True)
        }
        if result.zeroed:  # beside the counts, so that a record keeps its schema (R794)
            challenges[ZERO_POINTS] = list(result.zeroed)
        self._db.execute(
            """INSERT INTO pentathlon_results (seat, winner, how, a_score, b_score, challenges,
               source, entered_by, entered_at, supersedes, reason)
               VALUES (?,?,?,?,?,?,?,?,?,?,?)""",
            (
                row["id"],
                result.winner,
                result.how.value,
                result.scores[0],
                result.scores[1],
                json.dumps(challenges),
                source,
                by,
                now,
                supersedes,
                amend_reason,
            ),
        )
        entry = self.current(seat.round, seat.table)
        assert entry is not None
        return entry

    # -- helpers -----------------------------------------------------------------------------

    def _player_id(self, name: str) -> int:
        row = self._db.execute("SELECT id FROM pentathletes WHERE name_key = ?", (name_key(name),))
        found = row.fetchone()
        if found is None:
            raise InvalidInput(f"no Pentathlete named {name!r}: expected one of the event's")
        return int(found["id"])

    @staticmethod
    def _seat(row: sqlite3.Row) -> Seat:
        return Seat(row["round"], row["table_number"], Game(row["game"]), row["a"], row["b"])

    def _entry(self, row: sqlite3.Row, version: int) -> PentathlonEntry:
        counts = json.loads(row["challenges"])
        zeroed = counts.get(ZERO_POINTS, [])
        result = GameResult(
            self._seat(row),
            row["winner"],
            How(row["how"]),
            (row["a_score"], row["b_score"]),
            (Challenges.from_json(counts["A"]), Challenges.from_json(counts["B"])),
            ("A" in zeroed, "B" in zeroed),
        )
        return PentathlonEntry(
            version, result, row["source"], row["entered_by"], row["entered_at"], row["reason"]
        )


def _named(name: str) -> dict[str, str]:
    """The event's name in its configuration: kept out when none is given, so that an event
    started without one is founded (and identified, R710) as before."""
    return {"name": name} if name else {}


def _said(result: GameResult) -> str:
    zero = "".join(f", 0 points to {side}" for side in result.zeroed)
    if result.winner is None:
        return f"a tie by {result.how.value}{zero}"
    return f"{result.winner} wins by {result.how.value}{zero}"


_SEATS = """SELECT s.round, s.table_number, s.game, a.name AS a, b.name AS b
    FROM pentathlon_seats s JOIN pentathletes a ON a.id = s.player_a
    JOIN pentathletes b ON b.id = s.player_b"""
_RESULTS = """SELECT r.*, s.round, s.table_number, s.game, a.name AS a, b.name AS b
    FROM pentathlon_results r JOIN pentathlon_seats s ON s.id = r.seat
    JOIN pentathletes a ON a.id = s.player_a JOIN pentathletes b ON b.id = s.player_b"""
