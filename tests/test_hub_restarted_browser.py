"""A match restarted on a new journal, on the director's page in a real browser (Playwright
driving Debian's chromium; issue 25 F3, R908): through mosquitto and the hub, table 1's old
journal played 2 games, then its new journal began. Its tile carries the chip, the queue says
what happened; the screenshot, in the test's own directory, is docs/hub/restarted-1280.png."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from playwright.async_api import async_playwright, expect

from firmware_py.director.hub.wire.service import utc_now
from firmware_py.table.hub_wire import Decision, events_topic, state_topic, status_topic
from tests.browser_helpers import CHROMIUM, LAPTOP, WAIT_MS
from tests.hub_helpers import Broker, Peer
from tests.hub_page_helpers import PASSWORD, make_record, state
from tests.test_hub_page_problems import hub_and_page

SESSION = {"action": "match.start", "round": 1, "minutes": 20}
OLD = "5f1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a"
NEW = "7a2b9c0d1e2f3a4b5c6d7e8f9a0b1c2d"


def _decision(journal: str, seq: int, event: dict[str, object]) -> bytes:
    wall = datetime.now(UTC).isoformat(timespec="milliseconds")
    return Decision(journal, seq, wall, SESSION, event, seq - 1).to_bytes()


async def _shown(broker: Broker, record_path: Path, shot: Path) -> tuple[str, list[str]]:
    table = Peer(broker, "1")
    sent: list[tuple[str, dict[str, object]]] = [
        (OLD, {"event": "game_result", "game": 1}),
        (OLD, {"event": "score", "A": 0, "B": 20}),
        (OLD, {"event": "game_result", "game": 2}),
        (OLD, {"event": "score", "A": 10, "B": 20}),
        (NEW, {"event": "plunge"}),
    ]
    try:
        async with hub_and_page(broker, record_path, utc_now) as page, async_playwright() as pw:
            await asyncio.to_thread(table.publish, status_topic(1), "online", retain=True)
            await asyncio.to_thread(table.publish, state_topic(1), state(1), retain=True)
            seqs: dict[str, int] = {}
            for journal, event in sent:
                seqs[journal] = seqs.get(journal, 0) + 1
                payload = _decision(journal, seqs[journal], event)
                await asyncio.to_thread(table.publish, events_topic(1), payload)
            browser = await pw.chromium.launch(executable_path=CHROMIUM)
            director = await (await browser.new_context(viewport=LAPTOP)).new_page()
            await director.goto(f"http://127.0.0.1:{page.port}/login")
            await director.fill("#password", PASSWORD)
            await director.click("form button")
            chip = director.locator("#table-1 .chip.restarted")
            await expect(chip).to_have_text("MATCH RESTARTED", timeout=WAIT_MS)
            await director.wait_for_timeout(600)  # the grid rearranges at most 4 times a second
            await director.screenshot(path=str(shot))
            queue = await director.locator("#problems .problem").all_inner_texts()
            return await chip.inner_text(), queue
    finally:
        table.close()


def test_a_match_restarted_on_a_new_journal_shows_on_its_tile_and_in_the_queue(
    broker: Broker, tmp_path: Path
) -> None:
    record_path = make_record(tmp_path / "tournament.db", now=utc_now())
    _, queue = asyncio.run(_shown(broker, record_path, tmp_path / "restarted-1280.png"))
    (restarted,) = [line for line in queue if "Match restarted" in line]
    assert "while its match of round 1 was unfinished (2 games, 10-20 so far)" in restarted
