"""The rounds and their pairings: each round's tables and teams, its bye, and its pairing undone.

A round is paired once (``add_round``), or again after its pairing is undone (R820): nothing is
deleted, the round's slot is marked withdrawn (``round_withdrawals``) and a new pairing takes a
new slot (``round_slots`` names its round). Every reader reads the rounds not withdrawn through
this connection's TEMP views (``live_rounds``, ``live_pairings``, ``live_byes``), defined as the
record's schema has them; the hub reads one match at a time (``RecordRounds``, R725).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from firmware_py.director.record.founding import define_edited_teams, team_id
from firmware_py.director.record.schema import UNDO_SCHEMA_VERSION
from firmware_py.director.record.upgrades import schema_version, upgrade
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Match, RoundPairing, RoundPlan
from rules.tournament.records import no_table

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


def define_live_views(db: sqlite3.Connection) -> None:
    """The views every reader reads (R820), as this record's schema has them; and the teams
    as edited (R1067)."""
    undo = schema_version(db) >= UNDO_SCHEMA_VERSION
    for view in ("live_byes", "live_pairings", "live_rounds"):
        db.execute(f"DROP VIEW IF EXISTS temp.{view}")
    db.execute(f"CREATE TEMP VIEW live_rounds AS {_LIVE_ROUNDS[undo]}")
    for statement in _LIVE_VIEWS:
        db.execute(statement)
    define_edited_teams(db)


# -- reading -------------------------------------------------------------------------------


def rounds(db: sqlite3.Connection) -> tuple[RoundPairing, ...]:
    byes = {
        row["round"]: row["name"]
        for row in db.execute(
            "SELECT b.round, t.name FROM live_byes b JOIN teams t ON t.id = b.team"
        )
    }
    matches: dict[int, list[Match]] = {}
    for row in db.execute(
        """SELECT p.round, p.table_number, a.name AS a, b.name AS b FROM live_pairings p
           JOIN teams a ON a.id = p.team_a JOIN teams b ON b.id = p.team_b
           ORDER BY p.round, p.table_number"""
    ):
        matches.setdefault(row["round"], []).append(Match(row["table_number"], row["a"], row["b"]))
    numbers = [row[0] for row in db.execute("SELECT number FROM live_rounds ORDER BY number")]
    return tuple(
        RoundPairing(number, tuple(matches.get(number, ())), byes.get(number)) for number in numbers
    )


def round_plans(db: sqlite3.Connection) -> dict[int, dict[str, Any]]:
    return {
        row["number"]: dict(row)
        for row in db.execute(
            "SELECT number, kind, minutes, paired_at, paired_by FROM live_rounds ORDER BY number"
        )
    }


def paired_round_count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM live_rounds").fetchone()[0])


def paired_round_number(db: sqlite3.Connection, position: int) -> int:
    row = db.execute(
        "SELECT number FROM live_rounds ORDER BY number LIMIT 1 OFFSET ?", (position - 1,)
    ).fetchone()
    if row is None:
        raise IndexError(f"no paired round at position {position}")
    return int(row[0])


def paired_match(db: sqlite3.Connection, round_number: int, table: int) -> Match | None:
    row = db.execute(
        """SELECT a.name AS a, b.name AS b FROM live_pairings p
           JOIN teams a ON a.id = p.team_a JOIN teams b ON b.id = p.team_b
           WHERE p.round = ? AND p.table_number = ?""",
        (round_number, table),
    ).fetchone()
    return None if row is None else Match(table, row["a"], row["b"])


def paired_tables(db: sqlite3.Connection, round_number: int) -> tuple[int, ...]:
    rows = db.execute(
        "SELECT table_number FROM live_pairings WHERE round = ? ORDER BY table_number",
        (round_number,),
    )
    return tuple(int(row[0]) for row in rows)


def paired_table_count(db: sqlite3.Connection, round_number: int) -> int:
    return int(
        db.execute(
            "SELECT COUNT(*) FROM live_pairings WHERE round = ?", (round_number,)
        ).fetchone()[0]
    )


def check_round_and_table(db: sqlite3.Connection, round_number: int, table: int | None) -> None:
    """Refuse in words a round that is not paired, or a table it is not played at."""
    if not db.execute("SELECT 1 FROM live_rounds WHERE number = ?", (round_number,)).fetchone():
        raise InvalidInput(f"round {round_number} is not paired: expected a paired round")
    if (
        table is not None
        and not db.execute(
            "SELECT 1 FROM live_pairings WHERE round = ? AND table_number = ?",
            (round_number, table),
        ).fetchone()
    ):
        raise InvalidInput(f"round {round_number} has no table {table}")


@dataclass(frozen=True, slots=True)
class RecordRounds:
    """``PairedRounds`` over the record: its length and one round, each a lookup."""

    db: sqlite3.Connection

    def __len__(self) -> int:
        return paired_round_count(self.db)

    def __getitem__(self, position: int, /) -> RecordRound:
        return RecordRound(self.db, paired_round_number(self.db, position + 1))


@dataclass(frozen=True, slots=True)
class RecordRound:
    """``PairedRound`` over the record: one match, a lookup; the round's size only to say
    that it has no such table."""

    db: sqlite3.Connection
    number: int

    def match_at(self, table: int) -> Match:
        match = paired_match(self.db, self.number, table)
        if match is None:
            raise no_table(self.number, table, paired_tables(self.db, self.number))
        return match


def withdrawn_rounds(db: sqlite3.Connection) -> tuple[WithdrawnRound, ...]:
    if schema_version(db) < UNDO_SCHEMA_VERSION:
        return ()
    rows = db.execute(
        """SELECT w.slot, COALESCE(s.round, r.number) AS round, r.kind, r.minutes,
           r.paired_at, r.paired_by, w.withdrawn_at, w.withdrawn_by, w.reason
           FROM round_withdrawals w JOIN rounds r ON r.number = w.slot
           LEFT JOIN round_slots s ON s.slot = w.slot ORDER BY w.withdrawn_at, w.slot"""
    ).fetchall()
    return tuple(_withdrawn(db, row) for row in rows)


def _withdrawn(db: sqlite3.Connection, row: sqlite3.Row) -> WithdrawnRound:
    """One pairing undone, with the matches and the bye its slot held."""
    matches = tuple(
        Match(match["table_number"], match["a"], match["b"])
        for match in db.execute(
            """SELECT p.table_number, a.name AS a, b.name AS b FROM pairings p
               JOIN teams a ON a.id = p.team_a JOIN teams b ON b.id = p.team_b
               WHERE p.round = ? ORDER BY p.table_number""",
            (row["slot"],),
        )
    )
    bye = db.execute(
        "SELECT t.name FROM byes b JOIN teams t ON t.id = b.team WHERE b.round = ?",
        (row["slot"],),
    ).fetchone()
    return WithdrawnRound(
        RoundPairing(row["round"], matches, None if bye is None else bye["name"]),
        row["kind"],
        row["minutes"],
        row["paired_at"],
        row["paired_by"],
        row["withdrawn_at"],
        row["withdrawn_by"],
        row["reason"],
    )


# -- writing (in the caller's transaction) -------------------------------------------------


def add_round(
    db: sqlite3.Connection, pairing: RoundPairing, plan: RoundPlan, *, now: str, by: str
) -> None:
    """Store a round's pairing, table numbers and bye, under the round's number, or under a
    new slot past every one when a withdrawn pairing holds it (R820)."""
    number = pairing.round
    if db.execute("SELECT 1 FROM live_rounds WHERE number = ?", (number,)).fetchone():
        raise IllegalAction(f"round {number} is already paired: a round is paired once")
    slot = number
    if db.execute("SELECT 1 FROM rounds WHERE number = ?", (number,)).fetchone():
        # its slot is held by a withdrawn pairing (only a record with the undo's tables
        # has one): a new slot past every one
        slot = int(db.execute("SELECT MAX(number) + 1 FROM rounds").fetchone()[0])
    db.execute(
        "INSERT INTO rounds (number, kind, minutes, paired_at, paired_by) VALUES (?,?,?,?,?)",
        (slot, plan.kind.value, plan.minutes, now, by),
    )
    if slot != number:
        db.execute("INSERT INTO round_slots (slot, round) VALUES (?,?)", (slot, number))
    db.executemany(
        "INSERT INTO pairings (round, table_number, team_a, team_b) VALUES (?,?,?,?)",
        [(slot, m.table, team_id(db, m.a), team_id(db, m.b)) for m in pairing.matches],
    )
    if pairing.bye is not None:
        db.execute("INSERT INTO byes (round, team) VALUES (?,?)", (slot, team_id(db, pairing.bye)))


def withdraw_round(db: sqlite3.Connection, number: int, *, now: str, by: str, reason: str) -> None:
    """Mark round ``number``'s pairing withdrawn (in the caller's transaction), giving a record
    of an older schema the undo's tables first; the caller defines the live views again once
    it commits."""
    if schema_version(db) < UNDO_SCHEMA_VERSION:
        upgrade(db, schema_version(db), UNDO_SCHEMA_VERSION)
    db.execute(
        """INSERT INTO round_withdrawals (slot, withdrawn_at, withdrawn_by, reason)
           VALUES ((SELECT slot FROM live_rounds WHERE number = ?), ?, ?, ?)""",
        (number, now, by, reason),
    )
