"""The page's inputs besides the guess, in a real browser (Playwright on Debian's chromium):
a GeoPlunge team types its Border-Up groups and its State IQ state, the Pentathlon's Game
Monitor types a chip's points; each judged by the rules core, each refusal one line on the
phone that changes nothing on the table."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

from firmware_py.families.geoplunge.options import table_settings as geoplunge
from firmware_py.families.pentathlon.flows.page import MONITOR
from firmware_py.families.pentathlon.options import table_settings as pentathlon
from firmware_py.table.daemon import TableDaemon
from rules.actions import encode
from rules.geoplunge.games.state_iq import StateIQGuess
from rules.geoplunge.teams import Team
from tests.browser_helpers import (
    CHROMIUM,
    PHONE,
    WAIT_MS,
    ask_for_monitor,
    buttons,
    choose,
    join,
    join_as_monitor,
    page_daemon,
    press,
    running,
    send,
    until,
)
from tests.web_helpers import until_pressable

FAST_COUNT = 0.05  # seconds per number of the dealer's 5-count


@contextlib.asynccontextmanager
async def phone_at(daemon: TableDaemon, base: str, seat: str) -> AsyncIterator[Page]:
    """A phone (a browser of its own) joined at ``seat`` with the code on the OLED."""
    assert daemon.page is not None
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            phone = await (await browser.new_context(viewport=PHONE)).new_page()
            if seat == MONITOR:
                await join_as_monitor(phone, daemon, base)
            else:
                await join(phone, daemon, base, seat)
            yield phone
        finally:
            await browser.close()


def test_a_team_names_its_state_iq_guess_and_the_dealer_judges_it(tmp_path: Path) -> None:
    daemon = page_daemon(geoplunge(game=2, count_cadence=FAST_COUNT), tmp_path / "journal.db")

    async def scenario() -> tuple[str, str, str]:
        async with running(daemon) as base:
            await choose(daemon, "Team B")  # the draw: B is closer to 1 and guesses first
            await buttons(daemon, "count")
            await until(lambda: daemon.controller.prompt.key == "iq/power", "the Power card")
            await buttons(daemon, "yes")  # clue order ABC
            async with phone_at(daemon, base, "B") as phone:
                await expect(phone.locator("#entry-label")).to_have_text(
                    "Team B's guess 1: the state you name", timeout=WAIT_MS
                )
                await send(phone, "Kentuky")
                await expect(phone.locator("#error")).to_be_visible(timeout=WAIT_MS)
                refused = await phone.locator("#error").inner_text()
                unchanged = daemon.controller.prompt.text
                await send(phone, "Texas")
                await expect(phone.locator("#facts")).to_contain_text(
                    "Team B names Texas (TX) on guess 1", timeout=WAIT_MS
                )
                asked = daemon.controller.prompt.text
                await buttons(daemon, "yes")
        return refused, unchanged, asked

    refused, unchanged, asked = asyncio.run(scenario())
    assert refused == (
        "unknown state 'Kentuky': expected a state name or postal code; did you mean Kentucky?"
    )
    assert unchanged == "B guess 1, clue A: right?"
    assert asked == "B guess 1: TX\nright?"
    assert daemon.controller.log[-1] == StateIQGuess(Team.B, correct=True, state="TX")


def test_a_shouting_team_types_its_border_up_groups(tmp_path: Path) -> None:
    daemon = page_daemon(geoplunge(game=1, count_cadence=FAST_COUNT), tmp_path / "journal.db")

    async def scenario() -> list[str]:
        async with running(daemon) as base:
            await buttons(daemon, "count")
            await until(lambda: daemon.controller.prompt.key == "bu/race", "the race")
            await buttons(daemon, "go")
            await press(daemon, "A.shout")
            await until(lambda: daemon.controller.prompt.key.startswith("bu/three_o"), "3-O")
            await buttons(daemon, "no")
            async with phone_at(daemon, base, "A") as phone:
                await send(phone, "KS,MO,KY,WV,PA / MD,VA,NC")
                await expect(phone.locator("#facts")).to_contain_text(
                    "The rules say: valid", timeout=WAIT_MS
                )
                facts = await phone.locator("#facts").inner_text()
        return facts.split("\n")

    facts = asyncio.run(scenario())
    assert facts[:2] == ["Team A shows: KS, MO, KY, WV, PA / MD, VA, NC", "The rules say: valid"]
    assert daemon.controller.prompt.text == "Team A: rules say\nVALID. Agree?"


def test_a_shouting_team_types_its_dashing_states_cards(tmp_path: Path) -> None:
    daemon = page_daemon(geoplunge(game=3, count_cadence=FAST_COUNT), tmp_path / "journal.db")

    async def scenario() -> tuple[str, str]:
        async with running(daemon) as base:
            await buttons(daemon, "count")
            await until(lambda: daemon.controller.prompt.key == "ds/race1", "race 1")
            await buttons(daemon, "go")
            await press(daemon, "B.shout")
            await until(lambda: daemon.controller.prompt.key == "ds/met1/B", "B's verdict")
            async with phone_at(daemon, base, "B") as phone:
                await send(phone, "AL, AK, AZ")
                await expect(phone.locator("#error")).to_be_visible(timeout=WAIT_MS)
                refused = await phone.locator("#error").inner_text()
                await send(phone, "AK, AL, AZ, AR, CA, CO")
                await expect(phone.locator("#facts")).to_contain_text(
                    "out of order", timeout=WAIT_MS
                )
                facts = await phone.locator("#facts").inner_text()
        return refused, facts

    refused, facts = asyncio.run(scenario())
    assert refused == "Team B laid down 3 cards: expected 6"
    assert facts.split("\n") == [
        "Team B laid down: AK, AL, AZ, AR, CA, CO",
        "The rules say: out of order (AK before AL, sorting by state name, A to Z)",
    ]
    assert daemon.controller.prompt.text == "Team B: rules say\nOUT OF ORDER. Agree?"


def test_the_game_monitor_types_a_chip_s_points_on_the_page(tmp_path: Path) -> None:
    daemon = page_daemon(pentathlon(game="contig-60"), tmp_path / "journal.db")

    async def scenario() -> tuple[str, str, str]:
        async with running(daemon) as base:
            await buttons(daemon, "yes", "next", "yes")  # A tossed 1, B 2: A begins
            async with phone_at(daemon, base, "monitor") as phone:
                seated = await phone.locator("#seated").inner_text()
                await buttons(daemon, "yes")  # the turn's menu
                await choose(daemon, "Chip placed")
                await expect(phone.locator("#entry-label")).to_have_text(
                    "Points the chip scores (0 to 999)", timeout=WAIT_MS
                )
                await send(phone, "lots")
                await expect(phone.locator("#error")).to_be_visible(timeout=WAIT_MS)
                refused = await phone.locator("#error").inner_text()
                await send(phone, "37")
                await expect(phone.locator("#seats")).to_contain_text("23", timeout=WAIT_MS)
                scores = await phone.locator("#seats").inner_text()
        return seated, refused, scores

    seated, refused, scores = asyncio.run(scenario())
    assert "You are the Game Monitor." in seated
    assert refused == "Points the chip scores 'lots': expected a whole number from 0 to 999"
    assert scores.split("\n") == ["A", "23", "B", "60"]
    assert encode(daemon.controller.log[-1]) == {"action": "pentathlon.contig.play", "score": 37}


def test_the_monitor_confirms_a_phone_at_the_console(tmp_path: Path) -> None:
    """The phone and the OLED show one number; until COUNT is pressed the phone is refused."""
    daemon = page_daemon(pentathlon(game="contig-60"), tmp_path / "journal.db")

    async def scenario() -> tuple[str, str, str, str]:
        assert daemon.page is not None
        async with running(daemon) as base, async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await buttons(daemon, "yes", "next", "yes")  # A tossed 1, B 2: A begins
                await buttons(daemon, "yes")  # the turn's menu
                await choose(daemon, "Chip placed")
                waiting = await ask_for_monitor(phone, base, daemon.page.access.code)
                # what the daemon hands the OLED: the screen with the page's footer
                footer = daemon.page.on_oled(daemon.controller.view().screen, 0.0).footer
                number = waiting.removeprefix("Number ").split(":")[0]
                await until_pressable(daemon.page.access, number)
                await buttons(daemon, "count")
                await expect(phone.locator("#seated")).to_be_visible(timeout=WAIT_MS)
                seated = await phone.locator("#seated").inner_text()
                await send(phone, "37")
                await expect(phone.locator("#seats")).to_contain_text("23", timeout=WAIT_MS)
                scores = await phone.locator("#seats").inner_text()
            finally:
                await browser.close()
        return waiting, footer, seated, scores

    waiting, footer, seated, scores = asyncio.run(scenario())
    number = footer.removeprefix("COUNT: monitor ")
    assert waiting == (
        f"Number {number}: show this number to the dealer: this phone can play once the dealer "
        f"presses COUNT while the table's display shows {number} too"
    )
    assert "You are the Game Monitor." in seated
    assert scores.split("\n") == ["A", "23", "B", "60"]
