"""``gametable hub staff add|list|remove|password`` as a person types them (docs/hub.md): an
account's password from the terminal or stdin, never the command line; every change kept in
the record with who and when; bad input one line, exit 2, nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.hub.staff import Role, StaffRecord
from firmware_py.director.hub.staff_password import verify_password
from firmware_py.director.record.tournament_db import TournamentDB
from tests.hub_page_helpers import make_record
from tests.journal_helpers import assert_one_line_refusal, fingerprint
from tests.test_hub_cli import hub


@pytest.fixture
def record(tmp_path: Path) -> Path:
    return make_record(tmp_path / "tournament.db")  # the director's password in its old file


def _account(record: Path, name: str) -> tuple[Role, str, str] | None:
    with TournamentDB.open(record) as opened:
        account = StaffRecord(opened).find(name)
    return None if account is None else (account.role, account.password, account.changed_by)


def test_an_account_is_added_with_its_role_and_its_password_from_stdin(record: Path) -> None:
    done = hub("staff", "add", "sam", "--role", "results", "--db", str(record), "--stdin",
               stdin="sam's long password\n")  # fmt: skip
    assert done.code == 0, done.stderr
    assert done.stdout == f"sam added to {record} (results staff)\n"
    found = _account(record, "sam")
    assert found is not None and found[0] is Role.RESULTS and found[2] == "director"
    assert verify_password(found[1], "sam's long password")


def test_the_list_shows_each_account_and_its_role_never_a_hash(record: Path) -> None:
    hub("staff", "add", "gil", "--role", "viewer", "--db", str(record), "--stdin",
        "--by", "ann", stdin="gil's long password\n")  # fmt: skip
    done = hub("staff", "list", "--db", str(record))
    assert done.code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split("\t")[:2] for line in lines] == [["director", "director"], ["gil", "viewer"]]
    assert "by ann" in lines[1] and "scrypt" not in done.stdout


def test_a_removed_account_is_gone_from_the_list(record: Path) -> None:
    hub("staff", "add", "sam", "--role", "results", "--db", str(record), "--stdin",
        stdin="sam's long password\n")  # fmt: skip
    done = hub("staff", "remove", "sam", "--db", str(record))
    assert done.code == 0, done.stderr
    assert done.stdout == "sam (results staff) removed: their sessions on the page end\n"
    assert _account(record, "sam") is None


def test_removing_the_account_director_says_the_login_without_a_name_ends(record: Path) -> None:
    hub("staff", "add", "ann", "--role", "director", "--db", str(record), "--stdin",
        stdin="ann's long password\n")  # fmt: skip
    done = hub("staff", "remove", "director", "--db", str(record), "--by", "ann")
    assert done.code == 0, done.stderr
    assert done.stdout.splitlines() == [
        "director (a director) removed: their sessions on the page end",
        "a login without a name no longer works: staff log in by name (adding the account "
        "director again brings it back)",
    ]


def test_a_password_is_changed_and_the_role_kept(record: Path) -> None:
    hub("staff", "add", "sam", "--role", "results", "--db", str(record), "--stdin",
        stdin="sam's long password\n")  # fmt: skip
    done = hub("staff", "password", "sam", "--db", str(record), "--stdin", stdin="another one!\n")
    assert done.code == 0, done.stderr
    found = _account(record, "sam")
    assert found is not None and found[0] is Role.RESULTS
    assert verify_password(found[1], "another one!")


def test_a_password_is_never_taken_from_the_command_line(record: Path) -> None:
    done = hub("staff", "add", "sam", "--role", "results", "--db", str(record),
               "--password", "sam's long password")  # fmt: skip
    assert done.code == 2 and "unrecognized arguments: --password" in done.stderr
    assert _account(record, "sam") is None


@pytest.mark.parametrize(
    ("argv", "stdin", "names"),
    [
        (["add", "sam", "--role", "admin", "--stdin"], "a long password\n",
         "role 'admin': expected director, results or viewer"),
        (["add", "Sam", "--role", "results", "--stdin"], "a long password\n",
         "staff name 'Sam': expected 1 to 32 lowercase letters"),
        (["add", "sam", "--role", "results", "--stdin"], "short\n",
         "a password of 5 characters: expected 10 to 256"),
        (["add", "sam", "--role", "results"], "a long password\n",
         "stdin is not a terminal: give --stdin"),
        (["add", "director", "--role", "viewer", "--stdin"], "a long password\n",
         "the account 'director' is the director's: expected --role director"),
        (["add", "director", "--role", "director", "--stdin"], "a long password\n",
         "staff account 'director' exists (a director)"),
        (["remove", "director"], "", "'director' is the last director's account"),
        (["remove", "kim"], "", "no staff account 'kim': expected one of director"),
        (["password", "kim", "--stdin"], "a long password\n", "no staff account 'kim'"),
    ],
)  # fmt: skip
def test_bad_staff_input_is_one_line_and_changes_nothing(
    tmp_path: Path, record: Path, argv: list[str], stdin: str, names: str
) -> None:
    before = fingerprint(tmp_path)
    done = hub("staff", *argv, "--db", str(record), stdin=stdin)
    assert_one_line_refusal(done, names=names)
    assert fingerprint(tmp_path) == before


def test_staff_of_no_tournament_record_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a record\n")
    done = hub("staff", "list", "--db", str(tmp_path / "notes.txt"))
    assert_one_line_refusal(done, names="not a tournament record")
