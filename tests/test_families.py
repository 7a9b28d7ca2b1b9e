"""Replay by registry: a log's first action names its family."""

from __future__ import annotations

import json

import pytest

from rules import families
from rules.errors import InvalidLog, RuleError


def test_a_geoplunge_log_is_replayed_by_the_geoplunge_family() -> None:
    answer = families.summary(['{"action": "game.start", "game": 1}'])
    assert answer["family"] == "geoplunge"
    assert answer["game"] == 1


def test_every_registered_start_action_picks_its_own_family() -> None:
    for family in families.FAMILIES:
        for start in family.starts:
            assert families.family_for(start.__new__(start)) is family


def test_a_log_that_starts_with_no_family_start_action_is_refused_naming_the_starts() -> None:
    with pytest.raises(InvalidLog, match=r"a log starts with .*match\.start"):
        families.replay_log([json.dumps({"action": "match.next_game"})])


def test_a_start_action_later_in_a_log_is_refused_with_its_position() -> None:
    lines = ['{"action": "game.start", "game": 1}', '{"action": "game.start", "game": 2}']
    with pytest.raises(InvalidLog, match=r"action 2 \(game.start\): 'game.start' only starts"):
        families.replay_log(lines)


def test_an_empty_log_is_refused() -> None:
    with pytest.raises(InvalidLog, match="the log is empty"):
        families.replay_log([])


def test_a_team_given_twice_in_a_set_is_refused_not_dropped() -> None:
    lines = ['{"action": "game.start", "game": 1}', '{"action": "plunge", "plunging": ["A", "A"]}']
    with pytest.raises(InvalidLog, match=r"plunge.plunging: 'A' is given twice"):
        families.replay_log(lines)


def test_a_colour_given_twice_on_a_power_card_is_refused() -> None:
    lines = [
        '{"action": "game.start", "game": 5}',
        '{"action": "plunge", "plunging": []}',
        '{"action": "chummy.geoplungers", "a": "x", "b": "y"}',
        '{"action": "chummy.question", "circles": ["red", "red"], "colour": "red"}',
    ]
    with pytest.raises(InvalidLog, match="circles: 'red' is given twice"):
        families.replay_log(lines)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("NaN", "NaN is not a number"),
        ("-Infinity", "-Infinity is not a number"),
        ("9" * 400, "a number of 400 digits"),
    ],
)
def test_a_number_no_action_takes_is_refused_naming_the_line(value: str, reason: str) -> None:
    lines = ['{"action": "game.start", "game": 1}', f'{{"action": "game.start", "game": {value}}}']
    with pytest.raises(InvalidLog, match=f"line 2: {reason}"):
        families.replay_log(lines)


def test_an_action_out_of_its_phase_says_where_the_game_is_and_where_it_belongs() -> None:
    lines = ['{"action": "game.start", "game": 2}', '{"action": "plunge", "plunging": []}']
    with pytest.raises(
        RuleError, match="not allowed in phase 'draw': this action belongs to phase 'plunge'"
    ):
        families.replay_log(lines)
