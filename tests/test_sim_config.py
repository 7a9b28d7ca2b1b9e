"""``gametable sim --family`` on the built-in config (R490): every family starts on it, and a
config file is taken as it is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.table.sim_config import simulator_config

SIM = (sys.executable, "-m", "firmware_py.cli", "sim")


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SIM, *args], capture_output=True, text=True, timeout=60, check=False)


def script(tmp_path: Path) -> Path:
    path = tmp_path / "go.jsonl"
    path.write_text('{"t": 1, "press": "console.go"}\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["geoplunge", "pentathlon", "guesstimation", "states"])
def test_every_family_starts_in_the_simulator_on_the_built_in_config(
    name: str, tmp_path: Path
) -> None:
    done = sim("--family", name, "--headless", "--script", str(script(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["event"] == "prompt"


def test_guesstimation_in_the_simulator_seats_three_players(tmp_path: Path) -> None:
    goes = tmp_path / "three.jsonl"
    goes.write_text(
        "".join(
            f'{{"t": {t}, "press": "console.go"}}\n{{"t": {t}.1, "release": "console.go"}}\n'
            for t in (1, 2, 3)
        ),
        encoding="utf-8",
    )
    done = sim("--family", "guesstimation", "--headless", "--script", str(goes))
    events = [json.loads(line) for line in done.stdout.splitlines()]
    rolled = [event["player"] for event in events if event.get("action") == "guesstimation.roll"]
    assert rolled[:3] == ["A", "B", "C"]


def test_states_in_the_simulator_starts_on_the_shipped_deck_with_knocking() -> None:
    assert simulator_config("states").states.knocking is None  # the family's default: on


def test_states_in_the_simulator_plays_a_script_with_the_deck_its_setup_names() -> None:
    example = Path(__file__).resolve().parents[1] / "docs/scripts/states-connect-and-knock.jsonl"
    done = sim("--family", "states", "--headless", "--script", str(example))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    # CO's colour is in the example deck, not in the shipped one: the knock is judged by it.
    (refused,) = [e for e in events if e["event"] == "entry_refused"]
    assert refused["reason"].endswith("expected 3 or 4 states of one colour")
    assert [e["player"] for e in events if e["event"] == "knock"] == ["Bo"]


def test_the_alternate_scoring_in_a_script_is_refused_saying_what_to_set_in_the_script(
    tmp_path: Path,
) -> None:
    alternate = tmp_path / "alternate.jsonl"
    alternate.write_text(
        '{"setup": {"family": "states", "scoring": "alternate"}}\n'
        '{"t": 1, "press": "console.go"}\n',
        encoding="utf-8",
    )
    done = sim("--family", "states", "--headless", "--script", str(alternate))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1
    assert "setup.deck: the alternate scoring needs every card's value" in done.stderr
    assert 'in a script: "scoring": "standard" in its setup' in done.stderr


def test_a_config_file_with_two_seats_is_refused_for_guesstimation_in_one_line(
    tmp_path: Path,
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[table]\nfamily = "guesstimation"\n', encoding="utf-8")
    done = sim("--config", str(config), "--headless", "--script", str(script(tmp_path)))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "3 to 6" in done.stderr
