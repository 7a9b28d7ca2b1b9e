"""A Pentathlon log: JSON Lines, first pentathlon.start; replay rebuilds the same game."""

from __future__ import annotations

import json

import pytest

from rules.errors import InvalidInput, InvalidLog
from rules.log import parse_log
from rules.pentathlon.catalogue import Game
from rules.pentathlon.log import dump_log, replay, replay_log
from rules.pentathlon.monitor import start
from rules.pentathlon.monitor_actions import Begins, Challenge, Rule, start_action
from rules.pentathlon.queens_guards import MovePiece
from tests.pentathlon_helpers import INAPPROPRIATE, A, B, play

ACTIONS = [
    start_action(Game.QUEENS_AND_GUARDS, 20),
    Begins(A),
    MovePiece(),
    Challenge(B, ("move", "other")),
    Rule(INAPPROPRIATE),
    Rule(INAPPROPRIATE),
]


def test_a_dumped_log_replays_to_the_same_state() -> None:
    live = play(start(ACTIONS[0]), *ACTIONS[1:])
    assert replay_log(dump_log(ACTIONS).splitlines()) == live


def test_the_first_line_names_the_family() -> None:
    first = json.loads(dump_log(ACTIONS).splitlines()[0])
    assert first["action"] == "pentathlon.start"


def test_blank_lines_are_skipped() -> None:
    lines = dump_log(ACTIONS).replace("\n", "\n\n").splitlines()
    assert parse_log(lines) == ACTIONS


def test_an_empty_log_is_refused() -> None:
    with pytest.raises(InvalidLog, match="the log is empty"):
        replay_log(["", "  "])
    with pytest.raises(InvalidLog, match="the log is empty"):
        replay([])


def test_a_line_that_is_not_an_action_names_the_line() -> None:
    with pytest.raises(InvalidLog, match=r"line 2: pentathlon\.begins: missing field 'player'"):
        parse_log([dump_log(ACTIONS[:1]), '{"action": "pentathlon.begins"}'])


def test_a_start_with_bad_options_names_the_first_action() -> None:
    line = '{"action": "pentathlon.start", "game": "contig-60", "minutes": 30}'
    with pytest.raises(InvalidInput, match="action 1: contig-60 chips None"):
        replay_log([line])
