"""Moving a match to a free table before its round starts (issue 27, R1068): which tables the
tournament has, the move (both teams, on their sides), the record's who/why, and every refusal
in words (table in use, no such table, the same table, the bye, the round started, a stale
form)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.record.draw import draw_changes, move_in_draw, round_free_tables
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from rules.tournament import Match, RoundPairing
from rules.tournament.draw_edit import move_match, pairing_stamp, tournament_tables
from tests.hub_page_helpers import NOW, make_record
from tests.test_tournament_cli import main

ROUND = RoundPairing(2, (Match(1, "Eagles", "Hawks"), Match(2, "Owls", "Ravens")), "Kites")
TABLES = frozenset(range(1, 7))
LATER = "2026-05-09T09:30:00+00:00"


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """Round 1 paired: Hawks v Owls at table 1, Eagles v Ravens at table 2 (no result), and a
    room holding tables 1-4, so that tables 3 and 4 are free."""
    with TournamentDB.open(make_record(tmp_path / "tournament.db")) as opened:
        opened.add_room("Ballroom B", (1, 2, 3, 4), building="", now=NOW, by="director")
        yield opened


# --- the rules -----------------------------------------------------------------------------------


def test_a_move_takes_both_teams_to_the_table_on_their_sides() -> None:
    moved = move_match(ROUND, "hawks", 5, TABLES)
    assert moved.matches == (Match(2, "Owls", "Ravens"), Match(5, "Eagles", "Hawks"))
    assert moved.bye == "Kites"


def test_a_move_to_a_table_in_use_is_refused_naming_its_match_and_the_free_tables() -> None:
    with pytest.raises(
        InvalidInput,
        match=r"table 2 is in use in round 2 \(Owls v Ravens\): expected a free table "
        r"\(3-6\), or swap the teams instead",
    ):
        move_match(ROUND, "Eagles", 2, TABLES)


def test_a_move_to_a_table_the_tournament_does_not_have_is_refused() -> None:
    with pytest.raises(
        InvalidInput,
        match=r"table 9 is not one of the tournament's tables \(1-6\): expected a free table "
        r"\(3-6\); to play at table 9, add a room holding it",
    ):
        move_match(ROUND, "Eagles", 9, TABLES)


def test_a_move_to_the_matchs_own_table_is_refused() -> None:
    with pytest.raises(InvalidInput, match="Owls already plays at table 2: expected another"):
        move_match(ROUND, "Owls", 2, TABLES)


def test_the_team_with_the_bye_has_no_match_to_move() -> None:
    with pytest.raises(InvalidInput, match="Kites has the bye in round 2: no match to move"):
        move_match(ROUND, "Kites", 5, TABLES)


def test_a_table_number_out_of_range_is_refused() -> None:
    with pytest.raises(InvalidInput, match="table 0: expected a table number from 1 to 999"):
        move_match(ROUND, "Eagles", 0, TABLES)


def test_without_rooms_the_tournaments_tables_run_to_the_highest_one_paired() -> None:
    earlier = RoundPairing(1, (Match(1, "Eagles", "Owls"), Match(5, "Hawks", "Ravens")))
    assert tournament_tables([earlier, ROUND], ()) == frozenset(range(1, 6))


def test_with_rooms_the_tournaments_tables_are_the_rooms_and_those_paired() -> None:
    assert tournament_tables([ROUND], (9, 10, 11)) == frozenset({1, 2, 9, 10, 11})


def test_a_round_with_a_moved_match_names_its_tables_for_one_it_does_not_have() -> None:
    moved = move_match(ROUND, "Eagles", 5, TABLES)
    with pytest.raises(InvalidInput, match=r"round 2 has no table 1: expected one of its tables "):
        moved.match_at(1)
    with pytest.raises(InvalidInput, match=r"\(2, 5\)"):
        moved.match_at(1)


# --- the record ----------------------------------------------------------------------------------


def test_the_move_is_stored_with_who_when_why_and_the_tables_it_changed(
    record: TournamentDB,
) -> None:
    move_in_draw(record, 1, "Owls", 4, reason="table 1's buzzers", now=LATER, by="amy")
    assert record.rounds()[0].matches == (Match(2, "Eagles", "Ravens"), Match(4, "Hawks", "Owls"))
    (change,) = draw_changes(record, 1)
    assert change.change == "Hawks v Owls moved from table 1 to table 4"
    assert (change.changed_by, change.changed_at, change.reason) == (
        "amy",
        LATER,
        "table 1's buzzers",
    )
    assert change.warnings == ()
    assert change.tables == frozenset({1, 4})
    assert record.withdrawn_rounds()[-1].pairing.matches[0] == Match(1, "Hawks", "Owls")


def test_a_result_is_entered_at_the_table_the_match_moved_to(record: TournamentDB) -> None:
    move_in_draw(record, 1, "Hawks", 3, reason="buzzers", now=LATER, by="amy")
    with record.transaction() as tournament:
        record.add_result(tournament.result(1, 3, 40, 30), now=LATER, by="director")
        with pytest.raises(InvalidInput, match=r"round 1 has no table 1: expected one of its"):
            tournament.result(1, 1, 40, 30)
    assert [(r.table, r.a, r.b) for r in record.load().results] == [(3, "Hawks", "Owls")]


def test_the_free_tables_are_the_tournaments_that_the_round_does_not_use(
    record: TournamentDB,
) -> None:
    assert round_free_tables(record, record.rounds()[0]) == (3, 4)
    move_in_draw(record, 1, "Hawks", 3, reason="buzzers", now=LATER, by="amy")
    assert round_free_tables(record, record.rounds()[0]) == (1, 4)


def test_a_move_once_a_result_is_in_is_refused(record: TournamentDB) -> None:
    with record.transaction() as tournament:
        record.add_result(tournament.result(1, 2, 40, 30), now=NOW, by="director")
    with pytest.raises(
        IllegalAction,
        match=r"round 1's draw cannot change: the round has started, a result is in \(table 2\)",
    ):
        move_in_draw(record, 1, "Hawks", 3, reason="why", now=LATER, by="amy")
    assert draw_changes(record, 1) == ()


def test_a_move_made_from_a_draw_changed_since_moves_nothing(record: TournamentDB) -> None:
    seen = pairing_stamp(record.rounds()[0])
    move_in_draw(record, 1, "Eagles", 4, reason="one", now=LATER, by="amy")
    with pytest.raises(
        IllegalAction,
        match="round 1's draw has changed since this page was loaded: nothing moved; look at "
        "the draw again",
    ):
        move_in_draw(record, 1, "Hawks", 3, reason="two", now=LATER, by="amy", expected=seen)
    assert len(draw_changes(record, 1)) == 1


def test_a_move_needs_a_reason(record: TournamentDB) -> None:
    with pytest.raises(InvalidInput, match="with an empty reason: expected why"):
        move_in_draw(record, 1, "Hawks", 3, reason=" ", now=LATER, by="amy")


def test_a_move_in_a_round_not_paired_yet_is_refused(record: TournamentDB) -> None:
    with pytest.raises(IllegalAction, match="round 2 is not paired: no draw to change"):
        move_in_draw(record, 2, "Hawks", 3, reason="why", now=LATER, by="amy")


# --- gametable tournament move --------------------------------------------------------------------


def _move(record: TournamentDB, *args: str) -> int:
    return main(["tournament", "move", "--round", "1", *args, "--db", str(record.path)])


def test_the_move_command_moves_and_says_what_it_did(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        _move(record, "--team", "ravens", "--table", "3", "--reason", "glare", "--by", "amy") == 0
    )
    assert capsys.readouterr().out == "round 1: Eagles v Ravens moved from table 2 to table 3\n"
    assert draw_changes(record, 1)[0].changed_by == "amy"


def test_a_move_command_to_a_table_in_use_is_one_line_and_changes_nothing(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _move(record, "--team", "Hawks", "--table", "2", "--reason", "glare") == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert said == [
        "gametable: error: table 2 is in use in round 1 (Eagles v Ravens): expected a free "
        "table (3-4), or swap the teams instead"
    ]
    assert draw_changes(record, 1) == ()


def test_a_move_command_does_what_its_line_says_add_a_room_holding_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without rooms, tables 1 and 2 are the tournament's: table 7 is refused with how to use
    it, and adding a room holding it is enough."""
    path = str(make_record(tmp_path / "plain.db"))
    move = ["tournament", "move", "--round", "1", "--team", "Hawks", "--table", "7"]
    assert main([*move, "--reason", "spare table", "--db", path]) == 2
    assert capsys.readouterr().err.strip() == (
        "gametable: error: table 7 is not one of the tournament's tables (1-2): expected a free "
        "table; to play at table 7, add a room holding it"
    )
    assert main(["tournament", "room", "add", "Annex", "--tables", "7", "--db", path]) == 0
    assert main([*move, "--reason", "spare table", "--db", path]) == 0
    assert "Hawks v Owls moved from table 1 to table 7" in capsys.readouterr().out


def test_a_move_command_with_a_table_that_is_no_number_is_one_line(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _move(record, "--team", "Hawks", "--table", "three", "--reason", "x") == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1
    assert "--table" in said[0] and "three" in said[0]
