"""Setting up a STATES table: [table] family = "states" and the [states] section (validated,
unknown keys refused by name), the family's options, and the simulator's --family states (one
line, exit 2, for anything wrong)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from firmware_py.families.states.options import parse_options
from firmware_py.table import config as table_config
from firmware_py.table.config import ConfigError, parse_config
from firmware_py.table.wiring import table_settings
from rules.states.connect import Connection
from rules.states.scoring import Scoring
from rules.states.table_game import TARGETS
from tests.journal_helpers import assert_one_line_refusal, in_process

SHIPPED = Path(__file__).resolve().parent.parent / "config" / "table.toml"
STATES = '[table]\nfamily = "states"\n'
EXAMPLE_DECK = "docs/states/example-deck.toml"


def error(text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(tomllib.loads(text))
    message = str(caught.value)
    assert "\n" not in message
    return message


def options_of(text: str) -> dict[str, Any]:
    return dict(table_settings(parse_config(tomllib.loads(text))).options)


def test_every_states_key_reaches_the_family() -> None:
    options = options_of(
        STATES
        + '[states]\nplayers = ["Ann", "Bo"]\nteams = false\nscoring = "alternate"\n'
        + f'knocking = true\nconnect = "chain"\ntarget = 50\ndeck = "{EXAMPLE_DECK}"\n'
    )
    parsed = parse_options(options, ("A", "B"))
    assert parsed.players == ("Ann", "Bo")
    assert (parsed.scoring, parsed.connect, parsed.target) == (
        Scoring.ALTERNATE,
        Connection.CHAIN,
        50,
    )


def test_a_states_table_without_options_takes_the_family_s_defaults() -> None:
    assert options_of(STATES) == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colour = 1\n", "states.colour: unknown key (expected one of players, teams, scoring"),
        ('scoring = "fast"\n', 'states.scoring: expected one of "standard", "alternate"'),
        ('connect = "line"\n', 'states.connect: expected one of "group", "chain"'),
        ("target = 0\n", "states.target: expected an integer from 1 to 999, got 0"),
        ('teams = "yes"\n', 'states.teams: expected true or false, got "yes"'),
        (
            'players = "Ann"\n',
            "states.players: expected an array of the players' names, one per seat",
        ),
        ("deck = 3\n", "states.deck: expected a non-empty string"),
    ],
)
def test_a_bad_states_key_is_named_with_what_was_expected(text: str, message: str) -> None:
    assert message in error(STATES + "[states]\n" + text)


def test_a_states_section_is_refused_for_another_family() -> None:
    assert error("[states]\nteams = true\n").startswith(
        'states: expected none with table.family = "geoplunge" (STATES\'s options)'
    )


def test_the_shipped_states_example_is_a_valid_section() -> None:
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    start = lines.index("# [states]")
    example = []
    for line in lines[start:]:
        if not line.startswith("# "):
            break
        if not line.startswith("#  "):  # the continuation comments
            example.append(line[2:])
    section = parse_config(tomllib.loads(STATES + "\n".join(example))).states
    assert section.teams is True and section.players == ("Ann", "Bo", "Cy", "Di")


def test_the_config_knows_the_family_s_choices_and_ranges() -> None:
    assert tuple(scoring.value for scoring in Scoring) == table_config.STATES_SCORINGS
    assert tuple(rule.value for rule in Connection) == table_config.STATES_CONNECTS
    assert (TARGETS.start, TARGETS.stop - 1) == table_config.STATES_TARGETS


def _script(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _events(outcome: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in outcome.stdout.splitlines()]


def test_sim_family_states_starts_with_the_shipped_deck_and_plays_a_claim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(
        tmp_path,
        *_tap(1.0, "console.yes"),  # A plays first
        *_tap(2.0, "A.shout"),
        *_tap(3.0, "console.yes"),  # the dealer: they connect
    )
    outcome = in_process(capsys, "sim", "--family", "states", "--headless", "--script", str(script))
    assert outcome.code == 0, outcome
    claims = [e for e in _events(outcome) if e["event"] == "claim"]
    assert [(c["player"], c["connects"]) for c in claims] == [("A", True)]


def test_sim_family_states_with_the_shipped_deck_asks_a_knock_s_total_on_the_console(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(tmp_path, *_tap(1.0, "console.yes"), *_tap(2.0, "B.stand"))
    outcome = in_process(capsys, "sim", "--family", "states", "--headless", "--script", str(script))
    assert outcome.code == 0, outcome
    prompts = [e["text"] for e in _events(outcome) if e["event"] == "prompt"]
    assert prompts[-1] == "B knocks:\ntotal? deck lacks 45"


def test_the_alternate_scoring_with_the_shipped_deck_is_refused_naming_the_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(STATES + '[states]\nscoring = "alternate"\n')
    script = _script(tmp_path, {"t": 1.0})
    outcome = in_process(
        capsys, "sim", "--config", str(config), "--headless", "--script", str(script)
    )
    assert_one_line_refusal(
        outcome, names="deck: the alternate scoring needs every card's value: the deck lacks it"
    )
    assert "AL, AR, AZ" in outcome.stderr and 'set scoring = "standard"' in outcome.stderr


def _tap(t: float, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return {"t": t, "press": name}, {"t": t + 0.1, "release": name}


def test_sim_family_states_plays_a_connect_only_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(
        tmp_path,
        {"setup": {"family": "states", "knocking": False}},
        {"t": 1.0, "press": "console.yes"},
        {"t": 1.1, "release": "console.yes"},
    )
    outcome = in_process(capsys, "sim", "--headless", "--script", str(script))
    assert outcome.code == 0, outcome
    events = [json.loads(line) for line in outcome.stdout.splitlines()]
    assert {"t": 1.0, "event": "action", "action": "states.table_hand", "first": "A"} in events


def test_a_bad_deck_path_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text(STATES + '[states]\ndeck = "/nonexistent/deck.toml"\n')
    script = _script(tmp_path, {"t": 1.0})
    outcome = in_process(
        capsys, "sim", "--config", str(config), "--headless", "--script", str(script)
    )
    assert_one_line_refusal(outcome, names="deck: cannot read /nonexistent/deck.toml")


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (
            lambda path: Path("/dev/null"),
            "/dev/null is a character device: expected a regular file",
        ),
        (lambda path: _sparse(path, 5 * 1024 * 1024), "is larger than 4 MiB"),
    ],
    ids=["a device", "a huge file"],
)
def test_a_deck_that_is_not_a_small_regular_file_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, says: str
) -> None:
    """The STATES deck was read whole, whatever it was: /dev/zero filled the memory (a
    MemoryError's traceback), a FIFO waited forever (issue 25's attack, finding 5)."""
    config = tmp_path / "table.toml"
    config.write_text(STATES + f'[states]\ndeck = "{make(tmp_path / "deck.toml")}"\n')
    script = _script(tmp_path, {"t": 1.0})
    outcome = in_process(
        capsys, "sim", "--config", str(config), "--headless", "--script", str(script)
    )
    assert_one_line_refusal(outcome, names=says)


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as file:
        file.truncate(size)
    return path
