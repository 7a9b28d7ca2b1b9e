"""A table's daemon with its web page for browser tests and the page's screenshots: any
family's settings on MockFactory pins (two to six seats, the console), a journal, the page on
a free port of 127.0.0.1, run on the test's own asyncio loop."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from playwright.async_api import Page, ViewportSize, expect

from drivers.inputs import InputSpec
from drivers.mockpins import mock_factory
from firmware_py.table.controller import CONSOLE, TableSettings
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.journal import Journal, wall_now
from firmware_py.table.web.page import TablePage, listen
from tests.web_helpers import until_pressable

CHROMIUM = "/usr/bin/chromium"  # Debian's package (.ci/run installs it)
PHONE = ViewportSize(width=390, height=844)
LAPTOP = ViewportSize(width=1280, height=800)
WAIT_MS = 10_000
LED_PINS = (20, 21, 22, 23, 24, 25)  # past the inputs' pins (2 to 19 for six seats)


def page_daemon(
    settings: TableSettings,
    journal: Path,
    clock: Callable[[], float] = time.monotonic,
    wall: Callable[[], str] = wall_now,
) -> TableDaemon:
    """The table's daemon for ``settings``, with its page (on ``clock``), on a new journal
    (its entries' wall times read from ``wall``)."""
    names = [f"{s}.{w}" for s in settings.seats for w in ("stand", "shout")]
    names += [f"console.{button}" for button in CONSOLE]
    daemon = TableDaemon(
        settings=settings,
        factory=mock_factory(),
        input_specs=[InputSpec(name=name, pin=pin) for pin, name in enumerate(names, start=2)],
        led_pins=dict(zip(settings.seats, LED_PINS, strict=False)),
        page=TablePage(listen("127.0.0.1", 0), clock=clock),
        on_event=lambda event: None,
    )
    daemon.journal = Journal.open(journal, wall=wall)
    return daemon


@contextlib.asynccontextmanager
async def running(daemon: TableDaemon) -> AsyncIterator[str]:
    """The daemon running on this loop; yields its page's address."""
    assert daemon.page is not None
    daemon.start_controller(asyncio.get_running_loop().time())
    task = asyncio.create_task(daemon.run())
    while not hasattr(daemon, "leds"):
        if task.done():
            task.result()  # the daemon did not start: its error, not a wait forever
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{daemon.page.port}/"
    finally:
        daemon.stop()
        await task


async def press(daemon: TableDaemon, name: str) -> None:
    pin = daemon.bank.pin(name)
    pin.drive_low()
    await asyncio.sleep(0.05)
    pin.drive_high()
    await asyncio.sleep(0.05)


async def buttons(daemon: TableDaemon, *names: str) -> None:
    for name in names:
        await press(daemon, f"console.{name}")


async def choose(daemon: TableDaemon, label: str) -> None:
    """NEXT until the console's choice shows ``label``, then YES."""
    controller = daemon.controller
    labels = [option.label for option in controller.prompt.options]
    assert label in labels, f"{label!r} is not among {labels}"
    while labels[controller.cursor % len(labels)] != label:
        await buttons(daemon, "next")
    await buttons(daemon, "yes")


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (at most WAIT_MS) for the daemon's loop to make ``condition()`` hold."""
    for _ in range(WAIT_MS // 10):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the table never reached {what}")


async def ask_for_place(page: Page, base: str, place: str, code: str) -> str:
    """A phone asks for ``place`` (a seat letter or an official's) with the code; the line it
    is shown, with its number."""
    await page.goto(base)
    await expect(page.locator("#connection")).to_contain_text("Live", timeout=WAIT_MS)
    await page.select_option("#join-seat", place)
    await page.fill("#join-code", code)
    await page.click("#join-form button")
    await expect(page.locator("#waiting")).to_be_visible(timeout=WAIT_MS)
    return await page.locator("#waiting").inner_text()


async def ask_for_monitor(page: Page, base: str, code: str) -> str:
    """A phone asks for the Game Monitor's place with the code; the number it is shown."""
    return await ask_for_place(page, base, "monitor", code)


async def dealer_confirms(daemon: TableDaemon, number: str) -> None:
    """The dealer reads the phone's ``number``, waits for the OLED to show it (several
    requests are shown in turn) for a moment, and presses COUNT (R764)."""
    assert daemon.page is not None
    access = daemon.page.access
    await until_pressable(access, number, within=WAIT_MS / 1000)
    await buttons(daemon, "count")


async def join(page: Page, daemon: TableDaemon, base: str, place: str) -> None:
    """A phone takes ``place``: asked for with the code on the OLED, confirmed with COUNT at
    the console once its number has been on show long enough (R494, R496, R760)."""
    assert daemon.page is not None
    waiting = await ask_for_place(page, base, place, daemon.page.access.code)
    number = waiting.removeprefix("Number ").split(":")[0]
    await dealer_confirms(daemon, number)
    await expect(page.locator("#seated")).to_be_visible(timeout=WAIT_MS)


async def join_as_monitor(page: Page, daemon: TableDaemon, base: str) -> None:
    """The Game Monitor's phone (R494)."""
    await join(page, daemon, base, "monitor")


async def send(page: Page, value: str) -> None:
    await page.fill("#entry-value", value)
    await page.click("#entry-send")
