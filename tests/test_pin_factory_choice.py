"""GPIOZERO_PIN_FACTORY wins over the config's gpio.pin_factory (R750), and the table says so:
selftest names the factory it took and where from, and the daemon warns when the environment
overrode its config."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_helpers import run


def an_installed_table(tmp_path: Path) -> Path:
    """A config as installed on a Pi: lgpio, with no OLED and no scoreboard to open here."""
    config = tmp_path / "table.toml"
    config.write_text(
        '[gpio]\npin_factory = "lgpio"\n[oled]\nenabled = false\n'
        '[scoreboard]\nenabled = false\n[log]\nlevel = "INFO"\n',
        encoding="utf-8",
    )
    return config


def test_selftest_takes_the_environments_factory_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    code, out, _ = run(
        capsys, "selftest", "--config", str(an_installed_table(tmp_path)), "--seconds", "0"
    )
    assert code == 1  # it ran on the mock pins; nobody pressed a button
    assert out.splitlines()[0] == (
        "pin factory mock (from GPIOZERO_PIN_FACTORY; gpio.pin_factory 'lgpio' is overridden)"
    )
    assert "led A standing" in out


def test_selftest_names_the_configs_factory_when_the_environment_has_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = an_installed_table(tmp_path)
    config.write_text(config.read_text().replace('"lgpio"', '"mock"'), encoding="utf-8")
    code, out, _ = run(capsys, "selftest", "--config", str(config), "--seconds", "0")
    assert code == 1
    assert out.splitlines()[0] == "pin factory mock (from gpio.pin_factory)"


def test_the_daemon_warns_that_the_environment_overrode_its_config(tmp_path: Path) -> None:
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "STATE_DIRECTORY": str(tmp_path)}
    env.pop("NOTIFY_SOCKET", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "firmware_py.cli",
            "run",
            "--config",
            str(an_installed_table(tmp_path)),
        ],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("event=ready" in s for s in lines):
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
    finally:
        process.kill()
    assert lines[0] == (
        "WARNING event=pin_factory name=mock source=GPIOZERO_PIN_FACTORY overrides=lgpio\n"
    )
    assert any("event=ready" in line for line in lines), lines
    assert process.returncode == 0
