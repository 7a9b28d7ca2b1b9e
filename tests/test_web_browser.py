"""The table's page in a real browser (Playwright driving Debian's chromium): two phones join
with the code on the OLED and send their guesses at once; nobody sees a guess before every
guess is in, then both phones show them all, and the answer as soon as the dealer reveals it.

The daemon (MockFactory pins, a journal) and the browser share one asyncio loop; the page
listens on a free port of 127.0.0.1 and stops with the daemon.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, CookieJar, TCPConnector
from playwright.async_api import Page, async_playwright, expect

from firmware_py.table.daemon import TableDaemon
from firmware_py.table.web.app import CSRF_HEADER
from firmware_py.table.web.page import STREAM_SHARE
from tests.browser_helpers import CHROMIUM, PHONE, WAIT_MS, join, press
from tests.test_web_daemon import guesstimation_daemon
from tests.web_helpers import until_pressable


async def to_guessing(daemon: TableDaemon) -> None:
    """The dealer's GO until the question is rolled, then YES reads it."""
    while daemon.controller.session.phase != "guessing":
        phase = daemon.controller.session.phase
        await press(daemon, "console.yes" if phase == "question" else "console.go")


async def send_guess(page: Page, value: str) -> None:
    await page.fill("#entry-value", value)
    await page.click("#entry-send")


def test_two_phones_guess_at_once_and_see_the_guesses_only_when_all_are_in(
    tmp_path: Path,
) -> None:
    daemon = guesstimation_daemon(tmp_path / "journal.db")
    assert daemon.page is not None
    base = f"http://127.0.0.1:{daemon.page.port}/"
    shot = tmp_path / "reveal.png"

    async def scenario() -> dict[str, Any]:
        daemon.start_controller(asyncio.get_running_loop().time())
        task = asyncio.create_task(daemon.run())
        while not hasattr(daemon, "leds"):
            await asyncio.sleep(0.01)
        seen: dict[str, Any] = {}
        try:
            await to_guessing(daemon)
            assert daemon.page is not None
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                ann_phone = await browser.new_context(viewport=PHONE)  # own cookies each
                bo_phone = await browser.new_context(viewport=PHONE)
                ann, bo = await ann_phone.new_page(), await bo_phone.new_page()
                await join(ann, daemon, base, "A")
                await join(bo, daemon, base, "B")
                await expect(ann.locator("#entry-label")).to_have_text("Your guess")

                async with ClientSession(
                    cookie_jar=CookieJar(unsafe=True)
                ) as cy:  # Cy's guess, from a third phone
                    origin = {"Origin": base.rstrip("/")}
                    code = daemon.page.access.code
                    asked = await cy.post(
                        f"{base}api/join", json={"code": code, "seat": "C"}, headers=origin
                    )
                    number = (await asked.json())["number"]
                    await until_pressable(daemon.page.access, number)
                    await press(daemon, "console.count")  # the dealer confirms Cy's phone
                    token = (await (await cy.get(f"{base}api/me")).json())["csrf"]
                    sent = await cy.post(
                        f"{base}api/entry",
                        json={"name": "guess", "value": "1972"},
                        headers={CSRF_HEADER: token, **origin},
                    )
                    assert sent.status == 200
                for phone in (ann, bo):
                    await expect(phone.locator("#facts")).to_contain_text(
                        "Guesses in: Cy", timeout=WAIT_MS
                    )
                seen["before"] = [await phone.content() for phone in (ann, bo)]

                await asyncio.gather(send_guess(ann, "1968"), send_guess(bo, "1969"))
                for phone in (ann, bo):
                    await expect(phone.locator("#rows")).to_be_visible(timeout=WAIT_MS)
                seen["rows"] = [await phone.locator("#body").inner_text() for phone in (ann, bo)]

                await press(daemon, "console.yes")  # the dealer reveals the answer
                for phone in (ann, bo):
                    await expect(phone.locator("#facts")).to_contain_text(
                        "the answer is 1969", timeout=WAIT_MS
                    )
                await expect(bo.locator("#big")).to_have_text("B +3", timeout=WAIT_MS)
                await bo.screenshot(path=str(shot), full_page=True)
                seen["errors"] = [await phone.locator("#error").is_visible() for phone in (ann, bo)]
                await browser.close()
        finally:
            daemon.stop()
            await task
        return seen

    seen = asyncio.run(scenario())
    for html in seen["before"]:
        assert "1972" not in html  # Cy's guess: hidden until every guess is in
    for rows in seen["rows"]:
        assert sorted(rows.split("\n")) == ["Ann\t1968", "Bo\t1969", "Cy\t1972"]
    assert seen["errors"] == [False, False]
    assert shot.stat().st_size > 10_000


def test_a_page_refused_a_stream_says_why_polls_and_goes_live_once_one_is_free(
    tmp_path: Path,
) -> None:
    """Issue 19, finding 3: a client held every stream; a page loaded meanwhile said "Lost the
    table: reconnecting..." forever, even after it left (R767)."""
    daemon = guesstimation_daemon(tmp_path / "journal.db")
    assert daemon.page is not None
    base = f"http://127.0.0.1:{daemon.page.port}/"
    seen: dict[str, str] = {}

    async def scenario() -> None:
        daemon.start_controller(asyncio.get_running_loop().time())
        task = asyncio.create_task(daemon.run())
        while not hasattr(daemon, "leds"):
            await asyncio.sleep(0.01)
        hogs = [
            ClientSession(connector=TCPConnector(local_addr=(f"127.0.0.{n}", 0)))
            for n in range(2, 2 + STREAM_SHARE.total // STREAM_SHARE.per_address)
        ]
        try:
            held = [
                await hog.get(f"{base}api/events", headers={"Accept": "text/event-stream"})
                for hog in hogs
                for _ in range(STREAM_SHARE.per_address)
            ]
            assert all(stream.status == 200 for stream in held)
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await phone.goto(base)
                connection = phone.locator("#connection")
                await expect(connection).to_contain_text("Not live", timeout=WAIT_MS)
                seen["refused"] = await connection.inner_text()
                await expect(phone.locator("#lines")).to_contain_text("Ann", timeout=WAIT_MS)
                await press(daemon, "console.go")  # Ann rolls: the polling page follows
                await expect(phone.locator("#lines")).to_contain_text("Bo", timeout=WAIT_MS)
                for stream in held:
                    stream.close()
                await press(daemon, "console.go")  # a change: the closed streams are noticed
                await expect(connection).to_have_text(
                    "Live: this page follows the table.", timeout=3 * WAIT_MS
                )
                await browser.close()
        finally:
            for hog in hogs:
                await hog.close()
            daemon.stop()
            await task

    asyncio.run(scenario())
    assert seen["refused"].startswith(
        "Not live: this table serves as many live pages as it can (64): try again later. "
        "Checking the table every 3 s; live again in "
    )
