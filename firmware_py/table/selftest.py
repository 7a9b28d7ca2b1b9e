"""``gametable selftest``: light each LED, draw a test pattern, show each button as pressed.

For the person wiring a table: every output is exercised in turn, then every input is shown
by name on the OLED and on stdout as it changes, until the time runs out or Ctrl-C.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence

from drivers.inputs import InputBank, InputSpec
from drivers.leds import SeatLight, TeamLeds
from drivers.oled import Oled, Screen

LIGHT_SECONDS = 0.5


async def selftest(
    *,
    factory: object,
    specs: Sequence[InputSpec],
    led_pins: dict[str, int | str],
    oled: Oled | None,
    seconds: float,
    say: Callable[[str], None] = print,
) -> int:
    loop = asyncio.get_running_loop()
    seen: set[str] = set()

    def show(screen: Screen) -> None:
        if oled is not None:
            oled.show(screen)

    def on_edge(name: str, ticks: float, active: bool) -> None:
        loop.call_soon_threadsafe(_edge, name, active)

    def _edge(name: str, active: bool) -> None:
        state = "pressed" if active else "released"
        if active:
            seen.add(name)
        say(f"input {name} {state}")
        show(
            Screen(
                title="SELFTEST inputs", big=name, lines=(state, f"{len(seen)}/{len(specs)} seen")
            )
        )

    leds = TeamLeds(pins=led_pins, factory=factory)
    bank = InputBank(specs=specs, factory=factory, on_edge=on_edge)
    try:
        show(
            Screen(
                title="SELFTEST",
                big="TEST",
                lines=("pattern", "#" * 21),
                footer="=" * 21,
                alert="ALERT ROW",
            )
        )
        say("oled: test pattern drawn" if oled is not None else "oled: disabled in the config")
        for seat in leds.seats:
            for light in (SeatLight.STANDING, SeatLight.PLUNGING):
                leds.set(seat, light)
                say(f"led {seat} {light.value}")
                await asyncio.sleep(LIGHT_SECONDS)
            leds.set(seat, SeatLight.OFF)
        names = ", ".join(spec.name for spec in specs)
        say(f"press each input now ({len(specs)}: {names}); {seconds:g} s")
        show(
            Screen(
                title="SELFTEST inputs", big="PRESS", lines=("each button", f"0/{len(specs)} seen")
            )
        )
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(seconds)
        missing = [spec.name for spec in specs if spec.name not in seen]
        say("all inputs seen" if not missing else f"never pressed: {', '.join(missing)}")
        return 0 if not missing else 1
    finally:
        bank.close()
        leds.close()
