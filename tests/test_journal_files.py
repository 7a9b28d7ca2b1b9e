"""The files of a journal: reading creates and changes nothing beside it, whatever the state of its
``-wal`` and ``-shm`` (R121); the three files are 0640 (R124); ``export --out`` only ever writes a
new file, whole (R123); a command that fails creates nothing (R122)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import sqlite3
import struct
import subprocess
from pathlib import Path

import pytest

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import VirtualTable, parse_script
from firmware_py.table.journal import Journal
from tests.faults import recorded_events
from tests.journal_helpers import (
    CLI,
    SCRIPTS,
    assert_one_line_refusal,
    fingerprint,
    in_process,
    make_journal,
    mock_table_config,
    own_process,
)

SIDES = ("-wal", "-shm")


def _half_a_match(path: Path) -> Journal:
    """A journal still open for writing, half-way through a match: its -wal and -shm exist."""
    journal = Journal.open(path)
    settings, steps = parse_script(
        (SCRIPTS / "combo4-match.jsonl").read_text().splitlines(), TableSettings()
    )
    table = VirtualTable(settings, lambda event: None, journal=journal)
    table.play(steps[: len(steps) // 2])
    table.close()
    return journal


def _killed(path: Path) -> None:
    """The table killed half-way through: its -wal and -shm stay, with commits not yet in the
    journal file itself."""
    pid = os.fork()
    if pid == 0:
        _half_a_match(path)
        os._exit(0)  # no close, no checkpoint: as kill -9 leaves it
    os.waitpid(pid, 0)


def _decisions(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    outcome = in_process(capsys, "journal", "show", "--json", str(path))
    assert outcome.code == 0, outcome
    return outcome.stdout


def test_reading_a_closed_journal_creates_nothing_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_journal(tmp_path / "journal.db")
    before = fingerprint(tmp_path)
    assert '"event": "plunge"' in _decisions(capsys, path)
    assert in_process(capsys, "journal", "export", str(path)).code == 0
    assert fingerprint(tmp_path) == before  # no -wal, no -shm, the same mode and mtime


def test_reading_a_live_journal_sees_every_commit_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    journal = _half_a_match(path)
    try:
        live = list(tmp_path.iterdir())
        assert {p.name for p in live} == {
            "journal.db",
            "journal.db-wal",
            "journal.db-shm",
            "journal.db-owner",
        }
        before = fingerprint(tmp_path)
        shown = own_process("journal", "show", "--json", str(path))  # as from another terminal
        assert fingerprint(tmp_path) == before
    finally:
        journal.close()
    assert shown.stdout == _decisions(capsys, path)  # what the table had committed, all of it


def test_reading_a_killed_tables_journal_reads_its_wal_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    _killed(path)
    before = fingerprint(tmp_path)
    shown = _decisions(capsys, path)
    assert fingerprint(tmp_path) == before
    Journal.open(path).close()  # a writer takes the -wal into the journal file
    assert not Path(f"{path}-wal").exists()
    assert shown == _decisions(capsys, path)


def _wal_header() -> bytes:
    """The 32 bytes a writer puts at the start of an empty -wal before its first frame (SQLite's
    WAL format: magic for big-endian checksums, version, page size, checkpoint, salts, sum)."""
    header = struct.pack(">6I", 0x377F0683, 3007000, 4096, 0, 0x7162C411, 0x8A7480CC)
    first = second = 0
    for at in range(0, len(header), 8):
        a, b = struct.unpack(">2I", header[at : at + 8])
        first = (first + a + second) & 0xFFFFFFFF
        second = (second + b + first) & 0xFFFFFFFF
    return header + struct.pack(">2I", first, second)


def test_a_table_killed_as_it_began_a_commit_is_read_from_a_private_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its -shm no longer matches its -wal: SQLite must rebuild the index before reading, which
    it cannot do read-only ("locking protocol"); a private copy of the files can."""
    path = make_journal(tmp_path / "journal.db")
    closed = _decisions(capsys, path)
    pid = os.fork()
    if pid == 0:
        Journal.open(path)
        os._exit(0)  # killed with its -wal and -shm open
    os.waitpid(pid, 0)
    Path(f"{path}-wal").write_bytes(_wal_header())  # killed before its first frame
    before = fingerprint(tmp_path)
    assert _decisions(capsys, path) == closed
    assert fingerprint(tmp_path) == before


