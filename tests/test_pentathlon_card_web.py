"""The score card where the monitor is: the table's web page links to the finished game's card
(``GET /card``) once the monitor has confirmed the result (R263), and the card prints on one
page, A4 or Letter, in a real browser (Playwright driving Debian's chromium)."""

from __future__ import annotations

import asyncio
import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import async_playwright, expect

from firmware_py.families.pentathlon.card import Heading, Layout, card_html
from firmware_py.families.pentathlon.options import table_settings
from firmware_py.table.journal import wall_text
from firmware_py.table.web.app import CARD_POLICY, make_app
from firmware_py.table.web.page import TablePage, listen
from rules.pentathlon.log import replay_log
from rules.pentathlon.record import record
from tests.browser_helpers import (
    CHROMIUM,
    PHONE,
    WAIT_MS,
    buttons,
    choose,
    page_daemon,
    running,
    until,
)
from tests.pentathlon_card_helpers import GAME_LOG, LONG_LINE, LONG_NAMES, long_game_log
from tests.pentathlon_table_helpers import PTable, playing

Client = TestClient[Any, Any]


def _read(table: PTable, *paths: str) -> list[tuple[int, dict[str, str], str]]:
    """Each path as the page serves it, the table's view published as the daemon does."""
    page = TablePage(listen("127.0.0.1", 0))
    page.publish(table.controller, table.controller.view(), saved=True)

    async def scenario() -> list[tuple[int, dict[str, str], str]]:
        async with TestClient(TestServer(make_app(page), host="127.0.0.1")) as client:
            answers = []
            for path in paths:
                response = await client.get(path)
                answers.append((response.status, dict(response.headers), await response.text()))
            await page.stop()
            return answers

    return asyncio.run(scenario())


def _tied() -> PTable:
    return playing("queens-guards").buttons("yes").choose("Tie: agreed")


def test_no_card_before_the_monitor_confirms_the_result() -> None:
    (status, _, body), (_, _, state) = _read(_tied(), "/card", "/api/state")
    assert status == 404
    assert body.count("\n") == 0 and "no card to print" in body
    assert '"card":false' in state


def test_the_confirmed_game_s_card_is_served_and_the_page_links_to_it() -> None:
    (status, headers, card), (_, _, state), (_, _, index) = _read(
        _tied().buttons("yes"), "/card", "/api/state", "/"
    )
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "Queens &amp; Guards (30 min)" in card and "Player B's signature" in card
    assert headers["Content-Security-Policy"] == CARD_POLICY  # its inline style, nothing else
    assert '"card":true' in state
    assert 'href="/card"' in index


def test_other_pages_keep_the_strict_policy() -> None:
    ((_, headers, _),) = _read(_tied().buttons("yes"), "/api/state")
    assert "unsafe-inline" not in headers["Content-Security-Policy"]


@pytest.mark.parametrize(("layout", "pages"), [(Layout.PAGES, 2), (Layout.HALVES, 1)])
def test_each_pentathlete_s_card_prints_on_a_page_or_both_on_one_a4_or_letter(
    tmp_path: Path, layout: Layout, pages: int
) -> None:
    """Rulebook: "sign their own score card": a card per Pentathlete, a page each, or both on
    one page cut in two, on A4 and on Letter, as chromium prints them (R788)."""
    source = tmp_path / "card.html"
    heading = Heading("Spring Open", "2026-04-18", "III", "2", "7", "Mo Reyes")
    source.write_text(
        card_html(
            record(replay_log(GAME_LOG)),
            names={"A": "Ann Lee", "B": "Ben Cho"},
            heading=heading,
            layout=layout,
        ),
        encoding="utf-8",
    )

    async def printed() -> list[bytes]:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            page = await browser.new_page()
            await page.goto(source.as_uri())
            pdfs = [await page.pdf(format=size) for size in ("A4", "Letter")]
            await browser.close()
            return pdfs

    for pdf in asyncio.run(printed()):
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == pages  # page objects, not /Pages


def test_the_page_shows_the_link_in_a_browser_once_the_game_is_over(tmp_path: Path) -> None:
    shot = tmp_path / "page.png"

    async def seen(table: PTable) -> tuple[bool, str]:
        page = TablePage(listen("127.0.0.1", 0))
        page.publish(table.controller, table.controller.view(), saved=True)
        async with TestServer(make_app(page), host="127.0.0.1") as server:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                phone = await browser.new_page(viewport=PHONE)
                await phone.goto(str(server.make_url("/")))
                await expect(phone.locator("#connection")).to_contain_text("Live", timeout=WAIT_MS)
                visible = await phone.locator("#card-link").is_visible()
                card = ""
                if visible:
                    await phone.screenshot(path=str(shot), full_page=True)
                    async with phone.expect_popup() as opened:
                        await phone.click("#card-link a")
                    popup = await opened.value
                    card = await popup.locator("h1").first.inner_text()
                await browser.close()
            await page.stop()
            return visible, card

    assert asyncio.run(seen(_tied())) == (False, "")
    assert asyncio.run(seen(_tied().buttons("yes"))) == (
        True,
        "Mathematics Pentathlon: Official Score Card of Player A",
    )


