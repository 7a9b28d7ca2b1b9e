"""Replay by registry: a log's first action names its family."""

from __future__ import annotations

import json

import pytest

from rules import families
from rules.errors import InvalidLog


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