def test_a_journal_copied_without_its_shm_is_read_whole_and_left_as_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table, copy = tmp_path / "table", tmp_path / "copy"
    table.mkdir()
    copy.mkdir()
    _killed(table / "journal.db")
    for name in ("journal.db", "journal.db-wal"):
        (copy / name).write_bytes((table / name).read_bytes())
    before = fingerprint(copy)
    assert _decisions(capsys, copy / "journal.db") == _decisions(capsys, table / "journal.db")
    assert fingerprint(copy) == before


def test_a_symbolic_link_to_a_live_journal_reads_the_journals_wal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    _killed(path)
    (tmp_path / "latest.db").symlink_to(path)
    assert _decisions(capsys, tmp_path / "latest.db") == _decisions(capsys, path)


def test_the_journal_and_its_wal_and_shm_are_not_world_readable(tmp_path: Path) -> None:
    """SQLite gives -wal and -shm the journal's own mode: the journal is created 0640, under
    any umask that allows it."""
    umask = os.umask(0o022)
    try:
        journal = _half_a_match(tmp_path / "journal.db")
    finally:
        os.umask(umask)
    try:
        modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
    finally:
        journal.close()
    assert modes == {
        "journal.db": 0o640,
        "journal.db-wal": 0o640,
        "journal.db-shm": 0o640,
        "journal.db-owner": 0o640,  # the writer's marker of its -wal's file (R914)
    }


# --- export --out ---------------------------------------------------------------------------------


def test_export_writes_a_new_file_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_journal(tmp_path / "journal.db")
    out = tmp_path / "match.json"
    to_stdout = in_process(capsys, "journal", "export", str(path))
    outcome = in_process(capsys, "journal", "export", str(path), "--out", str(out))
    assert (outcome.code, outcome.stdout, outcome.stderr) == (0, f"wrote {out}\n", "")
    assert out.read_text() == to_stdout.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.db", "match.json"]


