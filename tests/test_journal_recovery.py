"""Every way back loses nothing (issue 25): a table killed (kill -9, a power cut) and started
again, or its next match begun with ``--new-journal``, keeps every committed decision, the
ones still in the -wal included, and carries every undelivered one into the new journal
(R713, R900); a reopening never waits on a dead writer (R901); a journal reached through a
link is refused before anything is made, naming the file to give instead (R902)."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from firmware_py.table import journal_file
from firmware_py.table.journal import Journal, JournalError
from tests.journal_helpers import UNPRIVILEGED, fingerprint, make_journal, mock_table_config
from tests.recovery_campaign import FILE_CHORES
from tests.recovery_full_disk import in_a_small_disk
from tests.recovery_helpers import (
    decisions,
    in_a_killed_process,
    kill_here,
    killed_on_the_hub,
    run_until_ready,
    waiting,
)


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return mock_table_config(tmp_path)


def _aside(place: Path, why: str = "old") -> Path:
    (moved,) = [
        name
        for name in place.glob(f"journal.db.{why}-*")
        if not name.name.endswith(journal_file.SIDE_FILES)
    ]
    return moved


def test_run_new_journal_after_a_kill_starts_and_carries_every_decision_of_the_wal(
    tmp_path: Path, config: Path
) -> None:
    """Finding 1: refused 22 times in 22 ("-wal, -shm left beside it ... move them away")."""
    place = tmp_path / "place"
    place.mkdir()
    path = place / "journal.db"
    shown = killed_on_the_hub(path)
    assert (place / "journal.db-wal").exists()  # the commits are still in the -wal
    held = waiting(path)
    assert len(held) == len(shown) > 0
    code, out, err = run_until_ready(config, "--journal", str(path), "--new-journal")
    assert (code, err) == (0, ""), out
    assert not FILE_CHORES.search(out), out
    assert f"event=journal_carried decisions={len(held)} lost=0" in out
    assert decisions(_aside(place)) == shown  # the old journal set aside whole
    assert waiting(path) >= held  # every undelivered one goes on from the new journal


def test_a_kill_while_the_old_journal_is_moved_aside_loses_nothing(tmp_path: Path) -> None:
    """A kill between the journal's old name going and its -wal's: the next start finds the
    new journal made whole, and the -wal and -shm left at the old name are second names of
    those moved aside with it (R900): dropped, never read into the new journal."""
    path = tmp_path / "journal.db"
    shown = killed_on_the_hub(path)
    held = waiting(path)
    gone: list[Path] = []
    unlink = Path.unlink

    def dies_after_the_journal_goes(self: Path, missing_ok: bool = False) -> None:
        unlink(self, missing_ok)
        gone.append(self)
        if self == path:
            kill_here()

    def new_match() -> None:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Path, "unlink", dies_after_the_journal_goes)
            Journal.open(path, new=True, outbox=True)

    in_a_killed_process(new_match)
    assert not path.exists() and (tmp_path / "journal.db-wal").exists()  # cut where meant
    Journal.open(path, outbox=True).close()  # the restart
    assert not list(tmp_path.glob("*.orphan-*"))
    assert decisions(_aside(tmp_path)) == shown
    assert waiting(path) == held
    assert decisions(path) == []


def test_a_wal_with_no_journal_of_its_own_is_set_aside_under_a_name_never_replayed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.db"
    killed_on_the_hub(path)
    wal = (tmp_path / "journal.db-wal").read_bytes()
    path.rename(tmp_path / "elsewhere.db")  # moved by hand without its -wal and -shm
    journal = Journal.open(path, outbox=True)
    journal.close()
    (kept,) = tmp_path.glob("journal.db-wal.orphan-*")
    assert kept.read_bytes() == wal
    assert decisions(path) == [] and waiting(path) == set()  # nothing of the old -wal in it


def _killed_as_its_wal_restarts(path: Path) -> int:
    """The files a writer leaves when killed as it restarts its -wal for a commit: the -wal's
    new header written (and synced), none of the commit's frames yet, the -shm as it was.
    SQLite's readonly_shm reader retried such a -wal for ten seconds, then failed with
    "locking protocol" (R901). The number of decisions committed (all in the journal file)."""
    journal = Journal.open(path)
    for n in range(3):
        journal.add("event", float(n), {"event": "count", "n": n + 1})
        journal.commit()
    shm = (path.parent / f"{path.name}-shm").read_bytes()
    journal._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()  # every frame backfilled
    journal.add("event", 3.0, {"event": "count", "n": 4})
    journal.commit()  # restarts the -wal: a new header, then this commit's frames
    copy = path.with_name("copy.db")
    shutil.copyfile(path, copy)
    header = (path.parent / f"{path.name}-wal").read_bytes()[:32]
    (copy.parent / f"{copy.name}-wal").write_bytes(header)
    (copy.parent / f"{copy.name}-shm").write_bytes(shm)
    journal.close()
    return 3


def test_reading_beside_a_dead_writer_never_waits_for_its_shm(tmp_path: Path) -> None:
    """Finding 8: make bench's 9,973.9 ms recovery after a kill, one of 40."""
    committed = _killed_as_its_wal_restarts(tmp_path / "journal.db")
    copy = tmp_path / "copy.db"
    started = time.perf_counter()
    assert len(decisions(copy)) == committed
    assert time.perf_counter() - started < 1


