"""Guesstimation logs: the documented game replays to its result; faults name their line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules.actions import decode, encode
from rules.errors import IllegalAction, InvalidInput, InvalidLog
from rules.geoplunge.match import StartMatch
from rules.guesstimation.actions import RollDie, StartGuesstimation
from rules.guesstimation.replay import (
    apply,
    dump_log,
    parse_log,
    replay,
    replay_log,
    start,
    summary,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "firmware_py/judge/examples/guesstimation-game.jsonl"
DOC = ROOT / "docs/guesstimation.md"


def _example() -> list[str]:
    return EXAMPLE.read_text(encoding="utf-8").splitlines()


def test_the_documented_log_is_the_example_file() -> None:
    (block,) = re.findall(r"```jsonl\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block == EXAMPLE.read_text(encoding="utf-8")


def test_the_example_game_replays_to_its_champion() -> None:
    board = summary(replay_log(_example()))
    assert (board["champion"], board["phase"], board["over"]) == ("Cy", "over", True)
    assert board["positions"] == {"Ann": 0, "Bo": 5, "Cy": 5}
    assert [played["final"] for played in board["rounds"]] == [False, False, False, True]


def test_the_example_game_records_every_round() -> None:
    first, duel, tie, final = summary(replay_log(_example()))["rounds"]
    assert (first["question"], first["chip_possession"], first["outcome"]["chip"]) == (
        4,
        True,
        "Ann",
    )
    assert duel["units"] == "us"
    assert duel["duel"] == {"dueler": "Ann", "opponent": "Bo", "wager": 3}
    assert duel["outcome"]["moves"] == {"Ann": -3, "Bo": 3, "Cy": 3}
    assert duel["outcome"]["positions"] == {"Ann": 0, "Bo": 3, "Cy": 3}
    assert tie["answer"] == "0.45359237"
    assert tie["outcome"]["winners"] == ["Bo", "Cy"]
    assert final["guesses"] == {"Cy": "1959", "Bo": "1960"}


def test_every_action_survives_the_log_unchanged() -> None:
    actions = parse_log(_example())
    assert dump_log(actions) == EXAMPLE.read_text(encoding="utf-8")
    assert [decode(encode(action)) for action in actions] == actions


def test_a_log_replays_to_the_state_played_live() -> None:
    actions = parse_log(_example())
    live = start(actions[0])
    for action in actions[1:]:
        live = apply(live, action)
    assert replay(actions) == live


def test_the_summary_is_plain_json() -> None:
    board = summary(replay_log(_example()[:19]))
    assert json.loads(json.dumps(board)) == board
    assert board["expecting"] == "the answer"
    assert board["current"]["guesses"] == {"Ann": "120", "Bo": "95", "Cy": "100"}


def test_a_log_starts_with_guesstimation_start() -> None:
    with pytest.raises(InvalidLog, match=r"starts with guesstimation\.start, not 'match\.start'"):
        replay([StartMatch(round=1)])


def test_an_empty_log_is_refused() -> None:
    with pytest.raises(InvalidLog, match="the log is empty"):
        replay_log(["", "  "])


def test_a_refused_action_names_its_place_in_the_log() -> None:
    lines = [*_example()[:6], json.dumps(encode(RollDie("Ann", 3)))]
    with pytest.raises(IllegalAction, match=r"^action 7 \(guesstimation.roll\): .*Round Leader Bo"):
        replay_log(lines)


def test_a_line_that_is_not_json_names_its_line() -> None:
    with pytest.raises(InvalidLog, match=r"^line 2: not JSON"):
        replay_log([_example()[0], "{oops"])


def test_a_malformed_field_names_its_line() -> None:
    line = '{"action": "guesstimation.roll", "player": "Ann", "value": "six"}'
    with pytest.raises(InvalidLog, match=r"^line 2: guesstimation\.roll\.value: expected a whole"):
        replay_log([_example()[0], line])


def test_a_bad_start_is_refused_with_its_reason() -> None:
    with pytest.raises(InvalidInput, match="2 player"):
        start(StartGuesstimation(("Ann", "Bo")))
