"""Random scripts at a Pentathlon table: whatever the monitor presses and the players do with
their flag buttons and challenge inputs, in any order, at any time (at and around the table's
own deadlines too: the minute, the capture window, the game clock), nothing raises; and the
script replayed with a journal decides the same, and the journal rebuilds the same table.
Every game, with short clocks so that time runs out. ``GAMETABLE_SOAK=1`` tries many more."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.families.pentathlon.options import table_settings
from firmware_py.table.controller import TableController
from firmware_py.table.headless import ScriptStep, VirtualTable, input_names
from rules.pentathlon.catalogue import Game
from tests.journal_rebuild import assert_the_journal_rebuilds_the_live_table
from tests.soak import SOAK
from tests.test_table_properties import GAPS, HOLDS, Move

RANDOM = settings(
    max_examples=1000 if SOAK else 15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
JOURNALED = settings(RANDOM, max_examples=300 if SOAK else 10)

INPUTS = input_names(("A", "B"))
# Weighted towards what moves a game on: YES and NEXT through the menus, the flags.
PRESSED = (
    *INPUTS,
    *("console.yes",) * 4,
    *("console.next",) * 2,
    "A.shout",
    "B.shout",
    "console.go",
)
MOVES = st.builds(
    Move,
    input=st.sampled_from(PRESSED),
    how=st.sampled_from(("tap", "tap", "tap", "tap", "down", "up")),
    hold=st.sampled_from(HOLDS),
    at=st.one_of(
        st.tuples(st.just("gap"), st.sampled_from(GAPS)),
        st.tuples(st.sampled_from(("deadline", "countdown")), st.integers(-20, 20)),
    ),
)
SCRIPTS = st.lists(MOVES, min_size=60, max_size=200)
SETUPS = st.fixed_dictionaries(
    {
        "game": st.sampled_from([None, *(game.value for game in Game)]),
        "minutes": st.sampled_from([{}, dict.fromkeys((g.value for g in Game), 1)]),
        "turn_seconds": st.sampled_from((10, 60)),
        "chips": st.sampled_from((5, 20)),
    }
)


def _when(move: Move, controller: TableController, last: float) -> float:
    kind, value = move.at
    if kind == "gap":
        return last + value
    instant = controller.next_deadline() if kind == "deadline" else controller.next_view_change()
    if instant is None:
        return last + 1.0
    return max(last, instant + value / 1000)


def _setup(setup: dict[str, Any]) -> dict[str, Any]:
    return {"family": "pentathlon", **{k: v for k, v in setup.items() if v is not None}}


def _play(setup: dict[str, Any], moves: list[Move]) -> tuple[list[str], list[dict[str, Any]], Any]:
    """Play the moves on a live table; the script they made, the decisions, the table."""
    events: list[dict[str, Any]] = []
    options = {k: v for k, v in _setup(setup).items() if k != "family"}
    table = VirtualTable(table_settings(**options), events.append)
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
            table.controller.view()  # what the daemon draws after every step
            last = steps[-1].t
        table.advance(last + 4000.0)  # let every timer run out
        table.controller.view()
    finally:
        table.close()
    lines = [json.dumps({"setup": _setup(setup)})]
    for step in steps:
        lines.append(json.dumps({"t": step.t, "press" if step.active else "release": step.input}))
    lines.append(json.dumps({"t": last + 4000.0}))
    return lines, events, table.controller


@RANDOM
@given(setup=SETUPS, moves=SCRIPTS)
def test_random_presses_and_flags_never_raise(setup: dict[str, Any], moves: list[Move]) -> None:
    _, events, _ = _play(setup, moves)
    assert all(event["event"] != "refused" for event in events), [
        event for event in events if event["event"] == "refused"
    ]


@JOURNALED
@given(setup=SETUPS, moves=SCRIPTS)
def test_a_random_script_with_a_journal_decides_the_same_and_rebuilds_the_same_table(
    setup: dict[str, Any], moves: list[Move]
) -> None:
    lines, live_events, live = _play(setup, moves)
    assert_the_journal_rebuilds_the_live_table(lines, live_events, live, INPUTS)
