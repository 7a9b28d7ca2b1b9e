"""Nothing lost, proven (issue 17): the hall under faults, and a checker that can fail.

The campaign (tests/hall_campaign.py) runs real processes: mosquitto with the shipped config,
``gametable hub run``, and 8 tables (Combo 4, Combo 3, two Pentathlon games, Guesstimation,
STATES) played by a dealer while a nemesis kills, stops and restarts them and a director
amends results. The checker reads the tables' journals and the record. Its own tests come
first: each way of losing or doubling a decision is counted, on journals and a record made
for it.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.record.tournament_db import TableEvent, TournamentDB
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import VirtualTable, parse_script, play_script
from firmware_py.table.journal import Journal
from rules.tournament import Entrant, MatchResult, TournamentFormat, new_config
from tests.hall_campaign import MIN_TABLES, Plan, run_campaign
from tests.hall_checker import Verdict, check, reading
from tests.hall_dealer import GAP_SECONDS, PRESS_SECONDS, Count, Enter, Tap, choose
from tests.journal_helpers import SCRIPTS

NOW = "2026-05-09T09:00:00+00:00"
TEAMS = tuple(Entrant(f"Team {n}", f"School {n}", ()) for n in range(1, 5))


def _played(path: Path, *, confirmed: bool) -> tuple[str, int, int]:
    """Table 1's Combo 4 round-1 match recorded to a journal with its outbox: its id, the
    seq of its match_result and of its last decision. ``confirmed``: the hub confirmed all."""
    lines = (SCRIPTS / "combo4-match.jsonl").read_text().splitlines()
    settings, steps = parse_script(lines, TableSettings())
    journal = Journal.open(path, outbox=True)
    try:
        play_script(settings, steps, lambda event: None, journal=journal)
        events = [entry for entry in journal.entries() if entry.kind == "event"]
        result = next(entry.seq for entry in events if entry.body["event"] == "match_result")
        if confirmed:
            journal.confirmed(through=events[-1].seq)
        return journal.identity(), result, events[-1].seq
    finally:
        journal.close()


@pytest.fixture
def record_path(tmp_path: Path) -> Path:
    """A Combo 4 record, round 1 paired (tables 1 and 2), as the hub keeps it."""
    path = tmp_path / "tournament.db"
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with (
        TournamentDB.create(path, config, TEAMS, now=NOW, by="director") as record,
        record.transaction() as tournament,
    ):
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
    return path


@pytest.fixture
def record(record_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(record_path) as writing:
        yield writing


def _applied(record: TournamentDB, journal: str, seq: int, outcome: str = "recorded") -> None:
    record.add_table_event(
        TableEvent(1, journal, seq, NOW, NOW, 1, 40, 50, outcome, "the hub's note")
    )


def _result(record: TournamentDB, by: str, a: int, reason: str | None = None) -> None:
    """A result for table 1's round-1 match (40 to 50 points)."""
    match = next(match for match in record.rounds()[0].matches if match.table == 1)
    source = "director" if by == "director" else "table"
    record.add_result(
        MatchResult(1, 1, match.a, match.b, a, 50),
        now=NOW,
        by=by,
        source=source,
        amend_reason=reason,
    )


def _verdict(tmp_path: Path, record_path: Path) -> Verdict:
    return check({1: tmp_path / "table-1.db"}, record_path)


# --- the checker ----------------------------------------------------------------------------