def test_reopening_after_a_dead_writer_never_waits_for_its_shm(tmp_path: Path) -> None:
    committed = _killed_as_its_wal_restarts(tmp_path / "journal.db")
    copy = tmp_path / "copy.db"
    started = time.perf_counter()
    Journal.open(copy).close()
    assert time.perf_counter() - started < 1
    assert len(decisions(copy)) == committed


def test_reading_beside_a_live_table_still_sees_its_latest_commit(tmp_path: Path) -> None:
    """A live writer's -shm is read as it is (readonly_shm), never a private copy's guess."""
    path = tmp_path / "journal.db"
    journal = Journal.open(path)
    try:
        journal.add("event", 0.0, {"event": "count", "n": 1})
        journal.commit()
        assert decisions(path) == [{"event": "count", "n": 1}]
    finally:
        journal.close()


def test_new_journal_through_a_link_is_refused_leaving_nothing_and_names_the_file(
    tmp_path: Path, config: Path
) -> None:
    """Finding 7: it left <name>.creating behind. The line's instruction, followed literally,
    begins the new match (R902)."""
    place = tmp_path / "place"
    place.mkdir()
    path = place / "journal.db"
    shown = killed_on_the_hub(path)
    link = place / "latest.db"
    link.symlink_to(path)
    before = fingerprint(place)
    code, out, _ = run_until_ready(config, "--journal", str(link), "--new-journal")
    assert code == 2 and out.count("\n") == 1, out
    assert fingerprint(place) == before
    said = re.search(r"symbolic link to (\S+); give that path to --journal", out)
    assert said is not None, out
    code, out, err = run_until_ready(config, "--journal", said[1], "--new-journal")
    assert (code, err) == (0, ""), out
    assert decisions(_aside(place)) == shown


def test_a_journal_file_never_names_a_chore_with_its_own_files() -> None:
    """R900: no message of the journal's tells a person to move, delete or rename its files."""
    for module in ("journal_file.py", "journal.py", "journal_cli.py", "commands.py"):
        source = (Path(journal_file.__file__).parent / module).read_text()
        assert "move them away" not in source and "move the file yourself" not in source


@pytest.mark.parametrize("extra", [[], ["--new-journal"]], ids=["resume", "new-journal"])
def test_a_full_disk_is_said_in_those_words_and_making_room_as_told_loses_nothing(
    tmp_path: Path, config: Path, extra: list[str]
) -> None:
    """Finding 7: "cannot open journal ... to write: disk I/O error" (SQLite's word for a -shm
    it cannot size). The line names the full disk and what to do; done literally (a file of
    the person's own removed from that disk), the table starts with every decision."""
    found = in_a_small_disk(tmp_path / "disk", config, new_journal=bool(extra))
    full = found["full"]
    assert (full["code"], full["err"]) == (2, ""), full
    assert full["out"].count("\n") == 1
    assert "disk I/O error" not in full["out"]
    assert "the disk it is on is full" in full["out"]
    assert "make room on that disk, then start again" in full["out"]
    assert not FILE_CHORES.search(full["out"])
    again = found["again"]
    assert (again["code"], again["err"]) == (0, ""), again
    assert found["after"] == found["before"] != []


