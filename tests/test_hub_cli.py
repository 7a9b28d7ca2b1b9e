"""``gametable hub users``, ``director-password`` and ``run`` as a person types them: an account
added or changed all at once (mode 0640, every other line as it was), with mosquitto_passwd or
without it; the director's password kept as a hash; bad input is one line, exit 2, and changes
no file."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from firmware_py.director.hub.passwords import read_accounts, verifies
from firmware_py.director.hub.staff import Role, StaffAccount, StaffRecord
from firmware_py.director.hub.staff_password import verify_password
from firmware_py.director.record.tournament_db import TournamentDB
from tests.hub_page_helpers import make_record
from tests.journal_helpers import CLI, Outcome, assert_one_line_refusal, fingerprint


def hub(*argv: str, stdin: str = "", path: str | None = None, cwd: Path | None = None) -> Outcome:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path  # where (not) to find mosquitto_passwd
    done = subprocess.run(
        [*CLI, "hub", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
        cwd=cwd,
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


def _users(path: Path) -> dict[str, str]:
    return {account.user: account.hash for account in read_accounts(path)}


@pytest.fixture(params=["mosquitto_passwd", "gametable"])
def writer(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """The PATH to run with: mosquitto_passwd's own, or one without it."""
    if request.param == "mosquitto_passwd":
        return None
    empty = tmp_path / "no-tools"
    empty.mkdir()
    return str(empty)


def test_an_account_is_added_with_its_password(tmp_path: Path, writer: str | None) -> None:
    file = tmp_path / "gametable.passwd"
    done = hub("users", str(file), "7", stdin="table-seven\n", path=writer)
    assert done.code == 0, done.stderr
    assert done.stdout.startswith(f"table 7 added to {file} by ")
    assert verifies(_users(file)["7"], "table-seven")
    assert stat.S_IMODE(file.stat().st_mode) == 0o640


def test_a_password_is_changed_and_every_other_line_kept(
    tmp_path: Path, writer: str | None
) -> None:
    file = tmp_path / "gametable.passwd"
    for account in ("hub", "7", "8"):
        assert hub("users", str(file), account, stdin=f"{account}-old\n").code == 0
    before = _users(file)
    done = hub("users", str(file), "7", stdin="seven-new\n", path=writer)
    assert done.code == 0, done.stderr
    assert done.stdout.startswith(f"table 7 changed in {file}")
    after = _users(file)
    assert list(after) == ["hub", "7", "8"]
    assert (after["hub"], after["8"]) == (before["hub"], before["8"])
    assert verifies(after["7"], "seven-new") and not verifies(after["7"], "7-old")


def test_a_generated_password_goes_to_a_new_file_and_to_the_broker(tmp_path: Path) -> None:
    file, secret = tmp_path / "gametable.passwd", tmp_path / "table7-password"
    done = hub("users", str(file), "7", "--generate", str(secret))
    assert done.code == 0, done.stderr
    password = secret.read_text().strip()
    assert len(password) >= 32
    assert verifies(_users(file)["7"], password)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o640
    assert f"its password is in {secret}: for table 7's [hub] password_file" in done.stdout


def test_a_password_is_taken_from_a_file(tmp_path: Path) -> None:
    file, secret = tmp_path / "gametable.passwd", tmp_path / "hub-password"
    secret.write_text("the-hubs\n")
    assert hub("users", str(file), "hub", "--from", str(secret)).code == 0
    assert verifies(_users(file)["hub"], "the-hubs")


