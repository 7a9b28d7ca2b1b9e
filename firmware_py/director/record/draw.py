"""A round's draw edited before it starts (issue 27, R1064-R1066, R1068): two teams swapped
between tables (or with the bye), or a match moved to a free table, with a reason; warned first
when a swap makes a rematch or a same-school pair (a move makes no new pair).

The record stays append-only: the round's pairing is withdrawn as an undo withdraws it (R820,
its reason "draw changed: ...") and the changed pairing stored in its place, in one
transaction; ``draw_changes`` says who changed it, when, why, what, and what was warned. The
hub publishes a round's pairings whenever the record's differ from what it sent, so the tables
learn the changed draw as they learn any pairing (the wire format is the same). The schema
version stays, as for ``team_short_names``: a reader that does not know the table misses only
who changed a draw.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import RoundPairing, Tournament
from rules.tournament.draw_edit import (
    draw_warnings,
    free_tables,
    move_match,
    pairing_stamp,
    swap_teams,
    tournament_tables,
)
from rules.tournament.teams import one_line_reason

_DRAW_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS draw_changes (
        slot INTEGER PRIMARY KEY REFERENCES rounds(number),
        replaces INTEGER NOT NULL REFERENCES rounds(number),
        round INTEGER NOT NULL CHECK (round >= 1),
        change TEXT NOT NULL,
        warnings TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        changed_by TEXT NOT NULL,
        changed_at TEXT NOT NULL)""",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS draw_changes_{verb}_refused BEFORE {verb.upper()}
        ON draw_changes BEGIN SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for verb in ("update", "delete")
    ),
)


@dataclass(frozen=True, slots=True)
class DrawChange:
    """One change of a round's draw, as recorded."""

    round: int
    change: str  # "Eagles and Owls swapped (tables 1 and 2)", "Hawks v Owls moved from ..."
    warnings: tuple[str, ...]  # what was warned, and confirmed
    reason: str
    changed_by: str
    changed_at: str
    tables: frozenset[int] = frozenset()  # the tables whose match it changed

    def line(self, when: str) -> str:
        """The line on the round's sheets and pairings (``when``: the time as the venue reads
        it)."""
        return f"draw changed by {self.changed_by} at {when}: {self.reason} ({self.change})"


@dataclass(frozen=True, slots=True)
class SwapPlan:
    """A swap as it would be made: the draw before and after, what it is, what it warns of."""

    before: RoundPairing
    after: RoundPairing
    change: str
    warnings: tuple[str, ...]
    teams: tuple[str, str]  # the two swapped, as entered

    @property
    def stamp(self) -> str:
        return pairing_stamp(self.before)


@dataclass(frozen=True, slots=True)
class MovePlan:
    """A match's move to a free table as it would be made (R1068): it makes no new pair, so
    nothing to warn of."""

    before: RoundPairing
    after: RoundPairing
    change: str
    team: str  # the team named, as entered
    table: int  # where its match goes

    @property
    def stamp(self) -> str:
        return pairing_stamp(self.before)

    @property
    def warnings(self) -> tuple[str, ...]:
        return ()


def plan_swap(record: TournamentDB, number: int, first: str, second: str) -> SwapPlan:
    """What swapping ``first`` and ``second`` in round ``number`` makes, nothing saved."""
    return _plan(record.load(), number, first, second)


def swap_in_draw(
    record: TournamentDB,
    number: int,
    first: str,
    second: str,
    *,
    reason: str,
    now: str,
    by: str,
    confirmed: bool = False,
    expected: str | None = None,
) -> SwapPlan:
    """Swap ``first`` and ``second`` in round ``number``'s draw, with ``reason`` (R1064):
    refused in words once a result of the round is in, or when it warns (R1065) and is not
    ``confirmed``, or when ``expected`` (the draw a form was made from) is not the draw now
    (R1066). The swap made."""
    reason = checked_reason(number, reason)
    record.upgrade_for_undo()  # the withdrawal's tables, in a transaction of their own
    with record.transaction() as tournament:
        record.require_open(f"changing round {number}'s draw")
        plan = _plan(tournament, number, first, second)
        _require_unchanged(number, plan.stamp, expected, "swapped")
        if plan.warnings and not confirmed:
            raise IllegalAction(
                f"{plan.change} makes {'; '.join(plan.warnings)}: confirm to swap anyway"
            )
        _store(record, tournament, plan, reason=reason, now=now, by=by)
    return plan


def move_in_draw(
    record: TournamentDB,
    number: int,
    team: str,
    table: int,
    *,
    reason: str,
    now: str,
    by: str,
    expected: str | None = None,
    tables: Collection[int] | None = None,
) -> MovePlan:
    """Move ``team``'s match in round ``number`` to ``table``, a free table of the tournament,
    with ``reason`` (R1068): refused in words as a swap is (R1064, R1066), and when the table
    is in use, is not the tournament's, or is the match's own. ``tables``: on a day of several
    events, the tables playing for the event, its tables instead (R1172). The move made."""
    reason = checked_reason(number, reason)
    record.upgrade_for_undo()
    with record.transaction() as tournament:
        record.require_open(f"changing round {number}'s draw")
        plan = _plan_move(record, tournament, number, team, table, tables=tables)
        _require_unchanged(number, plan.stamp, expected, "moved")
        _store(record, tournament, plan, reason=reason, now=now, by=by)
    return plan


def round_free_tables(record: TournamentDB, pairing: RoundPairing) -> tuple[int, ...]:
    """The tables of the tournament no match of ``pairing``'s round is at (R1068)."""
    return free_tables(pairing, _tables_of(record, record.rounds()))


