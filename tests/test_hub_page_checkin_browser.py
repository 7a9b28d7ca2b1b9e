"""Check-in in a real browser (Playwright driving Debian's chromium): a results-staff member
on a 390x844 phone marks the next round's teams on /checkin, one team absent; the director on a
1280x800 laptop withdraws a team with a reason, pairs the round (only the teams present), sees
the withdrawn team in the standings, and hides the public standings, which a phone's /public
then holds back (R1040-R1043). Screenshots docs/hub/checkin-*.png (taken by
scripts/make_hub_checkin_screenshots.py)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.staff import Role
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.hub_page_helpers import NOW, PASSWORD, add_staff, make_record

SAM = "sam's own password"
SHOTS = ("checkin-390", "checkin-1280", "checkin-standings-1280", "checkin-public-held-390")


@dataclass
class Seen:
    phone_overflow: int  # how far the phone's check-in list is wider than the screen (px)
    paired: str  # the notice after pairing round 2
    standings: list[str]  # the staff standings' team cells
    public: str  # the phone's /public once the standings are hidden


def _round_1_played(record: TournamentDB) -> None:
    with record.transaction() as tournament:
        for match in tournament.rounds[0].matches:
            result = tournament.result(1, match.table, 40 - 10 * match.table, 20)
            record.add_result(result, now=NOW, by="director")


async def _mark(phone: Page, team: str, label: str) -> None:
    row = phone.locator(".checkin-row", has_text=team)
    await row.get_by_role("button", name=label).click()
    await expect(phone.locator(".notice")).to_contain_text(f"{team} marked", timeout=WAIT_MS)


async def a_checkin(record_path: Path, shots: Path) -> Seen:
    with TournamentDB.open(record_path) as record:
        _round_1_played(record)
        add_staff(record, "sam", Role.RESULTS, SAM)
        page = DirectorPage(listen("127.0.0.1", 0), record, LiveBoard(), lambda: NOW)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                laptop = await (await browser.new_context(viewport=LAPTOP)).new_page()
                await laptop.goto(f"{base}/login")
                await laptop.fill("#password", PASSWORD)
                await laptop.click("#login-form button")
                await laptop.goto(f"{base}/checkin")
                form = laptop.locator("#withdraw-form")
                await form.locator("[name=team]").select_option("Hawks")
                await form.locator("[name=reason]").fill("went home ill")
                await form.locator("button").click()
                await expect(laptop.locator(".notice")).to_contain_text("Hawks withdrawn")

                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await phone.goto(f"{base}/login")
                await phone.fill("#name", "sam")
                await phone.fill("#password", SAM)
                await phone.click("#login-form button")
                await phone.goto(f"{base}/checkin")
                await _mark(phone, "Owls", "Absent")
                await _mark(phone, "Eagles", "Present")
                await _mark(phone, "Ravens", "Present")
                overflow = await phone.evaluate(
                    "document.documentElement.scrollWidth - window.innerWidth"
                )
                await phone.screenshot(path=str(shots / "checkin-390.png"), full_page=True)

                await laptop.goto(f"{base}/checkin")
                await laptop.screenshot(path=str(shots / "checkin-1280.png"), full_page=True)
                await laptop.goto(f"{base}/")
                await laptop.click("#pair-form button")
                notice = laptop.locator(".notice")
                await expect(notice).to_contain_text("round 2 paired", timeout=WAIT_MS)
                paired = await notice.inner_text()
                cells = laptop.locator("table.standings tbody tr td:nth-child(2)")
                standings = await cells.all_inner_texts()
                await laptop.locator("#standings-title").scroll_into_view_if_needed()
                await laptop.screenshot(path=str(shots / "checkin-standings-1280.png"))
                await laptop.goto(f"{base}/checkin")
                await laptop.click("#release-form button")
                await expect(laptop.locator(".notice")).to_contain_text("hidden")

                await phone.goto(f"{base}/public")
                public = await phone.locator("main").inner_text()
                await phone.screenshot(path=str(shots / "checkin-public-held-390.png"))
                await browser.close()
        finally:
            await page.stop()
    return Seen(overflow, paired, standings, public)


def test_check_in_from_a_phone_withdraw_pair_and_hold_the_standings(tmp_path: Path) -> None:
    seen = asyncio.run(a_checkin(make_record(tmp_path / "t.db"), tmp_path))
    assert seen.phone_overflow <= 0
    assert "round 2 paired: 1 match" in seen.paired
    assert "Hawks (withdrawn)" in seen.standings
    assert "The standings are hidden until the director releases them." in seen.public
    for shot in SHOTS:
        assert (tmp_path / f"{shot}.png").stat().st_size > 5_000
