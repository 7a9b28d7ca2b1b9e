"""The pin factory is chosen by name, through gpiozero's entry points, and never falls back."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator

import fake_rpi  # type: ignore[import-untyped]
import fake_rpi.wrappers  # type: ignore[import-untyped]
import gpiozero.pins.local  # type: ignore[import-untyped]
import pytest
from gpiozero.exc import PinUnknownPi  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from drivers.mockpins import TimedMockPin
from drivers.pins import FACTORY_NAMES, PinFactoryError, choose_factory, make_pin_factory

PI_3B_REVISION = 0xA02082


def test_mock_by_name_is_a_mock_factory_with_timed_pins() -> None:
    factory = make_pin_factory("mock", environ={})
    assert isinstance(factory, MockFactory)
    assert factory.pin_class is TimedMockPin


def test_env_var_names_the_factory_when_the_config_does_not() -> None:
    factory = make_pin_factory(None, environ={"GPIOZERO_PIN_FACTORY": "mock"})
    assert isinstance(factory, MockFactory)


def test_the_env_var_wins_over_the_config_name_as_over_gpiozeros_default() -> None:
    # R750: an installed table's config names lgpio; GPIOZERO_PIN_FACTORY=mock tries it off a Pi
    factory = make_pin_factory("lgpio", environ={"GPIOZERO_PIN_FACTORY": "mock"})
    assert isinstance(factory, MockFactory)


def test_a_blank_env_var_leaves_the_choice_to_the_config() -> None:
    factory = make_pin_factory("mock", environ={"GPIOZERO_PIN_FACTORY": "  "})
    assert isinstance(factory, MockFactory)


def test_the_choice_says_the_env_var_overrode_the_config() -> None:
    choice = choose_factory("lgpio", environ={"GPIOZERO_PIN_FACTORY": "mock"})
    assert choice.describe() == (
        "pin factory mock (from GPIOZERO_PIN_FACTORY; gpio.pin_factory 'lgpio' is overridden)"
    )


def test_the_choice_names_the_config_when_the_env_var_is_unset() -> None:
    choice = choose_factory("lgpio", environ={})
    assert choice.describe() == "pin factory lgpio (from gpio.pin_factory)"


def test_the_choice_names_the_env_var_alone_when_both_agree() -> None:
    choice = choose_factory("Mock", environ={"GPIOZERO_PIN_FACTORY": "mock"})
    assert choice.describe() == "pin factory mock (from GPIOZERO_PIN_FACTORY)"


def test_an_unknown_name_from_the_env_var_says_where_it_came_from() -> None:
    with pytest.raises(PinFactoryError) as caught:
        make_pin_factory("lgpio", environ={"GPIOZERO_PIN_FACTORY": "pigpio"})
    assert "'pigpio' (from GPIOZERO_PIN_FACTORY)" in str(caught.value)


def test_names_are_case_insensitive_as_in_gpiozero() -> None:
    assert isinstance(make_pin_factory("MOCK", environ={}), MockFactory)


def test_missing_name_says_where_to_set_one() -> None:
    with pytest.raises(PinFactoryError) as caught:
        make_pin_factory(None, environ={})
    assert str(caught.value) == (
        "no pin factory: set gpio.pin_factory in the config or GPIOZERO_PIN_FACTORY "
        "(lgpio on a Pi, rpigpio, or mock)"
    )


def test_unknown_name_lists_the_known_factories() -> None:
    with pytest.raises(PinFactoryError) as caught:
        make_pin_factory("pigpio", environ={})
    message = str(caught.value)
    assert "'pigpio'" in message
    assert all(name in message for name in FACTORY_NAMES)
    assert "\n" not in message


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed")
def test_lgpio_unavailable_names_lgpio_the_cause_and_the_fix() -> None:
    with pytest.raises(PinFactoryError) as caught:
        make_pin_factory("lgpio", environ={})
    assert str(caught.value) == (
        "pin factory 'lgpio' is not available (No module named 'lgpio'): "
        "install gametable[pi] on the Pi"
    )


@pytest.fixture
def fake_rpi_gpio(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """fake-rpi standing in for RPi.GPIO, and gpiozero's rpigpio module imported afresh."""
    monkeypatch.setattr(fake_rpi.wrappers, "PRINT_ON", False)  # fake-rpi prints every call
    monkeypatch.setitem(sys.modules, "RPi", fake_rpi.RPi)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", fake_rpi.RPi.GPIO)
    sys.modules.pop("gpiozero.pins.rpigpio", None)
    yield
    # Its module global GPIO is the fake: do not leave it for a later import to find.
    sys.modules.pop("gpiozero.pins.rpigpio", None)


@pytest.mark.usefixtures("fake_rpi_gpio")
def test_rpigpio_loads_through_its_entry_point_and_makes_a_pin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # gpiozero 2.0.1 reads the board revision only from /proc (no environment override).
    monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", lambda: PI_3B_REVISION)
    factory = make_pin_factory("rpigpio", environ={})
    try:
        assert type(factory).__name__ == "RPiGPIOFactory"
        pin = factory.pin(17)
        assert pin.info.name == "GPIO17"
    finally:
        factory.close()


@pytest.mark.usefixtures("fake_rpi_gpio")
def test_rpigpio_off_a_pi_is_refused_at_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_revision() -> int:
        raise PinUnknownPi("unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo")

    monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", no_revision)
    with pytest.raises(PinFactoryError) as caught:
        make_pin_factory("rpigpio", environ={})
    assert str(caught.value) == (
        "pin factory 'rpigpio' is not available (unable to locate Pi revision in "
        "/proc/device-tree or /proc/cpuinfo): this machine is not a Raspberry Pi: "
        "use pin factory 'mock' to simulate"
    )
