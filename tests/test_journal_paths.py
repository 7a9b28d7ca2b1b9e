"""Hostile journal paths: whatever ``journal show``, ``journal export``, ``sim --journal`` and
``run --journal`` are pointed at that is not a journal they may use is refused in one line and
left exactly as it was: nothing renamed, created, written or chmodded, in it or beside it
(R120, R122). ``run`` says it in one CRITICAL log line, the others on stderr; all exit 2."""

from __future__ import annotations

import os
import socket
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.journal_helpers import (
    SCRIPTS,
    Outcome,
    assert_one_critical_line,
    assert_one_line_refusal,
    fingerprint,
    in_process,
    make_journal,
    mock_table_config,
    own_process,
)

SCRIPT = str(SCRIPTS / "plunge.jsonl")


def _directory(place: Path) -> Path:
    (place / "journal.db").mkdir()
    return place / "journal.db"


def _fifo(place: Path) -> Path:
    os.mkfifo(place / "journal.db")
    return place / "journal.db"


def _socket(place: Path) -> Path:
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(place / "journal.db"))
    return place / "journal.db"


def _text_file(place: Path) -> Path:
    (place / "teams.csv").write_text("name,school,players\nAtlas,North,3\n")
    return place / "teams.csv"


def _empty_file(place: Path) -> Path:
    (place / "journal.db").touch()
    return place / "journal.db"


def _tournament_record(place: Path) -> Path:
    path = place / "tournament.db"
    with sqlite3.connect(path) as record:
        record.execute("PRAGMA journal_mode=WAL")
        record.execute("CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT)")
        record.execute("CREATE TABLE rounds (number INTEGER PRIMARY KEY)")
        record.execute("INSERT INTO teams(name) VALUES ('Atlas')")
    record.close()
    return path


def _in_a_missing_directory(place: Path) -> Path:
    return place / "missing" / "journal.db"


def _under_a_file(place: Path) -> Path:
    return _text_file(place) / "journal.db"


HOSTILE: dict[str, Callable[[Path], Path]] = {
    "a directory": _directory,
    "a FIFO": _fifo,
    "a socket": _socket,
    "a text file": _text_file,
    "an empty file": _empty_file,
    "a tournament record": _tournament_record,
    "a path in a missing directory": _in_a_missing_directory,
    "a path under a file": _under_a_file,
}
WHAT_IS_WRONG = {
    "a directory": "is a directory, not a journal",
    "a FIFO": "is a FIFO, not a journal",
    "a socket": "is a socket, not a journal",
    "a text file": "is not a journal (not an SQLite database)",
    "an empty file": "is an empty file, not a journal",
    "a tournament record": "is not a journal (an SQLite database with tables rounds, teams)",
    "a path in a missing directory": "does not exist",  # reading; writing: "no directory"
    "a path under a file": "part of its path is not a directory",
}


def _what_is_wrong(hostile: str, command: str) -> str:
    if hostile == "a path in a missing directory" and command.startswith(("sim", "run")):
        return "no directory"
    return WHAT_IS_WRONG[hostile]


READERS_AND_SIM = ["show", "show --json", "export", "export --out", "sim"]


def _readers(path: Path, exports: Path) -> dict[str, list[str]]:
    """The commands that take the journal's path and never move it, by READERS_AND_SIM."""
    return {
        "show": ["journal", "show", str(path)],
        "show --json": ["journal", "show", "--json", str(path)],
        "export": ["journal", "export", str(path)],
        "export --out": ["journal", "export", str(path), "--out", str(exports / "match.json")],
        "sim": ["sim", "--headless", "--script", SCRIPT, "--journal", str(path)],
    }


def _place(tmp_path: Path) -> tuple[Path, Path]:
    place, exports = tmp_path / "place", tmp_path / "exports"
    place.mkdir()
    exports.mkdir()
    return place, exports