@pytest.mark.parametrize("name", ["the journal", "a hard link to it", "a symbolic link to it"])
def test_export_refuses_to_write_over_the_journal(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_journal(tmp_path / "journal.db")
    out = {
        "the journal": path,
        "a hard link to it": tmp_path / "hard.db",
        "a symbolic link to it": tmp_path / "soft.db",
    }[name]
    if name == "a hard link to it":
        os.link(path, out)
    elif name == "a symbolic link to it":
        out.symlink_to(path)
    before = fingerprint(tmp_path)
    outcome = in_process(capsys, "journal", "export", str(path), "--out", str(out))
    assert_one_line_refusal(outcome, names=f"{out} already exists")
    assert fingerprint(tmp_path) == before


def test_export_never_replaces_an_existing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_journal(tmp_path / "journal.db")
    (tmp_path / "match.json").write_text("yesterday's match\n")
    before = fingerprint(tmp_path)
    outcome = in_process(
        capsys, "journal", "export", str(path), "--out", str(tmp_path / "match.json")
    )
    assert_one_line_refusal(outcome, names="export never replaces a file")
    assert fingerprint(tmp_path) == before


def test_export_into_a_missing_directory_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_journal(tmp_path / "journal.db")
    before = fingerprint(tmp_path)
    out = tmp_path / "missing" / "match.json"
    outcome = in_process(capsys, "journal", "export", str(path), "--out", str(out))
    assert_one_line_refusal(outcome, names=f"cannot write {out}: No such file or directory")
    assert fingerprint(tmp_path) == before


def _with_file_size_limit(limit: int) -> None:
    """In the child: files stop growing at ``limit`` bytes, as on a full disk (EFBIG)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_an_export_that_cannot_be_written_whole_leaves_nothing(tmp_path: Path) -> None:
    path = make_journal(tmp_path / "journal.db")
    before = fingerprint(tmp_path)
    done = subprocess.run(
        [*CLI, "journal", "export", str(path), "--out", str(tmp_path / "match.json")],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: _with_file_size_limit(1000),
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and "cannot write" in done.stderr
    assert fingerprint(tmp_path) == before


# --- a command that fails creates nothing ---------------------------------------------------------


def test_a_journal_that_cannot_be_created_whole_leaves_nothing(tmp_path: Path) -> None:
    place = tmp_path / "place"
    place.mkdir()
    script = str(SCRIPTS / "plunge.jsonl")
    done = subprocess.run(
        [*CLI, "sim", "--headless", "--script", script, "--journal", str(place / "journal.db")],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: _with_file_size_limit(2000),
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1
    assert f"cannot create journal {place / 'journal.db'}" in done.stderr
    assert list(place.iterdir()) == []


def test_run_without_its_oled_creates_no_journal(tmp_path: Path) -> None:
    config = mock_table_config(tmp_path)
    config.write_text(
        config.read_text().replace("[oled]\nenabled = false", "[oled]\nenabled = true")
    )
    place = tmp_path / "place"
    place.mkdir()
    outcome = own_process("run", "--config", str(config), "--journal", str(place / "journal.db"))
    assert outcome.code == 1 and "OLED" in outcome.stderr
    assert list(place.iterdir()) == []


def test_a_journal_that_cannot_be_opened_to_write_is_left_as_it_was(tmp_path: Path) -> None:
    """A full disk as run opens the journal: nothing is left beside it (no -wal, no -shm)."""
    place = tmp_path / "place"
    place.mkdir()
    path = make_journal(place / "journal.db")
    config = mock_table_config(tmp_path)
    before = fingerprint(place)
    done = subprocess.run(
        [*CLI, "run", "--config", str(config), "--journal", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        preexec_fn=lambda: _with_file_size_limit(1000),
    )
    assert (done.returncode, done.stderr) == (2, "")
    assert done.stdout.count("\n") == 1
    assert f"cannot open journal {path} to write" in done.stdout
    assert fingerprint(place) == before


def test_a_wal_left_beside_a_missing_journal_is_kept_aside_and_never_taken_into_a_new_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """R900: SQLite would replay an old -wal into a new journal of the same name. The table
    sets it aside itself (no instruction to a person), byte for byte, under a name no journal
    reads, logs it, and records the new match."""
    _killed(tmp_path / "journal.db")
    (tmp_path / "journal.db").unlink()  # removed by hand, its -wal and -shm forgotten
    orphans = {suffix: (tmp_path / f"journal.db{suffix}").read_bytes() for suffix in SIDES}
    script = str(SCRIPTS / "plunge.jsonl")
    journal = str(tmp_path / "journal.db")
    outcome = in_process(capsys, "sim", "--headless", "--script", script, "--journal", journal)
    assert (outcome.code, outcome.stderr) == (0, "")
    for suffix, content in orphans.items():
        (kept,) = tmp_path.glob(f"journal.db{suffix}.orphan-*")
        assert kept.read_bytes() == content
    assert "event=journal_side_files_set_aside" in caplog.text
    printed = [json.loads(line) for line in outcome.stdout.splitlines()]
    assert recorded_events(tmp_path / "journal.db") == printed  # its own match, nothing else


@pytest.mark.parametrize("fresh", [[], ["--new-journal"]], ids=["resume", "new-journal"])
def test_a_second_table_on_a_journal_in_use_is_refused_and_changes_nothing(
    tmp_path: Path, fresh: list[str]
) -> None:
    """R127: one writer at a time; the second neither records nor moves the first's journal."""
    place = tmp_path / "place"
    place.mkdir()
    path = place / "journal.db"
    config = mock_table_config(tmp_path)
    journal = _half_a_match(path)
    try:
        before = fingerprint(place)
        outcome = own_process("run", "--config", str(config), "--journal", str(path), *fresh)
        assert fingerprint(place) == before
    finally:
        journal.close()
    assert (outcome.code, outcome.stderr) == (2, "")
    assert outcome.stdout.count("\n") == 1
    assert "is in use by another gametable" in outcome.stdout


def test_a_headless_script_on_a_journal_in_use_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    journal = _half_a_match(path)
    try:
        before = fingerprint(tmp_path)
        script = str(SCRIPTS / "combo4-match.jsonl")
        outcome = own_process("sim", "--headless", "--script", script, "--journal", str(path))
        assert fingerprint(tmp_path) == before
    finally:
        journal.close()
    assert_one_line_refusal(outcome, names="is in use by another gametable")


def test_the_journal_is_free_again_once_its_table_stops(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    _half_a_match(path).close()
    Journal.open(path).close()  # no lock left behind


def test_a_new_journal_writes_small_pages_so_a_decision_wears_the_card_less(
    tmp_path: Path,
) -> None:
    """Each commit syncs one WAL frame per page it changed: 1 KiB pages cut a decision's bytes
    written from about 5.9 kB to 4.3 kB (docs/service.md's storage target; make bench)."""
    path = tmp_path / "journal.db"
    Journal.open(path, new=True).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA page_size").fetchone() == (1024,)


def _copied_in_beside_a_killed_tables_wal(tmp_path: Path) -> tuple[Path, Path]:
    """F9's reproducer: a table killed (its decisions in its -wal), its journal taken away, and
    another table's closed journal copied in (``cp``) at its path, the -wal and -shm left."""
    (tmp_path / "elsewhere").mkdir()
    source = make_journal(tmp_path / "elsewhere" / "journal.db", "combo4-match")
    path = tmp_path / "hall" / "journal.db"
    path.parent.mkdir()
    _killed(path)
    path.rename(tmp_path / "taken-away.db")
    subprocess.run(["cp", str(source), str(path)], check=True)
    assert all(Path(f"{path}{suffix}").exists() for suffix in SIDES)
    return source, path


def test_a_journal_copied_in_beside_another_files_wal_is_shown_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R914: `journal show` reads the copied journal alone, and changes nothing."""
    source, path = _copied_in_beside_a_killed_tables_wal(tmp_path)
    before = fingerprint(path.parent)
    assert _decisions(capsys, path) == _decisions(capsys, source)
    assert fingerprint(path.parent) == before


def test_a_table_started_on_a_journal_copied_beside_another_files_wal_sets_the_wal_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """R914: every decision of the copied journal stays; the -wal and -shm are another file's,
    kept byte for byte under orphan names and named in one log line."""
    source, path = _copied_in_beside_a_killed_tables_wal(tmp_path)
    stale = {suffix: Path(f"{path}{suffix}").read_bytes() for suffix in SIDES}
    Journal.open(path).close()  # as `gametable run` resumes
    assert recorded_events(path) == recorded_events(source)
    for suffix, content in stale.items():
        (kept,) = path.parent.glob(f"journal.db{suffix}.orphan-*")
        assert kept.read_bytes() == content
    (line,) = [r for r in caplog.records if "journal_side_files_set_aside" in r.getMessage()]
    assert "-wal.orphan-" in line.getMessage()


def test_a_new_journal_over_one_copied_beside_another_files_wal_moves_the_copy_aside_whole(
    tmp_path: Path,
) -> None:
    """R914: `run --new-journal` moves aside the copied journal with its own decisions."""
    source, path = _copied_in_beside_a_killed_tables_wal(tmp_path)
    Journal.open(path, new=True).close()
    (moved,) = path.parent.glob("journal.db.old-*[0-9]")
    assert recorded_events(moved) == recorded_events(source)
    assert recorded_events(path) == []
    assert len(list(path.parent.glob("journal.db-wal.orphan-*"))) == 1


def test_a_journal_moved_away_and_back_keeps_its_wals_decisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R914: `mv` within the file system keeps the file, so its -wal is its own."""
    path = tmp_path / "journal.db"
    _killed(path)
    shown = _decisions(capsys, path)
    path.rename(tmp_path / "away.db")
    (tmp_path / "away.db").rename(path)
    assert _decisions(capsys, path) == shown
    Journal.open(path).close()
    assert not list(tmp_path.glob("*.orphan-*"))
    assert _decisions(capsys, path) == shown


def test_a_journal_written_before_the_owner_marker_reads_its_wal_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R914: with no -owner beside it nothing tells the -wal to be another's: it is read."""
    path = tmp_path / "journal.db"
    _killed(path)
    shown = _decisions(capsys, path)
    Path(f"{path}-owner").unlink()
    assert _decisions(capsys, path) == shown
    Journal.open(path).close()
    assert not list(tmp_path.glob("*.orphan-*"))
    assert _decisions(capsys, path) == shown


def test_a_journal_closed_whole_leaves_no_owner_marker(tmp_path: Path) -> None:
    """R914: with no -wal left there is nothing to tell apart: a closed journal is one file."""
    path = tmp_path / "journal.db"
    _killed(path)
    assert Path(f"{path}-owner").exists()
    Journal.open(path).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.db"]


def test_a_journal_moved_aside_keeps_its_wal_and_leaves_its_marker_behind(
    tmp_path: Path,
) -> None:
    """R915: the journal moved aside reads its own -wal by name; the new journal has its own
    marker only while it records."""
    path = tmp_path / "journal.db"
    _killed(path)
    Journal.open(path, new=True).close()
    assert not list(tmp_path.glob("journal.db.old-*-owner"))
    assert not Path(f"{path}-owner").exists()
