"""The director's page in a real browser (Playwright driving Debian's chromium), behind a real
mosquitto: the director logs in over http://127.0.0.1 (Chromium keeps the Secure cookie there,
R181), sees a table's tile change as the table publishes its state, enters a result through the
form, and prints the match's result sheet. The hub and its page share one asyncio loop."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient
from playwright.async_api import ViewportSize, async_playwright, expect

from firmware_py.director.hub.page.server import MAX_WATCHERS_PER_ADDRESS
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import state_topic, status_topic
from tests.browser_helpers import CHROMIUM, WAIT_MS
from tests.hub_helpers import Broker, Peer
from tests.hub_page_helpers import PASSWORD, director_page, log_in, make_record, serve, state
from tests.test_hub_page_broker import hub_with_page

LAPTOP = ViewportSize(width=1280, height=900)
A4 = ViewportSize(width=794, height=1123)  # 96 dpi


@dataclass
class Seen:
    cookie_secure: bool
    tile_before: str
    tile_after: str
    notice: str
    sheet: str


async def a_directors_round(broker: Broker, record_path: Path, shots: Path) -> Seen:
    """Log in, watch tables 1 and 2 play, enter table 2's result, print table 2's sheet;
    screenshots of the page (``hub-page.png``) and of the printed sheet (``hub-sheet.png``)."""
    tables = {n: Peer(broker, str(n), will=(status_topic(n), "offline")) for n in (1, 2)}
    try:
        async with hub_with_page(broker, record_path) as page, async_playwright() as playwright:
            base = f"http://127.0.0.1:{page.port}"
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            director = await (await browser.new_context(viewport=LAPTOP)).new_page()
            await director.goto(f"{base}/login")
            await director.fill("#password", PASSWORD)
            await director.click("form button")
            await expect(director.locator("#result-form")).to_be_visible(timeout=WAIT_MS)
            cookies = await director.context.cookies()
            for number, peer in tables.items():
                await asyncio.to_thread(peer.publish, status_topic(number), "online", retain=True)
                await asyncio.to_thread(
                    peer.publish, state_topic(number), state(number), retain=True
                )
            tile = director.locator("#table-2")
            await expect(tile).to_contain_text("12:41", timeout=WAIT_MS)
            before = await tile.inner_text()
            screen = {"title": "G4", "big": "", "lines": [], "footer": "", "alert": "STUCK B.stand"}
            changed = state(2, clock="3:05", scores={"A": 40, "B": 35}, game="G4 Chummy Challenge",
                            screen=screen)  # fmt: skip
            await asyncio.to_thread(tables[2].publish, state_topic(2), changed, retain=True)
            await expect(tile).to_contain_text("STUCK B.stand", timeout=WAIT_MS)
            after = await tile.inner_text()

            form = director.locator("#result-form")
            await form.locator("[name=table]").fill("2")
            await form.locator("[name=a_points]").fill("40")
            await form.locator("[name=b_points]").fill("35")
            await form.locator("button").click()
            notice = director.locator(".notice")
            await expect(notice).to_contain_text("round 1 table 2", timeout=WAIT_MS)
            said = await notice.inner_text()
            await expect(director.locator("#table-2")).to_contain_text("G4", timeout=WAIT_MS)
            await director.screenshot(path=str(shots / "hub-page.png"), full_page=True)

            sheet = await director.context.new_page()  # the sheets are for staff (R816)
            await sheet.set_viewport_size(A4)
            await sheet.goto(f"{base}/sheet/1/2")
            await sheet.emulate_media(media="print")
            await sheet.screenshot(path=str(shots / "hub-sheet.png"), full_page=True)
            printed = await sheet.locator("main").inner_text()
            await browser.close()
            return Seen(
                cookie_secure=all(c["secure"] for c in cookies) and len(cookies) == 1,
                tile_before=before,
                tile_after=after,
                notice=said,
                sheet=printed,
            )
    finally:
        for peer in tables.values():
            peer.close()


def test_the_director_logs_in_watches_the_tables_enters_a_result_and_prints_the_sheet(
    broker: Broker, tmp_path: Path
) -> None:
    seen = asyncio.run(a_directors_round(broker, make_record(tmp_path / "t.db"), tmp_path))
    assert seen.cookie_secure  # kept by Chromium on http://127.0.0.1, and sent back (R181)
    assert "12:41" in seen.tile_before and "online" in seen.tile_before
    assert "3:05" in seen.tile_after and "A 40 B 35" in seen.tile_after
    assert "STUCK B.stand" in seen.tile_after
    assert "(recorded, version 1)" in seen.notice
    for printed in ("Round", "1 (all, 20 minutes)", "40", "35", "Dealer", "Director"):
        assert printed in seen.sheet
    assert "Table 2's record" not in seen.sheet  # the screen's links are not printed
    for shot in ("hub-page.png", "hub-sheet.png"):
        assert (tmp_path / shot).stat().st_size > 10_000


def test_a_grid_refused_for_too_many_pages_from_its_address_says_so(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> str:
        await log_in(client)
        held = [await client.get("/api/events") for _ in range(MAX_WATCHERS_PER_ADDRESS)]
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            grid = await (await browser.new_context(viewport=LAPTOP)).new_page()
            await grid.goto(str(client.make_url("/login")))
            await grid.fill("#password", PASSWORD)
            await grid.click("#login-form button")
            connection = grid.locator("#connection")
            await expect(connection).to_contain_text("too many pages", timeout=WAIT_MS)
            said = await connection.inner_text()
            await browser.close()
        for stream in held:
            stream.close()
        return said

    with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
        said = serve(director_page(record), scenario)
    assert said == (
        "Not live: too many pages open from this address (8 at most): close one and reload"
    )
