"""The imperative shell: one asyncio loop around the table controller.

gpiozero calls back on its own threads; each edge is handed to the loop with
``call_soon_threadsafe`` together with the edge's own timestamp. The loop sleeps until the
controller's next absolute deadline (or a countdown's next visible second), so timers do not
drift. With a journal, every decision is committed before any display shows it; if the journal
cannot be written the displays keep the last saved state with an alert, and the commit is
retried. Drawing on the OLED happens off the loop (``asyncio.to_thread``), latest frame wins,
with retries and a full redraw when the panel comes back; a vanished scoreboard is reopened
and sent the current state. The watchdog is pinged from this loop only while it is healthy;
a crashed task ends the process with a non-zero status so systemd restarts it. On the
tournament hub (``uplink``) the committed decisions are sent from the journal's outbox and what
the table shows is published; the next pairing is shown between matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.display import OledWriteError, Screen
from drivers.inputs import InputBank, InputSpec
from drivers.leds import TeamLeds
from drivers.scoreboard import Link, Scoreboard
from firmware_py.table.controller import (
    Event,
    TableController,
    TableSettings,
    TableView,
    fresh_settings,
)
from firmware_py.table.family import family
from firmware_py.table.journal import Journal, JournalWriteError
from firmware_py.table.notify import Notifier, WatchdogPinger
from firmware_py.table.recorder import RecordedTable, check_same_table
from firmware_py.table.uplink import HubLink, table_state, with_next_pairing

if TYPE_CHECKING:  # luma and Pillow load only when a panel is really drawn; aiohttp when served
    from drivers.oled import Oled
    from firmware_py.table.web.page import TablePage

log = logging.getLogger("gametable")

DECISIONS = {
    "plunge", "shout", "stuck", "released", "timeout", "game_result", "round_result", "score",
    "match_result", "undo", "refused", "clock", "timer_held", "timer_confirmed",
    "timer_restarted", "count_interrupted", "remembered", "kept_open",
}  # fmt: skip
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)
# epoll rounds a timeout up to a whole millisecond: wake this much early and sleep the rest
# precisely, so a countdown tick is shown within a fraction of a millisecond of its deadline.
FINE_WAKE = 0.002  # backoff for the OLED, the scoreboard and the journal
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
SCOREBOARD_LOST = "SCOREBOARD LOST"  # the OLED's alert while the scoreboard's port is reopened
# The OLED's alert while the hub confirms decisions this table never sent (R927)
UNSENT_CONFIRMED = "HUB: UNSENT CONFIRMED"
# The OLED's alert once sending to the hub stopped at a damaged outbox row (R905)
OUTBOX_DAMAGED = "HUB: OUTBOX DAMAGED"


def log_event(event: Event) -> None:
    """Decisions at INFO, the chatter (counts, prompts, presses) at DEBUG: quiet at INFO."""
    level = logging.INFO if event["event"] in DECISIONS else logging.DEBUG
    if log.isEnabledFor(level):
        fields = " ".join(f"{key}={value}" for key, value in event.items() if key != "event")
        log.log(level, "event=%s %s", event["event"], fields)


async def wait_until(deadline: float | None, wake: asyncio.Event, *, longest: float = 1.0) -> None:
    """Sleep until an absolute loop-time deadline (at most ``longest``) or until ``wake``."""
    loop = asyncio.get_running_loop()
    if deadline is None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), longest)
        return
    coarse = deadline - FINE_WAKE - loop.time()
    if coarse <= 0:
        await asyncio.sleep(0)  # always let the loop run: edges, draws, the watchdog
    else:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), min(coarse, longest))
        if wake.is_set() or coarse > longest:
            return
    left = deadline - loop.time()
    if 0 < left <= FINE_WAKE:
        time.sleep(left)  # a blocking nap of under 2 ms: clock_nanosleep's precision


def boot_id() -> str:
    try:
        return BOOT_ID.read_text().strip()
    except OSError:
        return "unknown"


@dataclass(slots=True)
class OledWorker:
    """Draws off the loop; a frame asked for while one is drawing replaces any waiting one.
    A failing panel (``OledWriteError``: the I2C bus, a loose cable) is logged once and
    retried with backoff; when it answers again the whole current screen is redrawn. Anything
    else is a bug, handed to ``on_crash``."""

    oled: Oled
    on_crash: Callable[[BaseException], None] = lambda error: None  # a bug, not the panel
    _wanted: Screen | None = None
    _busy: bool = False
    failures: int = 0

    def want(self, screen: Screen) -> None:
        self._wanted = screen
        if not self._busy:
            self._busy = True
            asyncio.get_running_loop().create_task(self._draw())

    async def _draw(self) -> None:
        try:
            while self._wanted is not None:
                screen = self._wanted
                try:
                    await asyncio.to_thread(self._show, screen)
                except OledWriteError as error:
                    if self.failures == 0:
                        log.warning("event=oled_error error=%s retrying=yes", error)
                    await asyncio.sleep(RETRY_SECONDS[min(self.failures, len(RETRY_SECONDS) - 1)])
                    self.failures += 1
                    continue
                if self._wanted == screen:
                    self._wanted = None
        except Exception as error:  # a task that dies unseen would leave the panel frozen
            self.on_crash(error)
        finally:
            self._busy = False

    def _show(self, screen: Screen) -> None:
        if self.failures:
            self.oled.invalidate()  # the panel's RAM is unknown after an outage
        self.oled.show(screen)
        if self.failures:
            log.info("event=oled_recovered after_failures=%d", self.failures)
            self.failures = 0


@dataclass(slots=True)
class ScoreboardLink:
    """Hands the view to the scoreboard, which never blocks or raises (its own thread writes,
    drops stale frames and reopens a lost port); logs each change of its link in one line."""

    board: Scoreboard
    _link: Link = Link.OK

    @property
    def lost(self) -> bool:
        return self._link is Link.LOST

    def send(self, view: TableView) -> None:
        board = view.scoreboard
        self.board.scores(dict(board.scores))
        self.board.clock(board.clock)
        self.board.count(board.count)
        self.board.message(board.message)
        self.watch()

    def watch(self) -> None:
        link = self.board.link
        if link is self._link:
            return
        url = self.board.url
        if link is Link.LOST:
            log.warning(
                "event=scoreboard_lost url=%s error=%s reconnecting=yes", url, self.board.problem
            )
        elif link is Link.STALLED:
            log.warning(
                "event=scoreboard_stalled url=%s error=%s keeping=newest", url, self.board.problem
            )
        else:
            log.info("event=scoreboard_recovered url=%s was=%s", url, self._link.value)
        self._link = link


@dataclass(slots=True)
class TableDaemon:
    settings: TableSettings
    factory: Any
    input_specs: Sequence[InputSpec]
    led_pins: dict[str, int | str]
    oled: Oled | None = None
    scoreboard: Scoreboard | None = None
    journal: Journal | None = None
    notifier: Notifier = field(default_factory=lambda: Notifier(address=None))
    on_event: Callable[[Event], None] = log_event
    on_view: Callable[[TableView], None] | None = None  # the simulator draws the view too
    hub: HubLink | None = None  # the tournament hub (the journal is opened with its outbox)
    page: TablePage | None = None  # the table's web page ([web] enabled), on this loop
    controller: TableController = field(init=False)
    recorded: RecordedTable | None = None
    bank: InputBank = field(init=False)
    leds: TeamLeds = field(init=False)
    _offset: float = 0.0  # controller time = loop time + offset (continues across reboots)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _beat: float = 0.0
    _oled_worker: OledWorker | None = None
    _board: ScoreboardLink | None = None
    _last_view: TableView | None = None
    _saved_view: TableView | None = None
    _event_loop: asyncio.AbstractEventLoop | None = None
    _journal_failures: int = 0
    _next_journal_retry: float = 0.0
    _crash: BaseException | None = None
    _started: bool = False

    def healthy(self) -> bool:
        """The loop went round recently (it wakes at least every second)."""
        loop = asyncio.get_running_loop()
        return loop.time() - self._beat < 5.0

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def _now(self) -> float:
        return asyncio.get_running_loop().time() + self._offset

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        self._event_loop = loop
        if not self._started:
            self.start_controller(loop.time())
        self.bank = InputBank(
            specs=self.input_specs, factory=self.factory, on_edge=self._from_thread
        )
        self.leds = TeamLeds(pins=self.led_pins, factory=self.factory)
        levels = {name: bool(self.bank.is_active(name)) for name in self.bank.names}
        self._guard(
            lambda: self.recorded.prime(levels) if self.recorded else self.controller.prime(levels)
        )
        if self.oled is not None:
            self._oled_worker = OledWorker(self.oled, on_crash=self._crashed)
        if self.scoreboard is not None:
            self._board = ScoreboardLink(self.scoreboard)
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, self.stop)
        if self.hub is not None:
            self.hub.on_pairings = self._wake.set  # redraw: the next pairing may have changed
            self.hub.start()
        self._beat = loop.time()
        if self.page is not None:
            await self.page.start(enter=self.enter, wake=self._wake.set)
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
            if self.hub is not None:
                await self.hub.stop()
            if self.page is not None:
                await self.page.stop()
            self._close()
        if self._crash is not None:
            raise self._crash  # main_task_guard logs it; systemd restarts us
        # a clean stop says so: in the log, a stop and a kill before a restart look alike
        # without it (FINDINGS-i25-dealer-walk F4)
        log.info("event=stopped")
        return 0

    def start_controller(self, mono: float) -> None:
        """Build the controller, rebuilt from the journal when it holds a match: ``gametable
        run`` calls this before the loop starts, so a journal that does not replay
        (``JournalMismatch``) is set aside, and one of another table
        (``JournalOfAnotherTable``) refused, before anything runs. ``mono`` is the loop's clock
        (``time.monotonic()``)."""
        self._started = True
        journal = self.journal
        if journal is None:
            self.controller = TableController(
                settings=fresh_settings(self.settings),
                emit=self.on_event,
                now=mono,
                read_pin=self._read_pin,
            )
            return
        check_same_table(journal, self.settings)  # before anything is written (R742)
        restart = {"boot_id": boot_id(), "mono": mono, "wall": time.time()}
        previous = [entry for entry in journal.entries() if entry.kind == "session"]
        if previous:
            last = previous[-1].body
            stopped_at = max(entry.t for entry in journal.entries())
            same_boot = last.get("boot_id") == restart["boot_id"] != "unknown"
            wall_gap = restart["wall"] - last.get("wall", restart["wall"])
            elapsed_known = same_boot or wall_gap >= 0
            # controller time continues: the same monotonic clock within a boot, else the
            # last recorded time plus the wall-clock gap (none when the clock went backwards)
            self._offset = 0.0 if same_boot else stopped_at + max(0.0, wall_gap) - mono
        self.recorded = RecordedTable.start(
            journal=journal,
            settings=self.settings,
            now=mono + self._offset,
            read_pin=self._read_pin,
            on_event=self.on_event,
            restart=restart,
        )
        self.controller = self.recorded.controller
        if previous:
            journal.add("session", mono + self._offset, restart)
            self.recorded.resume(
                mono + self._offset, stopped_at=stopped_at, elapsed_known=elapsed_known
            )
            log.info("event=resumed journal=%s elapsed_known=%s", journal.path, elapsed_known)
            settings = self.controller.settings
            older = family(settings.family).older(settings.options)
            if older is not None:  # replayed as it was written: say so, once a start
                log.info("event=journal_older journal=%s replayed_with=%s", journal.path, older)

    def _read_pin(self, name: str) -> bool:
        return bool(self.bank.is_active(name))

    def _from_thread(self, name: str, ticks: float, active: bool) -> None:
        """gpiozero's callback thread: hand the edge, with its own time, to the loop."""
        assert self._event_loop is not None
        self._event_loop.call_soon_threadsafe(self._edge, name, ticks, active)

    def _edge(self, name: str, ticks: float, active: bool) -> None:
        try:
            self._handle_edge(name, ticks, active)
        except Exception as error:  # asyncio would log a callback's crash and carry on
            self._crashed(error)

    def _crashed(self, error: BaseException) -> None:
        """A bug in a callback or a task: the process ends non-zero and systemd restarts it."""
        self._crash = error
        self.stop()

    def _handle_edge(self, name: str, ticks: float, active: bool) -> None:
        now, ticks = self._now(), ticks + self._offset
        if self.recorded is not None:
            recorded = self.recorded
            self._guard(lambda: recorded.edge(name, ticks, active, now))
        else:
            self.controller.on_edge(name, ticks, active, now=now)
        self._wake.set()

    def enter(self, seat: str, name: str, value: str) -> str | None:
        """An entry from the web page, on this loop: journaled and decided as a button press
        is; the refusal to show on the page, if it is refused. While the journal cannot be
        written nothing new is taken (a button's decision then waits, unseen, for the retry)."""
        recorded = self.recorded
        if recorded is not None and not recorded.saved:
            return "the table cannot save its journal just now: try again in a moment"
        now = self._now()
        refused: str | None = None

        def step() -> None:
            nonlocal refused
            if recorded is not None:
                refused = recorded.enter(seat, name, value, now)
            else:
                refused = self.controller.enter(seat, name, value, now)

        self._guard(step)
        self._wake.set()
        self._show()  # the page and the OLED follow at once, not at the loop's next turn
        return refused

    def _take_pairing(self) -> None:
        """The hub's pairing for this table, handed to the controller (journaled) when it
        arrives or changes: the next match the dealer starts may be its round (R190)."""
        if self.hub is None or (self.recorded is not None and not self.recorded.saved):
            return
        paired = self.hub.paired_match()
        if paired == self.controller.paired:
            return
        now = self._now()
        if self.recorded is not None:
            recorded = self.recorded
            self._guard(lambda: recorded.pair(paired, now))
        else:
            self.controller.pair(paired, now)

    def _advance(self) -> None:
        now = self._now()
        if self.recorded is not None:
            recorded = self.recorded
            self._guard(lambda: recorded.advance(now))
        else:
            self.controller.advance(now)

    def _guard(self, step: Callable[[], object]) -> None:
        """Run a journaled step; a failed commit leaves the decision unshown and retried."""
        try:
            step()
        except JournalWriteError as error:
            if self._journal_failures == 0:
                log.error("event=journal_error error=%s", error)
            self._journal_failures += 1

    def _retry_journal(self) -> None:
        if self.recorded is None or (self.recorded.saved and self._journal_failures == 0):
            return
        if self._now() < self._next_journal_retry:
            return
        if self.recorded.retry():
            log.info("event=journal_recovered after_failures=%d", self._journal_failures)
            self._journal_failures = 0
        else:
            delay = RETRY_SECONDS[min(self._journal_failures, len(RETRY_SECONDS) - 1)]
            self._next_journal_retry = self._now() + delay
            self._journal_failures += 1

    async def _main_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._stop.is_set():
            self._wake.clear()
            self._retry_journal()
            self._advance()
            self._take_pairing()
            self._show()
            if self.hub is not None:
                self.hub.pump()  # what this round of the loop committed, off to the broker
            self._beat = loop.time()
            wakes = [
                w - self._offset
                for w in (self.controller.next_deadline(), self.controller.next_view_change())
                if w is not None
            ]
            if self.page is not None:
                wakes.append(self.page.next_oled_change(loop.time()))
            await wait_until(min(wakes) if wakes else None, self._wake)

    def _show(self) -> None:
        saved = self.recorded is None or self.recorded.saved
        if saved:
            view = self.controller.view()
            if self.hub is not None:
                view = with_next_pairing(view, self.controller, self.hub.next_pairing())
            self._saved_view = view
        else:
            # the decision is not saved: show the last saved state, and say why
            assert self._saved_view is not None
            screen = replace(self._saved_view.screen, alert="JOURNAL ERROR retrying")
            view = replace(self._saved_view, screen=screen)
        if self.page is not None:
            decided_at = None if self.recorded is None else self.recorded.decided_at
            self.page.publish(self.controller, view, saved=saved, decided_at=decided_at)
            screen = self.page.on_oled(view.screen, asyncio.get_running_loop().time())
            view = replace(view, screen=screen)  # the join code for the OLED only
        if self._board is not None:
            self._board.send(view)
            if self._board.lost and view.screen.alert is None:  # the dealer's alone: R741
                view = replace(view, screen=replace(view.screen, alert=SCOREBOARD_LOST))
        if self.hub is not None and self.hub.outbox_damaged and view.screen.alert is None:
            view = replace(view, screen=replace(view.screen, alert=OUTBOX_DAMAGED))
        if self.hub is not None and self.hub.unsent_confirmed and view.screen.alert is None:
            view = replace(view, screen=replace(view.screen, alert=UNSENT_CONFIRMED))
        if view != self._last_view:
            self._last_view = view
            if self._oled_worker is not None:
                self._oled_worker.want(view.screen)
            for seat, light in view.lights.items():
                self.leds.set(seat, light)
            if self.on_view is not None:
                self.on_view(view)
        if self.hub is not None:
            self.hub.show(table_state(self.hub.broker.table, self.controller, view, saved=saved))

    def _close(self) -> None:
        with contextlib.suppress(Exception):
            self.leds.all_off()
        for closer in (self.bank.close, self.leds.close):
            with contextlib.suppress(Exception):
                closer()
        for device in (self.oled, self.scoreboard, self.journal):
            if device is not None:
                with contextlib.suppress(Exception):
                    device.close()


def main_task_guard(coro: Any) -> int:
    """Run the daemon; a crash is logged in one line and the process exits non-zero."""
    try:
        result: int = asyncio.run(coro)
        return result
    except Exception as error:  # the last line of defence: systemd restarts us
        log.critical("event=crashed error=%r", error, exc_info=log.isEnabledFor(logging.DEBUG))
        return 1