def _tables_of(record: TournamentDB, rounds: Sequence[RoundPairing]) -> frozenset[int]:
    rooms = (table for room in record.rooms() for table in room.tables)
    return tournament_tables(rounds, rooms)


def _require_unchanged(number: int, stamp: str, expected: str | None, done: str) -> None:
    """R1066: a form made from a draw that has changed since changes nothing."""
    if expected is not None and expected != stamp:
        raise IllegalAction(
            f"round {number}'s draw has changed since this page was loaded: nothing {done}; "
            "look at the draw again"
        )


def checked_reason(number: int, reason: str) -> str:
    """A swap's reason, one line (R342), refused empty before anything else is checked."""
    reason = one_line_reason(reason)
    if not reason:
        raise InvalidInput(f"changing round {number}'s draw with an empty reason: expected why")
    return reason


def draw_changes(record: TournamentDB, number: int) -> tuple[DrawChange, ...]:
    """The changes that made round ``number``'s draw as it stands, first to last: none for a
    draw as paired (an undo and a new pairing start it afresh)."""
    db = record.connection
    if not _has_changes(record):
        return ()
    slot_row = db.execute("SELECT slot FROM live_rounds WHERE number = ?", (number,)).fetchone()
    changes: list[DrawChange] = []
    slot = None if slot_row is None else slot_row["slot"]
    while slot is not None:
        row = db.execute("SELECT * FROM draw_changes WHERE slot = ?", (slot,)).fetchone()
        if row is None:
            break
        changes.append(
            DrawChange(
                row["round"],
                row["change"],
                tuple(json.loads(row["warnings"])),
                row["reason"],
                row["changed_by"],
                row["changed_at"],
                _tables_changed(db, row["replaces"], slot),
            )
        )
        slot = row["replaces"]
    return tuple(reversed(changes))


def _tables_changed(db: sqlite3.Connection, before: int, after: int) -> frozenset[int]:
    """The tables whose match differs between two slots of a round: the ones a change touched."""
    query = "SELECT table_number, team_a, team_b FROM pairings WHERE round = ?"
    old = {tuple(row) for row in db.execute(query, (before,))}
    new = {tuple(row) for row in db.execute(query, (after,))}
    return frozenset(int(row[0]) for row in old ^ new)


def _plan(tournament: Tournament, number: int, first: str, second: str) -> SwapPlan:
    before = _changeable(tournament, number)
    after = swap_teams(before, first, second)
    one = tournament.entrant(first).name
    other = tournament.entrant(second).name
    where = f"tables {_where(before, one)} and {_where(before, other)}"
    earlier = tuple(r for r in tournament.rounds if r.round != number)
    warnings = draw_warnings(after, before, earlier, tournament.entrants)
    return SwapPlan(before, after, f"{one} and {other} swapped ({where})", warnings, (one, other))


def _plan_move(
    record: TournamentDB,
    tournament: Tournament,
    number: int,
    team: str,
    table: int,
    *,
    tables: Collection[int] | None = None,
) -> MovePlan:
    before = _changeable(tournament, number)
    if tables is None:
        tables = _tables_of(record, tournament.rounds)
    after = move_match(before, team, table, tables)
    name = tournament.entrant(team).name
    match = next(m for m in before.matches if name in (m.a, m.b))
    change = f"{match.a} v {match.b} moved from table {match.table} to table {table}"
    return MovePlan(before, after, change, name, table)


def _changeable(tournament: Tournament, number: int) -> RoundPairing:
    """Round ``number``'s draw, if it may change (R1064): the latest round, no result in."""
    latest = tournament.rounds[-1] if tournament.rounds else None
    if latest is None or number > latest.round:
        raise IllegalAction(f"round {number} is not paired: no draw to change")
    if number != latest.round:
        raise IllegalAction(
            f"round {number} is not the latest round: only round {latest.round}'s draw can change"
        )
    entered = sorted(r.table for r in tournament.results if r.round == number)
    if entered:
        tables = ", ".join(str(table) for table in entered[:4])
        more = f" and {len(entered) - 4} more" if len(entered) > 4 else ""
        raise IllegalAction(
            f"round {number}'s draw cannot change: the round has started, a result is in "
            f"(table {tables}{more})"
        )
    return latest


def _where(pairing: RoundPairing, team: str) -> str:
    for match in pairing.matches:
        if team in (match.a, match.b):
            return str(match.table)
    return "the bye"


def _store(
    record: TournamentDB,
    tournament: Tournament,
    plan: SwapPlan | MovePlan,
    *,
    reason: str,
    now: str,
    by: str,
) -> None:
    db = record.connection
    number = plan.before.round
    replaced = db.execute("SELECT slot FROM live_rounds WHERE number = ?", (number,)).fetchone()
    db.execute(
        """INSERT INTO round_withdrawals (slot, withdrawn_at, withdrawn_by, reason)
           VALUES (?, ?, ?, ?)""",
        (replaced["slot"], now, by, f"draw changed: {reason} ({plan.change})"),
    )
    record.add_round(plan.after, tournament.plan(number), now=now, by=by)
    slot = db.execute("SELECT slot FROM live_rounds WHERE number = ?", (number,)).fetchone()
    for statement in _DRAW_SCHEMA:
        db.execute(statement)
    db.execute(
        """INSERT INTO draw_changes
           (slot, replaces, round, change, warnings, reason, changed_by, changed_at)
           VALUES (?,?,?,?,?,?,?,?)""",
        (
            slot["slot"],
            replaced["slot"],
            number,
            plan.change,
            json.dumps(list(plan.warnings)),
            reason,
            by,
            now,
        ),
    )


def _has_changes(record: TournamentDB) -> bool:
    found = record.connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'draw_changes'"
    ).fetchone()
    return found is not None
