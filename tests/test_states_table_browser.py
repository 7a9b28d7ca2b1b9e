"""STATES's page entries in a real browser (Playwright on Debian's chromium), each phone a
browser of its own at 390x844: a claimant types the four states after a shout and the OLED and
the page show the rules' answer; a bad claim is one line on the phone that changes nothing; a
knocker types the rulebook's hand worth 19 and the other phone learns none of it until the
knock is judged. The screenshot of a phone entering a claim is docs/web/states-claim.png."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, FloatRect, Page, async_playwright, expect

from firmware_py.table.controller import TableSettings
from firmware_py.table.daemon import TableDaemon
from rules.states.table_actions import BestTotal, KnockAtTable
from rules.states.table_game import TableGame
from tests.browser_helpers import (
    CHROMIUM,
    PHONE,
    WAIT_MS,
    buttons,
    choose,
    join,
    page_daemon,
    press,
    running,
    send,
    until,
)

EXAMPLE_DECK = Path("docs/states/example-deck.toml")


def _daemon(tmp_path: Path, deck: str | None = None) -> TableDaemon:
    """Ann and Bo at seats A and B; the shipped deck unless one is named."""
    options: dict[str, Any] = {"players": ["Ann", "Bo"], "deck": deck}
    settings = TableSettings(seats=("A", "B"), family="states", options=options)
    return page_daemon(settings, tmp_path / "journal.db")


@contextlib.asynccontextmanager
async def _browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser
        finally:
            await browser.close()


async def _phone(browser: Browser, daemon: TableDaemon, base: str, seat: str) -> Page:
    assert daemon.page is not None
    phone = await (await browser.new_context(viewport=PHONE)).new_page()
    await join(phone, daemon, base, seat)
    return phone


def _game(daemon: TableDaemon) -> TableGame:
    session = daemon.controller.session
    assert isinstance(session, TableGame)
    return session


async def _shout(daemon: TableDaemon, seat: str) -> None:
    await press(daemon, f"{seat}.shout")
    await until(lambda: "/claim/" in daemon.controller.prompt.key, f"{seat}'s claim")


def test_a_claim_typed_after_a_shout_shows_the_rules_answer(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)  # the shipped deck: claims need no colours or values
    shot = tmp_path / "states-claim.png"

    async def scenario() -> tuple[str, list[str]]:
        async with running(daemon) as base, _browser() as browser:
            await choose(daemon, "Ann")
            ann = await _phone(browser, daemon, base, "A")
            await _shout(daemon, "A")
            await expect(ann.locator("#entry-label")).to_have_text(
                "Your four states, e.g. UT,CO,KS,OK", timeout=WAIT_MS
            )
            await ann.fill("#entry-value", "UT,CO,KS,OK")
            await ann.screenshot(path=str(shot), full_page=True)
            await ann.click("#entry-send")
            await expect(ann.locator("#lines")).to_contain_text("rules say YES", timeout=WAIT_MS)
            facts = (await ann.locator("#facts").inner_text()).split("\n")
        return daemon.controller.prompt.text, facts

    oled, facts = asyncio.run(scenario())
    assert oled == "Ann\nrules say YES. Agree?"
    assert "Ann shows UT, CO, KS, OK: the rules say: UT, CO, KS and OK connect: UT-CO-KS-OK" in (
        facts
    )
    assert shot.stat().st_size > 10_000


def test_a_bad_claim_is_one_line_on_the_phone_and_changes_nothing(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)

    async def scenario() -> tuple[str, str, str, str]:
        async with running(daemon) as base, _browser() as browser:
            await choose(daemon, "Ann")
            ann = await _phone(browser, daemon, base, "A")
            await _shout(daemon, "A")
            before = (daemon.controller.prompt.key, daemon.controller.prompt.text)
            await expect(ann.locator("#entry-label")).to_be_visible(timeout=WAIT_MS)
            await send(ann, "UT,XX")
            await expect(ann.locator("#error")).to_be_visible(timeout=WAIT_MS)
            refused = await ann.locator("#error").inner_text()
            after = (daemon.controller.prompt.key, daemon.controller.prompt.text)
            assert after == before
            lines = await ann.locator("#lines").inner_text()
        return refused, before[1], after[1], lines

    refused, before, after, lines = asyncio.run(scenario())
    assert refused == "2 state(s) shown: expected 4 states"
    assert before == after == "Ann\nSTATES! Connect?"
    assert "rules say" not in lines
    assert _game(daemon).hand is not None and _game(daemon).hand.claims == ()  # type: ignore[union-attr]


def test_a_knock_typed_on_the_phone_is_worth_19_and_hidden_until_judged(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"  # a complete deck file (the made-up example's values)
    deck.write_text(EXAMPLE_DECK.read_text())
    daemon = _daemon(tmp_path, str(deck))
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        async with running(daemon) as base, _browser() as browser:
            await choose(daemon, "Ann")
            ann = await _phone(browser, daemon, base, "A")
            bo = await _phone(browser, daemon, base, "B")
            await press(daemon, "B.stand")
            await expect(bo.locator("#entry-label")).to_contain_text(
                "Your four cards", timeout=WAIT_MS
            )
            await send(bo, "DE,OR,NM,water")
            await expect(ann.locator("#facts")).to_contain_text(
                "Bo knocked (last round)", timeout=WAIT_MS
            )
            seen["before"] = await ann.content()
            await buttons(daemon, "go")  # the last round is over: nobody connected
            await expect(ann.locator("#entry-label")).to_contain_text(
                "Your four cards", timeout=WAIT_MS
            )
            await send(ann, "RI,CT,ID,water")
            await expect(ann.locator("#facts")).to_contain_text("The knock:", timeout=WAIT_MS)
            seen["after"] = await ann.locator("#facts").inner_text()

    asyncio.run(scenario())
    assert "NM" not in seen["before"] and "water" not in seen["before"].lower()
    assert "The knock: Ann 19, Bo 19: Bo won" in seen["after"]  # the knocker wins a tie
    knocks = [action for action in daemon.controller.log if isinstance(action, KnockAtTable)]
    assert knocks == [KnockAtTable("Bo", cards=("DE", "OR", "NM", "water"))]
    assert isinstance(daemon.controller.log[-1], BestTotal)


def test_a_refusal_at_a_four_player_table_is_beside_the_entry_on_a_phone_s_screen(
    tmp_path: Path,
) -> None:
    """Issue 19, finding 6: at a 4-player table the refusal was drawn at y=832 of 844, under
    the fold; it belongs beside the entry (R772)."""
    options: dict[str, Any] = {"players": ["Ann", "Bo", "Cy", "Di"], "deck": None}
    settings = TableSettings(seats=("A", "B", "C", "D"), family="states", options=options)
    daemon = page_daemon(settings, tmp_path / "journal.db")

    async def scenario() -> tuple[str, FloatRect, FloatRect]:
        async with running(daemon) as base, _browser() as browser:
            await choose(daemon, "Ann")
            ann = await _phone(browser, daemon, base, "A")
            await _shout(daemon, "A")
            await expect(ann.locator("#entry-label")).to_be_visible(timeout=WAIT_MS)
            await send(ann, "UT,CO,KS,Texsa")
            await expect(ann.locator("#error")).to_be_visible(timeout=WAIT_MS)
            error = await ann.locator("#error").bounding_box()
            entry = await ann.locator("#entry-value").bounding_box()
            assert error is not None and entry is not None
            return await ann.locator("#error").inner_text(), error, entry

    words, error, entry = asyncio.run(scenario())
    assert "Texas" in words
    assert error["y"] + error["height"] <= PHONE["height"]  # on the first screen
    assert 0 <= error["y"] - (entry["y"] + entry["height"]) <= 60  # right under the entry box
