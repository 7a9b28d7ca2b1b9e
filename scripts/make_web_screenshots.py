"""Take docs/web/*.png: the table's page as Playwright's chromium draws it, on a phone
(390x844) and on a laptop (1280x800).

Each table runs on MockFactory pins with its page on a free port of 127.0.0.1 (a journal in a
temporary directory), driven by its console's pins as a dealer would:

- Guesstimation (the sample deck): Ann's phone waiting to guess (``guessing.png``), after every
  guess is in and the answer is read (``reveal.png``), and the same on a laptop (``laptop.png``);
- GeoPlunge Border-Up: Team A's phone with its groups checked (``border-up.png``);
- GeoPlunge State IQ: Team B's phone naming its guess (``state-iq.png``);
- the Pentathlon's Contig 60: the Game Monitor's phone typing a chip's points (``pentathlon.png``);
- STATES (the shipped deck): Ann's phone typing her claim after her shout (``states-claim.png``);
- who holds a seat (Guesstimation, four players, no deck): Di's phone while another phone asks
  the dealer for her seat (``seat-asked.png``), that phone once its request ran out without the
  dealer's COUNT (``takeover-refused.png``), and Di's old phone once the dealer gave her seat to
  her new one (``seat-changed.png``);
- a six-seat table (Guesstimation, no deck) on a small phone (360x640): a seated phone asked
  whether it really leaves its seat (``leave-confirm.png``), and the number to show the dealer,
  first on the page (``six-seats-waiting.png``).

Run from the repository root, with Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_web_screenshots.py`` (it drives the tables with
the browser tests' helpers, ``tests/browser_helpers.py``).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from playwright.async_api import Browser, Page, ViewportSize, async_playwright, expect

from firmware_py import families
from firmware_py.families.geoplunge.options import table_settings as geoplunge
from firmware_py.families.pentathlon.flows.page import MONITOR
from firmware_py.families.pentathlon.options import table_settings as pentathlon
from firmware_py.table.controller import TableSettings
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.web.access import ASK_FOR
from tests.browser_helpers import (
    CHROMIUM,
    LAPTOP,
    PHONE,
    WAIT_MS,
    ask_for_place,
    buttons,
    choose,
    join,
    join_as_monitor,
    page_daemon,
    press,
    running,
    send,
    until,
)
from tests.guesstimation_table_helpers import NAMES, settings
from tests.test_web_browser import to_guessing

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs/web"
FAST_COUNT = 0.05
SMALL_PHONE = ViewportSize(width=360, height=640)


async def _phone(
    browser: Browser, daemon: TableDaemon, base: str, seat: str, size: ViewportSize = PHONE
) -> Page:
    assert daemon.page is not None
    page = await (await browser.new_context(viewport=size, reduced_motion="reduce")).new_page()
    if seat == MONITOR:  # confirmed at the console (R494)
        await join_as_monitor(page, daemon, base)
    else:
        await join(page, daemon, base, seat)
    return page


async def _blank(browser: Browser) -> Page:
    return await (await browser.new_context(viewport=PHONE, reduced_motion="reduce")).new_page()


async def _shot(page: Page, name: str) -> None:
    await page.screenshot(path=str(OUT / name), full_page=True)


async def guesstimation(browser: Browser, journal: Path) -> None:
    daemon = page_daemon(settings(players=list(NAMES), deck="sample"), journal)
    async with running(daemon) as base:
        await to_guessing(daemon)
        ann, bo, cy = [await _phone(browser, daemon, base, seat) for seat in "ABC"]
        laptop = await (
            await browser.new_context(viewport=LAPTOP, reduced_motion="reduce")
        ).new_page()
        await laptop.goto(base)
        await send(cy, "1972")
        await expect(ann.locator("#facts")).to_contain_text("Guesses in: Cy", timeout=WAIT_MS)
        await ann.fill("#entry-value", "1968")
        await _shot(ann, "guessing.png")
        await send(ann, "1968")
        await send(bo, "1969")
        await expect(ann.locator("#rows")).to_be_visible(timeout=WAIT_MS)
        await press(daemon, "console.yes")
        await expect(ann.locator("#facts")).to_contain_text("answer is", timeout=WAIT_MS)
        await _shot(ann, "reveal.png")
        await expect(laptop.locator("#facts")).to_contain_text("answer is", timeout=WAIT_MS)
        await _shot(laptop, "laptop.png")


async def border_up(browser: Browser, journal: Path) -> None:
    daemon = page_daemon(geoplunge(game=1, count_cadence=FAST_COUNT), journal)
    async with running(daemon) as base:
        await buttons(daemon, "count")
        await until(lambda: daemon.controller.prompt.key == "bu/race", "the race")
        await buttons(daemon, "go")
        await press(daemon, "A.shout")
        await until(lambda: daemon.controller.prompt.key.startswith("bu/three_o"), "3-O")
        await buttons(daemon, "no")
        phone = await _phone(browser, daemon, base, "A")
        await send(phone, "KS,MO,KY,WV,PA / MD,VA,NC")
        await expect(phone.locator("#facts")).to_contain_text("rules say", timeout=WAIT_MS)
        await _shot(phone, "border-up.png")


async def state_iq(browser: Browser, journal: Path) -> None:
    daemon = page_daemon(geoplunge(game=2, count_cadence=FAST_COUNT), journal)
    async with running(daemon) as base:
        await choose(daemon, "Team B")
        await buttons(daemon, "count")
        await until(lambda: daemon.controller.prompt.key == "iq/power", "the Power card")
        await buttons(daemon, "yes")
        phone = await _phone(browser, daemon, base, "B")
        await send(phone, "Texas")
        await buttons(daemon, "no")  # the dealer: wrong
        await expect(phone.locator("#entry-label")).to_contain_text("guess 2", timeout=WAIT_MS)
        await phone.fill("#entry-value", "Oklahoma")
        await _shot(phone, "state-iq.png")


async def pentathlon_monitor(browser: Browser, journal: Path) -> None:
    daemon = page_daemon(pentathlon(game="contig-60"), journal)
    async with running(daemon) as base:
        await choose(daemon, "A begins")
        monitor = await _phone(browser, daemon, base, "monitor")
        await buttons(daemon, "yes")
        await choose(daemon, "Chip placed")
        await send(monitor, "37")
        await buttons(daemon, "yes")
        await choose(daemon, "Flag passes")
        await buttons(daemon, "yes")
        await choose(daemon, "Chip placed")
        await expect(monitor.locator("#entry-label")).to_contain_text("Points", timeout=WAIT_MS)
        await monitor.fill("#entry-value", "24")
        await _shot(monitor, "pentathlon.png")


async def states_claim(browser: Browser, journal: Path) -> None:
    options = {"players": ["Ann", "Bo"]}
    daemon = page_daemon(TableSettings(seats=("A", "B"), family="states", options=options), journal)
    async with running(daemon) as base:
        await choose(daemon, "Ann")
        ann = await _phone(browser, daemon, base, "A")
        await press(daemon, "A.shout")
        await expect(ann.locator("#entry-label")).to_contain_text("four states", timeout=WAIT_MS)
        await ann.fill("#entry-value", "UT,CO,KS,OK")
        await _shot(ann, "states-claim.png")


async def seat_changes(browser: Browser, journal: Path) -> None:
    options = {"players": ["Ann", "Bo", "Cy", "Di"], "deck": None}
    shift = [0.0]  # the page's clock, moved on past a request's minute
    daemon = page_daemon(
        TableSettings(seats=("A", "B", "C", "D"), family="guesstimation", options=options),
        journal,
        clock=lambda: time.monotonic() + shift[0],
    )
    async with running(daemon) as base:
        assert daemon.page is not None
        await to_guessing(daemon)
        di = await _phone(browser, daemon, base, "D")
        other = await _blank(browser)
        await ask_for_place(other, base, "D", daemon.page.access.code)
        await expect(di.locator("#seat-warning")).to_be_visible(timeout=WAIT_MS)
        await _shot(di, "seat-asked.png")
        shift[0] += ASK_FOR + 1.0  # the dealer never pressed COUNT for it
        await expect(other.locator("#displaced")).to_contain_text("Not given", timeout=WAIT_MS)
        await _shot(other, "takeover-refused.png")
        await expect(di.locator("#seat-warning")).to_be_hidden(timeout=WAIT_MS)
        new = await _blank(browser)  # Di's new phone: the dealer confirms its number
        await join(new, daemon, base, "D")
        await expect(di.locator("#displaced")).to_contain_text("no longer", timeout=WAIT_MS)
        await _shot(di, "seat-changed.png")


async def six_seats(browser: Browser, journal: Path) -> None:
    options = {"players": ["Ann", "Bo", "Cy", "Di", "Eve", "Fay"], "deck": None}
    daemon = page_daemon(
        TableSettings(seats=tuple("ABCDEF"), family="guesstimation", options=options), journal
    )
    async with running(daemon) as base:
        assert daemon.page is not None
        bo = await _phone(browser, daemon, base, "B", SMALL_PHONE)
        await bo.click("#leave")
        await expect(bo.locator("#leave-confirm")).to_be_visible(timeout=WAIT_MS)
        await bo.locator("#leave-confirm").scroll_into_view_if_needed()
        await bo.screenshot(path=str(OUT / "leave-confirm.png"))
        fay = await (
            await browser.new_context(viewport=SMALL_PHONE, reduced_motion="reduce")
        ).new_page()
        await ask_for_place(fay, base, "F", daemon.page.access.code)
        await fay.screenshot(path=str(OUT / "six-seats-waiting.png"))  # what the phone shows


async def screenshots(directory: Path) -> None:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            await guesstimation(browser, directory / "guesstimation.db")
            await border_up(browser, directory / "border-up.db")
            await state_iq(browser, directory / "state-iq.db")
            await pentathlon_monitor(browser, directory / "pentathlon.db")
            await states_claim(browser, directory / "states-claim.db")
            await seat_changes(browser, directory / "seats.db")
            await six_seats(browser, directory / "six.db")
        finally:
            await browser.close()


if __name__ == "__main__":
    families.install()
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(screenshots(Path(directory)))
    print(f"wrote {', '.join(sorted(path.name for path in OUT.glob('*.png')))} in {OUT}")
