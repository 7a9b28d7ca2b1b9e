"""The table's digital inputs (stand-up sensors, shout buzzers, the dealer's console buttons).

Every edge is reported with the time it happened, not the time its callback ran: gpiozero's
``Pin.when_changed(ticks, state)`` carries that time (with lgpio, the kernel's CLOCK_MONOTONIC
edge stamp), but ``when_activated``/``when_pressed`` drop it. Two teams shouting within a
millisecond are ordered by those ticks, never by callback order.

No gpiozero ``bounce_time``: each factory implements it differently (lgpio stamps the edge
at *last bounce + debounce*, MockPin ignores it). The daemon debounces on the leading edge
itself, keeping the first edge's time.

Callbacks run on gpiozero's threads (lgpio's alert thread in production); the bank only calls
``on_edge`` — the daemon hands the call to its asyncio loop with ``call_soon_threadsafe``.

Input names: ``A.stand``, ``A.shout`` ... one pair per seat (A to F, from the config), and the
dealer's ``console.count``, ``console.go``, ``console.yes``, ``console.no``, ``console.undo``,
``console.next``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gpiozero import DigitalInputDevice  # type: ignore[import-untyped]
from gpiozero.exc import GPIOZeroError  # type: ignore[import-untyped]
from gpiozero.pins import Factory  # type: ignore[import-untyped]

__all__ = ["EdgeCallback", "EdgeInput", "InputBank", "InputSpec"]

EdgeCallback = Callable[[str, float, bool], None]
"""``on_edge(name, ticks, active)``: ticks on the factory's clock, active after the edge."""


@dataclass(frozen=True)
class InputSpec:
    """One input, with gpiozero's semantics.

    ``pull_up`` True: internal pull-up, active low (a switch to ground, the usual wiring).
    False: pull-down, active high. None: floating (an external circuit drives the pin), and
    ``active_state`` must say which level is active.
    """

    name: str
    pin: int | str
    pull_up: bool | None = True
    active_state: bool | None = None

    def __post_init__(self) -> None:
        if self.pull_up is None and self.active_state is None:
            raise ValueError(
                f"input {self.name!r}: a floating pin (pull_up None) needs active_state"
            )
        if self.pull_up is not None and self.active_state is not None:
            raise ValueError(
                f"input {self.name!r}: active_state is only for floating pins (pull_up None)"
            )


class EdgeInput(DigitalInputDevice):  # type: ignore[misc]  # gpiozero ships no type hints
    """A ``DigitalInputDevice`` that reports every edge with its own ticks."""

    def __init__(
        self,
        pin: int | str,
        *,
        name: str,
        on_edge: EdgeCallback,
        pull_up: bool | None = True,
        active_state: bool | None = None,
        pin_factory: Factory,
    ) -> None:
        # Set before gpiozero's __init__, which wires when_changed and freezes the attributes.
        self._edge_name = name
        self._on_edge = on_edge
        super().__init__(
            pin,
            pull_up=pull_up,
            active_state=active_state,
            bounce_time=None,
            pin_factory=pin_factory,
        )

    def _pin_changed(self, ticks: float, state: Any) -> None:
        # Keep gpiozero's own bookkeeping (is_active events, active_time) up to date.
        super()._pin_changed(ticks, state)
        self._on_edge(self._edge_name, ticks, bool(self._state_to_value(state)))


class InputBank:
    """All the table's inputs on one factory, reporting edges to one callback."""

    def __init__(
        self, *, specs: Sequence[InputSpec], factory: Factory, on_edge: EdgeCallback
    ) -> None:
        _check_unique(specs, factory)
        self._inputs: dict[str, EdgeInput] = {}
        try:
            for spec in specs:
                self._inputs[spec.name] = _open(spec, factory, on_edge)
        except BaseException:
            # Release the pins already claimed, so a corrected config can be retried.
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._inputs)

    def is_active(self, name: str) -> bool:
        """The input's level now (True: pressed / standing), as gpiozero reads it."""
        return bool(self._input(name).is_active)

    def pin(self, name: str) -> Any:
        """The gpiozero pin under ``name`` (a TimedMockPin on the mock factory)."""
        return self._input(name).pin

    def close(self) -> None:
        for device in self._inputs.values():
            device.close()
        self._inputs.clear()

    def _input(self, name: str) -> EdgeInput:
        try:
            return self._inputs[name]
        except KeyError:
            known = ", ".join(self._inputs) or "none"
            raise KeyError(f"no input named {name!r} (inputs: {known})") from None


def _open(spec: InputSpec, factory: Factory, on_edge: EdgeCallback) -> EdgeInput:
    try:
        return EdgeInput(
            spec.pin,
            name=spec.name,
            on_edge=on_edge,
            pull_up=spec.pull_up,
            active_state=spec.active_state,
            pin_factory=factory,
        )
    except GPIOZeroError as exc:
        raise ValueError(f"input {spec.name!r} on pin {spec.pin!r}: {exc}") from exc


def _check_unique(specs: Sequence[InputSpec], factory: Factory) -> None:
    """Reject a repeated name or a pin used twice (17, "GPIO17", "BOARD11" are one pin)."""
    by_name: set[str] = set()
    by_pin: dict[str, str] = {}
    for spec in specs:
        if spec.name in by_name:
            raise ValueError(f"input {spec.name!r} is configured twice")
        by_name.add(spec.name)
        try:
            gpio = str(factory.board_info.to_gpio(spec.pin))
        except GPIOZeroError as exc:
            raise ValueError(f"input {spec.name!r}: {exc}") from exc
        if gpio in by_pin:
            raise ValueError(f"inputs {by_pin[gpio]!r} and {spec.name!r} both use {gpio}")
        by_pin[gpio] = spec.name