# The console script `gametable` as pip makes it from pyproject's entry point, saying first that
# Python is up: a Ctrl-C before that is the interpreter's own start, and one in the script's own
# first line (importing the entry point, about a millisecond) is before any handler of ours.
_MODULE, _FUNCTION = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
)["project"]["scripts"]["gametable"].split(":")
AS_THE_GAMETABLE_SCRIPT = (
    f"import sys; print('up', flush=True); from {_MODULE} import {_FUNCTION}; "
    f"sys.exit({_FUNCTION}())"
)


def test_ctrl_c_while_a_table_starts_is_one_line_never_a_traceback(
    tmp_path: Path, config: Path
) -> None:
    """Finding 7: 9 of 24 Ctrl-Cs during start-up printed a KeyboardInterrupt traceback (most
    while the families and GPIO were imported, before main ran)."""
    command = [sys.executable, "-c", AS_THE_GAMETABLE_SCRIPT, "run", "--config", str(config)]
    command += ["--journal", str(tmp_path / "journal.db")]
    for delay in (0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.45):
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stdout is not None and process.stdout.readline() == "up\n"
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        assert "Traceback" not in out + err, (delay, err)
        if process.returncode == 130:  # the log lines before it, then one line
            assert err == "gametable: error: interrupted (Ctrl-C)\n", delay
        else:  # it had started: the daemon's own stop
            assert process.returncode == 0, (delay, out, err)
    Journal.open(tmp_path / "journal.db").close()  # whatever was cut short, it opens


def _file_steps() -> list[tuple[object, str]]:
    """Every call by which ``Journal.open(new=True)`` changes the directory."""
    import os

    return [(os, "link"), (os, "unlink"), (os, "replace"), (os, "rename"), (os, "close")]


def _count_steps(path: Path) -> int:
    """How many file-system steps beginning a new match takes (a dry run on a copy)."""
    calls = 0
    with pytest.MonkeyPatch.context() as patch:
        for owner, name in _file_steps():
            real = getattr(owner, name)

            def counted(*args: object, _real: object = real, **kwargs: object) -> object:
                nonlocal calls
                calls += 1
                return _real(*args, **kwargs)  # type: ignore[operator]

            patch.setattr(owner, name, counted)
        Journal.open(path, new=True, outbox=True).close()
    return calls


def test_a_kill_at_each_step_of_beginning_a_new_match_loses_nothing(tmp_path: Path) -> None:
    """R900: `run --new-journal` after a kill -9, itself killed after each of its file-system
    steps (each link, unlink, rename, close), then begun again as the person would (or
    restarted by systemd): every decision the table showed stays in its journal, every
    undelivered one goes on."""
    rehearsal = tmp_path / "rehearsal"
    rehearsal.mkdir()
    killed_on_the_hub(rehearsal / "journal.db")
    steps = _count_steps(rehearsal / "journal.db")
    assert steps >= 8  # links, unlinks, the rename into place, the descriptors closed
    for step in range(steps):
        place = tmp_path / f"kill-{step}"
        place.mkdir()
        path = place / "journal.db"
        shown = killed_on_the_hub(path)
        held = waiting(path)

        def new_match(at: int = step, where: Path = path) -> None:
            done = 0
            with pytest.MonkeyPatch.context() as patch:
                for owner, name in _file_steps():
                    real = getattr(owner, name)

                    def step_then_die(*args: object, _real: object = real, **kw: object) -> object:
                        nonlocal done
                        result = _real(*args, **kw)  # type: ignore[operator]
                        done += 1
                        if done > at:
                            kill_here()
                        return result

                    patch.setattr(owner, name, step_then_die)
                Journal.open(where, new=True, outbox=True)

        in_a_killed_process(new_match)
        # the step done again, or (every other step) systemd's restart without --new-journal
        Journal.open(path, new=step % 2 == 0, outbox=True).close()
        assert not list(place.glob("*.orphan-*")), step
        inodes = [name.stat().st_ino for name in place.iterdir()]
        assert len(inodes) == len(set(inodes)), step  # no file left under two names
        originals = [
            decisions(name)
            for name in [path, *place.glob("journal.db.old-*")]
            if not name.name.endswith(journal_file.SIDE_FILES)
        ]
        assert shown in [found[: len(shown)] for found in originals], step
        assert held <= waiting(path), step


