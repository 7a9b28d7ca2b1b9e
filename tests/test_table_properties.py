"""Random button scripts through the headless table: nothing a dealer or a team can press, in any
order and at any time, raises; and a script replayed with a journal decides the same, and the
journal rebuilds the same table.

Every console button and every seat input (stand, sit, shout), tapped or held, at random gaps
and at and around the table's own deadlines (the next count, shout decision, time-out or
countdown second, to the millisecond), for each Level 4 game on its own (``--game N``) and for
whole matches of every format (Combo 4 All and Call, Combo 3 morning and afternoon, each
time-up rule, a short clock so it runs out; the championship).
``GAMETABLE_SOAK=1`` (``make soak``) tries many more scripts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import TableController, TableSettings
from firmware_py.table.headless import ScriptStep, VirtualTable, input_names
from rules.geoplunge.match import TimeUpRule
from tests.journal_rebuild import assert_the_journal_rebuilds_the_live_table
from tests.screens import assert_fits_the_oled
from tests.soak import SOAK

PER_GAME = settings(
    max_examples=1000 if SOAK else 12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PER_MATCH = settings(PER_GAME, max_examples=2000 if SOAK else 20)
JOURNALED = settings(PER_GAME, max_examples=300 if SOAK else 8)

INPUTS = input_names(("A", "B"))
# Weighted towards the buttons that move a game on, so random scripts get deep into it.
PRESSED = (*INPUTS, "console.yes", "console.yes", "console.yes", "console.go", "console.count")
GAPS: tuple[float, ...] = (
    0.0,
    0.001,
    0.005,
    0.014,
    0.015,
    0.016,
    0.019,
    0.02,
    0.021,
    0.05,
    0.065,
    0.066,
)
GAPS += (0.1, 0.3, 1.0, 2.0, 4.0, 5.0, 15.0, 16.0, 60.0, 400.0)
HOLDS = (0.0005, 0.005, 0.019, 0.02, 0.021, 0.1, 0.5)


@dataclass(frozen=True, slots=True)
class Move:
    """One thing done to the table: an input tapped, pushed down or let go, at a time given as
    a gap after the last move or as milliseconds from one of the table's own instants."""

    input: str
    how: str  # tap | down | up
    hold: float  # a tap's length
    at: tuple[str, float]  # ("gap", seconds) | ("deadline", ms) | ("countdown", ms)


MOVES = st.builds(
    Move,
    input=st.sampled_from(PRESSED),
    how=st.sampled_from(("tap", "tap", "tap", "down", "up")),
    hold=st.sampled_from(HOLDS),
    at=st.one_of(
        st.tuples(st.just("gap"), st.sampled_from(GAPS)),
        st.tuples(st.sampled_from(("deadline", "countdown")), st.integers(-20, 20)),
    ),
)
# Long scripts: a few dozen presses barely get past a game's set-up.
SCRIPTS = st.lists(MOVES, min_size=60, max_size=200)
GAMES = st.builds(lambda game: {"game": game}, st.integers(1, 5))
LEVEL3_GAMES = st.builds(lambda game: {"format": "combo3", "game": game}, st.integers(1, 5))
MATCHES = st.fixed_dictionaries(
    {
        "round": st.sampled_from((1, 2)),  # an All match, a Call match
        "minutes": st.sampled_from((2, 20)),
        "on_time_up": st.sampled_from([rule.value for rule in TimeUpRule]),
    }
)
COMBO3_MATCHES = st.fixed_dictionaries(
    {
        "format": st.just("combo3"),
        "round": st.sampled_from((1, 5, 8)),  # morning, afternoon, the last round
        "minutes": st.sampled_from((2, 20)),
        "on_time_up": st.sampled_from([rule.value for rule in TimeUpRule]),
        "ptr_early_end": st.booleans(),
    }
)
CHAMPIONSHIPS = st.just({"format": "championship"})


def _when(move: Move, controller: TableController, last: float) -> float:
    kind, value = move.at
    if kind == "gap":
        return last + value
    instant = controller.next_deadline() if kind == "deadline" else controller.next_view_change()
    if instant is None:
        return last + 1.0
    return max(last, instant + value / 1000)


def _play(setup: dict[str, Any], moves: list[Move]) -> tuple[list[str], list[dict[str, Any]], Any]:
    """Play the moves on a live table; the script they made, the decisions, the table."""
    table_settings = _settings(setup)
    events: list[dict[str, Any]] = []
    table = VirtualTable(table_settings, events.append)
    steps: list[ScriptStep] = []
    last = 0.0
    try:
        for move in moves:
            t = _when(move, table.controller, last)
            made = []
            if move.how in ("tap", "down"):
                made.append(ScriptStep(t, move.input, True))
            if move.how == "tap":
                made.append(ScriptStep(t + move.hold, move.input, False))
            if move.how == "up":
                made.append(ScriptStep(t, move.input, False))
            first = len(steps)
            steps.extend(made)
            table.play(steps, first=first)
            assert_fits_the_oled(table.controller)  # what the daemon draws after every step
            last = steps[-1].t
        table.advance(last + 2000.0)  # let every timer run out
        assert_fits_the_oled(table.controller)
    finally:
        table.close()
    lines = [json.dumps({"setup": setup})]
    for step in steps:
        lines.append(json.dumps({"t": step.t, "press" if step.active else "release": step.input}))
    lines.append(json.dumps({"t": last + 2000.0}))
    return lines, events, table.controller


def _settings(setup: dict[str, Any]) -> TableSettings:
    return table_settings(**setup)


@pytest.mark.parametrize("game", range(1, 6))
@PER_GAME
@given(moves=SCRIPTS)
def test_random_presses_never_raise_in_a_game_on_its_own(game: int, moves: list[Move]) -> None:
    _play({"game": game}, moves)


@PER_MATCH
@given(setup=MATCHES, moves=SCRIPTS)
def test_random_presses_never_raise_in_a_combo_4_match(
    setup: dict[str, Any], moves: list[Move]
) -> None:
    _play(setup, moves)


@PER_GAME
@given(setup=LEVEL3_GAMES, moves=SCRIPTS)
def test_random_presses_never_raise_in_a_level_3_game_on_its_own(
    setup: dict[str, Any], moves: list[Move]
) -> None:
    _play(setup, moves)


@PER_MATCH
@given(setup=st.one_of(COMBO3_MATCHES, CHAMPIONSHIPS), moves=SCRIPTS)
def test_random_presses_never_raise_in_a_combo_3_match_or_the_championship(
    setup: dict[str, Any], moves: list[Move]
) -> None:
    _play(setup, moves)


@JOURNALED
@given(setup=st.one_of(GAMES, LEVEL3_GAMES, MATCHES, COMBO3_MATCHES, CHAMPIONSHIPS), moves=SCRIPTS)
def test_a_random_script_with_a_journal_decides_the_same_and_rebuilds_the_same_table(
    setup: dict[str, Any], moves: list[Move]
) -> None:
    lines, live_events, live = _play(setup, moves)
    assert_the_journal_rebuilds_the_live_table(lines, live_events, live, INPUTS)
