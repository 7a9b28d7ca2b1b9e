"""The page of a day of several events in a real browser (Playwright driving Debian's chromium,
1280x800 and 390x844): one login at the day's page, the glance naming every event and every
room's tables, an event's live grid under its own address, its tiles and links staying inside
it (R1140, R1141, R1144). Screenshots docs/hub/day-1280.png, day-390.png,
day-event-1280.png and day-event-390.png (taken by scripts/make_hub_day_screenshots.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import async_playwright, expect

from firmware_py.director.hub.page.day import day_pages
from firmware_py.director.hub.page.server import DayPage, listen
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.hub.wire.refusals import HubRefusals
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import OFFLINE, ONLINE
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.day_page_helpers import EVENTS, make_day
from tests.hub_page_helpers import NOW, PASSWORD, state

JUNIOR, SENIOR = (slug for slug, _ in EVENTS)
SHOTS = ("day-1280", "day-390", "day-event-1280", "day-event-390")


def day_with_rooms(folder: Path, now: str = NOW) -> Path:
    """The two events of ``make_day``, the junior's tables 1-2 in Ballroom A, the senior's 3-4
    in Ballroom B (East Hall)."""
    path = make_day(folder, now)
    for slug, room, tables, building in (
        (JUNIOR, "Ballroom A", [1, 2], ""),
        (SENIOR, "Ballroom B", [3, 4], "East Hall"),
    ):
        with TournamentDB.open(folder / f"{slug}.sqlite") as record:
            record.add_room(room, tables, building=building, now=now, by="director")
    return path


def live_board(now: float) -> LiveBoard:
    """Tables 1-3 online and playing, table 4 offline, table 14 heard but playing for no
    event."""
    board = LiveBoard()
    for table in (1, 2, 3):
        board.take_status(table, ONLINE.encode(), heard=now)
        board.take_state(table, state(table), heard=now)
    board.take_status(4, OFFLINE.encode(), heard=now - 120)
    board.take_status(14, ONLINE.encode(), heard=now)
    return board


async def the_day(path: Path, shots: Path, now: str = NOW, wall: float = 0.0) -> dict[str, str]:
    """Log in once, look at the glance and the junior event's grid at both sizes; what each
    showed."""
    seen: dict[str, str] = {}
    with DayRecord.open(path) as day:
        events = day.open_events()
        pages = day_pages(
            day, events, live_board(wall), HubRefusals(), sock=listen("127.0.0.1", 0),
            now=lambda: now, wall=lambda: wall or 1_000.0,
        )  # fmt: skip
        page = DayPage(pages)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                for size, viewport in (("1280", LAPTOP), ("390", PHONE)):
                    tab = await (await browser.new_context(viewport=viewport)).new_page()
                    await tab.goto(f"{base}/")  # sent to the day's login
                    await tab.fill("#password", PASSWORD)
                    await tab.click("#login-form button")
                    await expect(tab.locator("table.events")).to_be_visible(timeout=WAIT_MS)
                    seen[f"day-{size}"] = await tab.locator("main").inner_text()
                    await tab.screenshot(path=str(shots / f"day-{size}.png"), full_page=True)
                    await tab.click(f'table.events a[href="/events/{JUNIOR}/"]')
                    await expect(tab.locator("#tables .tile")).to_have_count(2, timeout=WAIT_MS)
                    await expect(tab.locator("#connection")).to_contain_text(
                        "Live", timeout=WAIT_MS
                    )
                    seen[f"event-{size}"] = await tab.locator("body").inner_text()
                    first = tab.locator("#tables .tile").first
                    seen[f"tile-{size}"] = str(await first.get_attribute("href"))
                    await tab.screenshot(path=str(shots / f"day-event-{size}.png"))
                await browser.close()
        finally:
            await page.stop()
            for record in events.values():
                record.close()
    return seen


def test_one_login_opens_the_day_and_an_events_live_grid_under_its_address(
    tmp_path: Path,
) -> None:
    seen = asyncio.run(the_day(day_with_rooms(tmp_path), tmp_path))
    for size in ("1280", "390"):
        assert "Combo 4 Junior" in seen[f"day-{size}"]
        assert "East Hall, Ballroom B" in seen[f"day-{size}"]
        assert "table 14: plays for no event" in seen[f"day-{size}"]
        assert "Spring League · America/Chicago · Combo 4 Junior" in seen[f"event-{size}"]
        assert seen[f"tile-{size}"] == f"/events/{JUNIOR}/tables/1"
    for shot in SHOTS:
        assert (tmp_path / f"{shot}.png").stat().st_size > 10_000
