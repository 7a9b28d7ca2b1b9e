"""What a table's account did, on the director's page in a real browser (Playwright driving
Debian's chromium; issue 25, R921, R925): through mosquitto and the hub, table 1's clock is 5
days behind and table 2's journal entry came twice with other points. Each tile carries its
chip, the queue says what happened; the screenshot, in the test's own directory, is
docs/hub/account-1280.png."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from playwright.async_api import async_playwright, expect

from firmware_py.director.hub.wire.service import utc_now
from firmware_py.table.hub_wire import Decision, events_topic, state_topic, status_topic
from tests.browser_helpers import CHROMIUM, LAPTOP, WAIT_MS
from tests.hub_helpers import Broker, Peer
from tests.hub_page_helpers import PASSWORD, make_record, state
from tests.test_hub_page_problems import hub_and_page

SESSION = {"action": "match.start", "round": 1, "minutes": 20}
JOURNAL = "5f1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a"


def _wall(days_ago: float = 0) -> str:
    return (datetime.now(UTC) - timedelta(days=days_ago)).isoformat(timespec="milliseconds")


def _result(seq: int, a: int, b: int, wall: str) -> bytes:
    event = {"t": 900.0, "event": "match_result", "winner": "A", "A": a, "B": b}
    return Decision(JOURNAL, seq, wall, SESSION, event, seq - 1).to_bytes()


async def _shown(broker: Broker, record_path: Path, shot: Path) -> tuple[str, str, list[str]]:
    tables = {n: Peer(broker, str(n)) for n in (1, 2)}
    try:
        async with hub_and_page(broker, record_path, utc_now) as page, async_playwright() as pw:
            for number, peer in tables.items():
                await asyncio.to_thread(peer.publish, status_topic(number), "online", retain=True)
                await asyncio.to_thread(
                    peer.publish, state_topic(number), state(number), retain=True
                )
            await asyncio.to_thread(
                tables[1].publish, events_topic(1), _result(1, 40, 20, _wall(days_ago=5))
            )
            # another client on table 2's account first, then the table itself
            await asyncio.to_thread(tables[2].publish, events_topic(2), _result(1, 5, 0, _wall()))
            await asyncio.to_thread(tables[2].publish, events_topic(2), _result(1, 45, 0, _wall()))
            browser = await pw.chromium.launch(executable_path=CHROMIUM)
            director = await (await browser.new_context(viewport=LAPTOP)).new_page()
            await director.goto(f"http://127.0.0.1:{page.port}/login")
            await director.fill("#password", PASSWORD)
            await director.click("form button")
            clock_chip = director.locator("#table-1 .chip.clock")
            versions_chip = director.locator("#table-2 .chip.two_versions")
            await expect(clock_chip).to_have_text("CLOCK OFF", timeout=WAIT_MS)
            await expect(versions_chip).to_have_text("TWO VERSIONS", timeout=WAIT_MS)
            await director.wait_for_timeout(600)  # the grid rearranges at most 4 times a second
            await director.screenshot(path=str(shot))
            queue = await director.locator("#problems .problem").all_inner_texts()
            return await clock_chip.inner_text(), await versions_chip.inner_text(), queue
    finally:
        for peer in tables.values():
            peer.close()


def test_two_versions_and_a_clock_off_show_on_their_tiles_and_in_the_queue(
    broker: Broker, tmp_path: Path
) -> None:
    record_path = make_record(tmp_path / "tournament.db", now=utc_now())
    _, _, queue = asyncio.run(_shown(broker, record_path, tmp_path / "account-1280.png"))
    (versions,) = [line for line in queue if "Two versions" in line]
    assert (
        "Table 2: journal 5f1c0e7a entry 1 came again saying something else (match_result 45-0)"
        in versions
    )
    (clock,) = [line for line in queue if "Clock off" in line]
    assert "Table 1: its clock is 5 days behind the hub's" in clock