def test_a_second_new_journal_while_one_is_made_is_refused_as_in_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R906 (FINDINGS F1): a second `run --new-journal` started while the first moves the
    journal aside is refused in one line; it never takes the first's new journal for its own
    (two tables had both become ready, one recording into deleted files)."""
    path = tmp_path / "journal.db"
    killed_on_the_hub(path)
    held = waiting(path)
    monkeypatch.setattr(journal_file, "OPENING_PATIENCE", 0.1, raising=False)
    first_table = JournalError("the second table was never started")
    second: list[BaseException | Journal] = []
    move_aside = journal_file.move_aside

    def another_starts_meanwhile(where: Path, why: str) -> Path:
        moved = move_aside(where, why)
        if second:  # the second table's own steps
            return moved
        second.append(first_table)
        try:
            second[0] = Journal.open(where, new=True, outbox=True)
        except JournalError as refused:
            second[0] = refused
        return moved

    monkeypatch.setattr(journal_file, "move_aside", another_starts_meanwhile)
    first = Journal.open(path, new=True, outbox=True)
    first.close()
    (refused,) = second
    assert isinstance(refused, JournalError)
    assert "is in use by another gametable" in str(refused)
    assert first.carried_over == len(held)
    assert held <= waiting(path)
    _aside(tmp_path)  # one journal moved aside, not two


def test_a_second_table_while_one_creates_the_journal_is_refused_as_in_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R906 (FINDINGS F2): two tables started at once on a path with no journal: the second
    is refused in one line, the first records; never SQLite's words ("table meta already
    exists"), never both refused."""
    path = tmp_path / "journal.db"
    monkeypatch.setattr(journal_file, "OPENING_PATIENCE", 0.1, raising=False)
    first_table = JournalError("the second table was never started")
    second: list[BaseException | Journal] = []
    install = journal_file.install

    def another_starts_meanwhile(making: Path, where: Path) -> None:
        if second:  # the second table's own steps
            install(making, where)
            return
        second.append(first_table)
        try:
            second[0] = Journal.open(where)
        except JournalError as refused:
            second[0] = refused
        install(making, where)

    monkeypatch.setattr(journal_file, "install", another_starts_meanwhile)
    Journal.open(path).close()
    (refused,) = second
    assert isinstance(refused, JournalError)
    assert "is in use by another gametable" in str(refused)
    assert sorted(name.name for name in tmp_path.iterdir()) == ["journal.db"]


def test_a_persons_own_second_names_beside_the_journal_are_kept(tmp_path: Path) -> None:
    """R907 (FINDINGS F5): only the names a move aside gives (`.old-<time>`,
    `.corrupt-<time>`) are dropped as second names; a hard link a person made (a "backup")
    stays."""
    path = tmp_path / "journal.db"
    shown = killed_on_the_hub(path)
    os.link(path, tmp_path / "journal.db.backup")
    os.link(tmp_path / "journal.db-wal", tmp_path / "journal.db.backup-wal")
    Journal.open(path, outbox=True).close()
    assert (tmp_path / "journal.db.backup").exists()
    assert (tmp_path / "journal.db.backup-wal").exists()
    assert decisions(path) == shown


_OPEN_TO_RECORD = """
import sys
from pathlib import Path
from firmware_py.table.journal import Journal, JournalError
try:
    Journal.open(Path(sys.argv[1]), outbox=True).close()
except JournalError as refused:
    print(refused)
"""


