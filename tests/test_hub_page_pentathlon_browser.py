"""The Pentathlon's view in a real browser (Playwright driving Debian's chromium): staff log in,
open /pentathlon at 1280x800 and 390x844, and follow a seat to its score card. The screenshots
are docs/hub/pentathlon-1280.png and docs/hub/pentathlon-390.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient
from playwright.async_api import async_playwright, expect

from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TournamentDB
from rules.pentathlon.catalogue import Game
from rules.pentathlon.results import How
from rules.tournament.pentathlon import GameResult, Pentathlete, PentathlonPoints
from tests.browser_helpers import CHROMIUM, LAPTOP, PHONE, WAIT_MS
from tests.hub_page_helpers import NOW, PASSWORD, director_page, make_record, serve

FIRST = ("Ann", "Ben", "Cy", "Dee", "Eve", "Finn")
LAST = ("Lee", "Okafor", "Park", "Novak", "Ruiz", "Walsh")
SCHOOLS = ("Lincoln Middle", "Adams Elementary", "Roosevelt Academy")


def hall(path: Path) -> Path:
    """Divisions II, III and IV of six players each: two rounds seated, round 1's results in
    and round 2's half in (entered by the director)."""
    players = tuple(
        Pentathlete(f"{first} {last}{'' if d == 'II' else ' ' + d}", d, SCHOOLS[i % 3])
        for d in ("II", "III", "IV")
        for i, (first, last) in enumerate(zip(FIRST, LAST, strict=True))
    )
    record = PentathlonRecord.start(path, PentathlonPoints(), players, now=NOW, by="director")
    event = PentathlonRecord(record)
    with record:
        for round_number, game in ((1, Game.CONTIG_60), (2, Game.JUGGLE)):
            table = 0  # the same tables every round
            for division in ("II", "III", "IV"):
                names = [p.name for p in players if p.division == division]
                order = names if round_number == 1 else names[1:] + names[:1]
                for a, b in zip(order[::2], order[1::2], strict=True):
                    table += 1
                    with record.writing():
                        seat = event.event().seat(round_number, table, game, a, b)
                        event.add_seat(seat, now=NOW, by="director")
                        if round_number == 1 or table % 2 == 0:
                            winner = "A" if table % 3 else "B"
                            event.add_result(
                                GameResult(seat, winner, How.GOAL),
                                now=NOW,
                                by="director",
                                source=DIRECTOR_SOURCE,
                            )
    return path


def test_staff_read_the_pentathlon_and_a_score_card_on_a_laptop_and_a_phone(
    tmp_path: Path,
) -> None:
    shots = {1280: tmp_path / "pentathlon-1280.png", 390: tmp_path / "pentathlon-390.png"}

    async def scenario(client: TestClient[Any, Any]) -> tuple[str, str, int]:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            context = await browser.new_context(viewport=LAPTOP)
            laptop = await context.new_page()
            await laptop.goto(str(client.make_url("/login")))
            await laptop.fill("#password", PASSWORD)
            await laptop.click("form button")
            await laptop.goto(str(client.make_url("/pentathlon")))
            await expect(laptop.locator("#division-III")).to_be_visible(timeout=WAIT_MS)
            await laptop.screenshot(path=str(shots[1280]), full_page=True)
            phone = await context.new_page()  # the same login: the context's cookie
            await phone.set_viewport_size(PHONE)
            await phone.goto(str(client.make_url("/pentathlon")))
            await phone.screenshot(path=str(shots[390]), full_page=True)
            overflow = await phone.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            await laptop.click('a[href="/pentathlon/card/2/1"]')
            await expect(laptop.locator("h1")).to_contain_text("Score card", timeout=WAIT_MS)
            card = await laptop.locator("main").inner_text()
            heading = await laptop.locator("h1").inner_text()
            await browser.close()
            return heading, card, overflow

    with TournamentDB.open(hall(make_record(tmp_path / "t.db"))) as record:
        heading, card, overflow = serve(director_page(record), scenario)
    assert heading == "Score card · round 2, table 1"
    assert "juggle" in card and "Ben Okafor" in card and "Cy Park" in card
    assert overflow <= 0  # the page never scrolls sideways on the phone: its tables do
    for shot in shots.values():
        assert shot.stat().st_size > 10_000
