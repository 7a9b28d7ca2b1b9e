"""The imperative shell: one asyncio loop around the table controller.

gpiozero calls back on its own threads; each edge is handed to the loop with
``call_soon_threadsafe`` together with the edge's own timestamp. The loop sleeps until the
controller's next absolute deadline (or a countdown's next visible second), so timers do not
drift. Drawing on the OLED happens off the loop (``asyncio.to_thread``), latest frame wins.
The watchdog is pinged from this loop only while it is healthy; a crashed task ends the
process with a non-zero status so systemd restarts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from drivers.inputs import InputBank, InputSpec
from drivers.leds import TeamLeds
from drivers.oled import Oled, Screen
from drivers.scoreboard import Scoreboard
from firmware_py.notify import Notifier, WatchdogPinger
from firmware_py.table import Event, TableController, TableSettings, TableView

log = logging.getLogger("gametable")

DECISIONS = {
    "plunge",
    "shout",
    "stuck",
    "released",
    "timeout",
    "game_result",
    "score",
    "match_result",
    "undo",
    "refused",
    "clock",
}


def log_event(event: Event) -> None:
    """Decisions at INFO, the chatter (counts, prompts, presses) at DEBUG: quiet at INFO."""
    level = logging.INFO if event["event"] in DECISIONS else logging.DEBUG
    if log.isEnabledFor(level):
        fields = " ".join(f"{key}={value}" for key, value in event.items() if key != "event")
        log.log(level, "event=%s %s", event["event"], fields)


@dataclass(slots=True)
class OledWorker:
    """Draws off the loop; a frame asked for while one is drawing replaces any waiting one."""

    oled: Oled
    _wanted: Screen | None = None
    _busy: bool = False
    _failed: bool = False

    def want(self, screen: Screen) -> None:
        self._wanted = screen
        if not self._busy:
            self._busy = True
            asyncio.get_running_loop().create_task(self._draw())

    async def _draw(self) -> None:
        try:
            while self._wanted is not None:
                screen, self._wanted = self._wanted, None
                try:
                    await asyncio.to_thread(self.oled.show, screen)
                    self._failed = False
                except OSError as error:
                    if not self._failed:  # log once per outage, not per frame
                        log.warning("event=oled_error error=%s", error)
                    self._failed = True
        finally:
            self._busy = False


@dataclass(slots=True)
class TableDaemon:
    settings: TableSettings
    factory: Any
    input_specs: Sequence[InputSpec]
    led_pins: dict[str, int | str]
    oled: Oled | None = None
    scoreboard: Scoreboard | None = None
    notifier: Notifier = field(default_factory=lambda: Notifier(address=None))
    on_event: Callable[[Event], None] = log_event
    on_view: Callable[[TableView], None] | None = None  # the simulator draws the view too
    controller: TableController = field(init=False)
    bank: InputBank = field(init=False)
    leds: TeamLeds = field(init=False)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _beat: float = 0.0
    _oled_worker: OledWorker | None = None
    _last_view: TableView | None = None
    _event_loop: asyncio.AbstractEventLoop | None = None

    def healthy(self) -> bool:
        """The loop went round recently (it wakes at least every second while anything runs)."""
        loop = asyncio.get_running_loop()
        return loop.time() - self._beat < 5.0

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        self._event_loop = loop
        self.controller = TableController(
            settings=self.settings, emit=self.on_event, now=loop.time(), read_pin=self._read_pin
        )
        self.bank = InputBank(
            specs=self.input_specs, factory=self.factory, on_edge=self._from_thread
        )
        self.leds = TeamLeds(pins=self.led_pins, factory=self.factory)
        self.controller.prime({name: self.bank.is_active(name) for name in self.bank.names})
        if self.oled is not None:
            self._oled_worker = OledWorker(self.oled)
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.stop)
        self._beat = loop.time()
        self._show()
        self.notifier.ready("table ready")
        log.info("event=ready seats=%s", ",".join(self.settings.seats))
        pinger = asyncio.create_task(
            WatchdogPinger(notifier=self.notifier, healthy=self.healthy).run()
        )
        try:
            await self._main_loop()
        finally:
            pinger.cancel()
            self.notifier.stopping()
            self._close()
        return 0

    def _read_pin(self, name: str) -> bool:
        return bool(self.bank.is_active(name))

    def _from_thread(self, name: str, ticks: float, active: bool) -> None:
        """gpiozero's callback thread: hand the edge, with its own time, to the loop."""
        assert self._event_loop is not None
        self._event_loop.call_soon_threadsafe(self._edge, name, ticks, active)

    def _edge(self, name: str, ticks: float, active: bool) -> None:
        self.controller.on_edge(name, ticks, active, now=asyncio.get_running_loop().time())
        self._wake.set()

    async def _main_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._stop.is_set():
            self._wake.clear()
            self.controller.advance(loop.time())
            self._show()
            self._beat = loop.time()
            wakes = [
                w
                for w in (self.controller.next_deadline(), self.controller.next_view_change())
                if w is not None
            ]
            timeout = max(0.0, min(wakes) - loop.time()) if wakes else 1.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(timeout, 1.0))

    def _show(self) -> None:
        view = self.controller.view()
        if view == self._last_view:
            return
        self._last_view = view
        if self._oled_worker is not None:
            self._oled_worker.want(view.screen)
        for seat, light in view.lights.items():
            self.leds.set(seat, light)
        if self.scoreboard is not None:
            board = view.scoreboard
            try:
                self.scoreboard.scores(dict(board.scores))
                self.scoreboard.clock(board.clock)
                self.scoreboard.count(board.count)
                self.scoreboard.message(board.message)
            except OSError as error:
                log.warning("event=scoreboard_error error=%s", error)
        if self.on_view is not None:
            self.on_view(view)

    def _close(self) -> None:
        with contextlib.suppress(Exception):
            self.leds.all_off()
        for closer in (self.bank.close, self.leds.close):
            with contextlib.suppress(Exception):
                closer()
        if self.oled is not None:
            with contextlib.suppress(Exception):
                self.oled.close()
        if self.scoreboard is not None:
            with contextlib.suppress(Exception):
                self.scoreboard.close()
