"""The director's problem queue and what each tile knows of the record (docs/hub.md, "The
control room").

``read_hall`` reads what the queue needs from the record at one moment; ``find_problems`` is
pure: that, the live board's rows, the hub's refusals and the time in, the problems out, oldest
first. A problem is never stored: each is what the record and the board say now, so it leaves
the queue by itself once what caused it is put right (R801); only a decision the hub could not
apply at all has nothing to put right, and stays until the director marks it seen (R804).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, NamedTuple
from urllib.parse import urlencode

from firmware_py.director.hub.staff import RANK, Role
from firmware_py.director.hub.wire.board import TableRow
from firmware_py.director.hub.wire.machines import answered_by
from firmware_py.director.hub.wire.refusals import (
    CLOCK,
    JOURNAL_LIMIT,
    NOT_APPLIED,
    RESTARTED,
    TWO_VERSIONS,
    HubRefusal,
)
from firmware_py.director.record.tournament_db import ResultEntry, TableEvent, TournamentDB
from firmware_py.director.record.venue import Venue
from rules.errors import RuleError
from rules.tournament import Match, PlayoffChanged, RoundPairing

# A table in a game changes what it shows at least every few minutes (its clock each second, a
# press, a score): one that has said nothing for this long while its broker connection stands
# has likely hung (R800). Between games a table is quiet, and that is no problem.
SILENT_SECONDS = 300
# What a table's OLED says on its alert row for a fault of its own (firmware_py/table:
# controller's "STUCK A.stand", daemon's "JOURNAL ERROR retrying" and SCOREBOARD_LOST); the
# games' own alerts ("TIME OUT: OPINION") are play, not problems.
STUCK_ALERT = "STUCK "
JOURNAL_ALERT = "JOURNAL ERROR"
SCOREBOARD_ALERT = "SCOREBOARD LOST"
UNSENT_ALERT = "HUB: UNSENT CONFIRMED"  # the table's complaint: R927
OUTBOX_ALERT = "HUB: OUTBOX DAMAGED"  # sending stopped at a damaged outbox row: R905

# Every kind of problem, with its label, in the order a tile that has several sorts by (R802).
KINDS: dict[str, str] = {
    "conflict": "Conflict",
    "two_versions": "Two versions",
    "machines": "Two machines",
    "refused": "Result refused",
    "not_applied": "Not applied",
    "journal_limit": "Journals over the limit",
    "journal": "Journal error",
    "stuck": "Stuck input",
    "offline": "Offline",
    "silent": "Silent",
    "scoreboard": "Scoreboard lost",
    "outbox": "Outbox damaged",
    "unsent": "Confirmed unsent",
    "clock": "Clock off",
    "restarted": "Match restarted",
    "missing": "Results missing",
    "playoff": "Playoff stopped",
    "withdrawn": "Team withdrawn",
}
# The kinds the hub keeps (refusals.py), each a chip on its table's tile and marked seen there.
HUB_KINDS = (NOT_APPLIED, TWO_VERSIONS, JOURNAL_LIMIT, CLOCK, RESTARTED)
# The kinds the record or the hub knows; the others the live board shows as it changes.
RECORD_KINDS = ("conflict", "refused", *HUB_KINDS)
# A table's report of a round: its latest counts (an older one arriving late is "superseded").
_REPORTS = ("recorded", "amended", "unchanged", "conflict", "refused")


class Link(NamedTuple):
    """A link of a problem's, and the least role that may follow it (R811): the result form
    empty enters a match's first result (results staff), filled with other points it amends
    the result (a director); any staff member reads a record or a sheet."""

    text: str
    href: str
    needs: Role = Role.VIEWER


@dataclass(frozen=True, slots=True)
class Problem:
    """One line of the queue: what is wrong, what to do, and links to do it (the first is the
    thing to do)."""

    kind: str
    since: float  # seconds since the epoch: how long it has stood
    what: str
    todo: str
    links: tuple[Link, ...]
    table: int | None = None
    round: int | None = None
    tables: tuple[int, ...] = ()  # "missing": the tables whose result is missing
    seen_key: str | None = None  # what marking it seen names: "not_applied", "refused" (R804)

    @property
    def label(self) -> str:
        return KINDS[self.kind]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "since": self.since,
            "what": self.what,
            "todo": self.todo,
            "links": [{"text": link.text, "href": link.href} for link in self.links],
            "table": self.table,
            "round": self.round,
            "tables": list(self.tables),
            "seen_key": self.seen_key,
        }


@dataclass(frozen=True, slots=True)
class Hall:
    """What the queue and the tiles read of the record at one moment."""

    latest: int | None  # the latest round paired
    paired_at: float | None  # when it was paired
    matches: Mapping[int, Match]  # the latest round's matches, by table
    paired: frozenset[tuple[int, int]]  # (round, table) of every match of every round
    results: Mapping[tuple[int, int], tuple[int, int]]  # (round, table) -> points now
    reports: Sequence[TableEvent]  # each table's latest report of each round, in order
    # (round, table) -> every version of its result, for the matches a conflict is about
    histories: Mapping[tuple[int, int], Sequence[ResultEntry]]
    # a playoff whose recorded games the standings no longer seed (R960): since when, and why
    playoff_stopped: tuple[float, str] | None = None
    # (table, team, since) of each latest-round match without a result whose team has since
    # withdrawn (R1041): nobody will play it
    withdrawn: tuple[tuple[int, str, float], ...] = ()


def read_hall(record: TournamentDB) -> Hall:
    rounds = record.rounds()
    latest = rounds[-1] if rounds else None
    plans = record.round_plans()
    results = {(r.round, r.table): (r.a_points, r.b_points) for r in record.results()}
    reports = latest_reports(record.table_events())
    histories = {
        (event.round, event.table): record.result_history(event.round, event.table)
        for event in reports
        if event.outcome == "conflict" and event.round is not None
    }
    return Hall(
        latest=None if latest is None else latest.round,
        paired_at=None if latest is None else _seconds(plans[latest.round]["paired_at"]),
        matches={} if latest is None else {m.table: m for m in latest.matches},
        paired=frozenset((rnd.round, m.table) for rnd in rounds for m in rnd.matches),
        results=results,
        reports=reports,
        histories=histories,
        playoff_stopped=_playoff_stopped(record),
        withdrawn=_withdrawn_at_tables(record, latest, results),
    )


def _withdrawn_at_tables(
    record: TournamentDB,
    latest: RoundPairing | None,
    results: Mapping[tuple[int, int], tuple[int, int]],
) -> tuple[tuple[int, str, float], ...]:
    """The latest round's matches without a result whose team withdrew after the pairing."""
    gone = record.withdrawals()
    if latest is None or not gone:
        return ()
    return tuple(
        (match.table, team, _seconds(gone[team].withdrawn_at))
        for match in latest.matches
        if (latest.round, match.table) not in results
        for team in (match.a, match.b)
        if team in gone
    )


