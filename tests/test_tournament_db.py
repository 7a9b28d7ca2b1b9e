"""The SQLite tournament record: append-only, conflicts, amendments, nothing half-written."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, SCHEMA_VERSION, TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Entrant, Playoff, PlayoffGame, TournamentFormat, new_config

NOW = "2026-05-09T09:00:00+00:00"
LATER = "2026-05-09T09:30:00+00:00"
TEAMS = (
    Entrant("Eagles", "Lincoln", ("Ann", "Bo")),
    Entrant("Hawks", "Adams", ("Cy",)),
    Entrant("Owls", "Lincoln", ()),
    Entrant("Ravens", "", ("Di", "Ed", "Flo")),
)


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with TournamentDB.create(tmp_path / "t.db", config, TEAMS, now=NOW, by="director") as made:
        yield made


def _pair_round_1(record: TournamentDB) -> None:
    with record.transaction() as tournament:
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")


def _enter(record: TournamentDB, table: int, a: int, b: int, reason: str | None = None) -> None:
    with record.transaction() as tournament:
        record.add_result(
            tournament.result(1, table, a, b), now=LATER, by=f"table {table}", amend_reason=reason
        )


def _count(record: TournamentDB, table: str) -> int:
    connection = sqlite3.connect(record.path)
    try:
        return int(connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        connection.close()


def test_record_round_trips_config_and_teams(record: TournamentDB, tmp_path: Path) -> None:
    record.close()
    with TournamentDB.open(tmp_path / "t.db") as again:
        tournament = again.load()
    assert tournament.entrants == TEAMS
    assert (tournament.config.rounds, tournament.config.seed) == (3, 5)


def test_a_record_keeps_its_identity_and_another_record_has_another(
    record: TournamentDB, tmp_path: Path
) -> None:
    """The hub's confirmations carry it: another tournament's confirm nothing of this one."""
    identity = record.identity()
    record.close()
    with TournamentDB.open(tmp_path / "t.db") as again:
        assert again.identity() == identity
    config = new_config(TournamentFormat.COMBO4, seed=6, rounds=3)
    with TournamentDB.create(tmp_path / "u.db", config, TEAMS, now=NOW, by="director") as other:
        assert other.identity() != identity


def test_record_uses_wal_and_foreign_keys(record: TournamentDB) -> None:
    assert record._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert record._db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_new_record_refuses_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    path.write_text("keep me")
    config = new_config(TournamentFormat.COMBO3, seed=1)
    with pytest.raises(IllegalAction, match="already exists"):
        TournamentDB.create(path, config, TEAMS, now=NOW, by="director")
    assert path.read_text() == "keep me"


def test_new_record_with_duplicate_teams_leaves_no_file(tmp_path: Path) -> None:
    config = new_config(TournamentFormat.COMBO3, seed=1)
    with pytest.raises(InvalidInput, match="duplicate team name"):
        TournamentDB.create(
            tmp_path / "t.db", config, (*TEAMS, Entrant("eagles")), now=NOW, by="director"
        )
    assert not (tmp_path / "t.db").exists()


def test_open_missing_record_is_one_error_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no tournament at"):
        TournamentDB.open(tmp_path / "none.db")
    assert not (tmp_path / "none.db").exists()


def test_open_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    (tmp_path / "notes.db").write_text("not a database, just text " * 100)
    with pytest.raises(InvalidInput, match="is not a tournament record"):
        TournamentDB.open(tmp_path / "notes.db")


def test_round_is_stored_once(record: TournamentDB) -> None:
    _pair_round_1(record)
    with pytest.raises(IllegalAction, match="round 1 is already paired"), record.transaction():
        pairing = record.rounds()[0]
        record.add_round(pairing, record.load().plan(1), now=LATER, by="director")
    assert _count(record, "pairings") == 2


def test_round_stores_pairings_tables_and_kind(record: TournamentDB) -> None:
    _pair_round_1(record)
    (rnd,) = record.rounds()
    assert [m.table for m in rnd.matches] == [1, 2]
    assert record.round_plans()[1]["kind"] == "all"


def test_second_result_for_a_match_conflicts(record: TournamentDB) -> None:
    _pair_round_1(record)
    _enter(record, 1, 40, 20)
    with pytest.raises(IllegalAction, match=r"round 1 table 1 already has a result \(40-20"):
        _enter(record, 1, 40, 20)
    assert len(record.result_history(1, 1)) == 1


def test_amendment_with_a_reason_supersedes_and_keeps_the_history(record: TournamentDB) -> None:
    _pair_round_1(record)
    _enter(record, 1, 40, 20)
    _enter(record, 1, 20, 40, reason="sides swapped")
    first, second = record.result_history(1, 1)
    assert (first.version, first.a_points, first.reason) == (1, 40, None)
    assert (second.version, second.a_points, second.reason) == (2, 20, "sides swapped")
    (current,) = record.results()
    assert (current.a_points, current.b_points) == (20, 40)


def test_amending_a_match_without_a_result_is_refused(record: TournamentDB) -> None:
    _pair_round_1(record)
    with pytest.raises(IllegalAction, match="has no result to amend"):
        _enter(record, 1, 40, 20, reason="typo")
    assert _count(record, "results") == 0


def test_amendment_needs_a_reason(record: TournamentDB) -> None:
    _pair_round_1(record)
    _enter(record, 1, 40, 20)
    with pytest.raises(InvalidInput, match="empty reason"):
        _enter(record, 1, 30, 20, reason="  ")
    assert _count(record, "results") == 1


def test_result_for_a_pairing_that_does_not_exist_is_refused(record: TournamentDB) -> None:
    _pair_round_1(record)
    result = record.load().result(1, 1, 10, 0)
    with pytest.raises(InvalidInput, match="round 1 table 7 is not paired"), record.transaction():
        record.add_result(
            type(result)(1, 7, result.a, result.b, 10, 0), now=NOW, by="x", source=DIRECTOR_SOURCE
        )


def test_rows_are_never_updated_or_deleted(record: TournamentDB) -> None:
    _pair_round_1(record)
    _enter(record, 1, 40, 20)
    for statement in (
        "DELETE FROM results",
        "UPDATE results SET a_points = 0",
        "DELETE FROM teams",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            record._db.execute(statement)
    assert _count(record, "results") == 1


def test_an_error_inside_a_transaction_writes_nothing(record: TournamentDB) -> None:
    with pytest.raises(InvalidInput), record.transaction() as tournament:
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        raise InvalidInput("changed my mind")
    assert record.rounds() == ()
    assert _count(record, "pairings") == 0


def test_unknown_team_is_refused(record: TournamentDB) -> None:
    with pytest.raises(InvalidInput, match="unknown team 'Crows'"), record.transaction():
        record.add_playoff_game(PlayoffGame("Eagles", "Crows", "Eagles"), now=NOW, by="director")


def test_voided_playoff_games_stay_in_the_history(record: TournamentDB) -> None:
    with record.transaction():
        record.add_playoff_game(PlayoffGame("Eagles", "Hawks", "Hawks"), now=NOW, by="director")
        record.void_playoff(now=LATER, by="director", reason="wrong seeds")
    assert record.playoff_games() == ()
    assert [game["void"] for game in record.export()["playoff_games"]] == [True]


def test_a_playoff_game_is_kept_with_what_it_decided(record: TournamentDB, tmp_path: Path) -> None:
    game = Playoff(("Eagles", "Hawks", "Owls"), 2).record("Hawks").games[0]
    with record.transaction():
        record.add_playoff_game(game, now=NOW, by="director")
    record.close()
    with TournamentDB.open(tmp_path / "t.db") as again:
        assert again.playoff_games() == (
            PlayoffGame("Eagles", "Hawks", "Hawks", "the winner advances"),
        )
        assert again.export()["playoff_games"][0]["decides"] == "the winner advances"


def test_what_a_playoff_game_decided_cannot_be_changed_afterwards(record: TournamentDB) -> None:
    game = Playoff(("Eagles", "Hawks", "Owls"), 2).record("Hawks").games[0]
    with record.transaction():
        record.add_playoff_game(game, now=NOW, by="director")
    for statement in (
        "UPDATE playoff_decisions SET decides = 'the loser is out'",
        "DELETE FROM playoff_decisions",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            record._db.execute(statement)


def _as_schema_4(path: Path) -> None:
    """The record as gametable made it before R968: no decisions' table, schema 4."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("DROP TABLE playoff_decisions")  # its triggers go with it
        connection.execute("PRAGMA user_version = 4")
        connection.commit()
    finally:
        connection.close()


