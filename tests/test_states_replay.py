"""STATES logs: the worked examples in docs/states/ replay to the outcomes docs/states.md tells,
through the family registry as ``gametable replay`` reads them; faults name their line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import families
from rules.errors import IllegalAction, InvalidLog, RuleError
from rules.states.replay import replay_log, summary

EXAMPLES = Path(__file__).resolve().parents[1] / "docs/states"


def _lines(name: str) -> list[str]:
    return (EXAMPLES / name).read_text(encoding="utf-8").splitlines()


def test_the_connect_example_ends_with_ann_connecting_after_a_wrong_claim() -> None:
    data = summary(replay_log(_lines("connect-hand.jsonl")))
    (hand,) = data["hands"]
    assert [claim["connects"] for claim in hand["claims"]] == [False, True]
    assert hand["connected"] == ["UT", "CO", "KS", "OK"]
    assert data["scores"] == {"Ann": 4, "Bo": 0}


def test_the_connect_example_deals_the_next_hand_to_the_lowest_score() -> None:
    data = summary(replay_log(_lines("connect-hand.jsonl")))
    assert data["hand"]["first"] == "Bo"


def test_the_knock_example_wins_with_blue_19_and_the_bonus_state() -> None:
    (hand,) = summary(replay_log(_lines("knock-hand.jsonl")))["hands"]
    assert hand["how"] == "knock"
    assert hand["totals"]["Ann"] == {"colour": "blue", "total": 19, "cards": ["DE", "OR", "NM"]}
    assert hand["points"] == {"Ann": 4, "Bo": 0}
    assert hand["bonus"] == {"Ann": 1, "Bo": 0}


def test_the_team_game_example_is_played_to_its_end() -> None:
    data = summary(replay_log(_lines("team-game.jsonl")))
    assert data["over"]
    assert data["champion"] == "Bo & Di"
    assert data["scores"] == {"Ann & Cy": 3, "Bo & Di": 15}


@pytest.mark.parametrize("name", ["connect-hand.jsonl", "knock-hand.jsonl", "team-game.jsonl"])
def test_the_registry_replays_every_example_as_states(name: str) -> None:
    data = families.summary(_lines(name))
    assert data["family"] == "states"
    assert json.loads(json.dumps(data)) == data


def _with_line(name: str, number: int, line: str) -> list[str]:
    lines = _lines(name)
    return [*lines[: number - 1], line, *lines[number - 1 :]]


def test_a_malformed_line_is_named() -> None:
    lines = _with_line(
        "connect-hand.jsonl", 3, '{"action": "states.draw", "player": "Ann", "source": "pile3"}'
    )
    with pytest.raises(InvalidLog, match=r"line 3: states\.draw\.source: expected one of deck"):
        families.replay_log(lines)


def test_a_refused_action_is_named_by_its_position() -> None:
    lines = _with_line(
        "connect-hand.jsonl", 3, '{"action": "states.draw", "player": "Bo", "source": "deck"}'
    )
    with pytest.raises(IllegalAction, match=r"action 3 \(states.draw\): it is Ann's turn"):
        replay_log(lines)


def test_a_states_log_starts_with_states_start() -> None:
    with pytest.raises(RuleError, match=r"a log starts with .*states\.start"):
        families.replay_log(_lines("connect-hand.jsonl")[1:])


def test_an_empty_states_log_is_refused() -> None:
    with pytest.raises(InvalidLog, match=r"the log is empty: expected states\.start first"):
        replay_log([])