def _playoff_stopped(record: TournamentDB) -> tuple[float, str] | None:
    """Why the playoff stopped (R960), and since the latest result change; None while it
    fits the standings, or no game of it is recorded (the common case: nothing is loaded)."""
    games = record.playoff_games()
    if not games:
        return None
    try:
        record.load().qualification(games)
    except PlayoffChanged as changed:
        changed_at = record.last_result_change()
        return (0.0 if changed_at is None else _seconds(changed_at)), str(changed)
    except RuleError:
        return None  # a result missing again, say: the queue says so already
    return None


def latest_reports(events: Iterable[TableEvent]) -> list[TableEvent]:
    """Each table's latest report of each round, in the order the hub took them."""
    latest: dict[tuple[int, int | None], TableEvent] = {}
    for event in events:
        if event.outcome in _REPORTS:
            latest.pop((event.table, event.round), None)
            latest[(event.table, event.round)] = event
    return list(latest.values())


def find_problems(
    hall: Hall,
    rows: Iterable[TableRow],
    refusals: Iterable[HubRefusal],
    now: float,
    seen: Set[str] = frozenset(),
) -> list[Problem]:
    """Everything that needs the director now, oldest first (R801-R804); ``seen``: the refused
    results the director marked seen."""
    found = [p for p in _record_problems(hall) if p.seen_key is None or p.seen_key not in seen]
    found += _missing(hall)
    found += _playoff(hall)
    found += _withdrawn(hall)
    found += [problem for row in rows for problem in _board_problems(row, now)]
    found += [_of_the_hub(refusal) for refusal in refusals if not _restart_settled(hall, refusal)]
    order = list(KINDS)
    return sorted(found, key=lambda p: (p.since, order.index(p.kind), p.table or 0, p.round or 0))


