"""The stopped playoff on a phone (390x844), in a real browser (Playwright driving Debian's
chromium): teams of the longest names (40 characters), game 1 played, then a result changed
that seeds it otherwise (R960). Every column of the games recorded, "the standings now make"
the last, is read on the phone without scrolling sideways. The screenshot is left in the
test's own directory (stopped-390.png)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import async_playwright, expect

from firmware_py.director.hub.page.changes import enter_result, record_playoff_game
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, Qualify, TournamentFormat, new_config
from tests.browser_helpers import CHROMIUM, PHONE, WAIT_MS
from tests.hub_page_helpers import NOW, PASSWORD, director_page
from tests.test_hub_page_problems import LATER

# six names of 40 characters, a team name's most (R131), wide letters
NAMES = tuple(f"{letter}wwwwwwwww Wwwwwwwwww Wwwwwwwwww Wwwwwwwww" for letter in "ABCDEF")


def _stopped_playoff(path: Path) -> Path:
    """One round qualifying by wins: three winners tie for two places; game 1 is played, then
    the lowest seed's table is amended to more points, which seeds game 1 otherwise."""
    teams = tuple(Entrant(name, "School", ()) for name in NAMES)
    config = new_config(TournamentFormat.COMBO4, seed=1, rounds=1, qualify=Qualify.WINS)
    with TournamentDB.create(path, config, teams, now=NOW, by="director") as record:
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        for table, (a, b) in enumerate(((10, 0), (20, 10), (30, 0)), start=1):
            enter_result(record, 1, table, a, b, now=NOW)
        playoff = record.load().qualification().playoff
        assert playoff is not None
        game = playoff.next_game()
        assert game is not None
        record_playoff_game(record, game[1], now=NOW, by="director")
        lowest = playoff.seeds[-1]
        (result,) = [r for r in record.load().results if lowest in (r.a, r.b)]
        points = (result.a_points + 100, result.b_points)
        if result.b == lowest:
            points = (result.a_points, result.b_points + 100)
        enter_result(record, 1, result.table, *points, now=LATER, amend_reason="added again")
    store_password(path, PASSWORD)
    return path


async def _on_a_phone(path: Path, png: Path) -> tuple[bool, bool, str]:
    """Whether the stopped card scrolls sideways; whether every recorded game's last cell is
    inside the phone's width; and the label the phone shows before that cell."""
    with TournamentDB.open(path) as record:
        page = director_page(record)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await phone.goto(f"{base}/login")
                await phone.fill("#password", PASSWORD)
                await phone.click("#login-form button")
                await expect(phone.locator("#tables")).to_be_visible(timeout=WAIT_MS)
                await phone.goto(f"{base}/close")
                card = phone.locator("#playoff-stopped")
                await expect(card).to_be_visible(timeout=WAIT_MS)
                scrolls = bool(await card.evaluate("(c) => c.scrollWidth > c.clientWidth"))
                last = card.locator("table tbody tr td:last-child")
                inside = all(
                    box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
                    for box in [await cell.bounding_box() for cell in await last.all()]
                )
                said = str(
                    await last.first.evaluate("(c) => getComputedStyle(c, '::before').content")
                )
                await phone.screenshot(path=str(png), full_page=True)
                await browser.close()
        finally:
            await page.stop()
    return scrolls, inside, said


def test_the_stopped_playoffs_games_are_read_on_a_phone_without_scrolling_sideways(
    tmp_path: Path,
) -> None:
    path = _stopped_playoff(tmp_path / "t.db")
    scrolls, inside, said = asyncio.run(_on_a_phone(path, tmp_path / "stopped-390.png"))
    assert not scrolls
    assert inside
    assert said == '"the standings now make: "'  # the cell names its column
