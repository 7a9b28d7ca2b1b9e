"""A round's draw edited before it starts (issue 27, R1064-R1066): two teams swapped between
tables (or with the bye), with a reason; warned first when the swap makes a rematch or a
same-school pair.

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
from dataclasses import dataclass

from firmware_py.director.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import RoundPairing, Tournament
from rules.tournament.draw_edit import draw_warnings, pairing_stamp, swap_teams
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
    change: str  # "Eagles and Owls swapped (tables 1 and 2)"
    warnings: tuple[str, ...]  # what was warned, and confirmed
    reason: str
    changed_by: str
    changed_at: str

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
        if expected is not None and expected != plan.stamp:
            raise IllegalAction(
                f"round {number}'s draw has changed since this page was loaded: nothing "
                "swapped; look at the draw again"
            )
        if plan.warnings and not confirmed:
            raise IllegalAction(
                f"{plan.change} makes {'; '.join(plan.warnings)}: confirm to swap anyway"
            )
        _store(record, tournament, plan, reason=reason, now=now, by=by)
    return plan


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
            )
        )
        slot = row["replaces"]
    return tuple(reversed(changes))


def _plan(tournament: Tournament, number: int, first: str, second: str) -> SwapPlan:
    before = _changeable(tournament, number)
    after = swap_teams(before, first, second)
    one = tournament.entrant(first).name
    other = tournament.entrant(second).name
    where = f"tables {_where(before, one)} and {_where(before, other)}"
    earlier = tuple(r for r in tournament.rounds if r.round != number)
    warnings = draw_warnings(after, before, earlier, tournament.entrants)
    return SwapPlan(before, after, f"{one} and {other} swapped ({where})", warnings, (one, other))


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
    record: TournamentDB, tournament: Tournament, plan: SwapPlan, *, reason: str, now: str, by: str
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
