"""Undoing a round's pairing in the tournament record (R820): only the latest round, only while
none of its results is in, marked withdrawn with who, when and why (nothing deleted), skipped
by every reader, and the round paired again as a valid round."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.record.tournament_db import UNDO_SCHEMA_VERSION, TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.test_hub_apply import result as table_result

NOW = "2026-05-09T09:00:00+00:00"
LATER = "2026-05-09T09:30:00+00:00"
TEAMS = tuple(Entrant(name, "", ()) for name in ("Eagles", "Hawks", "Owls", "Ravens", "Wrens"))


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=4)
    with TournamentDB.create(tmp_path / "t.db", config, TEAMS, now=NOW, by="director") as made:
        yield made


def _pair(record: TournamentDB) -> int:
    with record.transaction() as tournament:
        number = tournament.next_round
        record.add_round(tournament.pair(number), tournament.plan(number), now=NOW, by="director")
    return number


def _play(record: TournamentDB, number: int) -> None:
    """Every match of round ``number`` given a result: A wins by 10."""
    for match in record.rounds()[number - 1].matches:
        with record.transaction() as tournament:
            entry = tournament.result(number, match.table, 40, 30)
            record.add_result(entry, now=LATER, by="director", source="director")


def _undo(record: TournamentDB, number: int, reason: str = "paired too early") -> None:
    record.unpair_round(number, now=LATER, by="director", reason=reason)


def _fingerprint(record: TournamentDB) -> object:
    return record.export(), record.connection.execute("PRAGMA user_version").fetchone()[0]


def test_the_latest_rounds_pairing_is_undone_and_every_reader_skips_it(
    record: TournamentDB,
) -> None:
    _pair(record)
    _play(record, 1)
    before = record.load().standings()
    _pair(record)
    assert record.load().standings() != before  # round 2's bye counts
    _undo(record, 2)
    assert [rnd.round for rnd in record.rounds()] == [1]
    assert list(record.round_plans()) == [1]
    assert record.paired_round_count() == 1 and len(record.paired_rounds()) == 1
    assert record.paired_match(2, 1) is None and record.paired_table_count(2) == 0
    tournament = record.load()
    assert tournament.next_round == 2 and tournament.missing_results() == []
    assert tournament.standings() == before


def test_an_undone_pairing_stays_in_the_record_with_who_when_and_why(
    record: TournamentDB,
) -> None:
    _pair(record)
    paired = record.rounds()[0]
    _undo(record, 1, "  a team arrived late  ")
    (undone,) = record.withdrawn_rounds()
    assert undone.pairing == paired
    assert (undone.withdrawn_by, undone.withdrawn_at, undone.reason) == (
        "director",
        LATER,
        "a team arrived late",
    )
    assert record.export()["withdrawn_rounds"][0]["pairings"][0]["table"] == 1
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        record.connection.execute("DELETE FROM round_withdrawals")


def test_undoing_is_refused_once_a_result_of_the_round_is_in(record: TournamentDB) -> None:
    _pair(record)
    with record.transaction() as tournament:
        record.add_result(tournament.result(1, 2, 40, 30), now=LATER, by="table 2")
    before = _fingerprint(record)
    with pytest.raises(IllegalAction, match=r"a result is in \(table 2\)"):
        _undo(record, 1)
    assert _fingerprint(record) == before


def test_undoing_is_refused_for_a_round_before_the_latest(record: TournamentDB) -> None:
    _pair(record)
    _play(record, 1)
    _pair(record)
    with pytest.raises(IllegalAction, match="round 1 is not the latest round: only round 2's"):
        _undo(record, 1)
    with pytest.raises(IllegalAction, match="round 3 is not paired: expected the latest round, 2"):
        _undo(record, 3)


def test_undoing_needs_a_paired_round_and_a_reason(record: TournamentDB) -> None:
    with pytest.raises(IllegalAction, match="round 1 is not paired: no pairing to undo"):
        _undo(record, 1)
    _pair(record)
    with pytest.raises(InvalidInput, match="empty reason"):
        _undo(record, 1, "   ")
    with pytest.raises(InvalidInput, match="expected a round from 1 to 4"):
        _undo(record, 9)
    assert record.withdrawn_rounds() == ()


def test_a_round_paired_again_after_an_undo_is_a_valid_round_and_so_are_the_next(
    record: TournamentDB,
) -> None:
    """Round 2's second pairing takes a new slot (3), so round 3 takes another (4): each
    reads as its own round, takes results and counts in the standings."""
    _pair(record)
    _play(record, 1)
    _pair(record)
    _undo(record, 2)
    assert _pair(record) == 2
    again = record.rounds()[1]
    assert again.round == 2 and again.bye is not None and len(again.matches) == 2
    _play(record, 2)
    assert _pair(record) == 3
    _play(record, 3)
    rounds = record.rounds()
    assert [rnd.round for rnd in rounds] == [1, 2, 3]
    assert rounds[1] == again
    tournament = record.load()
    assert tournament.missing_results() == []
    assert sum(row.losses for row in tournament.standings()) == 6  # two matches a round
    assert record.current_result(3, 1) is not None
    assert [r["round"] for r in record.export()["rounds"]] == [1, 2, 3]


def test_a_round_undone_twice_keeps_both_in_its_history(record: TournamentDB) -> None:
    _pair(record)
    _undo(record, 1, "first")
    _pair(record)
    _undo(record, 1, "second")
    assert [u.reason for u in record.withdrawn_rounds()] == ["first", "second"]
    assert record.rounds() == ()
    assert _pair(record) == 1


def test_a_tables_result_for_an_undone_round_is_refused(record: TournamentDB) -> None:
    _pair(record)
    _undo(record, 1)
    applied = apply_result(record, 1, table_result(1, 40, 30), now=LATER)
    assert applied.event is not None and applied.event.outcome == "refused"
    assert "round 1 is not paired yet" in applied.event.note
    assert record.results() == ()


def _as_schema_3(path: Path) -> None:
    connection = sqlite3.connect(path)
    try:
        for table in ("playoff_decisions", "round_withdrawals", "round_slots"):
            connection.execute(f"DROP TABLE {table}")  # its triggers go with it
        connection.execute("PRAGMA user_version = 3")
        connection.commit()
    finally:
        connection.close()


def test_an_older_record_gets_the_undos_tables_with_its_first_undo_and_not_before(
    record: TournamentDB, tmp_path: Path
) -> None:
    _pair(record)
    with record.transaction() as tournament:
        record.add_result(tournament.result(1, 1, 40, 30), now=LATER, by="table 1")
    record.close()
    _as_schema_3(tmp_path / "t.db")
    with TournamentDB.open(tmp_path / "t.db") as old:
        with pytest.raises(IllegalAction, match="a result is in"):
            _undo(old, 1)
        assert old.schema == 3  # refused: the record as it was
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=4)
    with TournamentDB.create(tmp_path / "u.db", config, TEAMS, now=NOW, by="d") as fresh:
        _pair(fresh)
    _as_schema_3(tmp_path / "u.db")
    with TournamentDB.open(tmp_path / "u.db") as old:
        assert old.withdrawn_rounds() == ()
        _undo(old, 1)
        assert old.schema == UNDO_SCHEMA_VERSION and old.rounds() == ()
        assert not old.upgrade_for_undo()  # once


def test_the_hub_gives_an_older_record_the_undos_tables_so_it_sees_another_process_undo(
    record: TournamentDB, tmp_path: Path
) -> None:
    _pair(record)
    record.close()
    _as_schema_3(tmp_path / "t.db")
    with TournamentDB.open(tmp_path / "t.db") as hub, TournamentDB.open(tmp_path / "t.db") as cli:
        assert hub.upgrade_for_undo()
        _undo(cli, 1)
        assert hub.rounds() == ()