def test_a_result_the_record_holds_is_checked_and_not_lost(
    tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    journal, result, _ = _played(tmp_path / "table-1.db", confirmed=True)
    _applied(record, journal, result)
    verdict = _verdict(tmp_path, record_path)
    assert (verdict.checked, verdict.lost, verdict.doubled, verdict.waiting) == (1, 0, 0, 0)
    assert verdict.sound


def test_a_result_missing_from_the_record_is_lost_even_with_every_outbox_empty(
    tmp_path: Path, record_path: Path
) -> None:
    _played(tmp_path / "table-1.db", confirmed=True)  # the hub confirmed past it: issue 17
    verdict = _verdict(tmp_path, record_path)
    assert (verdict.checked, verdict.lost, verdict.waiting) == (1, 1, 0)
    assert not verdict.sound


def test_a_result_in_a_journal_set_aside_is_checked_too(tmp_path: Path, record_path: Path) -> None:
    _played(tmp_path / "table-1.db", confirmed=False)
    Journal.open(tmp_path / "table-1.db", new=True, outbox=True).close()  # --new-journal
    verdict = _verdict(tmp_path, record_path)
    assert (verdict.journals, verdict.checked, verdict.lost) == (2, 1, 1)
    assert verdict.waiting > 0  # its decisions still wait in the old journal's outbox


def test_decisions_left_in_an_outbox_fail_the_check(
    tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    journal, result, _ = _played(tmp_path / "table-1.db", confirmed=False)
    _applied(record, journal, result)
    verdict = _verdict(tmp_path, record_path)
    assert verdict.lost == 0
    assert verdict.waiting > 0
    assert not verdict.sound


def test_with_deliveries_every_decision_is_checked_up_to_what_the_hub_holds(
    tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    journal, result, last = _played(tmp_path / "table-1.db", confirmed=True)
    _applied(record, journal, result)
    through = last - 10
    record.connection.execute(
        "CREATE TABLE hub_deliveries (table_number INTEGER, journal TEXT, through INTEGER)"
    )
    record.connection.execute("INSERT INTO hub_deliveries VALUES (1, ?, ?)", (journal, through))
    reading_back = Journal.open_read_only(tmp_path / "table-1.db")
    decisions = [entry.seq for entry in reading_back.entries() if entry.kind == "event"]
    reading_back.close()
    verdict = _verdict(tmp_path, record_path)
    assert verdict.by_deliveries
    assert verdict.checked == len(decisions)
    assert verdict.lost == sum(1 for seq in decisions if seq > through) > 0


def test_a_result_applied_twice_is_doubled(
    tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    journal, result, _ = _played(tmp_path / "table-1.db", confirmed=True)
    _applied(record, journal, result)
    _result(record, "table 1", 40)
    _result(record, "table 1", 45, reason="the same decision applied again")
    verdict = _verdict(tmp_path, record_path)
    assert verdict.doubled == 1


def test_a_directors_amendment_overridden_by_a_table_is_counted(
    tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    _played(tmp_path / "table-1.db", confirmed=True)
    _result(record, "table 1", 40)
    _result(record, "director", 45, reason="the score sheet")
    _result(record, "table 1", 50, reason="the table again")  # what the hub must never do
    verdict = _verdict(tmp_path, record_path)
    assert (verdict.amendments, verdict.amendments_standing) == (1, 0)
    assert not verdict.sound


def test_a_directors_amendment_replaced_by_the_director_still_stands(
    tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    _played(tmp_path / "table-1.db", confirmed=True)
    _result(record, "director", 40)
    _result(record, "director", 45, reason="the score sheet")
    verdict = _verdict(tmp_path, record_path)
    assert (verdict.amendments, verdict.amendments_standing) == (2, 2)


def test_the_checker_writes_nothing(tmp_path: Path, record_path: Path) -> None:
    _played(tmp_path / "table-1.db", confirmed=False)
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    _verdict(tmp_path, record_path)
    after = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    assert after == before


# --- the dealer -----------------------------------------------------------------------------

DEALT = {
    "combo4": (
        TableSettings(count_cadence=0.2, options={"format": "combo4", "round": 1, "minutes": 1}),
        "match_result",
    ),
    "combo3": (
        TableSettings(count_cadence=0.2, options={"format": "combo3", "round": 1, "minutes": 1}),
        "match_result",
    ),
    "pentathlon": (
        TableSettings(
            family="pentathlon", options={"game": "queens-guards", "minutes": {"queens-guards": 1}}
        ),
        "game_over",
    ),
    "guesstimation": (
        TableSettings(
            family="guesstimation",
            seats=("A", "B", "C"),
            options={"deck": "sample", "finish": 3, "players": ["Ann", "Bo", "Cy"]},
        ),
        "game_result",
    ),
    "states": (TableSettings(family="states", options={"players": ["Ann", "Bo"]}), "game_result"),
}


def _dealt(settings: TableSettings, seconds: float) -> list[dict[str, object]]:
    """The dealer's moves played on virtual time, as the campaign plays them in real time."""
    events: list[dict[str, object]] = []
    table = VirtualTable(settings, events.append)
    rng = random.Random(7)
    t = 0.0

    def drive(name: str, active: bool) -> None:
        nonlocal t
        table.advance(t)
        table.drive(name, active, t)
        t += PRESS_SECONDS

    while t < seconds:
        for move in choose(table.controller, rng):
            if isinstance(move, Tap):
                drive(move.input, True)
                drive(move.input, False)
            elif isinstance(move, Count):
                for name in move.held:
                    drive(name, True)
                drive("console.count", True)
                drive("console.count", False)
                t += settings.count_cadence * 5 + 0.2
                for name in move.held:
                    drive(name, False)
            elif isinstance(move, Enter):
                table.advance(t)
                table.controller.enter(move.seat, move.name, move.value, t)
            else:
                t += move.seconds
        t += GAP_SECONDS[1]
    table.advance(t)
    table.close()
    return events


@pytest.mark.parametrize("kind", sorted(DEALT))
def test_the_dealer_plays_every_family_to_its_results(kind: str) -> None:
    """The campaign's figures come from results: the dealer reaching them, game after game,
    is what makes them more than a handful."""
    settings, result = DEALT[kind]
    events = _dealt(settings, 200.0)
    assert sum(1 for event in events if event["event"] == result) >= 2


# --- the campaign ---------------------------------------------------------------------------


def test_the_hall_under_faults_loses_nothing_and_doubles_nothing(tmp_path: Path) -> None:
    """At least 50 faults on 8 tables, the hub and the broker (docs/hub.md, "The fault
    campaign"); its history and every process's log stay in ``tmp_path``."""
    plan = Plan()
    assert plan.tables >= MIN_TABLES and plan.faults >= 50
    report = run_campaign(plan, tmp_path)
    figures = "\n".join(report.lines())
    print(figures)
    assert sum(report.faults.values()) >= 50, figures
    assert report.verdict.checked > 0, figures
    assert (report.verdict.lost, report.verdict.doubled) == (0, 0), figures
    assert report.verdict.waiting == 0 and report.drained, figures
    assert report.verdict.amendments == report.entries_made, figures
    assert report.verdict.amendments_overridden == 0, figures
    assert not report.verdict.unreadable, figures


def test_the_record_is_read_only_to_the_checker(record_path: Path) -> None:
    """The checker's connection cannot write: a check never changes the evidence."""
    with reading(record_path) as connection, pytest.raises(sqlite3.OperationalError):
        connection.execute("CREATE TABLE x (y)")
