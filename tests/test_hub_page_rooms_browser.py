"""The director's grid grouped by room in a real browser (Playwright driving Debian's
chromium, 1280x800): a heading per room, by the rooms' first tables, each room's tiles under
it, the tables in no room last under their own heading (R1114). Screenshot
docs/hub/rooms-grid-1280.png (taken by scripts/make_hub_rooms_screenshots.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import async_playwright, expect

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.hub_page_helpers import NOW, PASSWORD

SHOT = "rooms-grid-1280"
ANIMALS = ("Eagles", "Hawks", "Owls", "Ravens", "Falcons", "Herons", "Kites", "Larks")


def rooms_record(path: Path, now: str = NOW) -> Path:
    """16 teams, round 1 paired at tables 1-8; Ballroom B (East Hall) holds tables 5-8 and
    Ballroom A tables 1-3; table 4 is in no room; ``now``: when (a screenshot's: the real time)."""
    teams = tuple(
        Entrant(f"{school} {animal}", school, ())
        for school in ("Lincoln", "Adams")
        for animal in ANIMALS
    )
    config = new_config(TournamentFormat.COMBO4, seed=7, rounds=3)
    with (
        TournamentDB.create(path, config, teams, now=now, by="director") as record,
        record.transaction() as tournament,
    ):
        record.add_round(tournament.pair(1), tournament.plan(1), now=now, by="director")
    with TournamentDB.open(path) as record:
        record.add_room("Ballroom B", [5, 6, 7, 8], building="East Hall", now=now, by="director")
        record.add_room("Ballroom A", [1, 2, 3], building="", now=now, by="director")
    store_password(path, PASSWORD)
    return path


async def the_grid(record_path: Path, shots: Path, now: str = NOW) -> list[str]:
    """The grid's headings and tiles, in the order shown: a heading's text, a tile's id."""
    with TournamentDB.open(record_path) as record:
        page = DirectorPage(listen("127.0.0.1", 0), record, LiveBoard(), lambda: now)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                laptop = await (await browser.new_context(viewport=LAPTOP)).new_page()
                await laptop.goto(f"{base}/login")
                await laptop.fill("#password", PASSWORD)
                await laptop.click("#login-form button")
                headings = laptop.locator("#tables .room-heading")
                await expect(headings).to_have_count(3, timeout=WAIT_MS)
                await expect(laptop.locator("#tables .tile")).to_have_count(8, timeout=WAIT_MS)
                await laptop.wait_for_timeout(500)  # the grid arranged (at most 250 ms on)
                shown: list[str] = await laptop.eval_on_selector_all(
                    "#tables > *",
                    "items => items.map(i => i.classList.contains('room-heading')"
                    " ? i.textContent : i.id)",
                )
                await laptop.locator("#tables-title").scroll_into_view_if_needed()
                await laptop.screenshot(path=str(shots / f"{SHOT}.png"))
                await browser.close()
        finally:
            await page.stop()
    return shown


def test_the_grid_shows_each_rooms_tables_under_its_heading_then_those_in_none(
    tmp_path: Path,
) -> None:
    shown = asyncio.run(the_grid(rooms_record(tmp_path / "t.db"), tmp_path))
    headings = [item for item in shown if not item.startswith("table-")]
    assert headings == ["Ballroom A", "East Hall, Ballroom B", "Tables in no room"]
    groups: dict[str, set[str]] = {}
    current = ""
    for item in shown:
        if item in headings:
            current = item
        else:
            groups.setdefault(current, set()).add(item)
    assert groups == {
        "Ballroom A": {"table-1", "table-2", "table-3"},
        "East Hall, Ballroom B": {"table-5", "table-6", "table-7", "table-8"},
        "Tables in no room": {"table-4"},
    }
    assert (tmp_path / f"{SHOT}.png").stat().st_size > 5_000


ROOMS_SHOTS = ("rooms-page-1280", "rooms-page-390")


async def the_rooms_page(record_path: Path, shots: Path, now: str = NOW) -> list[int]:
    """``/rooms`` at a laptop's and a phone's width, Ballroom A's Remove opened: how far each
    page or any of its sections is wider than it shows (0: nothing to scroll sideways);
    screenshots in ``shots``."""
    with TournamentDB.open(record_path) as record:
        page = DirectorPage(listen("127.0.0.1", 0), record, LiveBoard(), lambda: now)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        overflow: list[int] = []
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                for viewport, shot in zip((LAPTOP, PHONE), ROOMS_SHOTS, strict=True):
                    screen = await (await browser.new_context(viewport=viewport)).new_page()
                    await screen.goto(f"{base}/login?next=/rooms")
                    await screen.fill("#password", PASSWORD)
                    await screen.click("#login-form button")
                    await expect(screen.locator("#room-form")).to_be_visible(timeout=WAIT_MS)
                    await screen.click("summary[aria-label='Remove Ballroom A…']")
                    confirm = screen.get_by_role("button", name="Confirm: remove Ballroom A")
                    await expect(confirm).to_be_visible(timeout=WAIT_MS)
                    overflow.append(  # the page's, or a section's that scrolls on a phone
                        await screen.evaluate(
                            "Math.max(document.documentElement.scrollWidth - innerWidth,"
                            " ...[...document.querySelectorAll('main section')]"
                            ".map(s => s.scrollWidth - s.clientWidth))"
                        )
                    )
                    await screen.screenshot(path=str(shots / f"{shot}.png"), full_page=True)
                await browser.close()
        finally:
            await page.stop()
    return overflow


def test_the_rooms_page_asks_before_a_remove_and_fits_a_phone(tmp_path: Path) -> None:
    overflow = asyncio.run(the_rooms_page(rooms_record(tmp_path / "t.db"), tmp_path))
    assert overflow == [0, 0]