def as_seen_by(problems: Iterable[Problem], role: Role) -> list[Problem]:
    """The queue as a staff member of ``role`` sees it (R811): only the links they may follow,
    and a problem to mark seen only for a director (the one who may mark it)."""
    seen = [
        replace(problem, links=tuple(link for link in problem.links if may(role, link.needs)))
        for problem in problems
    ]
    if role is Role.DIRECTOR:
        return seen
    return [replace(problem, seen_key=None) for problem in seen]


def may(role: Role, needs: Role) -> bool:
    return RANK[role] >= RANK[needs]


def hall_json(
    hall: Hall,
    problems: Sequence[Problem],
    now: float,
    *,
    rounds: int,
    role: Role,
    venue: Venue,
) -> dict[str, Any]:
    """``/api/problems``: the queue as ``role`` sees it, and for every table of the latest
    round its teams and result (R805), and the problems the record or the hub knows of it (the
    board's own the page reads live from the event stream); ``enters_results``: whether the
    missing results' tables link to the result form (else to their records)."""
    kinds: dict[int, list[str]] = {}
    for problem in problems:
        if problem.table is not None and problem.kind in RECORD_KINDS:
            kinds.setdefault(problem.table, []).append(problem.kind)
    tables: dict[str, dict[str, Any]] = {}
    for number in sorted(set(hall.matches) | set(kinds)):
        match = hall.matches.get(number)
        points = None if hall.latest is None else hall.results.get((hall.latest, number))
        tables[str(number)] = {
            "round": hall.latest if match is not None else None,
            "a": None if match is None else match.a,
            "b": None if match is None else match.b,
            "result": None if points is None else f"{points[0]}-{points[1]}",
            "problems": sorted(set(kinds.get(number, ())), key=list(KINDS).index),
        }
    return {
        "now": now,
        "silent_seconds": SILENT_SECONDS,
        "round": hall.latest,
        "rounds": rounds,
        "kinds": KINDS,
        # each "since" on the venue's clock, as the page's heading reads time (R1181)
        "problems": [
            problem.to_json() | {"clock": venue.clock(problem.since)}
            for problem in as_seen_by(problems, role)
        ],
        "tables": tables,
        "enters_results": may(role, Role.RESULTS),
    }


def result_form(round_number: int, table: int, points: tuple[int, int] | None = None) -> str:
    """The director's result form on ``/``, filled in (static/board.js fills it from these)."""
    query: dict[str, int] = {"round": round_number, "table": table}
    if points is not None:
        query |= {"a_points": points[0], "b_points": points[1]}
    return f"/?{urlencode(query)}#result-form"


# --- each kind ---------------------------------------------------------------------------------


def _record_problems(hall: Hall) -> Iterable[Problem]:
    for event in hall.reports:
        if event.round is None:
            continue
        if event.outcome == "conflict" and not _conflict_settled(hall, event):
            yield _conflict(event)
        elif event.outcome == "refused" and not _refusal_settled(hall, event):
            yield _refused(hall, event)


def _conflict_settled(hall: Hall, event: TableEvent) -> bool:
    """Settled once the record holds the table's points, or holds a version entered after the
    table's report: the director amended it with a reason, to either side's points (R801)."""
    assert event.round is not None
    key = (event.round, event.table)
    if hall.results.get(key) == (event.a_points, event.b_points):
        return True
    reported = _seconds(event.received_at)
    return any(_seconds(entry.entered_at) > reported for entry in hall.histories.get(key, ()))


def _refusal_settled(hall: Hall, event: TableEvent) -> bool:
    """Settled once the record holds a result for that match, or a later round is paired
    (which needs every result before it: nothing is left to enter, R176, R801)."""
    assert event.round is not None
    if (event.round, event.table) in hall.results:
        return True
    return hall.latest is not None and event.round < hall.latest


def _conflict(event: TableEvent) -> Problem:
    assert event.round is not None and event.a_points is not None and event.b_points is not None
    number, table = event.round, event.table
    return Problem(
        "conflict",
        _seconds(event.received_at),
        f"Table {table}, round {number}: {event.note}",
        "Read the match's sheet; amend the result with a reason: to the table's points if the "
        "table is right, or to the same points to keep what the record holds",
        (
            Link(
                "Amend to the table's points",
                result_form(number, table, _points(event)),
                Role.DIRECTOR,
            ),
            Link("Result sheet", f"/sheet/{number}/{table}"),
            Link(f"Table {table}'s record", f"/tables/{table}"),
        ),
        table=table,
        round=number,
    )


