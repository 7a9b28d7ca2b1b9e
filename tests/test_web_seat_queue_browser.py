"""The seat queue on a phone, in a real browser (Playwright on Debian's chromium), issue 25
finding 6: at a six-seat table the number a child shows the dealer is on the screen without
scrolling, on a small phone and a large one; leaving the seat asks first.

The daemon (MockFactory pins, a journal) and the browser share one asyncio loop; the page
listens on a free port of 127.0.0.1 and stops with the daemon. Each test leaves its
screenshots in its tmp_path (docs/web/*.png are made by scripts/make_web_screenshots.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import ViewportSize, async_playwright, expect

from tests.browser_helpers import CHROMIUM, PHONE, WAIT_MS, ask_for_place, join, running
from tests.test_web_six_phones import six_without_a_deck

SMALL_PHONE = ViewportSize(width=360, height=640)


@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE], ids=["360x640", "390x844"])
def test_the_number_to_show_the_dealer_is_on_screen_without_scrolling_at_six_seats(
    tmp_path: Path, viewport: ViewportSize
) -> None:
    """It was at y 827-942 on a 390x844 phone, below the six seats, the display and the form."""
    daemon = six_without_a_deck(tmp_path / "journal.db")

    async def scenario() -> dict[str, Any]:
        async with running(daemon) as base, async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            phone = await (await browser.new_context(viewport=viewport)).new_page()
            assert daemon.page is not None
            await ask_for_place(phone, base, "F", daemon.page.access.code)
            box = await phone.locator("#waiting").bounding_box()
            shown = await phone.locator("#waiting").inner_text()
            await phone.screenshot(path=str(tmp_path / f"waiting-{viewport['width']}.png"))
            await browser.close()
            return {"box": box, "shown": shown}

    seen = asyncio.run(scenario())
    box = seen["box"]  # where it is in the viewport: the phone's screen, as it was left
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]
    number = daemon.page.access.requests[0].number if daemon.page else ""
    assert seen["shown"].startswith(f"Number {number}: ")


def test_leaving_the_seat_asks_first_and_keep_it_keeps_it(tmp_path: Path) -> None:
    """One tap on "Leave the seat" gave it up: the phone asks, and only "Yes" leaves."""
    daemon = six_without_a_deck(tmp_path / "journal.db")

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with running(daemon) as base, async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            phone = await (await browser.new_context(viewport=PHONE)).new_page()
            await join(phone, daemon, base, "B")
            assert daemon.page is not None
            await phone.click("#leave")
            await expect(phone.locator("#leave-confirm")).to_be_visible(timeout=WAIT_MS)
            seen["asked"] = await phone.locator("#leave-confirm").inner_text()
            await phone.screenshot(path=str(tmp_path / "leave-confirm.png"))
            seen["held after one tap"] = daemon.page.access.places_held
            await phone.click("#leave-keep")
            await expect(phone.locator("#leave-confirm")).to_be_hidden(timeout=WAIT_MS)
            seen["held after keep"] = daemon.page.access.places_held
            await phone.click("#leave")
            await phone.click("#leave-yes")
            await expect(phone.locator("#join")).to_be_visible(timeout=WAIT_MS)
            seen["held after yes"] = daemon.page.access.places_held
            await browser.close()
        return seen

    seen = asyncio.run(scenario())
    assert seen["held after one tap"] == seen["held after keep"] == ("B",)
    assert seen["held after yes"] == ()
    assert "Give up seat B" in seen["asked"]
