"""``gametable run`` on a journal another table recorded (R742): one CRITICAL line naming the
journal's family and seats against the config's, exit 2, and not a byte of the journal written,
however often systemd starts it again (issue 18 finding 2)."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

from tests.journal_helpers import (
    CLI,
    SCRIPTS,
    assert_one_critical_line,
    fingerprint,
    mock_table_config,
    own_process,
)


def guesstimation_journal(directory: Path) -> Path:
    """Three seats (A, B, C) of Guesstimation, recorded by the headless simulator."""
    path = directory / "journal" / "jg.db"
    path.parent.mkdir()
    script = SCRIPTS / "guesstimation-two-rounds.jsonl"
    done = own_process("sim", "--headless", "--script", str(script), "--journal", str(path))
    assert done.code == 0, done.stderr
    return path


def test_a_journal_of_other_seats_and_family_is_refused_in_one_line_writing_nothing(
    tmp_path: Path,
) -> None:
    journal = guesstimation_journal(tmp_path)
    config = mock_table_config(tmp_path)  # two seats of GeoPlunge
    before = fingerprint(journal.parent)
    for _ in range(3):  # systemd's restarts: each the same line, none of them a write
        outcome = own_process("run", "--config", str(config), "--journal", str(journal))
        assert_one_critical_line(
            outcome,
            2,
            names="(guesstimation, seats A, B, C) than the config's (geoplunge, seats A, B, ",
        )
        assert "--new-journal" in outcome.stdout
        assert fingerprint(journal.parent) == before


def test_a_journal_of_another_format_is_refused(tmp_path: Path) -> None:
    config = mock_table_config(tmp_path)
    journal = tmp_path / "j.db"
    script = SCRIPTS / "championship.jsonl"
    done = own_process("sim", "--headless", "--script", str(script), "--journal", str(journal))
    assert done.code == 0, done.stderr
    before = fingerprint(tmp_path)
    outcome = own_process("run", "--config", str(config), "--journal", str(journal))
    assert_one_critical_line(outcome, 2, names="format championship) than the config's")
    assert fingerprint(tmp_path) == before


def test_a_new_journal_begins_a_match_of_the_configs_table(tmp_path: Path) -> None:
    journal = guesstimation_journal(tmp_path)
    config = mock_table_config(tmp_path)
    argv = ["run", "--config", str(config), "--journal", str(journal), "--new-journal"]
    process = subprocess.Popen([*CLI, *argv], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()  # the daemon's first line: ready, on two seats
        assert first.startswith("INFO event=ready seats=A,B"), first
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
