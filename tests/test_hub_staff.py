"""The page's staff accounts in the tournament record (firmware_py/director/hub/staff.py):
names, roles and hashed passwords, every change a new row with who and when (R810); the
director's password file of the past read as the account "director" until the record holds it
(R812); the rules no change may break (R811)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.hub.staff import (
    Role,
    StaffRecord,
    check_name,
    hash_new_password,
    parse_role,
)
from firmware_py.director.hub.staff_password import password_path, store_password, verify_password
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from tests.hub_page_helpers import NOW, PASSWORD, make_record

LATER = "2026-05-09T11:00:00+00:00"


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    with TournamentDB.open(make_record(tmp_path / "t.db", password=None)) as opened:
        yield opened


@pytest.fixture(scope="module")
def hashed() -> str:
    return hash_new_password("a good long password")


def test_an_account_keeps_its_role_a_hash_and_who_added_it_when(
    record: TournamentDB, hashed: str
) -> None:
    added = StaffRecord(record).add("sam", Role.RESULTS, hashed, now=NOW, by="director")
    assert (added.name, added.role, added.changed_by, added.changed_at) == (
        "sam", Role.RESULTS, "director", NOW,
    )  # fmt: skip
    assert verify_password(added.password, "a good long password")
    assert StaffRecord(record).find("sam") == added


def test_a_record_without_accounts_has_none_and_no_staff_table(record: TournamentDB) -> None:
    assert StaffRecord(record).accounts() == ()
    tables = {row[0] for row in record.connection.execute("SELECT name FROM sqlite_master")}
    assert "staff" not in tables  # made by the first change (R810)


def test_the_staff_table_is_append_only(record: TournamentDB, hashed: str) -> None:
    StaffRecord(record).add("sam", Role.RESULTS, hashed, now=NOW, by="director")
    for statement in ("UPDATE staff SET role = 'director'", "DELETE FROM staff"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            record.connection.execute(statement)


def test_a_removed_account_is_gone_and_its_history_stays(record: TournamentDB, hashed: str) -> None:
    staff = StaffRecord(record)
    staff.add("director", Role.DIRECTOR, hashed, now=NOW, by="director")
    staff.add("sam", Role.RESULTS, hashed, now=NOW, by="director")
    staff.remove("sam", now=LATER, by="director")
    assert staff.find("sam") is None
    assert [a.name for a in staff.accounts()] == ["director"]
    rows = record.connection.execute("SELECT what, entered_at FROM staff WHERE name = 'sam'")
    assert [tuple(row) for row in rows] == [("added", NOW), ("removed", LATER)]


def test_an_accounts_stamp_changes_with_its_password_and_role(
    record: TournamentDB, hashed: str
) -> None:
    staff = StaffRecord(record)
    staff.add("director", Role.DIRECTOR, hashed, now=NOW, by="director")
    first = staff.add("sam", Role.RESULTS, hashed, now=NOW, by="director")
    changed = staff.set_password("sam", hash_new_password("another password"), now=LATER, by="sam")
    staff.remove("sam", now=LATER, by="director")
    again = staff.add("sam", Role.VIEWER, hashed, now=LATER, by="director")
    assert len({first.stamp, changed.stamp, again.stamp}) == 3


def test_a_name_taken_is_refused_in_words(record: TournamentDB, hashed: str) -> None:
    staff = StaffRecord(record)
    staff.add("sam", Role.RESULTS, hashed, now=NOW, by="director")
    with pytest.raises(IllegalAction, match=r"staff account 'sam' exists \(results staff\)"):
        staff.add("sam", Role.VIEWER, hashed, now=NOW, by="director")


@pytest.mark.parametrize("name", ["", "Sam", "sam smith", "table 3", "-sam", "x" * 33, "zoë"])
def test_a_name_that_is_not_a_staff_name_is_refused(name: str) -> None:
    with pytest.raises(InvalidInput, match="expected 1 to 32 lowercase letters, digits"):
        check_name(name)


def test_a_role_that_is_none_of_the_three_is_refused() -> None:
    with pytest.raises(InvalidInput, match="role 'admin': expected director, results or viewer"):
        parse_role("admin")


def test_the_account_director_is_a_directors_only(record: TournamentDB, hashed: str) -> None:
    with pytest.raises(InvalidInput, match="the account 'director' is the director's"):
        StaffRecord(record).add("director", Role.VIEWER, hashed, now=NOW, by="director")


def test_the_last_directors_account_cannot_be_removed(record: TournamentDB, hashed: str) -> None:
    staff = StaffRecord(record)
    staff.add("director", Role.DIRECTOR, hashed, now=NOW, by="director")
    with pytest.raises(IllegalAction, match="'director' is the last director's account"):
        staff.remove("director", now=LATER, by="director")
    staff.add("ann", Role.DIRECTOR, hashed, now=NOW, by="director")
    staff.remove("director", now=LATER, by="ann")  # another director remains
    assert [a.name for a in staff.accounts()] == ["ann"]


def test_removing_or_changing_no_account_is_refused_naming_the_accounts(
    record: TournamentDB, hashed: str
) -> None:
    staff = StaffRecord(record)
    staff.add("sam", Role.RESULTS, hashed, now=NOW, by="director")
    with pytest.raises(IllegalAction, match="no staff account 'kim': expected one of sam"):
        staff.remove("kim", now=NOW, by="director")
    with pytest.raises(IllegalAction, match="no staff account 'kim'"):
        staff.set_password("kim", hashed, now=NOW, by="director")


def test_a_refused_change_leaves_the_record_as_it_was(record: TournamentDB, hashed: str) -> None:
    with pytest.raises(IllegalAction):
        StaffRecord(record).remove("kim", now=NOW, by="director")
    tables = {row[0] for row in record.connection.execute("SELECT name FROM sqlite_master")}
    assert "staff" not in tables


@pytest.mark.parametrize("role", list(Role))
def test_roles_nest_viewer_within_results_within_director(
    record: TournamentDB, hashed: str, role: Role
) -> None:
    account = StaffRecord(record).add("kim", role, hashed, now=NOW, by="director")
    allowed = [needs for needs in Role if account.may(needs)]
    expected = {
        Role.VIEWER: [Role.VIEWER],
        Role.RESULTS: [Role.RESULTS, Role.VIEWER],
        Role.DIRECTOR: [Role.DIRECTOR, Role.RESULTS, Role.VIEWER],
    }[role]
    assert sorted(allowed) == sorted(expected)


# --- the director's password of the past (R812) --------------------------------------------------


def test_the_directors_password_file_is_the_account_director(record: TournamentDB) -> None:
    store_password(record.path, PASSWORD)
    director = StaffRecord(record).find("director")
    assert director is not None and director.in_file and director.role is Role.DIRECTOR
    assert verify_password(director.password, PASSWORD)


def test_the_first_change_writes_the_files_director_into_the_record_as_it_is(
    record: TournamentDB, hashed: str
) -> None:
    store_password(record.path, PASSWORD)
    before = StaffRecord(record).find("director")
    StaffRecord(record).add("sam", Role.RESULTS, hashed, now=LATER, by="director")
    after = StaffRecord(record).find("director")
    assert before is not None and after is not None and not after.in_file
    assert after.password == before.password and after.stamp == before.stamp  # sessions go on
    assert after.changed_by == "migration of t.db.director" and after.changed_at == LATER


def test_once_in_the_record_the_file_is_read_no_more(record: TournamentDB) -> None:
    store_password(record.path, PASSWORD)
    assert StaffRecord(record).migrate(now=LATER)
    password_path(record.path).write_text("not even a password line\n")
    director = StaffRecord(record).find("director")
    assert director is not None and verify_password(director.password, PASSWORD)
    assert not StaffRecord(record).migrate(now=LATER)  # nothing left to write


def test_a_removed_director_is_not_brought_back_by_the_file(
    record: TournamentDB, hashed: str
) -> None:
    store_password(record.path, PASSWORD)
    staff = StaffRecord(record)
    staff.add("ann", Role.DIRECTOR, hashed, now=NOW, by="director")
    staff.remove("director", now=LATER, by="ann")
    assert staff.find("director") is None
    assert [a.name for a in staff.accounts()] == ["ann"]
