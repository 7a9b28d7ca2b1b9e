"""The STATES table killed in the middle of a knock's last round, through the real commands:
`gametable sim --headless --journal` picks the script up where the journal stopped, and
`gametable run`, killed with SIGKILL and started again, rebuilds the same table. Either way
the game ends with the decisions of an uninterrupted run. (The kill campaign in
tests/test_durability.py kills the same script at random moments.)"""

from __future__ import annotations

import json
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import VirtualTable
from firmware_py.table.journal import Journal
from rules.states.table_game import TableGame
from tests.faults import SCRIPTS, recorded_events
from tests.journal_helpers import in_process
from tests.test_web_daemon import MOCK, RUN, _free_port

SCRIPT = SCRIPTS / "states-connect-and-knock.jsonl"
KNOCKED = '"name": "knock", "value": "DE,OR,NM,water"'  # the knock the page takes


def _to_the_knock(tmp_path: Path) -> Path:
    """The script up to Bo's knock: the table stops with the last round running."""
    lines = SCRIPT.read_text().splitlines()
    last = next(n for n, line in enumerate(lines) if KNOCKED in line)
    path = tmp_path / "to-the-knock.jsonl"
    path.write_text("\n".join(lines[: last + 1]) + "\n")
    return path


def _sim(capsys: pytest.CaptureFixture[str], script: Path, journal: Path) -> None:
    outcome = in_process(
        capsys, "sim", "--headless", "--script", str(script), "--journal", str(journal)
    )
    assert outcome.code == 0, outcome.stderr


def _decisions(journal: Path) -> list[dict[str, Any]]:
    """The rules actions the journal holds, without their times (the daemon's are its own)."""
    return [
        {key: value for key, value in event.items() if key != "t"}
        for event in recorded_events(journal)
        if event["event"] == "action"
    ]


def _rebuilt_game(journal: Path) -> TableGame:
    opened = Journal.open(journal)
    try:
        table = VirtualTable(TableSettings(), lambda event: None, journal=opened)
        session = table.controller.session
        table.close()
    finally:
        opened.close()
    assert isinstance(session, TableGame)
    return session


def _uninterrupted(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> list[dict[str, Any]]:
    reference = tmp_path / "reference.db"
    _sim(capsys, SCRIPT, reference)
    return _decisions(reference)


def test_sim_headless_journal_stopped_mid_knock_rebuilds_the_last_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.db"
    _sim(capsys, _to_the_knock(tmp_path), journal)
    game = _rebuilt_game(journal)
    assert game.phase == "last_round"
    assert game.hand is not None and game.hand.knocker == "Bo"
    assert game.hand.knock is not None and game.hand.knock.total == 19


def test_sim_headless_journal_resumed_mid_knock_ends_as_an_uninterrupted_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.db"
    _sim(capsys, _to_the_knock(tmp_path), journal)
    _sim(capsys, SCRIPT, journal)  # the same script picks up after the knock
    assert _decisions(journal) == _uninterrupted(capsys, tmp_path)


def _config(tmp_path: Path, port: int) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(
        f'[table]\nfamily = "states"\n{MOCK}'
        '[states]\nplayers = ["Ann", "Bo"]\ndeck = "docs/states/example-deck.toml"\n'
        f"[web]\nenabled = true\nport = {port}\n"
    )
    return path


def _state(port: int) -> dict[str, Any]:
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                state: dict[str, Any] = json.load(r)
                return state
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"the table's page on port {port} never answered")


def _run(config: Path, journal: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*RUN, "--config", str(config), "--journal", str(journal)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_gametable_run_killed_mid_knock_rebuilds_the_same_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal, port = tmp_path / "journal.db", _free_port()
    _sim(capsys, _to_the_knock(tmp_path), journal)
    config = _config(tmp_path, port)
    first = _run(config, journal)
    try:
        before = _state(port)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        first.kill()
    again = _run(config, journal)
    try:
        after = _state(port)
        again.send_signal(signal.SIGTERM)
        _, err = again.communicate(timeout=10)
    finally:
        again.kill()
    assert first.returncode == -signal.SIGKILL
    assert after == before
    assert after["screen"]["lines"] == ["Bo", "knocked: last round"]
    assert "NM" not in json.dumps(after)  # the knock's cards stay hidden until it is judged
    assert again.returncode == 0, err
    _sim(capsys, SCRIPT, journal)  # the rest of the game, on the journal run left
    assert _decisions(journal) == _uninterrupted(capsys, tmp_path)
