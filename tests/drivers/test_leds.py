"""TeamLeds: each SeatLight is its documented PWM pattern on the seat's pin."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]
from gpiozero.threads import GPIOThread  # type: ignore[import-untyped]

from drivers.leds import STANDING_DUTY, SeatLight, TeamLeds
from drivers.mockpins import TimedMockPin

A_PIN, B_PIN = 20, 21


@pytest.fixture
def leds(factory: MockFactory) -> Iterator[TeamLeds]:
    team_leds = TeamLeds(pins={"A": A_PIN, "B": B_PIN}, factory=factory)
    yield team_leds
    team_leds.close()


def blink_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if isinstance(t, GPIOThread) and t.is_alive()}


def wait_for(condition: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def levels(pin: TimedMockPin) -> list[float]:
    return [float(s.state) for s in list(pin.states)[1:]]  # states[0]: where the record started


def test_every_seat_starts_off(leds: TeamLeds, factory: MockFactory) -> None:
    assert leds.seats == ("A", "B")
    assert [leds.light(seat) for seat in leds.seats] == [SeatLight.OFF, SeatLight.OFF]
    assert factory.pin(A_PIN).state == 0


def test_standing_is_dim_and_steady(leds: TeamLeds, factory: MockFactory) -> None:
    leds.set("A", SeatLight.STANDING)
    assert factory.pin(A_PIN).state == STANDING_DUTY
    assert 0 < STANDING_DUTY < 0.5
    assert blink_threads() == set()


def test_plunging_is_full_and_steady(leds: TeamLeds, factory: MockFactory) -> None:
    leds.set("A", SeatLight.PLUNGING)
    assert factory.pin(A_PIN).state == 1.0
    assert blink_threads() == set()


def test_off_turns_the_light_off(leds: TeamLeds, factory: MockFactory) -> None:
    leds.set("A", SeatLight.PLUNGING)
    leds.set("A", SeatLight.OFF)
    assert factory.pin(A_PIN).state == 0


def test_won_blinks_full_on_and_off(leds: TeamLeds, factory: MockFactory) -> None:
    pin = factory.pin(A_PIN)
    pin.clear_states()
    leds.set("A", SeatLight.WON)
    assert wait_for(lambda: len(levels(pin)) >= 4)
    assert levels(pin)[:4] == [1.0, 0.0, 1.0, 0.0]
    assert len(blink_threads()) == 1


def test_locked_pulses_through_intermediate_levels(leds: TeamLeds, factory: MockFactory) -> None:
    pin = factory.pin(A_PIN)
    pin.clear_states()
    leds.set("A", SeatLight.LOCKED)
    assert wait_for(lambda: len(levels(pin)) >= 6)
    rising = levels(pin)[:6]
    assert all(0 < level < 1 for level in rising)  # a fade, not a blink
    assert rising == sorted(rising)


def test_setting_the_same_light_again_does_not_restart_the_blink(leds: TeamLeds) -> None:
    leds.set("A", SeatLight.WON)
    running = blink_threads()
    leds.set("A", SeatLight.WON)
    assert blink_threads() == running
    assert leds.light("A") is SeatLight.WON


def test_a_steady_light_stops_the_blink(leds: TeamLeds, factory: MockFactory) -> None:
    leds.set("B", SeatLight.WON)
    leds.set("B", SeatLight.PLUNGING)
    assert blink_threads() == set()
    assert factory.pin(B_PIN).state == 1.0


def test_all_off_turns_every_seat_off(leds: TeamLeds, factory: MockFactory) -> None:
    leds.set("A", SeatLight.LOCKED)
    leds.set("B", SeatLight.PLUNGING)
    leds.all_off()
    assert [leds.light(seat) for seat in leds.seats] == [SeatLight.OFF, SeatLight.OFF]
    assert (factory.pin(A_PIN).state, factory.pin(B_PIN).state) == (0, 0)
    assert blink_threads() == set()


def test_close_stops_the_blinking(leds: TeamLeds) -> None:
    leds.set("A", SeatLight.WON)
    leds.close()
    assert blink_threads() == set()


def test_an_unknown_seat_is_a_key_error_naming_the_seats(leds: TeamLeds) -> None:
    with pytest.raises(KeyError, match=r"no LED for seat 'C' \(seats: A, B\)"):
        leds.set("C", SeatLight.WON)


def test_two_seats_on_one_pin_are_rejected(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match=r"^seat LEDs 'A' and 'B' both use GPIO20$"):
        TeamLeds(pins={"A": 20, "B": "GPIO20"}, factory=factory)
