"""Leading-edge debounce: the first edge counts with its own time; chatter is ignored."""

from __future__ import annotations

from firmware_py.table.debounce import LeadingEdgeDebouncer

WINDOW = 0.020


def _debouncer() -> LeadingEdgeDebouncer:
    debouncer = LeadingEdgeDebouncer(window=WINDOW)
    debouncer.prime("A.shout", False)
    return debouncer


def test_the_first_edge_counts_with_its_own_timestamp() -> None:
    edge = _debouncer().edge("A.shout", 1.000, True)
    assert edge is not None and edge.ticks == 1.000


def test_chatter_inside_the_window_is_ignored() -> None:
    debouncer = _debouncer()
    debouncer.edge("A.shout", 1.000, True)
    assert debouncer.edge("A.shout", 1.003, False) is None
    assert debouncer.edge("A.shout", 1.006, True) is None
    assert debouncer.level("A.shout")


def test_a_bounce_burst_is_one_press() -> None:
    debouncer = _debouncer()
    edges = [debouncer.edge("A.shout", 1.0 + i * 0.001, i % 2 == 0) for i in range(15)]
    assert [e.ticks for e in edges if e is not None] == [1.0]


def test_an_edge_after_the_window_counts() -> None:
    debouncer = _debouncer()
    debouncer.edge("A.shout", 1.000, True)
    edge = debouncer.edge("A.shout", 1.030, False)
    assert edge is not None and not edge.active


def test_the_level_is_rechecked_when_the_window_ends() -> None:
    debouncer = _debouncer()
    debouncer.edge("A.shout", 1.000, True)
    debouncer.edge("A.shout", 1.005, False)  # a real release, hidden by the window
    edge = debouncer.settle("A.shout", 1.020, actual=False)
    assert edge is not None and (edge.ticks, edge.active) == (1.020, False)


def test_no_edge_when_the_level_is_unchanged_at_the_end_of_the_window() -> None:
    debouncer = _debouncer()
    debouncer.edge("A.shout", 1.000, True)
    assert debouncer.settle("A.shout", 1.020, actual=True) is None


def test_the_level_at_an_instant_comes_from_edge_times() -> None:
    debouncer = _debouncer()
    debouncer.edge("A.shout", 2.0, True)
    debouncer.edge("A.shout", 3.0, False)
    assert not debouncer.level_at("A.shout", 1.9)
    assert debouncer.level_at("A.shout", 2.5)
    assert not debouncer.level_at("A.shout", 3.0)


def test_inputs_are_debounced_independently() -> None:
    debouncer = _debouncer()
    debouncer.prime("B.shout", False)
    debouncer.edge("A.shout", 1.000, True)
    assert debouncer.edge("B.shout", 1.001, True) is not None
