"""Edges at and around a window's deadline, millisecond by millisecond: a press whose edge is
inside the window counts, whatever the timer does meanwhile (R110); one after it does not.

Chummy Challenge's 15 seconds (a shout against the clock) and the 5-count (standing by the time
the dealer reaches 5). Each case starts from one snapshot of the table, so every millisecond of
the last 100 can be tried alone and in pairs.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import TableController

MS = 0.001
GO_AT = 10.1  # not a round number: the deadline is a float sum, 25.099999999999998
DEADLINE = GO_AT + 15.0
READING = 1.0 + 4 * 1.0  # COUNT pressed at 1 s, 1 s cadence: the count shows 5 at 5 s
LAST_100_MS = range(100, -1, -1)  # milliseconds before the deadline, down to the deadline


def _press(table: TableController, name: str, t: float) -> None:
    table.on_edge(name, t, True, now=t)
    table.on_edge(name, t + 0.1, False, now=t + 0.1)


@functools.cache
def _chummy_waiting() -> TableController:
    """Game 5 after GO at the end of the reading: the 15 s are running."""
    table = TableController(
        settings=table_settings(game=5), emit=lambda event: None, now=0.0, read_pin=lambda n: False
    )
    _press(table, "console.count", 1.0)
    table.advance(7.0)
    _press(table, "console.yes", 8.0)  # new GeoPlungers seated
    _press(table, "console.yes", 9.0)  # the question's colour
    _press(table, "console.go", GO_AT)  # reading done: the 15 s start
    assert table.prompt.key == "ch/waiting1"
    return table


def _shouts(presses: list[tuple[str, float]]) -> tuple[list[str] | None, bool]:
    """Who the table says shouted (None: nobody), and whether the challenge timed out."""
    table = copy.deepcopy(_chummy_waiting())
    events: list[dict[str, Any]] = []
    table.emit = events.append
    for seat, t in presses:
        table.on_edge(f"{seat}.shout", t, True, now=t)
    table.advance(DEADLINE + 1.0)
    shouted = [e["shouters"] for e in events if e.get("action") == "chummy.shout"]
    timed_out = any(e["event"] == "timeout" for e in events)
    return (shouted[0] if shouted else None), timed_out


def _expected(presses: list[tuple[str, float]]) -> list[str] | None:
    inside = sorted((t, seat) for seat, t in presses if round(t * 1e6) <= round(DEADLINE * 1e6))
    if not inside:
        return None
    first = inside[0][0]
    return sorted(seat for t, seat in inside if round((t - first) * 1e6) < round(0.015 * 1e6))


def _check(cases: list[list[tuple[str, float]]]) -> None:
    wrong = []
    for presses in cases:
        shouters, timed_out = _shouts(presses)
        wanted = _expected(presses)
        if (shouters, timed_out) != (wanted, wanted is None):
            at = ", ".join(f"{seat} {(t - DEADLINE) * 1000:+.0f} ms" for seat, t in presses)
            wrong.append(f"{at}: shouters {shouters}, timed out {timed_out}; expected {wanted}")
    assert not wrong, f"{len(wrong)} of {len(cases)} cases wrong, e.g.\n" + "\n".join(wrong[:10])


def test_a_shout_alone_in_any_of_the_last_100_ms_counts() -> None:
    _check([[(seat, DEADLINE - ms * MS)] for ms in LAST_100_MS for seat in "AB"])


def test_two_shouts_in_the_last_100_ms_both_count_and_a_later_one_does_not() -> None:
    gaps = (0, 1, 10, 14, 15, 16, 50)  # ms after the first: ties, the tie window's edge, wins
    _check(
        [
            [(first, DEADLINE - ms * MS), (second, DEADLINE - ms * MS + gap * MS)]
            for ms in LAST_100_MS
            for gap in gaps
            for first, second in (("A", "B"), ("B", "A"))
        ]
    )


def test_shouts_at_14_97_and_14_98_s_are_a_tie() -> None:
    assert _shouts([("A", GO_AT + 14.97), ("B", GO_AT + 14.98)]) == (["A", "B"], False)


def test_a_shout_after_the_15_seconds_does_not_count() -> None:
    assert _shouts([("A", DEADLINE + MS)]) == (None, True)


def test_a_late_callback_for_an_edge_inside_the_15_seconds_still_counts() -> None:
    table = copy.deepcopy(_chummy_waiting())
    events: list[dict[str, Any]] = []
    table.emit = events.append
    late = table.settings.settle - 2 * MS  # delivered late, but within the settle time
    table.on_edge("B.shout", DEADLINE - 5 * MS, True, now=DEADLINE + late)
    table.advance(DEADLINE + 1.0)
    assert [e["shouters"] for e in events if e.get("action") == "chummy.shout"] == [["B"]]
    assert not [e for e in events if e["event"] == "timeout"]


# --- standing by the time the dealer reaches 5 ---------------------------------------------


@functools.cache
def _counting() -> TableController:
    """Game 1: Team B stood up early; COUNT pressed at 1 s."""
    table = TableController(
        settings=table_settings(game=1),
        emit=lambda event: None,
        now=0.0,
        read_pin=lambda name: name == "B.stand",
    )
    table.on_edge("B.stand", 0.5, True, now=0.5)
    _press(table, "console.count", 1.0)
    assert table.level("B.stand")
    return table


def _plunging(edges: list[tuple[str, float, bool]]) -> list[str]:
    table = copy.deepcopy(_counting())
    events: list[dict[str, Any]] = []
    table.emit = events.append
    # the sensors' real levels, for the debouncer's re-read at the end of its quiet window
    levels = {"B.stand": True}
    table.read_pin = lambda name: levels.get(name, False)
    for name, t, active in edges:
        levels[name] = active
        table.on_edge(name, t, active, now=t)
    table.advance(READING + 1.0)
    (plunge,) = [e for e in events if e["event"] == "plunge"]
    return list(plunge["plunging"])


def test_standing_up_or_sitting_down_in_the_last_100_ms_before_5_counts() -> None:
    wrong = []
    for ms in LAST_100_MS:
        t = READING - ms * MS
        plunging = _plunging([("A.stand", t, True), ("B.stand", t, False)])
        if plunging != ["A"]:
            wrong.append(f"A up, B down {ms} ms before 5: plunging {plunging}")
    assert not wrong, "\n".join(wrong[:10])


def test_standing_up_or_sitting_down_just_after_5_is_too_late() -> None:
    for ms in (1, 2, 10, 49):
        t = READING + ms * MS
        plunging = _plunging([("A.stand", t, True), ("B.stand", t, False)])
        assert plunging == ["B"], f"A up, B down {ms} ms after 5"
