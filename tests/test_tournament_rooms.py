"""``gametable tournament room add / list / remove`` (R1110-R1113): named rooms holding
numbered tables, recorded with who and when; a table in one room at most; bad input one line
with no change; and how a table is named once it is in a room."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware_py.director.record import rooms as record_rooms
from firmware_py.director.record.rooms import Room, parse_tables, table_label
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import InvalidInput
from rules.tournament.records import spell_tables
from tests.hub_page_helpers import NOW, make_record
from tests.test_hub_page_close import _closed
from tests.test_tournament_cli import TEAMS_CSV, Capture, assert_unchanged, new, ok_json, run


@pytest.fixture
def db(tmp_path: Path) -> Path:
    (tmp_path / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    path = tmp_path / "t.db"
    return path


def _add(capsys: Capture, db: Path, name: str, tables: str, *extra: str) -> object:
    return ok_json(capsys, "room", "add", name, "--tables", tables, "--db", str(db), *extra)


def _listed(capsys: Capture, db: Path) -> list[dict[str, object]]:
    found = ok_json(capsys, "room", "list", "--db", str(db))
    assert isinstance(found, list)
    return found


def test_a_room_added_holds_its_range_of_tables_with_who_and_when(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-16", "--building", "East Hall", "--by", "Maria")
    (room,) = _listed(capsys, db)
    assert room["room"] == "Ballroom B"
    assert room["building"] == "East Hall"
    assert room["tables"] == list(range(9, 17))
    assert room["added_by"] == "Maria"
    assert isinstance(room["added_at"], str) and room["added_at"]


def test_a_room_may_hold_a_list_of_tables_and_ranges(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    _add(capsys, db, "Foyer", "1-3, 7,20")
    (room,) = _listed(capsys, db)
    assert room["tables"] == [1, 2, 3, 7, 20]
    assert room["building"] is None


def test_rooms_are_listed_by_their_first_table(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-16")
    _add(capsys, db, "Ballroom A", "1-8")
    assert [room["room"] for room in _listed(capsys, db)] == ["Ballroom A", "Ballroom B"]


def test_the_list_in_words_spells_the_tables_as_a_person_writes_them(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-16,20", "--building", "East Hall")
    code, out, err = run(capsys, "room", "list", "--db", str(db))
    assert (code, err) == (0, "")
    assert out == "East Hall, Ballroom B: tables 9-16, 20\n"


def test_a_table_already_in_a_room_is_refused_in_words_and_nothing_changes(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-16")
    assert_unchanged(
        capsys, db, "room", "add", "Foyer", "--tables", "15-18",
        names="tables 15-16 are already in Ballroom B: a table is in one room at most",
    )  # fmt: skip


def test_a_room_name_taken_in_any_case_is_refused_and_nothing_changes(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-16")
    assert_unchanged(
        capsys, db, "room", "add", "ballroom b", "--tables", "30",
        names="a room named 'Ballroom B' already exists",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("tables", "names"),
    [
        ("9-x", "'x' is not a table number: expected table numbers such as 9-16"),
        ("16-9", "'16-9' runs backwards"),
        ("0", "table 0 is out of range: expected 1 to 999"),
        ("1000", "table 1000 is out of range: expected 1 to 999"),
        ("", "'' is not a table number"),
        ("3,,4", "'' is not a table number"),
    ],
)
def test_bad_tables_are_one_line_naming_them_and_nothing_changes(
    capsys: Capture, db: Path, tables: str, names: str
) -> None:
    new(capsys, db)
    assert_unchanged(capsys, db, "room", "add", "Foyer", "--tables", tables, names=names)


def test_an_empty_room_name_is_refused_in_words(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    assert_unchanged(capsys, db, "room", "add", "  ", "--tables", "1", names="the room is empty")


def test_a_room_name_over_64_characters_is_refused_in_words(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    assert_unchanged(
        capsys, db, "room", "add", "R" * 65, "--tables", "1",
        names="the room is 65 characters: expected at most 64",
    )  # fmt: skip


def test_a_removed_room_frees_its_tables_for_another_room(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-16")
    ok_json(capsys, "room", "remove", "ballroom b", "--db", str(db), "--by", "Maria")
    assert _listed(capsys, db) == []
    _add(capsys, db, "Foyer", "9-10")
    assert [room["room"] for room in _listed(capsys, db)] == ["Foyer"]


def test_removing_an_unknown_room_names_the_rooms_there_are(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-16")
    assert_unchanged(
        capsys, db, "room", "remove", "Nope",
        names="unknown room 'Nope': expected one of the rooms ('Ballroom B')",
    )  # fmt: skip


def test_the_export_keeps_every_room_added_and_removed_with_who(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-10", "--by", "Maria")
    ok_json(capsys, "room", "remove", "Ballroom B", "--db", str(db), "--by", "Sam")
    with TournamentDB.open(db) as record:
        changes = record.export()["rooms"]
    assert [(c["room"], c["change"], c["by"]) for c in changes] == [
        ("Ballroom B", "added", "Maria"),
        ("Ballroom B", "removed", "Sam"),
    ]


def test_the_room_changes_are_append_only(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    _add(capsys, db, "Ballroom B", "9-10")
    raw = sqlite3.connect(db)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM room_changes")
    finally:
        raw.close()


def test_a_record_without_rooms_reads_as_every_table_in_none(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    raw = sqlite3.connect(db)
    try:  # a record made before rooms: no room_changes table at all
        raw.execute("DROP TRIGGER room_changes_delete_refused")
        raw.execute("DROP TRIGGER room_changes_update_refused")
        raw.execute("DROP TABLE room_changes")
        raw.commit()
    finally:
        raw.close()
    assert _listed(capsys, db) == []
    _add(capsys, db, "Foyer", "1")  # the first room makes the table
    assert [room["room"] for room in _listed(capsys, db)] == ["Foyer"]


def test_a_table_in_a_room_is_named_by_its_room_and_number() -> None:
    rooms = (Room("Ballroom B", "", (13, 14), "director", "t"),)
    assert table_label(rooms, 14) == "Ballroom B, table 14"


def test_a_room_in_a_building_names_the_building_first() -> None:
    rooms = (Room("Ballroom B", "East Hall", (14,), "director", "t"),)
    assert table_label(rooms, 14) == "East Hall, Ballroom B, table 14"


def test_a_table_in_no_room_is_named_by_its_number_alone() -> None:
    rooms = (Room("Ballroom B", "", (13,), "director", "t"),)
    assert table_label(rooms, 14) == "table 14"


def test_tables_are_parsed_ascending_each_once() -> None:
    assert parse_tables("4,1-3,2") == (1, 2, 3, 4)


def test_tables_are_spelled_as_runs() -> None:
    assert spell_tables([9, 1, 2, 3, 5]) == "1-3, 5, 9"


def test_a_bad_table_number_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="is not a table number"):
        record_rooms.parse_tables("1-2-3")


@pytest.mark.parametrize(
    "argv",
    [("add", "Foyer", "--tables", "3"), ("remove", "Ballroom B")],
    ids=["add", "remove"],
)
def test_rooms_do_not_change_while_the_tournament_is_closed(
    capsys: Capture, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    with TournamentDB.open(make_record(tmp_path / "closed.db")) as record:
        record.add_room("Ballroom B", [1, 2], building="", now=NOW, by="ann")
        _closed(record)  # every round played, ann records the champion
    assert_unchanged(
        capsys, tmp_path / "closed.db", "room", *argv, names="the tournament is closed"
    )
