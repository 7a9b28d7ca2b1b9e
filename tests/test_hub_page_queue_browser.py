"""The line under the problem queue on a phone (390x844), in a real browser (Playwright driving
Debian's chromium), without a hub or a broker: the page alone, on a record of 100 tables with
round 1's results missing, and two results the hub refused put in its list as the hub does.
One problem taller than the queue's box is "in part", never "0 shown"; one is "1 problem";
once the queue is empty the line goes. Its screenshot, in the test's own directory, is
docs/hub/queue-more-390.png."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.hub.wire.service import utc_now
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.browser_helpers import CHROMIUM, PHONE, WAIT_MS
from tests.hub_page_helpers import PASSWORD

TABLES = 100
HALL_WAIT_MS = 12_000  # the page reads the queue every 5 s


def hall_record(path: Path) -> Path:
    """200 teams, round 1 paired at tables 1 to 100 ten minutes ago, no result in."""
    teams = tuple(Entrant(f"Team {n:03d}", f"School {n % 23}", ()) for n in range(2 * TABLES))
    config = new_config(TournamentFormat.COMBO4, seed=21, rounds=3)
    paired = (datetime.now(UTC) - timedelta(minutes=10)).isoformat(timespec="seconds")
    with TournamentDB.create(path, config, teams, now=paired, by="director") as record:
        record.upgrade_for_hub()
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=paired, by="director")
    store_password(path, PASSWORD)
    return path


def enter_every_result(record: TournamentDB) -> None:
    with record.transaction() as tournament:
        for table in range(1, TABLES + 1):
            entry = tournament.result(1, table, 40, 20)
            record.add_result(entry, now=utc_now(), by="director")


@dataclass
class Seen:
    fits: bool  # the lone problem, folded: the line hidden
    tall: str  # its 100 tables opened, taller than the box
    three: str  # two more problems
    all_three: str  # after "Show all"
    emptied: tuple[bool, bool]  # once every problem is gone: the line hidden, "Nothing needs you"


async def the_line(phone: Page) -> str:
    return " ".join((await phone.locator("#problems-more").inner_text()).split())


async def a_phones_queue(record_path: Path, shots: Path) -> Seen:
    with TournamentDB.open(record_path) as record:
        page = DirectorPage(listen("127.0.0.1", 0), record, LiveBoard(), utc_now)
        await page.start()
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await phone.goto(f"http://127.0.0.1:{page.port}/login")
                await phone.fill("#password", PASSWORD)
                await phone.click("form button")
                more = phone.locator("#problems-more")
                summary = phone.locator("#problems .missing-tables summary")
                await expect(summary).to_have_text(f"The {TABLES} tables", timeout=WAIT_MS)
                fits = await more.is_hidden()
                await summary.click()
                await expect(more).to_be_visible(timeout=WAIT_MS)
                tall = await the_line(phone)
                await phone.screenshot(path=str(shots / "queue-more-390.png"))

                now = datetime.now(UTC).timestamp()
                for table in (7, 9):
                    error = "a decision that is not JSON: expected a JSON object"
                    page.refusals.add(table, None, None, error, now - 60 + table)
                await expect(more).to_contain_text("3 problems", timeout=HALL_WAIT_MS)
                three = await the_line(phone)
                await phone.click("#problems-all")
                await expect(more).to_contain_text("all shown", timeout=WAIT_MS)
                all_three = await the_line(phone)

                enter_every_result(record)
                for refusal in page.refusals.pending():
                    page.refusals.mark_seen(refusal.key)
                calm = phone.locator("#no-problems")
                await expect(calm).to_be_visible(timeout=HALL_WAIT_MS)
                emptied = (await more.is_hidden(), await calm.is_visible())
                await browser.close()
        finally:
            await page.stop()
    return Seen(fits, tall, three, all_three, emptied)


def test_the_queues_line_counts_problems_in_part_in_the_singular_and_goes_when_empty(
    tmp_path: Path,
) -> None:
    seen = asyncio.run(a_phones_queue(hall_record(tmp_path / "t.db"), tmp_path))
    assert seen.fits
    assert seen.tall == "1 problem, 1 in part: scroll the list for the rest, or Show it whole"
    said = re.fullmatch(
        r"3 problems, (\d+ shown, )?1 in part: scroll the list for the rest, or Show all 3",
        seen.three,
    )
    assert said is not None, seen.three
    assert seen.all_three == "3 problems, all shown Show fewer"
    assert seen.emptied == (True, True)
    assert (tmp_path / "queue-more-390.png").stat().st_size > 10_000