@pytest.mark.parametrize("command", READERS_AND_SIM)
@pytest.mark.parametrize("hostile", list(HOSTILE))
def test_show_export_and_sim_refuse_what_is_not_a_journal_and_leave_it(
    hostile: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    place, exports = _place(tmp_path)
    path = HOSTILE[hostile](place)
    before = fingerprint(tmp_path)
    outcome = in_process(capsys, *_readers(path, exports)[command])
    assert_one_line_refusal(outcome, names=str(path))
    assert _what_is_wrong(hostile, command) in outcome.stderr
    assert fingerprint(tmp_path) == before


@pytest.mark.parametrize("new_journal", [False, True], ids=["run", "run --new-journal"])
@pytest.mark.parametrize("hostile", list(HOSTILE))
def test_run_refuses_what_is_not_a_journal_and_leaves_it(
    hostile: str, new_journal: bool, tmp_path: Path
) -> None:
    place, _ = _place(tmp_path)
    config = mock_table_config(tmp_path)
    path = HOSTILE[hostile](place)
    before = fingerprint(tmp_path)
    extra = ["--new-journal"] if new_journal else []
    outcome = own_process("run", "--config", str(config), "--journal", str(path), *extra)
    assert_one_critical_line(outcome, 2, names=_what_is_wrong(hostile, "run"))
    assert fingerprint(tmp_path) == before


def test_the_current_directory_is_refused_as_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = mock_table_config(tmp_path)
    before = fingerprint(tmp_path)
    monkeypatch.chdir(tmp_path)
    for argv in _readers(Path("."), tmp_path).values():
        assert_one_line_refusal(in_process(capsys, *argv), names=". is a directory")
    outcome = own_process("run", "--config", str(config), "--journal", ".", cwd=tmp_path)
    assert_one_critical_line(outcome, 2, names=". is a directory")
    assert fingerprint(tmp_path) == before


# --- what the file system allows: modes, owners, read-only directories ----------------------------
# Run as their own process, without root's power to read and write anything (journal_helpers).


def _every_command(path: Path, config: Path, exports: Path) -> dict[str, list[str]]:
    return {
        **_readers(path, exports),
        "run": ["run", "--config", str(config), "--journal", str(path)],
        "run --new-journal": [
            "run",
            "--config",
            str(config),
            "--journal",
            str(path),
            "--new-journal",
        ],
    }


def _assert_refused(command: str, outcome: Outcome, names: str) -> None:
    if command.startswith("run"):
        assert_one_critical_line(outcome, 2, names=names)
    else:
        assert_one_line_refusal(outcome, names=names)


def test_every_command_refuses_a_journal_it_may_not_read(tmp_path: Path) -> None:
    place, exports = _place(tmp_path)
    config = mock_table_config(tmp_path)
    path = make_journal(place / "journal.db")
    path.chmod(0o000)
    before = fingerprint(tmp_path)
    for command, argv in _every_command(path, config, exports).items():
        outcome = own_process(*argv, unprivileged=True)
        _assert_refused(command, outcome, f"cannot read {path}: Permission denied")
    assert fingerprint(tmp_path) == before


def _shown(path: Path) -> dict[str, Outcome]:
    return {
        "show": own_process("journal", "show", str(path), unprivileged=True),
        "export": own_process("journal", "export", str(path), unprivileged=True),
    }


def test_show_and_export_read_a_journal_in_a_read_only_directory_and_change_nothing(
    tmp_path: Path,
) -> None:
    place, _ = _place(tmp_path)
    path = make_journal(place / "journal.db")
    writable = _shown(path)
    place.chmod(0o555)
    before = fingerprint(tmp_path)
    assert _shown(path) == writable
    assert writable["show"].code == 0 and "plunge" in writable["show"].stdout
    assert fingerprint(tmp_path) == before


def test_sim_and_run_refuse_a_journal_in_a_read_only_directory(tmp_path: Path) -> None:
    place, exports = _place(tmp_path)
    config = mock_table_config(tmp_path)
    path = make_journal(place / "journal.db")
    place.chmod(0o555)
    before = fingerprint(tmp_path)
    for command, argv in _every_command(path, config, exports).items():
        if command.startswith(("sim", "run")):
            outcome = own_process(*argv, unprivileged=True)
            _assert_refused(command, outcome, f"directory {place} is not writable")
    outcome = own_process(
        "journal", "export", str(path), "--out", str(place / "match.json"), unprivileged=True
    )
    assert_one_line_refusal(outcome, names=f"cannot write {place / 'match.json'}")
    assert fingerprint(tmp_path) == before


def test_another_users_journal_is_shown_without_touching_its_mode(tmp_path: Path) -> None:
    """chmod on someone else's file fails: reading never tries it."""
    place, _ = _place(tmp_path)
    path = make_journal(place / "journal.db")
    mine = _shown(path)
    os.chown(path, 65534, os.getgid())  # nobody's, readable by this group
    before = fingerprint(tmp_path)
    assert _shown(path) == mine
    assert fingerprint(tmp_path) == before


def test_sim_and_run_refuse_another_users_journal_they_cannot_write(tmp_path: Path) -> None:
    place, exports = _place(tmp_path)
    config = mock_table_config(tmp_path)
    path = make_journal(place / "journal.db")
    os.chown(path, 65534, os.getgid())
    before = fingerprint(tmp_path)
    for command, argv in _every_command(path, config, exports).items():
        if command.startswith(("sim", "run")):
            outcome = own_process(*argv, unprivileged=True)
            _assert_refused(command, outcome, f"cannot write journal {path}: the file")
    assert fingerprint(tmp_path) == before


def test_sim_without_a_script_refuses_a_journal_it_would_not_record_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = fingerprint(tmp_path)
    outcome = in_process(capsys, "sim", "--journal", str(tmp_path / "journal.db"))
    assert_one_line_refusal(outcome, names="--journal needs --headless --script")
    assert fingerprint(tmp_path) == before
