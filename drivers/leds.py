"""One light per seat, on gpiozero ``PWMLED``.

Patterns (duty cycle of the LED's pin):

========== ======================================= ==========================================
light      pattern                                 meaning
========== ======================================= ==========================================
OFF        0.0 steady                              seat sitting / not in play
STANDING   0.2 steady (dim)                        team standing: ready to plunge
PLUNGING   1.0 steady (full)                       team plunging
WON        blink 1.0 / 0.0, 0.125 s each (4 Hz)    this seat won the shout
LOCKED     pulse 0 → 1 → 0, 1 s fade in, 1 s out   locked out (e.g. shouted too early)
========== ======================================= ==========================================

Blink and pulse run on gpiozero's background thread (``background=True``); setting a seat to
the light it already shows changes nothing, so a blink is never restarted mid-cycle by a
daemon that re-applies its whole state.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from gpiozero import PWMLED  # type: ignore[import-untyped]
from gpiozero.pins import Factory  # type: ignore[import-untyped]

__all__ = ["SeatLight", "TeamLeds"]

STANDING_DUTY = 0.2
WON_HALF_PERIOD = 0.125
LOCKED_FADE = 1.0


class SeatLight(StrEnum):
    OFF = "off"
    STANDING = "standing"
    PLUNGING = "plunging"
    WON = "won"
    LOCKED = "locked"


class TeamLeds:
    """The seats' LEDs (seat name → pin), all on one factory."""

    def __init__(self, *, pins: Mapping[str, int | str], factory: Factory) -> None:
        gpio_of: dict[str, str] = {}
        for seat, pin in pins.items():
            gpio = str(factory.board_info.to_gpio(pin))
            if gpio in gpio_of:
                raise ValueError(f"seat LEDs {gpio_of[gpio]!r} and {seat!r} both use {gpio}")
            gpio_of[gpio] = seat
        self._leds: dict[str, PWMLED] = {}
        self._lights: dict[str, SeatLight] = {}
        try:
            for seat, pin in pins.items():
                self._leds[seat] = PWMLED(pin, initial_value=0, pin_factory=factory)
                self._lights[seat] = SeatLight.OFF
        except BaseException:
            self.close()
            raise

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self._leds)

    def light(self, seat: str) -> SeatLight:
        self._led(seat)  # the same KeyError for an unknown seat as set()
        return self._lights[seat]

    def set(self, seat: str, light: SeatLight) -> None:
        led = self._led(seat)
        light = SeatLight(light)  # a stray string fails here, before any LED changes
        if self._lights[seat] == light:
            return
        # Each of gpiozero's value/blink/pulse stops the previous blink thread first.
        match light:
            case SeatLight.OFF:
                led.off()
            case SeatLight.STANDING:
                led.value = STANDING_DUTY
            case SeatLight.PLUNGING:
                led.on()
            case SeatLight.WON:
                led.blink(on_time=WON_HALF_PERIOD, off_time=WON_HALF_PERIOD, background=True)
            case SeatLight.LOCKED:
                led.pulse(fade_in_time=LOCKED_FADE, fade_out_time=LOCKED_FADE, background=True)
        self._lights[seat] = light

    def all_off(self) -> None:
        for seat in self._leds:
            self.set(seat, SeatLight.OFF)

    def close(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()
        self._lights.clear()

    def _led(self, seat: str) -> PWMLED:
        try:
            return self._leds[seat]
        except KeyError:
            known = ", ".join(self._leds) or "none"
            raise KeyError(f"no LED for seat {seat!r} (seats: {known})") from None
