"""A table's Pi installs only what the table runs (R751): the hub's pairings and luma's emulator
are extras, the table's commands work without them, and a command that needs one says which
extra to install in one line, before it touches anything."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MATCH_SCRIPT = ROOT / "docs" / "scripts" / "combo4-match.jsonl"

# The extras' packages, and what a table without them lacks: the modules they provide.
NOT_ON_A_TABLE = ("rustworkx", "pygame", "luma.emulator", "numpy")

# gametable's own entry point, run with those modules made unimportable (a None in sys.modules
# makes `import X` raise ModuleNotFoundError), as on a Pi that installed only `gametable[pi]`.
WITHOUT_EXTRAS = f"""
import sys
for name in {NOT_ON_A_TABLE!r}:
    sys.modules[name] = None
from firmware_py.cli import main
sys.exit(main(sys.argv[1:]))
"""


def gametable(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRAS, *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def a_mock_table(tmp_path: Path) -> Path:
    config = tmp_path / "table.toml"
    config.write_text(
        '[gpio]\npin_factory = "mock"\n[oled]\nenabled = false\n'
        '[scoreboard]\nenabled = false\n[log]\nlevel = "INFO"\n',
        encoding="utf-8",
    )
    return config


def project() -> dict[str, object]:
    data: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    table = data["project"]
    assert isinstance(table, dict)
    return table


def names(requirements: list[str]) -> set[str]:
    """The distribution names of requirement strings, lower case."""
    return {
        requirement.split(";")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower()
        for requirement in requirements
    }


# --- what pyproject.toml asks a table to install -------------------------------------------------


def test_the_table_depends_on_no_package_of_the_hub_or_the_simulator() -> None:
    required = names(project()["dependencies"])  # type: ignore[arg-type]
    assert not required & {"rustworkx", "pygame", "luma.emulator", "numpy"}


def test_the_hubs_pairings_and_lumas_emulator_are_extras() -> None:
    extras = project()["optional-dependencies"]
    assert isinstance(extras, dict)
    assert "rustworkx" in names(extras["hub"])
    assert names(extras["sim"]) >= {"luma.emulator", "pygame"}


def test_the_development_venv_installs_both_extras() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[dev,hub,sim]'" in makefile


# --- the table's commands without the extras -----------------------------------------------------


def test_config_check_needs_no_extra(tmp_path: Path) -> None:
    done = gametable("config", "check", str(ROOT / "config" / "table.toml"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(
        ": ok (2 seats, oled ssd1306 on i2c 0x3C, scoreboard /dev/ttyUSB0)\n"
    )


def test_selftest_needs_no_extra(tmp_path: Path) -> None:
    done = gametable(
        "selftest", "--config", str(a_mock_table(tmp_path)), "--seconds", "0", cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr  # nobody pressed a button
    assert "led A standing" in done.stdout
    assert "never pressed: A.stand" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_headless_match_needs_no_extra(tmp_path: Path) -> None:
    done = gametable("sim", "--headless", "--script", str(MATCH_SCRIPT), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"event": "match_result"' in done.stdout.splitlines()[-2]


def test_the_daemon_runs_without_the_extras(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", WITHOUT_EXTRAS, "run", "--config", str(a_mock_table(tmp_path))],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "STATE_DIRECTORY": str(tmp_path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 60
        seen: list[str] = []
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            seen.append(line)
            if "event=ready" in line or not line:
                break
        assert "event=ready" in seen[-1], "".join(seen)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "Traceback" not in err


# --- a command that needs an extra --------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("tournament", "new", "--format", "combo4", "--teams", "teams.csv", "--db", "t.db"),
        ("tournament", "standings", "--db", "t.db"),
        ("hub", "users", "passwd", "1", "--generate", "pw"),
    ],
)
def test_the_directors_commands_without_the_hub_extra_name_it_and_change_nothing(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    (tmp_path / "teams.csv").write_text("team,school\nA,One\nB,Two\n", encoding="utf-8")
    before = sorted(path.name for path in tmp_path.iterdir())
    done = gametable(*argv, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"gametable: error: gametable {argv[0]} needs rustworkx, which is not installed here: "
        "pip install 'gametable[hub]' (on the hub: systemd/install.sh --hub)\n"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == before


def test_lumas_emulator_without_the_sim_extra_names_it() -> None:
    probe = (
        "import sys\n"
        "sys.modules['luma.emulator'] = None\n"
        "from drivers.display import OledError\n"
        "from drivers.oled import open_emulator\n"
        "try:\n"
        "    open_emulator('capture')\n"
        "except OledError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.rstrip().endswith(": pip install 'gametable[sim]'")
