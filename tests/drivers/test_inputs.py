"""InputBank: every edge reaches on_edge with its own time and the input's active flag."""

from __future__ import annotations

import time

import pytest
from gpiozero import PWMLED  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from drivers.inputs import InputBank, InputSpec
from drivers.mockpins import TimedMockPin

Edge = tuple[str, float, bool]


class Edges:
    """Collects on_edge calls in the order the callbacks ran."""

    def __init__(self) -> None:
        self.seen: list[Edge] = []

    def __call__(self, name: str, ticks: float, active: bool) -> None:
        self.seen.append((name, ticks, active))


def bank_of(factory: MockFactory, *specs: InputSpec) -> tuple[InputBank, Edges]:
    edges = Edges()
    return InputBank(specs=specs, factory=factory, on_edge=edges), edges


def test_pull_up_input_is_active_low_and_reports_each_edge_with_its_ticks(
    factory: MockFactory,
) -> None:
    bank, edges = bank_of(factory, InputSpec("A.shout", 17))
    pin: TimedMockPin = bank.pin("A.shout")
    pin.drive_at(False, 12.5)
    pin.drive_at(True, 12.75)
    assert edges.seen == [("A.shout", 12.5, True), ("A.shout", 12.75, False)]


def test_floating_active_high_input_reports_a_rising_edge_as_active(factory: MockFactory) -> None:
    bank, edges = bank_of(factory, InputSpec("A.stand", 5, pull_up=None, active_state=True))
    bank.pin("A.stand").drive_at(True, 3.0)
    assert edges.seen == [("A.stand", 3.0, True)]


def test_floating_active_low_input_reports_a_falling_edge_as_active(factory: MockFactory) -> None:
    bank, edges = bank_of(factory, InputSpec("A.stand", 5, pull_up=None, active_state=False))
    pin = bank.pin("A.stand")
    pin.drive_at(True, 1.0)
    pin.drive_at(False, 2.0)
    assert edges.seen == [("A.stand", 1.0, False), ("A.stand", 2.0, True)]


def test_edges_reported_out_of_order_still_carry_their_own_ticks(factory: MockFactory) -> None:
    bank, edges = bank_of(factory, InputSpec("A.shout", 17), InputSpec("B.shout", 27))
    # B's callback runs first although A shouted first: the ticks, not the order, decide.
    bank.pin("B.shout").drive_at(False, 10.002)
    bank.pin("A.shout").drive_at(False, 10.001)
    assert edges.seen == [("B.shout", 10.002, True), ("A.shout", 10.001, True)]
    assert min(edges.seen, key=lambda edge: edge[1])[0] == "A.shout"


def test_plain_drive_low_reports_the_time_of_the_call(factory: MockFactory) -> None:
    bank, edges = bank_of(factory, InputSpec("console.go", 22))
    before = time.monotonic()
    bank.pin("console.go").drive_low()
    after = time.monotonic()
    [(name, ticks, active)] = edges.seen
    assert (name, active) == ("console.go", True)
    assert before <= ticks <= after


def test_no_edge_is_reported_when_the_bank_opens(factory: MockFactory) -> None:
    _bank, edges = bank_of(factory, InputSpec("A.stand", 5), InputSpec("A.shout", 6))
    assert edges.seen == []


def test_is_active_follows_the_level(factory: MockFactory) -> None:
    bank, _edges = bank_of(factory, InputSpec("console.yes", 23))
    assert bank.is_active("console.yes") is False
    bank.pin("console.yes").drive_at(False, 1.0)
    assert bank.is_active("console.yes") is True


def test_names_are_in_configuration_order(factory: MockFactory) -> None:
    bank, _edges = bank_of(
        factory, InputSpec("B.stand", 5), InputSpec("A.stand", 6), InputSpec("console.no", 7)
    )
    assert bank.names == ("B.stand", "A.stand", "console.no")


def test_pin_is_the_timed_mock_pin_under_the_input(factory: MockFactory) -> None:
    bank, _edges = bank_of(factory, InputSpec("console.undo", 24))
    assert bank.pin("console.undo") is factory.pin(24)
    assert isinstance(bank.pin("console.undo"), TimedMockPin)


def test_one_pin_named_two_ways_is_rejected_naming_both_inputs(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match=r"^inputs 'A.stand' and 'A.shout' both use GPIO17$"):
        bank_of(factory, InputSpec("A.stand", 17), InputSpec("A.shout", "BOARD11"))


def test_a_name_used_twice_is_rejected(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match=r"^input 'A.stand' is configured twice$"):
        bank_of(factory, InputSpec("A.stand", 17), InputSpec("A.stand", 18))


def test_an_invalid_pin_is_rejected_naming_the_input(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match=r"^input 'console.next': 99 is not a valid pin name$"):
        bank_of(factory, InputSpec("console.next", 99))


def test_a_floating_pin_needs_an_active_state() -> None:
    with pytest.raises(ValueError, match="needs active_state"):
        InputSpec("A.stand", 5, pull_up=None)


def test_a_failed_bank_releases_the_pins_it_had_claimed(factory: MockFactory) -> None:
    led = PWMLED(18, pin_factory=factory)  # pin 18 is taken by something else
    with pytest.raises(ValueError, match=r"^input 'B.shout' on pin 18: "):
        bank_of(factory, InputSpec("A.shout", 17), InputSpec("B.shout", 18))
    led.close()
    bank, _edges = bank_of(factory, InputSpec("A.shout", 17))
    assert bank.names == ("A.shout",)


def test_closed_bank_reports_no_more_edges(factory: MockFactory) -> None:
    bank, edges = bank_of(factory, InputSpec("A.shout", 17))
    pin = bank.pin("A.shout")
    bank.close()
    pin.drive_at(False, 1.0)
    assert edges.seen == []