@pytest.mark.parametrize(
    ("argv", "stdin", "names"),
    [
        (["7x"], "pw\n", "unknown account '7x': expected a table number 1-999 or hub"),
        (["1000"], "pw\n", "unknown account '1000'"),
        (["007"], "pw\n", "unknown account '007'"),
        (["7"], "\n", "a password of 0 characters"),
        (["7"], "", "no password on stdin"),
        (["7"], "tab\there\n", "printable characters on one line"),
        (["7", "--from", "missing"], "", "cannot read missing"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(
    tmp_path: Path, argv: list[str], stdin: str, names: str
) -> None:
    file = tmp_path / "gametable.passwd"
    assert hub("users", str(file), "hub", stdin="hub-pw\n").code == 0
    before = fingerprint(tmp_path)
    assert_one_line_refusal(hub("users", str(file), *argv, stdin=stdin, cwd=tmp_path), names=names)
    assert fingerprint(tmp_path) == before


def test_a_file_mosquitto_passwd_would_destroy_is_refused_untouched(
    tmp_path: Path, writer: str | None
) -> None:
    file = tmp_path / "gametable.passwd"
    file.write_text("# the broker's accounts\nhub:$7$101$abc$def\n")
    before = fingerprint(tmp_path)
    done = hub("users", str(file), "7", stdin="pw\n", path=writer)
    assert_one_line_refusal(done, names="gametable.passwd line 1: expected user:$7$")
    assert fingerprint(tmp_path) == before


def test_generate_never_replaces_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "table7-password"
    secret.write_text("kept\n")
    before = fingerprint(tmp_path)
    done = hub("users", str(tmp_path / "gametable.passwd"), "7", "--generate", str(secret))
    assert_one_line_refusal(done, names="exists: --generate writes a new file")
    assert fingerprint(tmp_path) == before


def test_a_password_file_in_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    done = hub("users", str(tmp_path / "nowhere" / "gametable.passwd"), "7", stdin="pw\n")
    assert_one_line_refusal(done, names="no directory")


# --- gametable hub run -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--db", "nothing.db", "--password-file", "hub-password"], "no tournament at nothing.db"),
        (["--db", "hub-password", "--password-file", "hub-password"], "not a tournament record"),
        (["--port", "0", "--password-file", "hub-password"], "--port 0: expected 1 to 65535"),
        (["--password-file", "missing"], "--password-file: cannot read missing"),
        (["--password-file", "empty"], "--password-file: empty is empty"),
        (["--password-file", "hub-password", "--ca-file", "missing.pem"], "--ca-file missing.pem"),
        (["--password-file", "hub-password", "--page", "8080"], "--page 8080: expected HOST:PORT"),
        (["--password-file", "hub-password", "--page", "127.0.0.1:70000"], "a port from 0 to"),
        (["--password-file", "hub-password", "--page-cert", "empty"], "go together"),
        (
            ["--password-file", "hub-password", "--page-cert", "empty", "--page-key", "empty"],
            "--page-cert empty, --page-key empty: expected a PEM certificate",
        ),
        (
            [
                "--password-file",
                "hub-password",
                "--page",
                "off",
                "--page-cert",
                "empty",
                "--page-key",
                "empty",
            ],
            "--page off with --page-cert",
        ),
        (
            ["--password-file", "hub-password", "--page-name", "hub.local:8080"],
            "--page-name hub.local:8080: expected a host name the page is opened by",
        ),
        (
            ["--password-file", "hub-password", "--page-name", "https://hub.local"],
            "--page-name https://hub.local: expected a host name",
        ),
        (
            ["--password-file", "hub-password", "--page", "off", "--page-name", "hub.local"],
            "--page off with --page-name",
        ),
        (
            ["--password-file", "hub-password", "--public-names", "everyone"],
            "--public-names 'everyone': expected teams, players or none",
        ),
    ],
)
def test_hub_run_with_bad_input_is_one_line(tmp_path: Path, argv: list[str], names: str) -> None:
    (tmp_path / "hub-password").write_text("secret\n")
    (tmp_path / "empty").write_text("")
    subprocess.run(
        [*CLI, "tournament", "new", "--format", "combo4", "--teams", str(_teams(tmp_path))],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    before = fingerprint(tmp_path)
    assert_one_line_refusal(hub("run", *argv, cwd=tmp_path), names=names)
    assert fingerprint(tmp_path) == before


def _teams(directory: Path) -> Path:
    teams = directory / "teams.csv"
    teams.write_text("name,school,players\nOwls,A,\nHawks,B,\nRavens,C,\nDoves,D,\n")
    return teams


def test_hub_run_on_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "hub-password").write_text("secret\n")
    record = make_record(tmp_path / "tournament.db")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = hub(
            "run", "--db", str(record), "--password-file", "hub-password",
            "--page", f"127.0.0.1:{port}", cwd=tmp_path,
        )  # fmt: skip
    assert_one_line_refusal(done, names=f"--page 127.0.0.1:{port}: cannot listen there")


def test_hub_run_serves_its_page_by_the_names_given_and_no_other(tmp_path: Path) -> None:
    (tmp_path / "hub-password").write_text("secret\n")
    record = make_record(tmp_path / "tournament.db")
    with socket.create_server(("127.0.0.1", 0)) as nobody:  # no broker: the page serves anyway
        broker_port = nobody.getsockname()[1]
    process = subprocess.Popen(
        [*CLI, "hub", "run", "--db", str(record), "--password-file", "hub-password",
         "--port", str(broker_port), "--page", "127.0.0.1:0",
         "--page-name", "scores.example", "--page-name", "hub.lan"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        listening = next(line for line in process.stdout if "event=page_listening" in line)
        address = listening.split("url=http://")[1].split()[0]
        named, other = (_status_for(address, host) for host in ("scores.example", "evil.example"))
    finally:
        process.terminate()
        process.communicate(timeout=20)
    names = set(listening.split("names=")[1].split()[0].split(","))
    assert {"hub.lan", "localhost", "scores.example"} <= names  # and the machine's own name
    assert (named, other) == (200, 421)


def _status_for(address: str, host: str) -> int:
    """The HTTP status of GET /public at ``address`` asked for as ``host``."""
    connection = http.client.HTTPConnection(address, timeout=10)
    try:
        connection.request("GET", "/public", headers={"Host": f"{host}:{address.split(':')[1]}"})
        return connection.getresponse().status
    finally:
        connection.close()


def test_hub_run_gives_a_record_made_before_r725_the_indexes_its_lookups_use(
    tmp_path: Path,
) -> None:
    """And the teams' short names of R832, derived, to a record made before them."""
    (tmp_path / "hub-password").write_text("secret\n")
    record = make_record(tmp_path / "tournament.db")
    with sqlite3.connect(record) as connection:
        connection.execute("DROP INDEX results_of_pairing")
        connection.execute("DROP TABLE team_short_names")
    connection.close()
    running = subprocess.Popen(
        [
            *CLI, "hub", "run", "--db", str(record), "--password-file", "hub-password",
            "--port", str(_unused_port()), "--page", "off",
        ],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        out = ""
        while "event=hub_start" not in out:  # indexed before it starts
            line = running.stdout.readline() if running.stdout else ""
            assert line, f"the hub stopped before it started: {out}"
            out += line
    finally:
        running.send_signal(signal.SIGTERM)
        running.communicate(timeout=20)
    assert f"event=record_indexed record={record}" in out
    assert f"event=record_short_names record={record}" in out
    with sqlite3.connect(record) as connection:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        kept = connection.execute("SELECT COUNT(*) FROM team_short_names").fetchone()[0]
    connection.close()
    assert "results_of_pairing" in names
    assert kept == 4  # every team's


def _unused_port() -> int:
    with socket.socket() as probe:  # nothing listens on it once closed: the hub keeps trying
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- gametable hub director-password ------------------------------------------------------------


def _director(record: Path) -> StaffAccount | None:
    with TournamentDB.open(record) as opened:
        return StaffRecord(opened).find("director")


def test_the_directors_password_is_set_from_stdin_as_a_hash_in_the_record(tmp_path: Path) -> None:
    record = make_record(tmp_path / "tournament.db", password=None)
    done = hub("director-password", str(record), "--stdin", stdin="correct horse battery\n")
    assert done.code == 0, done.stderr
    assert done.stdout.startswith(f"the director's password for {record} is set")
    director = _director(record)
    assert director is not None and not director.in_file and director.role is Role.DIRECTOR
    assert "correct horse" not in director.password
    assert verify_password(director.password, "correct horse battery")
    assert not (tmp_path / "tournament.db.director").exists()


def test_the_directors_password_is_changed_by_setting_it_again(tmp_path: Path) -> None:
    record = make_record(tmp_path / "tournament.db")  # its password in the file of the past
    hub("director-password", str(record), "--stdin", stdin="a new password\n")
    director = _director(record)
    assert director is not None and verify_password(director.password, "a new password")


@pytest.mark.parametrize(
    ("argv", "stdin", "names"),
    [
        (["--stdin"], "short\n", "a password of 5 characters: expected 10 to 256"),
        (["--stdin"], "", "no password on stdin"),
        ([], "correct horse battery\n", "stdin is not a terminal: give --stdin"),
    ],
)
def test_a_bad_directors_password_is_one_line_and_keeps_the_old_one(
    tmp_path: Path, argv: list[str], stdin: str, names: str
) -> None:
    record = make_record(tmp_path / "tournament.db")
    before = fingerprint(tmp_path)
    done = hub("director-password", str(record), *argv, stdin=stdin)
    assert_one_line_refusal(done, names=names)
    assert fingerprint(tmp_path) == before


def test_a_directors_password_for_no_tournament_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a record\n")
    before = fingerprint(tmp_path)
    done = hub("director-password", str(tmp_path / "notes.txt"), "--stdin", stdin="a password!\n")
    assert_one_line_refusal(done, names="not a tournament record")
    assert fingerprint(tmp_path) == before


def test_hub_run_on_a_record_held_by_a_director_s_command_exits_for_systemd_to_retry(
    tmp_path: Path,
) -> None:
    """R715: a busy record at start is no bad input (exit 2 would stop systemd's restarts)."""
    (tmp_path / "hub-password").write_text("secret\n")
    record = make_record(tmp_path / "tournament.db")
    holder = sqlite3.connect(record, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        done = hub(
            "run", "--db", str(record), "--password-file", "hub-password", "--page", "off",
            cwd=tmp_path,
        )  # fmt: skip
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert done.code == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "is busy" in done.stderr


def test_hub_run_says_it_stopped_when_stopped_by_sigterm(tmp_path: Path) -> None:
    """A clean stop is one line in the hub's log, so that a stop and a crash before the next
    hub_start read apart (FINDINGS-i25-dealer-walk F4)."""
    (tmp_path / "hub-password").write_text("secret\n")
    record = make_record(tmp_path / "tournament.db")
    running = subprocess.Popen(
        [
            *CLI, "hub", "run", "--db", str(record), "--password-file", "hub-password",
            "--port", str(_unused_port()), "--page", "off",
        ],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        out = ""
        while "event=hub_start" not in out:
            line = running.stdout.readline() if running.stdout else ""
            assert line, f"the hub stopped before it started: {out}"
            out += line
    finally:
        running.send_signal(signal.SIGTERM)
        rest, _ = running.communicate(timeout=20)
    assert running.returncode == 0, out + rest
    assert rest.splitlines()[-1] == f"INFO event=hub_stopped record={record}", rest
