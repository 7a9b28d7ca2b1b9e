"""First edge -> the winner's light, and the callback delay the loop sees, on the real daemon.

The asyncio daemon runs on MockFactory pins with the lgpio default settle. A helper thread
presses the buzzers as the GPIO thread would (MockPin stamps each edge with ``monotonic()``);
the time from A's edge to the view that lights the winner's LED is measured on the loop. Races
where both teams press are decided when the second presses (nothing can change the order
then); a lone shout is decided ``tie_window + settle`` after its edge.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bench.figures import Figure, Section, ms, percentile
from drivers.inputs import InputSpec
from drivers.leds import SeatLight
from drivers.mockpins import mock_factory
from drivers.pins import SETTLE_MS
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import CONSOLE, TableView
from firmware_py.table.daemon import TableDaemon

RACES = 50
SEED = 20261123
NAMES = [f"{seat}.{what}" for seat in "AB" for what in ("stand", "shout")]
NAMES += [f"console.{button}" for button in CONSOLE]


class LockoutRig:
    def __init__(self) -> None:
        self.settings = table_settings(game=5, count_cadence=0.2, settle=SETTLE_MS["lgpio"] / 1000)
        self.lit: list[float] = []
        self.events: list[dict[str, Any]] = []
        specs = [InputSpec(name=name, pin=pin) for pin, name in enumerate(NAMES, start=2)]
        self.daemon = TableDaemon(
            settings=self.settings,
            factory=mock_factory(),
            input_specs=specs,
            led_pins={"A": 20, "B": 21},
            on_event=self.events.append,
            on_view=self._view,
        )

    def _view(self, view: TableView) -> None:
        if SeatLight.WON in view.lights.values():
            self.lit.append(time.monotonic())

    def tap(self, name: str, hold: float = 0.05) -> None:
        pin = self.daemon.bank.pin(name)
        pin.drive_low()
        time.sleep(hold)
        pin.drive_high()

    def race(self, gap: float | None) -> float:
        """A's edge, B's ``gap`` later (None: B never presses); seconds to the winner's light."""
        self.lit.clear()
        a, b = self.daemon.bank.pin("A.shout"), self.daemon.bank.pin("B.shout")
        edge = time.monotonic()
        a.drive_low()
        if gap is not None:
            time.sleep(gap)
            b.drive_low()
        deadline = time.monotonic() + 1.0
        while not self.lit and time.monotonic() < deadline:
            time.sleep(0.0005)
        lit = self.lit[0] if self.lit else float("inf")
        a.drive_high()
        b.drive_high()
        time.sleep(0.05)
        self.tap("console.undo")  # back to the reading: the window opens again
        time.sleep(0.05)
        return lit - edge

    def drive(self, draw: random.Random) -> tuple[list[float], list[float]]:
        time.sleep(0.2)
        self.tap("console.count")
        time.sleep(5 * 0.2 + 0.1)
        self.tap("console.yes")  # new GeoPlungers seated
        time.sleep(0.05)
        self.tap("console.yes")  # the question's colour: the reading, a shout window
        time.sleep(0.05)
        both = [self.race(draw.uniform(0.0, 0.012)) for _ in range(RACES)]
        alone = [self.race(None) for _ in range(RACES)]
        return both, alone


def run_races() -> tuple[LockoutRig, list[float], list[float]]:
    """The daemon on its loop, the races driven from a thread; (rig, both press, lone shout)."""
    rig = LockoutRig()
    results: dict[str, list[float]] = {}

    async def scenario() -> None:
        task = asyncio.create_task(rig.daemon.run())
        while not hasattr(rig.daemon, "bank"):
            await asyncio.sleep(0.01)
        both, alone = await asyncio.to_thread(rig.drive, random.Random(SEED))
        results["both"], results["alone"] = both, alone
        rig.daemon.stop()
        await task

    asyncio.run(scenario())
    return rig, results["both"], results["alone"]


def lockout() -> Section:
    rig, both, alone = run_races()
    delays = [e["t"] - e["ticks"] for e in rig.events if e["event"] == "press"]
    tie, settle = rig.settings.tie_window, rig.settings.settle
    target = tie + 0.010
    figures = [
        Figure(
            "callback delay, edge -> loop (MockFactory) p99",
            ms(percentile(delays, 0.99)),
            f"< settle {ms(settle, 0)}",
            percentile(delays, 0.99) < settle,
        ),
        Figure(
            "first edge -> winner's light, lone shout p50", ms(percentile(alone, 0.5)), "-", None
        ),
        Figure(
            "first edge -> winner's light, lone shout p99",
            ms(percentile(alone, 0.99)),
            f"<= {ms(target, 0)}",
            percentile(alone, 0.99) <= target,
        ),
        Figure(
            "first edge -> winner's light, both press p50", ms(percentile(both, 0.5)), "-", None
        ),
        Figure(
            "first edge -> winner's light, both press p99",
            ms(percentile(both, 0.99)),
            f"<= {ms(target, 0)}",
            percentile(both, 0.99) <= target,
        ),
    ]
    how = (
        f"{RACES} races with both teams pressing (B 0-12 ms after A, seeded) and {RACES} with "
        "A alone, on the asyncio daemon (MockFactory pins, lgpio default settle "
        f"{ms(settle, 0)}, tie window {ms(tie, 0)}); a thread drives the pins as the GPIO "
        "thread would; the light is the first view with a WON LED, timed on the loop. The "
        "callback delay is the loop's time of each press minus its edge time. lgpio's and "
        "RPi.GPIO's own delays need a Pi: the settle defaults (drivers/pins.py) take a margin."
    )
    return Section("lockout light", how, figures)
