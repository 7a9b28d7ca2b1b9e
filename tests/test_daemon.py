"""The asyncio daemon: edges from gpiozero's threads, READY once the hardware is up, the
watchdog, and ``gametable run`` as systemd starts it (a fake NOTIFY_SOCKET)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from drivers.inputs import InputSpec
from drivers.mockpins import mock_factory
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import CONSOLE, TableSettings
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.notify import Notifier

RUN = [sys.executable, "-m", "firmware_py.cli", "run"]
NAMES = [f"{s}.{w}" for s in "AB" for w in ("stand", "shout")] + [f"console.{b}" for b in CONSOLE]


def _specs() -> list[InputSpec]:
    return [InputSpec(name=name, pin=pin) for pin, name in enumerate(NAMES, start=2)]


def _notify_socket(tmp_path: Path) -> tuple[socket.socket, str]:
    path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(path)
    listener.settimeout(10)
    return listener, path


def test_daemon_hands_gpio_thread_edges_to_the_loop_and_counts(tmp_path: Path) -> None:
    listener, path = _notify_socket(tmp_path)
    events: list[dict[str, Any]] = []
    daemon = TableDaemon(
        settings=table_settings(game=1, count_cadence=0.05),
        factory=mock_factory(),
        input_specs=_specs(),
        led_pins={"A": 20, "B": 21},
        notifier=Notifier(address=path),
        on_event=events.append,
    )

    def press_from_another_thread() -> None:
        pin = daemon.bank.pin("console.count")
        pin.drive_low()
        time.sleep(0.02)
        pin.drive_high()

    async def scenario() -> int:
        task = asyncio.create_task(daemon.run())
        while not hasattr(daemon, "bank"):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        thread = threading.Thread(target=press_from_another_thread)
        thread.start()
        for _ in range(200):
            if any(e["event"] == "plunge" for e in events):
                break
            await asyncio.sleep(0.01)
        thread.join()
        daemon.stop()
        return await task

    assert asyncio.run(scenario()) == 0
    assert listener.recv(4096).startswith(b"READY=1")
    counts = [e["t"] for e in events if e["event"] == "count"]
    assert len(counts) == 5
    assert [e["plunging"] for e in events if e["event"] == "plunge"] == [[]]
    assert b"STOPPING=1" in listener.recv(4096)


def test_daemon_is_unhealthy_when_the_loop_stalls() -> None:
    daemon = TableDaemon(
        settings=TableSettings(), factory=mock_factory(), input_specs=_specs(), led_pins={}
    )

    async def scenario() -> tuple[bool, bool]:
        daemon._beat = asyncio.get_running_loop().time()
        fresh = daemon.healthy()
        daemon._beat -= 10.0
        return fresh, daemon.healthy()

    assert asyncio.run(scenario()) == (True, False)


@pytest.fixture
def mock_config(tmp_path: Path) -> Path:
    config = tmp_path / "table.toml"
    config.write_text(
        '[gpio]\npin_factory = "mock"\n[oled]\nenabled = false\n'
        '[scoreboard]\nurl = "loop://"\n[log]\nlevel = "INFO"\n'
    )
    return config


def test_gametable_run_notifies_ready_and_stops_on_sigterm(
    tmp_path: Path, mock_config: Path
) -> None:
    listener, path = _notify_socket(tmp_path)
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000"}
    env.pop("WATCHDOG_PID", None)
    process = subprocess.Popen(
        [*RUN, "--config", str(mock_config), "--journal", str(tmp_path / "journal.db")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        messages = [listener.recv(4096) for _ in range(3)]
        assert messages[0].startswith(b"READY=1")
        assert b"WATCHDOG=1" in messages[1:]  # pinged at half of WatchdogSec while healthy
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "event=ready" in out
    assert "Traceback" not in err


def test_gametable_run_with_a_missing_pin_factory_is_one_line(
    tmp_path: Path,
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[gpio]\npin_factory = "lgpio"\n[oled]\nenabled = false\n')
    done = subprocess.run(
        [*RUN, "--config", str(config), "--journal", str(tmp_path / "journal.db")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "lgpio" in done.stderr and "Traceback" not in done.stderr


def test_gametable_run_with_a_bad_config_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[timing]\ntie_window_ms = 0\n")
    done = subprocess.run(
        [*RUN, "--config", str(config), "--journal", str(tmp_path / "journal.db")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "timing.tie_window_ms" in done.stderr


def test_gametable_run_new_journal_says_how_many_undelivered_decisions_it_carries(
    tmp_path: Path, mock_config: Path
) -> None:
    """R713: the decisions the hub has not confirmed go on from the new journal, and the log
    says so (issue 17, finding 2: they were dropped without a word)."""
    from firmware_py.table.journal import Journal

    path = tmp_path / "journal.db"
    old = Journal.open(path, outbox=True)
    old.add("event", 0.0, {"event": "score", "A": 10, "B": 0}, session={"action": "x"})
    old.commit()
    old.close()
    listener, socket_path = _notify_socket(tmp_path)
    env = {**os.environ, "NOTIFY_SOCKET": socket_path}
    process = subprocess.Popen(
        [*RUN, "--config", str(mock_config), "--journal", str(path), "--new-journal"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert listener.recv(4096).startswith(b"READY=1")
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert "event=journal_carried decisions=1 lost=0" in out, err
    new = Journal.open_read_only(path)
    try:
        assert new.undelivered() == 1
    finally:
        new.close()


def test_gametable_run_says_it_stopped_when_stopped_by_sigterm(
    tmp_path: Path, mock_config: Path
) -> None:
    """A clean stop is one line in the log, so that it reads apart from a kill before the next
    start (FINDINGS-i25-dealer-walk F4)."""
    listener, path = _notify_socket(tmp_path)
    process = subprocess.Popen(
        [*RUN, "--config", str(mock_config), "--journal", str(tmp_path / "journal.db")],
        env={**os.environ, "NOTIFY_SOCKET": path},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert listener.recv(4096).startswith(b"READY=1")
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert out.splitlines()[-1] == "INFO event=stopped", out