def _refused(hall: Hall, event: TableEvent) -> Problem:
    assert event.round is not None
    number, table = event.round, event.table
    points = "" if event.a_points is None else f" {event.a_points}-{event.b_points}"
    paired = (number, table) in hall.paired
    links = [Link(f"Table {table}'s record", f"/tables/{table}")]
    if paired:
        links[:0] = [
            Link("Enter the result", result_form(number, table), Role.RESULTS),
            Link("Result sheet", f"/sheet/{number}/{table}"),
        ]
    return Problem(
        "refused",
        _seconds(event.received_at),
        f"Table {table}, round {number}: the record refused the table's result{points}: "
        f"{event.note}",
        "Enter the match's result from its sheet"
        if paired
        else "Ask the table's dealer which match it played: the record has no such match; "
        "then mark this seen",
        tuple(links),
        table=table,
        round=number,
        seen_key=report_key(event),
    )


def report_key(event: TableEvent) -> str:
    """What marking a refused result seen names: the table's decision."""
    return f"report-{event.table}-{event.journal[:8]}-{event.seq}"


def _missing(hall: Hall) -> Iterable[Problem]:
    """One problem for the latest round's missing results, naming its tables (R803)."""
    if hall.latest is None or hall.paired_at is None:
        return
    number = hall.latest
    tables = tuple(t for t in sorted(hall.matches) if (number, t) not in hall.results)
    if not tables:
        return
    yield Problem(
        "missing",
        hall.paired_at,
        f"Round {number}: {len(tables)} of {len(hall.matches)} results missing",
        "Wait for the tables to send them, or enter each from its result sheet",
        (Link("Enter the first", result_form(number, tables[0]), Role.RESULTS),),
        round=number,
        tables=tables,
    )


def _playoff(hall: Hall) -> Iterable[Problem]:
    """The playoff stopped by a change after a game was played (R960): settled on /close."""
    if hall.playoff_stopped is None:
        return
    since, why = hall.playoff_stopped
    yield Problem(
        "playoff",
        since,
        f"The playoff stopped: {why}",
        "On the championship page, void the playoff with a reason, then play it again from "
        "the standings as they are",
        (Link("The championship page", "/close", Role.DIRECTOR),),
    )


def _withdrawn(hall: Hall) -> Iterable[Problem]:
    """A team withdrawn after its round was paired (R1041): its table will stay empty."""
    number = hall.latest
    if number is None:
        return
    for table, team, since in hall.withdrawn:
        yield Problem(
            "withdrawn",
            since,
            f"Round {number} table {table}: {team} withdrew after the round was paired; "
            "nobody will play this match",
            "Enter the result the director rules from the sheet, or undo the round's pairing "
            "while no result is in and pair it again without the team",
            (
                Link("Enter the result", result_form(number, table), Role.RESULTS),
                Link("Undo the pairing", f"/undo/round/{number}", Role.DIRECTOR),
            ),
            table=table,
            round=number,
        )


