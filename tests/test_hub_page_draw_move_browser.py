"""Moving a match in a real browser (Playwright driving Debian's chromium): the director opens
the round's draw from its card, picks a match and a free table of the room, says why, moves it,
and sees the change's line under the draw (R1068). Screenshots of the filled form at 1280x800
and 390x844 (docs/hub/draw-move-*.png, taken by scripts/make_hub_draw_screenshots.py)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.hub_page_helpers import NOW, PASSWORD, make_record

SHOTS = ("draw-move-1280", "draw-move-390")


@dataclass
class Moved:
    free: list[str]
    notice: str
    note: str
    draw: list[str]


def record_with_a_room(path: Path) -> Path:
    """The helpers' record (round 1 at tables 1 and 2) in a room of tables 1-6."""
    make_record(path)
    with TournamentDB.open(path) as record:
        record.add_room("Ballroom B", tuple(range(1, 7)), building="", now=NOW, by="director")
    return path


async def _filled(page: Page, base: str) -> None:
    """Logged in, the round's draw opened from its card, Hawks v Owls to table 5: filled."""
    await page.goto(f"{base}/login")
    await page.fill("#password", PASSWORD)
    await page.click("#login-form button")
    await page.click("#draw-link")
    await page.select_option("#move-form [name=team]", "Hawks")
    await page.select_option("#move-form [name=table]", "5")
    await page.fill("#move-form [name=reason]", "table 1's buzzers are dead")
    await expect(page.locator("#move-form [name=table]")).to_have_value("5", timeout=WAIT_MS)


async def a_match_moved(record_path: Path, shots: Path) -> Moved:
    with TournamentDB.open(record_path) as record:
        page = DirectorPage(listen("127.0.0.1", 0), record, LiveBoard(), lambda: NOW)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await _filled(phone, base)
                await phone.screenshot(path=str(shots / "draw-move-390.png"), full_page=True)
                laptop = await (await browser.new_context(viewport=LAPTOP)).new_page()
                await _filled(laptop, base)
                free = await laptop.locator("#move-form [name=table] option").all_inner_texts()
                await laptop.screenshot(path=str(shots / "draw-move-1280.png"), full_page=True)
                await laptop.click("#move-form button")
                notice = await laptop.locator(".notice").inner_text()
                await laptop.goto(f"{base}/draw/round/1")
                note = await laptop.locator(".draw-changed").first.inner_text()
                draw = await laptop.locator("#draw-title + table tbody tr").all_inner_texts()
                await browser.close()
        finally:
            await page.stop()
        return Moved(free, notice, note, draw)


def test_the_director_moves_a_match_to_a_free_table_and_sees_it_recorded(
    tmp_path: Path,
) -> None:
    moved = asyncio.run(a_match_moved(record_with_a_room(tmp_path / "t.db"), tmp_path))
    assert moved.free == ["", *(f"Ballroom B, table {n}" for n in range(3, 7))]
    assert (
        moved.notice == "round 1: Hawks v Owls moved from table 1 to table 5; the tables are told"
    )
    assert moved.note.startswith("draw changed by director at ")
    assert moved.note.endswith(
        ": table 1's buzzers are dead (Hawks v Owls moved from table 1 to table 5)"
    )
    assert [row.split("\t")[0] for row in moved.draw] == ["2", "5"]
    for shot in SHOTS:
        assert (tmp_path / f"{shot}.png").stat().st_size > 5_000