def test_a_schema_4_record_replays_its_games_by_their_teams_and_keeps_decisions_from_then_on(
    record: TournamentDB, tmp_path: Path
) -> None:
    record.close()
    _as_schema_4(tmp_path / "t.db")
    with TournamentDB.open(tmp_path / "t.db") as old:
        with old.transaction():  # as the code before R968 recorded a game: no decision
            old.add_playoff_game(PlayoffGame("Eagles", "Hawks", "Hawks"), now=NOW, by="director")
        assert old.schema == 4
        assert old.playoff_games() == (PlayoffGame("Eagles", "Hawks", "Hawks"),)
        assert old.export()["playoff_games"][0]["decides"] is None
        after = Playoff(("Eagles", "Hawks", "Owls"), 2).replayed(old.playoff_games()[0])
        with old.transaction():
            old.add_playoff_game(after.record("Owls").games[-1], now=LATER, by="director")
        assert old.schema == SCHEMA_VERSION
        assert [game.decides for game in old.playoff_games()] == [None, "the winner advances"]


def test_champion_is_recorded_once_unless_amended(record: TournamentDB) -> None:
    with record.transaction():
        record.set_champion("Eagles", now=NOW, by="director")
    with pytest.raises(IllegalAction, match="already recorded"), record.transaction():
        record.set_champion("Hawks", now=NOW, by="director")
    with record.transaction():
        record.set_champion("hawks", now=LATER, by="director", amend_reason="scoring error")
    assert record.champion() == "Hawks"
    assert len(record.export()["champions"]) == 2


def test_protest_is_recorded_with_who_and_when(record: TournamentDB) -> None:
    _pair_round_1(record)
    with record.transaction():
        protest = record.add_protest(1, 2, "buzzer stuck", now=LATER, by="Hawks coach")
    assert record.protests() == (protest,)
    assert (protest.lodged_by, protest.lodged_at) == ("Hawks coach", LATER)


def test_protest_about_an_unpaired_round_is_refused(record: TournamentDB) -> None:
    with pytest.raises(InvalidInput, match="round 2 is not paired"), record.transaction():
        record.add_protest(2, None, "why?", now=NOW, by="x")


def test_export_is_the_whole_record_as_json(record: TournamentDB) -> None:
    _pair_round_1(record)
    _enter(record, 1, 40, 20)
    _enter(record, 1, 30, 20, reason="miscount")
    data = json.loads(json.dumps(record.export()))
    assert data["config"]["format"] == "combo4"
    assert [team["name"] for team in data["teams"]] == [t.name for t in TEAMS]
    (rnd,) = data["rounds"]
    assert [r["version"] for r in rnd["pairings"][0]["results"]] == [1, 2]
    assert rnd["pairings"][1]["results"] == []
