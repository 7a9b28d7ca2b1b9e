"""Staff accounts in a real browser (Playwright driving Debian's chromium) on the director's
page: a results-staff member on a phone is sent to the login by a table's record, logs in,
enters a result and is refused a second one in words (a director amends, R811); the director on
a laptop amends it with a reason; the table's record shows each version, who entered it and
when (R818). Screenshots at 390x844 and 1280x800 (docs/hub/staff-*.png, taken by
scripts/make_hub_staff_screenshots.py)."""

from __future__ import annotations

import asyncio
import itertools
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.staff import Role
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.hub_page_helpers import PASSWORD, add_staff, make_record, state

SAM = "sam's own password"
SHOTS = ("staff-login-phone", "staff-refused-phone", "staff-table-laptop",
         "staff-table-phone", "staff-accounts-laptop")  # fmt: skip


@dataclass
class Seen:
    landed: str  # where the login sent the phone
    refusal: str
    versions: list[str]  # /tables/1's rows of versions, as the director sees them


async def _enter(page: Page, table: int, a: int, b: int, reason: str | None = None) -> None:
    form = page.locator("#result-form")
    await form.locator("[name=table]").fill(str(table))
    await form.locator("[name=a_points]").fill(str(a))
    await form.locator("[name=b_points]").fill(str(b))
    if reason is not None:
        await form.locator("[name=reason]").fill(reason)
    await form.locator("button").click()


async def a_staff_round(record_path: Path, shots: Path) -> Seen:
    """Results staff on a phone, the director on a laptop; the screenshots into ``shots``."""
    minutes = itertools.count(2)
    with TournamentDB.open(record_path) as record:
        add_staff(record, "sam", Role.RESULTS, SAM)
        add_staff(record, "gil", Role.VIEWER)
        board = LiveBoard()
        board.take_status(1, b"online")
        board.take_state(1, state(1), heard=time.time())
        page = DirectorPage(
            listen("127.0.0.1", 0),
            record,
            board,
            lambda: f"2026-05-09T10:{next(minutes) % 60:02d}:00+00:00",
        )
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await phone.goto(f"{base}/tables/1")  # staff only: to the login, and back
                await expect(phone.locator("#login-form")).to_be_visible(timeout=WAIT_MS)
                await phone.screenshot(path=str(shots / "staff-login-phone.png"))
                await phone.fill("#name", "sam")
                await phone.fill("#password", SAM)
                await phone.click("#login-form button")
                await expect(phone.locator("h1")).to_have_text("Table 1", timeout=WAIT_MS)
                landed = phone.url.removeprefix(base)
                await phone.goto(f"{base}/")
                await _enter(phone, 1, 40, 30)
                await expect(phone.locator(".notice")).to_contain_text("recorded", timeout=WAIT_MS)
                await _enter(phone, 1, 40, 35)
                refused = phone.locator(".error")
                await expect(refused).to_contain_text("director", timeout=WAIT_MS)
                await phone.screenshot(path=str(shots / "staff-refused-phone.png"))
                refusal = await refused.inner_text()

                laptop = await (await browser.new_context(viewport=LAPTOP)).new_page()
                await laptop.goto(f"{base}/login")
                await laptop.fill("#password", PASSWORD)  # no name: the director (R815)
                await laptop.click("#login-form button")
                await _enter(laptop, 1, 40, 35, reason="the dealer misread game 3")
                await expect(laptop.locator(".notice")).to_contain_text("amended", timeout=WAIT_MS)
                await laptop.goto(f"{base}/tables/1")
                rows = laptop.locator("table.versions tbody tr")
                await expect(rows).to_have_count(2, timeout=WAIT_MS)
                versions = await rows.all_inner_texts()
                await laptop.screenshot(path=str(shots / "staff-table-laptop.png"), full_page=True)
                await phone.goto(f"{base}/tables/1")
                await phone.screenshot(path=str(shots / "staff-table-phone.png"), full_page=True)
                await laptop.goto(f"{base}/staff")
                await laptop.screenshot(path=str(shots / "staff-accounts-laptop.png"))
                await browser.close()
        finally:
            await page.stop()
    return Seen(landed, refusal, versions)


def test_results_staff_enter_are_refused_an_amendment_and_the_director_amends(
    tmp_path: Path,
) -> None:
    seen = asyncio.run(a_staff_round(make_record(tmp_path / "t.db"), tmp_path))
    assert seen.landed == "/tables/1"
    assert seen.refusal == (
        "round 1 table 1 already has a result (40-30, entered by sam at "
        "Sat 9 May 2026, 10:02 UTC): changing it needs a director's account: sam is results staff"
    )
    cells = [row.split("\t") for row in seen.versions]
    assert [c[:4] for c in cells] == [
        ["1", "40", "30", "staff member sam"], ["2", "40", "35", "the director"],
    ]  # fmt: skip
    assert cells[0][4] == "Sat 9 May 2026, 10:02 UTC"
    assert cells[1][4].startswith("Sat 9 May 2026, 10:")
    assert cells[1][5] == "the dealer misread game 3"
    for shot in SHOTS:
        assert (tmp_path / f"{shot}.png").stat().st_size > 5_000