@pytest.mark.parametrize(
    ("side", "mode", "says"),
    [
        ("-wal", 0o000, "cannot read {path}-wal: Permission denied"),
        ("-wal", 0o444, "its {path}-wal cannot be opened to write (Permission denied)"),
        ("-shm", 0o000, "its {path}-shm cannot be opened to write (Permission denied)"),
        ("-shm", 0o444, "its {path}-shm cannot be opened to write (Permission denied)"),
    ],
)
def test_a_killed_journals_side_file_it_cannot_use_is_named_and_nothing_changes(
    tmp_path: Path, side: str, mode: int, says: str
) -> None:
    """FINDINGS F3, F4, F7: a `-wal` or `-shm` this user cannot read or write (a volunteer's
    chmod, a table once started as root) is named in the refusal; one it could not write was
    opened and failed only at the table's first commit, one it could not read was called the
    journal itself, or "unable to open database file"."""
    path = tmp_path / "journal.db"
    shown = killed_on_the_hub(path)
    tmp_path.chmod(0o777)
    Path(f"{path}{side}").chmod(mode)
    before = fingerprint(tmp_path)
    done = subprocess.run(
        [*UNPRIVILEGED, sys.executable, "-c", _OPEN_TO_RECORD, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stderr == ""
    assert done.stdout.count("\n") == 1 and says.format(path=path) in done.stdout, done.stdout
    assert fingerprint(tmp_path) == before
    Path(f"{path}{side}").chmod(0o640)
    assert decisions(path) == shown


def test_the_writers_lock_of_a_journal_moved_aside_meanwhile_is_not_the_writers_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R906: a table that waited for the writer's lock while another moved the journal aside
    and made a new one in its place (which that other now holds) is refused as in use; it
    took the lock of the file moved aside and went on to record to the new one."""
    path = make_journal(tmp_path / "journal.db")
    holder = os.open(path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)  # the other table, recording
    flock_within = journal_file._flock_within
    new_holder: list[int] = []
    moved: list[bool] = []

    def the_other_moves_it_aside_meanwhile(descriptor: int, seconds: float) -> bool:
        if not moved:
            moved.append(True)
            path.rename(tmp_path / "journal.db.old-20261129T093000")
            monkeypatch.setattr(journal_file, "_flock_within", flock_within)
            make_journal(path)
            monkeypatch.setattr(journal_file, "_flock_within", the_other_moves_it_aside_meanwhile)
            new_holder.append(os.open(path, os.O_RDONLY))
            fcntl.flock(new_holder[0], fcntl.LOCK_EX)  # its new journal's lock
            os.close(holder)  # and then the old one's
        return flock_within(descriptor, seconds)

    monkeypatch.setattr(journal_file, "_flock_within", the_other_moves_it_aside_meanwhile)
    try:
        with pytest.raises(JournalError, match="is in use by another gametable"):
            journal_file.lock_writer(path)
    finally:
        os.close(new_holder[0])


def test_a_journal_set_aside_for_not_replaying_keeps_its_writers_lock_until_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R906: `run` moving aside a journal that does not replay holds its writer's lock until
    it is moved; it let go first, so a table started then took the journal being moved aside
    for one to record to."""
    path = make_journal(tmp_path / "journal.db")
    journal = Journal.open(path)
    meanwhile: list[str] = []
    move_aside = journal_file.move_aside

    def another_table_starts_meanwhile(where: Path, why: str) -> Path:
        try:
            journal_file.lock_writer(where)()
            meanwhile.append("took the writer's place")
        except JournalError as refused:
            meanwhile.append(str(refused))
        return move_aside(where, why)

    monkeypatch.setattr(journal_file, "move_aside", another_table_starts_meanwhile)
    journal.set_aside("it does not replay")
    (said,) = meanwhile
    assert "is in use by another gametable" in said
    assert _aside(tmp_path, "corrupt").exists()


def test_a_directory_where_a_new_journal_is_made_is_one_line_never_a_crash(
    tmp_path: Path, config: Path
) -> None:
    """FINDINGS F8: a directory at `<name>.creating` (a volunteer's) made `run` end with
    `event=crashed error=IsADirectoryError(21, 'Is a directory')`, a crash loop under systemd;
    it is one line naming it, and it is left as it was."""
    path = tmp_path / "place" / "journal.db"
    path.parent.mkdir()
    (path.parent / "journal.db.creating").mkdir()
    before = fingerprint(path.parent)
    code, out, err = run_until_ready(config, "--journal", str(path))
    assert (code, err) == (2, ""), out
    assert out.count("\n") == 1 and out.startswith("CRITICAL event=journal_refused error=")
    assert "journal.db.creating, the name a new journal is made under, is a directory" in out
    assert fingerprint(path.parent) == before
