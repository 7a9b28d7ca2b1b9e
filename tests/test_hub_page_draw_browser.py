"""Changing a draw in a real browser (Playwright driving Debian's chromium): the director opens
the round's card, swaps two teams into a same-school pair, is warned, confirms, and sees the
change's line under the pairings (R1064, R1065). Screenshots of the warning at 1280x800 and
390x844 (docs/hub/swap-warning-*.png, taken by scripts/make_hub_draw_screenshots.py)."""

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

SHOTS = ("swap-warning-1280", "swap-warning-390")


@dataclass
class Seen:
    warnings: list[str]
    notice: str
    note: str


async def _warned(page: Page, base: str) -> None:
    """Logged in, the round's draw opened from its card, Eagles and Hawks swapped: warned."""
    await page.goto(f"{base}/login")
    await page.fill("#password", PASSWORD)
    await page.click("#login-form button")
    await page.click("#draw-link")
    await page.select_option("#swap-form [name=first]", "Eagles")
    await page.select_option("#swap-form [name=second]", "Hawks")
    await page.fill("#swap-form [name=reason]", "table 2's buzzers are dead")
    await page.click("#swap-form button")
    await expect(page.locator("#swap-warning")).to_be_visible(timeout=WAIT_MS)


async def a_draw_changed(record_path: Path, shots: Path) -> Seen:
    with TournamentDB.open(record_path) as record:
        page = DirectorPage(listen("127.0.0.1", 0), record, LiveBoard(), lambda: NOW)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await _warned(phone, base)
                await phone.screenshot(path=str(shots / "swap-warning-390.png"), full_page=True)
                laptop = await (await browser.new_context(viewport=LAPTOP)).new_page()
                await _warned(laptop, base)
                warnings = await laptop.locator("#swap-warning li").all_inner_texts()
                await laptop.screenshot(path=str(shots / "swap-warning-1280.png"), full_page=True)
                await laptop.click("#swap-confirm button")
                notice = await laptop.locator(".notice").inner_text()
                note = await laptop.locator(".draw-changed").first.inner_text()
                await browser.close()
        finally:
            await page.stop()
        return Seen(warnings, notice, note)


def test_the_director_is_warned_of_a_same_school_pair_and_confirms_the_swap(
    tmp_path: Path,
) -> None:
    seen = asyncio.run(a_draw_changed(make_record(tmp_path / "t.db"), tmp_path))
    assert seen.warnings == ["table 1: Eagles and Owls are of one school"]
    assert seen.notice == "round 1: Eagles and Hawks swapped (tables 2 and 1); the tables are told"
    assert seen.note.startswith("draw changed by director at ")
    assert seen.note.endswith(
        ": table 2's buzzers are dead (Eagles and Hawks swapped (tables 2 and 1))"
    )
    for shot in SHOTS:
        assert (tmp_path / f"{shot}.png").stat().st_size > 5_000
