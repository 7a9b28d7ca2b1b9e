"""The field from the page in a real browser (Playwright driving Debian's chromium): the
director pastes a spreadsheet's rows with bad lines, sees each named, chooses the corrected
CSV file (read into the box by the page's script) and confirms; the teams are in the field
(R1062, R1063). Screenshots at 1280x800 and 390x844 (docs/hub/field-preview-*.png, taken by
scripts/make_hub_field_screenshots.py)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import TournamentFormat, new_config
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.hub_page_helpers import NOW, PASSWORD, TEAMS

SHOTS = ("field-preview-1280", "field-preview-390")
PASTED = (
    "name\tschool\tplayers\n"
    "Lincoln Swans\tLincoln\tFay;Gil\n"
    "Eagles\tLincoln\tZed\n"
    "Adams Cranes\tAdams\n"
    "Adams Kites\tAdams\tJo;Kay\n"
)
CORRECTED = "name\tschool\tplayers\nLincoln Swans\tLincoln\tFay;Gil\nAdams Kites\tAdams\tJo;Kay\n"


@dataclass
class Seen:
    bad_lines: list[str]
    notice: str
    field: list[str]


def unpaired_record(path: Path, now: str = NOW) -> Path:
    """The helpers' four teams, round 1 not paired, the director's password stored."""
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    TournamentDB.create(path, config, TEAMS, now=now, by="director").close()
    store_password(path, PASSWORD)
    return path


async def _preview(page: Page, pasted: str) -> None:
    await page.fill("#teams", pasted)
    await page.click("#field-form button")
    await expect(page.locator("#field-preview")).to_be_visible(timeout=WAIT_MS)


async def a_field_entered(record_path: Path, shots: Path) -> Seen:
    with TournamentDB.open(record_path) as record:
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
                await laptop.click("#field-link")
                await _preview(laptop, PASTED)
                bad_lines = await laptop.locator("#bad-lines li").all_inner_texts()
                await laptop.screenshot(path=str(shots / "field-preview-1280.png"), full_page=True)
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await phone.goto(f"{base}/login")
                await phone.fill("#password", PASSWORD)
                await phone.click("#login-form button")
                await phone.goto(f"{base}/field")
                await _preview(phone, PASTED)
                await phone.screenshot(path=str(shots / "field-preview-390.png"), full_page=True)
                csv_file = shots / "corrected.csv"
                csv_file.write_text(CORRECTED)
                await laptop.set_input_files("#teams-file", str(csv_file))  # read into the box
                await expect(laptop.locator("#teams")).to_have_value(CORRECTED, timeout=WAIT_MS)
                csv_file.unlink()
                await laptop.click("#field-form button")
                await expect(laptop.locator("#field-confirm")).to_be_visible(timeout=WAIT_MS)
                await laptop.click("#field-confirm button")
                notice = await laptop.locator(".notice").inner_text()
                await browser.close()
        finally:
            await page.stop()
        return Seen(bad_lines, notice, [e.name for e in record.entrants()])


def test_the_director_sees_each_bad_line_corrects_them_and_confirms(tmp_path: Path) -> None:
    seen = asyncio.run(a_field_entered(unpaired_record(tmp_path / "t.db"), tmp_path))
    assert [line.split(":")[0] for line in seen.bad_lines] == [
        "the pasted rows line 3",
        "the pasted rows line 4",
    ]
    assert seen.notice == "2 teams added to the field: 6 now"
    assert seen.field[-2:] == ["Lincoln Swans", "Adams Kites"]
    for shot in SHOTS:
        assert (tmp_path / f"{shot}.png").stat().st_size > 5_000
