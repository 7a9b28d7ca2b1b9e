"""For the journal tests: making a journal, running a command on a path (in this process, or as
its own process, optionally without root's power to read and write anything), and a
fingerprint of a directory that shows nothing in it changed."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.cli_args import shortened
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import run_script
from firmware_py.table.journal import Journal

SCRIPTS = Path(__file__).resolve().parents[1] / "docs/scripts"
CLI = [sys.executable, "-m", "firmware_py.cli"]
# Tests run as root here, and root reads and writes whatever the file modes say: without these
# capabilities it is held to the modes like any user (and to ownership, for chmod).
UNPRIVILEGED = (
    ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--inh-caps=-all"]
    if os.geteuid() == 0
    else []
)
MOCK_TABLE = (
    '[gpio]\npin_factory = "mock"\n[oled]\nenabled = false\n[scoreboard]\nenabled = false\n'
)


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str


def make_journal(path: Path, script: str = "plunge") -> Path:
    lines = (SCRIPTS / f"{script}.jsonl").read_text().splitlines()
    journal = Journal.open(path)
    try:
        run_script(lines, TableSettings(), lambda event: None, journal=journal)
    finally:
        journal.close()
    return path


def in_process(capsys: pytest.CaptureFixture[str], *argv: str) -> Outcome:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return Outcome(code, out, err)


def own_process(*argv: str, cwd: Path | None = None, unprivileged: bool = False) -> Outcome:
    done = subprocess.run(
        [*(UNPRIVILEGED if unprivileged else []), *CLI, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


def mock_table_config(directory: Path) -> Path:
    config = directory / "table.toml"
    config.write_text(MOCK_TABLE)
    return config


def fingerprint(directory: Path) -> dict[str, tuple[object, ...]]:
    """Every name under ``directory`` with its type, mode, owner, size, mtime and content."""
    found: dict[str, tuple[object, ...]] = {}
    for root, names, files in os.walk(directory):
        for name in [*names, *files]:
            path = Path(root, name)
            info = path.lstat()
            content: object = None
            if stat.S_ISREG(info.st_mode):
                content = hashlib.sha256(path.read_bytes()).hexdigest()
            elif stat.S_ISLNK(info.st_mode):
                content = os.readlink(path)
            found[str(path.relative_to(directory))] = (
                stat.S_IFMT(info.st_mode),
                stat.S_IMODE(info.st_mode),
                info.st_uid,
                info.st_size,
                info.st_mtime_ns,
                content,
            )
    return found


def assert_one_line_refusal(outcome: Outcome, *, names: str = "") -> None:
    """Exit 2 and one line on stderr naming what is wrong: nothing else."""
    assert outcome.code == 2, outcome
    assert outcome.stdout == ""
    assert outcome.stderr.count("\n") == 1, outcome.stderr
    assert outcome.stderr.startswith("gametable: error: ")
    # as the line shows it: a path longer than 100 characters is cut (R703), as a test's may be
    # under a parallel worker's directory (pytest-of-USER/pytest-N/popen-gwN/test_...)
    assert shortened(names) in outcome.stderr


def assert_one_critical_line(outcome: Outcome, code: int, *, names: str = "") -> None:
    """``gametable run``: one CRITICAL log line (journald's record) and the exit status."""
    assert outcome.code == code, outcome
    assert outcome.stderr == ""
    assert outcome.stdout.count("\n") == 1, outcome.stdout
    assert outcome.stdout.startswith("CRITICAL event=journal_refused error=")
    assert names in outcome.stdout
