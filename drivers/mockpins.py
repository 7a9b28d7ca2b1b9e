"""gpiozero's own mock pins, extended so a simulator can state *when* an edge happened.

gpiozero's ``MockPin.drive_low()/drive_high()`` stamp the edge with ``monotonic()`` at the
moment of the call. A simulator or a test replaying two near-simultaneous shouts needs the
edge time it chose (the way lgpio hands over the kernel's edge timestamp), so
:meth:`TimedMockPin.drive_at` takes it explicitly. Everything else is gpiozero's
``MockPWMPin``: PWM-capable so the team LEDs run on the same factory as the buttons, except
that a pin keeps only its last ``STATES_KEPT`` states: gpiozero's mock keeps every change (for
``assert_states``), and a simulated table that runs all day changes its LEDs' levels for hours.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from gpiozero.exc import PinInvalidFunction  # type: ignore[import-untyped]
from gpiozero.pins.mock import (  # type: ignore[import-untyped]
    MockFactory,
    MockPWMPin,
    PinState,
)

__all__ = ["STATES_KEPT", "TimedMockPin", "mock_factory"]

# The states a pin keeps: enough for any test's ``assert_states``, bounded for a day's run.
STATES_KEPT = 1000


class TimedMockPin(MockPWMPin):  # type: ignore[misc]  # gpiozero ships no type hints
    """A ``MockPWMPin`` whose input level can change at an explicit edge time."""

    # Set by MockPin.__init__; declared for the type checker (a PWM output holds a float).
    _state: bool | float
    _last_change: float
    states_kept = STATES_KEPT  # a factory's pins may keep fewer (``mock_factory``)

    def clear_states(self) -> None:
        """gpiozero's own (``MockPin.__init__`` calls it), with the history bounded."""
        super().clear_states()
        self.states: deque[PinState] = deque(self.states, maxlen=self.states_kept)

    def drive_at(self, active_level: bool, ticks: float) -> None:
        """Drive the electrical level high (True) or low (False) as of ``ticks``.

        ``ticks`` is on the factory's clock (``MockFactory.ticks()``, i.e. ``monotonic()``);
        the ``when_changed`` callback receives exactly this value. Driving the level the pin
        already has is not an edge and calls nothing, as with ``drive_high()/drive_low()``.
        """
        if self._function != "input":
            raise PinInvalidFunction(f"cannot drive {self!r} from outside: it is an output")
        level = bool(active_level)
        if self._state == level:
            return
        self._state = level
        # Same bookkeeping as MockPin._change_state, with the caller's time instead of now.
        self.states.append(PinState(ticks - self._last_change, level))
        self._last_change = ticks
        wanted = "rising" if level else "falling"
        if self._edges in ("both", wanted) and self._when_changed is not None:
            # MockPin._call_when_changed hands over (self._last_change, self._state).
            self._call_when_changed()


def mock_factory(states_kept: int = STATES_KEPT) -> MockFactory:
    """A gpiozero ``MockFactory`` whose pins are :class:`TimedMockPin`, each keeping its last
    ``states_kept`` states (0: none, as a real pin: the day's soak measures the table's memory,
    not the mock's history of its LEDs, R1084)."""
    return MockFactory(pin_class=_pins_keeping(states_kept))


@cache  # one class per count, however many factories a day builds
def _pins_keeping(states_kept: int) -> type[TimedMockPin]:
    if states_kept < 0:
        raise ValueError(f"a pin keeps 0 or more states, got {states_kept}")
    if states_kept == STATES_KEPT:
        return TimedMockPin
    return type(f"TimedMockPinKeeping{states_kept}", (TimedMockPin,), {"states_kept": states_kept})
