"""TimedMockPin: gpiozero's mock pin, driven at an edge time the caller chooses."""

from __future__ import annotations

import time

import pytest
from gpiozero.exc import PinInvalidFunction  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from drivers.mockpins import STATES_KEPT, TimedMockPin, mock_factory


class Changes:
    """A when_changed handler; the test holds it, as gpiozero keeps only a weak reference."""

    def __init__(self, pin: TimedMockPin) -> None:
        self.seen: list[tuple[float, bool]] = []
        pin.when_changed = self.changed

    def changed(self, ticks: float, state: bool) -> None:
        self.seen.append((ticks, state))


def test_mock_factory_makes_timed_pins(factory: MockFactory) -> None:
    assert isinstance(factory.pin(4), TimedMockPin)


def test_drive_at_hands_when_changed_exactly_its_ticks(factory: MockFactory) -> None:
    pin = factory.pin(4)
    changes = Changes(pin)
    pin.drive_at(True, 100.25)
    pin.drive_at(False, 100.5)
    assert changes.seen == [(100.25, True), (100.5, False)]


def test_driving_the_level_the_pin_has_is_no_edge(factory: MockFactory) -> None:
    pin = factory.pin(4)
    pin.drive_at(True, 1.0)
    changes = Changes(pin)
    pin.drive_at(True, 2.0)
    assert changes.seen == []


def test_plain_drive_low_still_stamps_the_time_of_the_call(factory: MockFactory) -> None:
    pin = factory.pin(4)
    pin.drive_high()
    changes = Changes(pin)
    before = time.monotonic()
    pin.drive_low()
    after = time.monotonic()
    assert len(changes.seen) == 1
    ticks, state = changes.seen[0]
    assert state is False
    assert before <= ticks <= after


def test_drive_at_refuses_an_output_pin(factory: MockFactory) -> None:
    pin = factory.pin(4)
    pin.function = "output"
    with pytest.raises(PinInvalidFunction):
        pin.drive_at(True, 1.0)


def test_a_pin_keeps_only_its_last_states_so_a_day_of_simulation_does_not_grow(
    factory: MockFactory,
) -> None:
    pin = factory.pin(4)
    pin.function = "output"
    for change in range(STATES_KEPT + 500):
        pin.state = change % 2 == 0
    assert len(pin.states) == STATES_KEPT
    assert pin.states[-1].state == 0  # the newest kept (a PWM pin's level), the oldest dropped


def test_cleared_states_stay_bounded(factory: MockFactory) -> None:
    pin = factory.pin(4)
    pin.function = "output"
    pin.clear_states()
    for change in range(STATES_KEPT + 1):  # the cleared state and the first change dropped
        pin.state = change % 2 == 0
    assert len(pin.states) == STATES_KEPT
    pin.assert_states([False, True] * 10)  # gpiozero's own check still reads them


def test_a_factory_told_to_keep_no_states_keeps_none_however_many_changes() -> None:
    pin = mock_factory(states_kept=0).pin(4)
    pin.function = "output"
    for change in range(500):
        pin.state = change % 2 == 0
    assert len(pin.states) == 0
    assert pin.state == 0  # the level itself is kept: only the history is not


def test_every_factory_keeping_the_same_count_shares_one_pin_class() -> None:
    first, second = mock_factory(states_kept=0), mock_factory(states_kept=0)
    assert type(first.pin(4)) is type(second.pin(5))


def test_a_negative_count_of_states_is_refused() -> None:
    with pytest.raises(ValueError, match="a pin keeps 0 or more states, got -1"):
        mock_factory(states_kept=-1)