def test_the_table_s_card_prints_the_date_of_play_and_the_monitor_in_a_browser(
    tmp_path: Path,
) -> None:
    """Rulebook: the card names the "date" and has "signature lines for the player and the
    monitor": the daemon's own ``/card`` (its journal's date of the confirmation, R819; the
    configured monitor), printed by chromium on A4, a card a page; the first page as a PNG."""
    confirmed = datetime(2026, 4, 18, 15, 0, tzinfo=UTC)
    daemon = page_daemon(
        table_settings(game="queens-guards"),
        tmp_path / "journal.db",
        wall=lambda: wall_text(confirmed),
    )
    assert daemon.page is not None
    daemon.page.monitor = "Mo Reyes"  # [pentathlon] monitor = "Mo Reyes"
    pdf = tmp_path / "card.pdf"

    async def scenario() -> tuple[list[str], list[str]]:
        async with running(daemon) as base, async_playwright() as playwright:
            await choose(daemon, "A names")
            await buttons(daemon, "no", "yes")
            await choose(daemon, "Tie: agreed")
            await buttons(daemon, "yes")
            await until(lambda: daemon.page is not None and daemon.page.card is not None, "a card")
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            page = await browser.new_page()
            await page.goto(base + "card")
            cells = await page.locator(".heading td").all_inner_texts()
            signatures = await page.locator(".signatures div").all_inner_texts()
            pdf.write_bytes(await page.pdf(format="A4"))
            await browser.close()
        return cells, signatures

    cells, signatures = asyncio.run(scenario())
    assert cells.count("Date\n2026-04-18") == 2
    assert signatures.count("Game Monitor's signature: Mo Reyes") == 2
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes())) == 2
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(tmp_path / "card"),
        ],
        check=True,
    )
    assert (tmp_path / "card.png").stat().st_size > 10_000


# --- the longest cards stay on their page (R841) -------------------------------------------------

LONG_HEADING = Heading(LONG_LINE, "2026-04-18", LONG_LINE, "99", "999", LONG_LINE)
PRINTABLE_A4_PX = 703  # 210 mm less the 12 mm margins, at the browser's 96 px an inch


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


async def _printed(
    pages: list[tuple[Path, str]],
) -> list[tuple[int, bool]]:
    """Each page printed as chromium prints it (A4, Letter): its page count, and whether the
    page is as wide as the paper's printable width (nothing overflows to the right)."""
    answers = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        page = await browser.new_page(viewport={"width": PRINTABLE_A4_PX, "height": 900})
        await page.emulate_media(media="print")
        for source, size in pages:
            await page.goto(source.as_uri())
            fits = await page.evaluate(
                "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            )
            answers.append((_pages(await page.pdf(format=size)), fits))
        await browser.close()
    return answers


def _long_card(tmp_path: Path, challenges: int, layout: Layout = Layout.PAGES) -> Path:
    source = tmp_path / f"card-{challenges}-{layout}.html"
    game = record(replay_log(long_game_log(challenges)))
    html = card_html(game, names=LONG_NAMES, heading=LONG_HEADING, layout=layout)
    source.write_text(html, encoding="utf-8")
    return source


def test_every_card_stays_on_its_page_up_to_60_challenges_and_60_character_names(
    tmp_path: Path,
) -> None:
    """Rulebook: "The Score Card is THE ONLY Official Record of a Pentathlete's score ... sign
    their own score card": one page each, A4 and Letter, however long the game's record: 60
    challenges ruled three times each, names, event, division and monitor of 60 characters with
    no space to break at (R841); nothing runs off the page's right edge."""
    counts = (0, 2, 4, 6, 10, 15, 25, 40, 50, 60)
    jobs = [(_long_card(tmp_path, n), size) for n in counts for size in ("A4", "Letter")]
    printed = asyncio.run(_printed(jobs))
    for (source, size), (pages, fits) in zip(jobs, printed, strict=True):
        assert (pages, fits) == (2, True), f"{source.name} on {size}"


def test_halves_too_long_for_half_a_page_print_a_card_a_page(tmp_path: Path) -> None:
    """R841: both cards of 60 challenges do not fit half a page each legibly: each prints on a
    page of its own; a short game's halves still share one page."""
    jobs = [
        (_long_card(tmp_path, 60, Layout.HALVES), "Letter"),
        (_long_card(tmp_path, 2, Layout.HALVES), "Letter"),
    ]
    assert [pages for pages, _ in asyncio.run(_printed(jobs))] == [2, 1]


def test_the_longest_card_s_pages_as_pictures(tmp_path: Path) -> None:
    """What the guide shows: the 60-challenge card printed on Letter, its pages counted by
    ``pdfinfo`` and turned into PNGs by ``pdftoppm`` (poppler-utils), one per card."""
    source = _long_card(tmp_path, 60)

    async def printed() -> bytes:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            page = await browser.new_page()
            await page.goto(source.as_uri())
            pdf = await page.pdf(format="Letter")
            await browser.close()
            return pdf

    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(asyncio.run(printed()))
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True)
    assert re.search(r"^Pages:\s+2$", info.stdout, re.MULTILINE)
    subprocess.run(["pdftoppm", "-png", "-r", "50", str(pdf), str(tmp_path / "long")], check=True)
    assert sorted(p.name for p in tmp_path.glob("long-*.png")) == ["long-1.png", "long-2.png"]
