"""The tournament day in a real browser (Playwright driving Debian's chromium), on a hall of 128
teams (64 tables): a player finds their table on a phone, the hall's screen shows the
pairings, the director prints round 2's result sheets and its pairings to PDF (one page per
table), then undoes round 2's pairing through its confirmation. The screenshots are
docs/hub/*.png (scripts/make_hub_day_screenshots.py writes them there)."""

from __future__ import annotations

import asyncio
import random
import subprocess
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Page, ViewportSize, async_playwright, expect

from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.browser_helpers import CHROMIUM, WAIT_MS
from tests.hub_page_helpers import NOW, PASSWORD, director_page

PHONE = ViewportSize(width=390, height=844)
LAPTOP = ViewportSize(width=1280, height=800)
PROJECTOR = ViewportSize(width=1920, height=1080)
SMALL_PROJECTOR = ViewportSize(width=1280, height=720)
SCHOOLS = ("Lincoln", "Adams", "Roosevelt", "Jefferson", "Madison", "Monroe", "Grant", "Hayes",
           "Garfield", "Arthur", "Cleveland", "Harrison", "McKinley", "Taft", "Wilson", "Harding",
           "Coolidge", "Hoover", "Truman", "Kennedy", "Johnson", "Carter", "Polk", "Tyler",
           "Pierce", "Fillmore", "Buchanan", "Jackson", "Van Buren", "Washington",
           "Eisenhower", "Taylor")  # fmt: skip
MASCOTS = ("Eagles", "Hawks", "Owls", "Ravens")
TOURNAMENT, VENUE_ZONE = "Lincoln County Invitational", "America/Chicago"  # the day's (R962)
PLAYERS = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu")


def hall_record(path: Path) -> Path:
    """128 teams (32 schools, 4 teams each), 10 rounds of Combo 4: round 1 played, round 2
    paired; the director's password set."""
    rng = random.Random(21)
    teams = tuple(
        Entrant(f"{school} {mascot}", school, tuple(rng.sample(PLAYERS, 3)))
        for school in SCHOOLS
        for mascot in MASCOTS
    )
    config = new_config(TournamentFormat.COMBO4, seed=21, rounds=10)
    with TournamentDB.create(path, config, teams, now=NOW, by="director") as record:
        record.set_venue(name=TOURNAMENT, time_zone=VENUE_ZONE, now=NOW, by="director")
        with record.transaction() as tournament:
            record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        with record.transaction() as tournament:
            for match in tournament.rounds[0].matches:
                a, b = (5 * rng.randint(2, 12) for _ in range(2))
                entry = tournament.result(1, match.table, a, b)
                record.add_result(entry, now=NOW, by=f"table {match.table}")
        with record.transaction() as tournament:
            record.add_round(tournament.pair(2), tournament.plan(2), now=NOW, by="director")
    store_password(path, PASSWORD)
    return path


@dataclass
class Seen:
    found: str
    projector_rows: int
    projector_fits: dict[str, bool]
    sheet_pages: int
    wall_pages: int
    undo_question: str
    notice: str
    rounds_after: int


def _pdf_pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    (pages,) = [line for line in info.stdout.splitlines() if line.startswith("Pages:")]
    return int(pages.split()[1])


def _first_page_png(pdf: Path, png: Path) -> None:
    """The PDF's first page as the PNG ``png`` (poppler's pdftoppm, 80 dpi)."""
    stem = png.with_suffix("")
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(stem)],
        check=True,
    )


async def _fits(browser_page: Page) -> bool:
    """Whether every row of the projector's page is inside the screen, none cut."""
    return bool(
        await browser_page.evaluate(
            """() => [...document.querySelectorAll('body.projector li')].every(li => {
                const box = li.getBoundingClientRect();
                return box.bottom <= innerHeight && box.right <= innerWidth && box.top >= 0;
            }) && document.documentElement.scrollHeight <= innerHeight"""
        )
    )


async def a_tournament_day(record_path: Path, shots: Path) -> Seen:
    with TournamentDB.open(record_path) as record:
        page = director_page(record)
        await page.start()
        base = f"http://127.0.0.1:{page.port}"
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await phone.goto(f"{base}/public")
                await phone.fill("#q", "lincoln eag")
                await phone.click("#search-form button")
                found = phone.locator("#found")
                await expect(found).to_contain_text("Table", timeout=WAIT_MS)
                await phone.screenshot(path=str(shots / "public-390.png"))
                found_text = await found.inner_text()

                fits = {}
                screen = await (await browser.new_context(viewport=PROJECTOR)).new_page()
                await screen.goto(f"{base}/projector")
                rows = await screen.locator("body.projector li").count()
                fits["1920"] = await _fits(screen)
                await screen.screenshot(path=str(shots / "projector-1920.png"))
                small = await (await browser.new_context(viewport=SMALL_PROJECTOR)).new_page()
                await small.goto(f"{base}/projector?page=3")  # the first standings page
                fits["1280"] = await _fits(small)
                await small.screenshot(path=str(shots / "projector-1280-standings.png"))

                director = await (await browser.new_context(viewport=LAPTOP)).new_page()
                await director.goto(f"{base}/login")
                await director.fill("#password", PASSWORD)
                await director.click("form button")
                await expect(director.locator("#round-tools")).to_be_visible(timeout=WAIT_MS)
                await director.goto(f"{base}/print/round/2/sheets")
                await director.pdf(path=str(shots / "round-sheets.pdf"), format="A4")
                _first_page_png(shots / "round-sheets.pdf", shots / "round-sheets-p1.png")
                await director.goto(f"{base}/print/round/2/pairings")
                await director.pdf(path=str(shots / "pairings-sheet.pdf"), format="A4")
                _first_page_png(shots / "pairings-sheet.pdf", shots / "pairings-sheet.png")

                await director.goto(base)
                await director.click("#undo-link")
                question = director.locator("#undo-title")
                await expect(question).to_be_visible(timeout=WAIT_MS)
                await director.fill("#undo-form [name=reason]", "paired before the scores check")
                await director.screenshot(path=str(shots / "undo-confirm.png"))
                asked = await question.inner_text()
                await director.click("#undo-form button")
                notice = director.locator(".notice")
                await expect(notice).to_contain_text("undone", timeout=WAIT_MS)
                said = await notice.inner_text()
                await browser.close()
        finally:
            await page.stop()
        return Seen(
            found=found_text,
            projector_rows=rows,
            projector_fits=fits,
            sheet_pages=_pdf_pages(shots / "round-sheets.pdf"),
            wall_pages=_pdf_pages(shots / "pairings-sheet.pdf"),
            undo_question=asked,
            notice=said,
            rounds_after=len(record.rounds()),
        )


def test_a_player_finds_the_table_the_hall_sees_the_round_the_director_prints_and_undoes(
    tmp_path: Path,
) -> None:
    seen = asyncio.run(a_tournament_day(hall_record(tmp_path / "hall.db"), tmp_path))
    assert "Lincoln Eagles" in seen.found and "Against" in seen.found
    assert "2 of 10" in seen.found
    assert seen.projector_rows == 32
    assert seen.projector_fits == {"1920": True, "1280": True}
    assert seen.sheet_pages == 64  # a page per table
    assert seen.wall_pages >= 2
    assert seen.undo_question == "Undo round 2's pairing? 64 tables; no result is in"
    assert seen.notice.startswith("round 2's pairing undone: 64 matches withdrawn")
    assert seen.rounds_after == 1
    for shot in ("public-390", "projector-1920", "round-sheets-p1", "pairings-sheet"):
        assert (tmp_path / f"{shot}.png").stat().st_size > 10_000