def _board_problems(row: TableRow, now: float) -> Iterable[Problem]:
    table, alert = row.table, row.alert or ""
    record = Link(f"Table {table}'s record", f"/tables/{table}")
    heard = row.heard if row.heard is not None else now
    if row.machines:
        answered = answered_by(table, row.machines)  # "table 14 is answered by ..."
        yield Problem(
            "machines",
            row.machines_since or heard,
            answered[:1].upper() + answered[1:],
            f"Give {'one of them' if len(row.machines) == 2 else 'all of them but one'} another "
            f"number (its [hub] table, and an account of that number in its hall: R1002); until "
            f"then the hub takes every decision of theirs as table {table}'s",
            (record,),
            table=table,
        )
    if row.online is False:
        yield Problem(
            "offline",
            row.status_since or heard,
            f"Table {table} is offline",
            "Go to the table: its power, its network, its service (systemctl status "
            "gametable); what it played is in its journal and comes when it is back",
            (record,),
            table=table,
        )
    elif row.in_game and row.heard is not None and now - row.heard > SILENT_SECONDS:
        yield Problem(
            "silent",
            row.heard,
            f"Table {table} has sent nothing for {duration_words(now - row.heard)} during a game",
            "Go to the table: it may have hung while its connection stands",
            (record,),
            table=table,
        )
    if not row.saved or alert.startswith(JOURNAL_ALERT):
        yield Problem(
            "journal",
            row.unsaved_since or row.alert_since or heard,
            f"Table {table} cannot write its journal",
            "Go to the table: its disk (SD card) is full or failing; note each game's points on "
            "the sheet, and enter the match's result by hand if it does not arrive",
            (record,),
            table=table,
        )
    if alert.startswith(STUCK_ALERT):
        yield Problem(
            "stuck",
            row.alert_since or heard,
            f"Table {table}: {alert}",
            "A button held down or wired short: free it or unplug it (the table ignores it "
            "meanwhile)",
            (record,),
            table=table,
        )
    if alert == OUTBOX_ALERT:
        yield Problem(
            "outbox",
            row.alert_since or heard,
            f"Table {table} stopped sending results at a damaged entry of its journal",
            "Its results from then on are not reaching the hub: note each game's points on the "
            "sheet and enter the match's result by hand; its journal keeps them (R905)",
            (record,),
            table=table,
        )
    if alert == UNSENT_ALERT:
        yield Problem(
            "unsent",
            row.alert_since or heard,
            f"Table {table}: the hub confirms decisions it never sent (it keeps and sends them)",
            "Another client may be publishing on the table's account: compare the table's "
            "record with its sheets, and change the table's password",
            (record,),
            table=table,
        )
    if alert == SCOREBOARD_ALERT:
        yield Problem(
            "scoreboard",
            row.alert_since or heard,
            f"Table {table}: its LED scoreboard is not answering",
            "Check the scoreboard's cable and power; the table reopens it by itself",
            (record,),
            table=table,
        )


# What the director does about each kind of problem the hub keeps (R921, R923, R925).
_HUB_TODO = {
    NOT_APPLIED: "If it was a match's result, enter it from the sheet; then mark this seen",
    TWO_VERSIONS: (
        "Two versions of one journal entry came from this table's account: its password may be "
        "known to someone else. Compare the table's record with the score sheet, amend the "
        "result if it is wrong, change the table's password; then mark this seen"
    ),
    JOURNAL_LIMIT: (
        "A table starts a journal a match at most: this many came from its account. Check the "
        "table's results against the sheets and change its password; then mark this seen"
    ),
    CLOCK: (
        "Set the table's clock (timedatectl; is it on the network's time server?): its results "
        "are recorded at the hub's time, but its journal's times are off"
    ),
    RESTARTED: "Check the match's sheet, and enter the result by hand if the match is not "
    "played again; then mark this seen",
}


def _restart_settled(hall: Hall, refusal: HubRefusal) -> bool:
    """A match a new journal left unfinished needs the director no more once it has a result
    (played again, or entered from its sheet, R908)."""
    return refusal.kind == RESTARTED and (refusal.round, refusal.table) in hall.results


def _of_the_hub(refusal: HubRefusal) -> Problem:
    table = refusal.table
    if refusal.kind == RESTARTED and refusal.round is not None:
        return _restarted(refusal, refusal.round)
    if refusal.kind == NOT_APPLIED:
        entry = "a decision" if refusal.seq is None else f"journal entry {refusal.seq}"
        what = f"Table {table}: the hub could not apply {entry}: {refusal.error}"
    else:
        what = f"Table {table}: {refusal.error}"
    return Problem(
        refusal.kind,
        refusal.at,
        what,
        _HUB_TODO[refusal.kind],
        (Link(f"Table {table}'s record", f"/tables/{table}"),),
        table=table,
        seen_key=refusal.key,
    )


def _restarted(refusal: HubRefusal, number: int) -> Problem:
    """An information: the table began its match again from 0-0 on a new journal (R908)."""
    table = refusal.table
    return Problem(
        RESTARTED,
        refusal.at,
        refusal.error,
        _HUB_TODO[RESTARTED],
        (
            Link("Enter the result", result_form(number, table), Role.RESULTS),
            Link("Result sheet", f"/sheet/{number}/{table}"),
            Link(f"Table {table}'s record", f"/tables/{table}"),
        ),
        table=table,
        round=number,
        seen_key=refusal.key,
    )


def _points(event: TableEvent) -> tuple[int, int] | None:
    if event.a_points is None or event.b_points is None:
        return None
    return event.a_points, event.b_points


def _seconds(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def duration_words(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{int(seconds)} s" if minutes < 1 else f"{minutes} min"
