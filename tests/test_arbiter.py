"""First to shout: ordered by edge timestamps, ties inside the window, stuck buzzers."""

from __future__ import annotations

from firmware_py.table.arbiter import ShoutArbiter

TIE, SETTLE = 0.015, 0.050


def _arbiter() -> ShoutArbiter:
    arbiter = ShoutArbiter(tie_window=TIE, settle=SETTLE)
    arbiter.open(held=set())
    return arbiter


def test_earliest_edge_wins_whatever_order_the_callbacks_arrive_in() -> None:
    arbiter = _arbiter()
    arbiter.press("B", 10.020)  # delivered first, pressed second
    arbiter.press("A", 10.000)
    decision = arbiter.decide(10.0 + TIE + SETTLE)
    assert decision is not None
    assert (decision.first, decision.result) == ("A", "A")


def test_margin_is_the_gap_to_the_second_press_in_ms() -> None:
    arbiter = _arbiter()
    arbiter.press("A", 5.000)
    arbiter.press("B", 5.031)
    decision = arbiter.decide(6.0)
    assert decision is not None and decision.margin_ms is not None
    assert round(decision.margin_ms, 1) == 31.0


def test_presses_inside_the_tie_window_are_a_tie() -> None:
    arbiter = _arbiter()
    arbiter.press("A", 5.000)
    arbiter.press("B", 5.0149)
    decision = arbiter.decide(6.0)
    assert decision is not None
    assert decision.result == "tie"
    assert decision.shouters == {"A", "B"}


def test_a_press_exactly_one_window_later_is_not_a_tie() -> None:
    arbiter = _arbiter()
    arbiter.press("A", 5.0)
    arbiter.press("B", 5.0 + TIE)
    decision = arbiter.decide(6.0)
    assert decision is not None and decision.result == "A"


def test_a_lone_shout_has_no_margin() -> None:
    arbiter = _arbiter()
    arbiter.press("A", 5.0)
    decision = arbiter.decide(6.0)
    assert decision is not None and decision.margin_ms is None


def test_the_decision_waits_for_late_callbacks() -> None:
    arbiter = _arbiter()
    arbiter.press("A", 5.0)
    assert arbiter.deadline == 5.0 + TIE + SETTLE
    assert arbiter.decide(5.0 + TIE) is None


def test_presses_before_the_window_opens_do_not_count() -> None:
    arbiter = ShoutArbiter(tie_window=TIE, settle=SETTLE)
    assert not arbiter.press("A", 1.0)
    assert arbiter.deadline is None


def test_a_buzzer_held_when_the_window_opens_is_stuck_and_cannot_win() -> None:
    arbiter = ShoutArbiter(tie_window=TIE, settle=SETTLE)
    assert arbiter.open(held={"B"}) == {"B"}
    assert not arbiter.press("B", 1.0)
    arbiter.press("A", 2.0)
    decision = arbiter.decide(3.0)
    assert decision is not None and decision.result == "A"


def test_a_stuck_buzzer_recovers_when_released() -> None:
    arbiter = ShoutArbiter(tie_window=TIE, settle=SETTLE)
    arbiter.open(held={"B"})
    assert arbiter.release("B")
    assert arbiter.press("B", 4.0)


def test_a_second_press_by_the_same_team_keeps_the_first_time() -> None:
    arbiter = _arbiter()
    arbiter.press("A", 5.0)
    assert not arbiter.press("A", 4.0)
    assert arbiter.deadline == 5.0 + TIE + SETTLE


def test_the_window_closes_with_the_decision() -> None:
    arbiter = _arbiter()
    arbiter.press("A", 5.0)
    arbiter.decide(6.0)
    assert not arbiter.is_open
    assert not arbiter.press("B", 6.1)


def _seated(*seats: str) -> ShoutArbiter:
    arbiter = ShoutArbiter(tie_window=TIE, settle=SETTLE, seats=frozenset(seats))
    arbiter.open(held=set())
    return arbiter


def test_the_decision_is_due_at_once_when_every_seat_has_pressed() -> None:
    arbiter = _seated("A", "B")
    arbiter.press("A", 5.000)
    assert arbiter.deadline == 5.0 + TIE + SETTLE
    arbiter.press("B", 5.004)
    assert arbiter.deadline == 5.004
    decision = arbiter.decide(5.004)
    assert decision is not None and decision.result == "tie"


def test_a_stuck_seat_is_not_waited_for() -> None:
    arbiter = ShoutArbiter(tie_window=TIE, settle=SETTLE, seats=frozenset("AB"))
    arbiter.open(held={"B"})
    arbiter.press("A", 7.0)
    assert arbiter.deadline == 7.0


def test_the_wait_stays_while_a_seat_has_not_pressed() -> None:
    arbiter = _seated("A", "B", "C")
    arbiter.press("A", 5.0)
    arbiter.press("B", 5.02)
    assert arbiter.deadline == 5.0 + TIE + SETTLE
