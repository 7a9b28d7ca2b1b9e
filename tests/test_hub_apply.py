"""A table's reported match result into the tournament record, once, by the record's own rules
(docs/hub.md, R170-R175): recorded as the table's, a second delivery changes nothing, the
director's entry stands against a table that disagrees, a table's own correction is an
amendment that says so, and what is no match of the tournament is left out, saying why."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_py.director.hub.wire.apply import apply_result, bears_on_the_record
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TABLE_SOURCE, TournamentDB
from firmware_py.table.hub_wire import Decision
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.journal_helpers import fingerprint, own_process

NOW = "2026-05-09T09:00:00+00:00"
LATER = "2026-05-09T09:40:00+00:00"
TEAMS = (
    Entrant("Eagles", "Lincoln", ()),
    Entrant("Hawks", "Adams", ()),
    Entrant("Owls", "Lincoln", ()),
    Entrant("Ravens", "", ()),
)


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with TournamentDB.create(tmp_path / "t.db", config, TEAMS, now=NOW, by="director") as made:
        with made.transaction() as tournament:
            made.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        yield made


JOURNAL = "5f1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a"  # the table's journal's id


def result(
    seq: int,
    a: int,
    b: int,
    *,
    round_number: int = 1,
    start: str = "match.start",
    journal: str = JOURNAL,
) -> Decision:
    session = {"action": start, "round": round_number, "minutes": 20, "on_time_up": "abandon"}
    event = {"t": 900.0, "event": "match_result", "winner": "A", "A": a, "B": b}
    return Decision(journal, seq, "2026-05-09T09:35:00.000+00:00", session, event)


def _director_enters(record: TournamentDB, table: int, a: int, b: int) -> None:
    with record.transaction() as tournament:
        record.add_result(
            tournament.result(1, table, a, b), now=NOW, by="director", source=DIRECTOR_SOURCE
        )


def test_a_tables_match_result_is_recorded_as_the_tables(record: TournamentDB) -> None:
    applied = apply_result(record, 1, result(40, 40, 20), now=LATER)
    assert applied.event is not None and applied.event.outcome == "recorded"
    (entry,) = record.result_history(1, 1)
    assert (entry.a_points, entry.b_points, entry.source) == (40, 20, TABLE_SOURCE)
    assert (entry.entered_by, entry.entered_at) == ("table 1", LATER)


def test_the_applied_decision_is_kept_with_the_tables_time_and_the_hubs(
    record: TournamentDB,
) -> None:
    apply_result(record, 1, result(40, 40, 20), now=LATER)
    (event,) = record.table_events()
    assert (event.table, event.seq, event.round) == (1, 40, 1)
    assert (event.decided_at, event.received_at) == ("2026-05-09T09:35:00.000+00:00", LATER)


def test_a_second_delivery_of_a_decision_changes_nothing(record: TournamentDB) -> None:
    apply_result(record, 1, result(40, 40, 20), now=LATER)
    again = apply_result(record, 1, result(40, 40, 20), now=LATER)
    assert again.event is None
    assert len(record.result_history(1, 1)) == 1
    assert len(record.table_events()) == 1


def test_the_same_journal_id_from_another_table_is_another_decision(
    record: TournamentDB,
) -> None:
    apply_result(record, 1, result(40, 40, 20), now=LATER)
    apply_result(record, 2, result(40, 30, 30), now=LATER)
    assert [e.table for e in record.table_events()] == [1, 2]
    assert len(record.result_history(1, 2)) == 1


def test_the_same_place_in_a_new_journal_at_the_table_is_another_decision(
    record: TournamentDB,
) -> None:
    apply_result(record, 1, result(40, 40, 20), now=LATER)
    # the table began a new journal (--new-journal): its entries are numbered from 1 again
    applied = apply_result(record, 1, result(40, 40, 30, journal="a new one"), now=LATER)
    # judged, not dropped as a duplicate; other points from another journal: a conflict (R928)
    assert applied.event is not None and applied.event.outcome == "conflict"
    assert [(e.journal, e.seq) for e in record.table_events()] == [(JOURNAL, 40), ("a new one", 40)]


def test_the_directors_entry_with_the_same_points_is_left_as_it_is(record: TournamentDB) -> None:
    _director_enters(record, 1, 40, 20)
    applied = apply_result(record, 1, result(40, 40, 20), now=LATER)
    assert applied.event is not None and applied.event.outcome == "unchanged"
    assert [e.entered_by for e in record.result_history(1, 1)] == ["director"]


def test_a_table_that_disagrees_with_the_director_is_a_conflict_the_directors_entry_stands(
    record: TournamentDB,
) -> None:
    _director_enters(record, 1, 40, 20)
    applied = apply_result(record, 1, result(40, 40, 30), now=LATER)
    assert applied.event is not None and applied.event.outcome == "conflict"
    assert "the table reports 40-30; 40-20 entered by director stands" in applied.event.note
    assert [(e.a_points, e.b_points) for e in record.result_history(1, 1)] == [(40, 20)]


def test_a_table_that_changes_its_own_result_amends_it_saying_so(record: TournamentDB) -> None:
    apply_result(record, 1, result(40, 40, 20), now=LATER)
    applied = apply_result(record, 1, result(55, 40, 30), now=LATER)
    assert applied.event is not None and applied.event.outcome == "amended"
    _, second = record.result_history(1, 1)
    assert (second.a_points, second.b_points, second.version) == (40, 30, 2)
    assert second.reason == "table 1 changed its result at the table (journal entry 55)"
    assert second.entered_by == "table 1"


def test_an_older_result_delivered_after_a_newer_one_is_superseded(record: TournamentDB) -> None:
    apply_result(record, 1, result(55, 40, 30), now=LATER)
    applied = apply_result(record, 1, result(40, 40, 20), now=LATER)
    assert applied.event is not None and applied.event.outcome == "superseded"
    assert [(e.a_points, e.b_points) for e in record.result_history(1, 1)] == [(40, 30)]


def test_a_result_for_a_round_not_paired_is_refused_saying_why(record: TournamentDB) -> None:
    applied = apply_result(record, 1, result(40, 40, 20, round_number=2), now=LATER)
    assert applied.event is not None and applied.event.outcome == "refused"
    assert "round 2" in applied.event.note
    assert record.result_history(1, 1) == ()


def test_a_table_the_round_does_not_have_is_refused(record: TournamentDB) -> None:
    applied = apply_result(record, 3, result(40, 40, 20), now=LATER)
    assert applied.event is not None and applied.event.outcome == "refused"
    assert "table 3" in applied.event.note


def test_points_that_no_geoplunge_match_scores_are_refused(record: TournamentDB) -> None:
    applied = apply_result(record, 1, result(40, 42, 20), now=LATER)
    assert applied.event is not None and applied.event.outcome == "refused"
    assert "multiple of 5" in applied.event.note


def test_a_negative_score_is_refused_naming_it_and_the_points_expected(
    record: TournamentDB,
) -> None:
    applied = apply_result(record, 1, result(40, -5, 20), now=LATER)
    assert applied.event is not None and applied.event.outcome == "refused"
    assert applied.event.note == (
        "team A points -5 is a negative score: expected 0 to 10000, a multiple of 5"
    )


def test_a_result_without_points_is_refused_saying_what_is_missing(record: TournamentDB) -> None:
    missing = replace(result(40, 0, 0), event={"event": "match_result", "A": 40})
    applied = apply_result(record, 1, missing, now=LATER)
    assert applied.event is not None and applied.event.note == (
        "the result has no points for team B: expected a whole number"
    )


@pytest.mark.parametrize(("points", "shown"), [("40", '"40"'), (40.5, "40.5"), (True, "true")])
def test_points_that_are_not_a_whole_number_are_named(
    record: TournamentDB, points: object, shown: str
) -> None:
    odd = replace(result(40, 0, 0), event={"event": "match_result", "A": points, "B": 0})
    applied = apply_result(record, 1, odd, now=LATER)
    assert applied.event is not None and applied.event.note == (
        f"team A points {shown} is not a whole number: expected one, like 40"
    )


def test_the_championship_is_left_to_the_director(record: TournamentDB) -> None:
    decision = Decision(
        JOURNAL,
        7,
        "2026-05-09T15:00:00.000+00:00",
        {"action": "championship.start", "ptr_early_end": True},
        {"event": "match_result", "champion": "A", "wins": {"A": 3, "B": 1}},
    )
    applied = apply_result(record, 1, decision, now=LATER)
    assert applied.event is not None and applied.event.outcome == "not recorded"
    assert applied.event.note == "the championship's result is the director's to enter"


def test_a_combo3_match_in_a_combo4_tournament_is_not_recorded(record: TournamentDB) -> None:
    applied = apply_result(record, 1, result(40, 40, 20, start="match3.start"), now=LATER)
    assert applied.event is not None and applied.event.outcome == "not recorded"
    assert applied.event.note == "a combo3 match in a combo4 tournament"


def test_only_a_matchs_result_bears_on_the_record() -> None:
    score = Decision(
        JOURNAL, 3, NOW, {"action": "match.start"}, {"event": "score", "A": 10, "B": 0}
    )
    assert not bears_on_the_record(score)
    assert bears_on_the_record(result(4, 40, 20))


def test_the_export_lists_what_the_tables_reported(record: TournamentDB) -> None:
    apply_result(record, 1, result(40, 40, 20), now=LATER)
    (reported,) = record.export()["table_events"]
    assert reported["outcome"] == "recorded" and reported["seq"] == 40


def test_what_the_hub_applied_is_append_only(record: TournamentDB) -> None:
    apply_result(record, 1, result(40, 40, 20), now=LATER)
    connection = sqlite3.connect(record.path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            connection.execute("DELETE FROM table_events")
    finally:
        connection.close()


# --- a record written before the hub (schema 1) -------------------------------------------------


def _as_schema_1(path: Path) -> None:
    connection = sqlite3.connect(path)
    try:
        connection.execute("DROP TABLE table_events")  # its triggers go with it
        connection.execute("PRAGMA user_version = 1")
        connection.commit()
    finally:
        connection.close()


def test_a_record_from_before_the_hub_is_read_as_it_is(
    record: TournamentDB, tmp_path: Path
) -> None:
    record.close()
    _as_schema_1(tmp_path / "t.db")
    before = fingerprint(tmp_path)
    shown = own_process("tournament", "round", "--round", "1", "--db", str(tmp_path / "t.db"))
    assert shown.code == 0, shown.stderr
    assert shown.stdout.startswith("round 1 (all, 20 minutes)")
    assert fingerprint(tmp_path) == before


def test_the_hub_gives_a_record_from_before_it_its_table(
    record: TournamentDB, tmp_path: Path
) -> None:
    record.close()
    _as_schema_1(tmp_path / "t.db")
    with TournamentDB.open(tmp_path / "t.db") as old:
        assert old.upgrade_for_hub()
        assert not old.upgrade_for_hub()  # once
        apply_result(old, 1, result(40, 40, 20), now=LATER)
        assert [e.outcome for e in old.table_events()] == ["recorded"]
