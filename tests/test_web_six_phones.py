"""Six phones at one Guesstimation table, in a real browser (Playwright on Debian's chromium),
two of them misbehaving (issue 19): Eve joins over Ann's seat, Fay replays Ann's request and
holds as many event streams as the table gives her. The four honest phones play the game to
its end, live, see only what they may, and every attack is refused in words.

The daemon (MockFactory pins, a journal) and the browser share one asyncio loop; the page
listens on 127.0.0.1 and Fay's script comes from 127.0.0.2, another device as the table sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, CookieJar, TCPConnector
from playwright.async_api import Browser, Page, Request, async_playwright, expect

from firmware_py.table.controller import TableSettings
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.web.app import CSRF_HEADER
from firmware_py.table.web.page import STREAM_SHARE
from rules.guesstimation.actions import RecordGuess
from tests.browser_helpers import (
    CHROMIUM,
    PHONE,
    WAIT_MS,
    ask_for_place,
    buttons,
    join,
    page_daemon,
    running,
    send,
    until,
)
from tests.test_web_browser import to_guessing

PLAYERS = ("Ann", "Bo", "Cy", "Di", "Eve", "Fay")
SEATS = "ABCDEF"
GUESSES = {"A": "3", "B": "2.54", "C": "1", "D": "2", "E": "10", "F": "5"}
ANSWER = "2.54"  # without a deck: the dealer's, on the console (R766, R774)


def six_without_a_deck(journal: Path) -> TableDaemon:
    options: dict[str, Any] = {"players": list(PLAYERS), "deck": None, "finish": 3}
    return page_daemon(TableSettings(seats=tuple(SEATS), family="guesstimation", options=options),
                       journal)  # fmt: skip


async def fetch(phone: Page, path: str, body: Any, headers: dict[str, str]) -> dict[str, Any]:
    """A POST the phone's own page makes (its cookie, its origin): status and answer."""
    answer: dict[str, Any] = await phone.evaluate(
        """async ([path, body, headers]) => {
            const response = await fetch(path, {method: "POST", credentials: "same-origin",
                headers: {"Content-Type": "application/json", ...headers},
                body: JSON.stringify(body)});
            return {status: response.status, body: await response.json()};
        }""",
        [path, body, headers],
    )
    return answer


async def dial_decimal(daemon: TableDaemon, text: str) -> None:
    """The dealer enters a decimal on the console: the whole part, GO and a digit a place."""
    whole, _, fraction = text.partition(".")
    value = int(whole)
    await step_to(daemon, value)
    for digit in fraction:
        await buttons(daemon, "go")
        await until(lambda: "." in daemon.controller.view().screen.big, "a decimal place")
        value = value * 10 + int(digit)
        await step_to(daemon, value)
    await buttons(daemon, "yes")


async def step_to(daemon: TableDaemon, value: int) -> None:
    while daemon.controller.number != value:
        await buttons(daemon, "next" if daemon.controller.number < value else "no")


def test_six_phones_two_misbehaving_the_honest_play_to_the_end(tmp_path: Path) -> None:
    daemon = six_without_a_deck(tmp_path / "journal.db")
    said: dict[str, Any] = {}
    seen: dict[str, Any] = {}

    async def scenario(browser: Browser, base: str) -> None:
        assert daemon.page is not None
        code = daemon.page.access.code
        phones: dict[str, Page] = {}
        for seat in SEATS:  # each phone asks and the dealer confirms its number
            context = await browser.new_context(viewport=PHONE)
            phones[seat] = await context.new_page()
            await join(phones[seat], daemon, base, seat)
        ann, eve, fay = phones["A"], phones["E"], phones["F"]
        honest = [phones[seat] for seat in "ABCD"]

        # Fay's script, from another device, holds every stream the table gives one client
        script = ClientSession(
            cookie_jar=CookieJar(unsafe=True), connector=TCPConnector(local_addr=("127.0.0.2", 0))
        )
        events = {"Accept": "text/event-stream"}
        held = [await script.get(f"{base}api/events", headers=events)
                for _ in range(STREAM_SHARE.per_address)]  # fmt: skip
        refused = await script.get(f"{base}api/events", headers=events)
        said["streams"] = (await refused.content.readuntil(b"\n\n")).decode()
        for phone in honest:
            await expect(phone.locator("#connection")).to_have_text(
                "Live: this page follows the table."
            )

        # Eve asks for Ann's seat from a second browser: Ann's phone is warned, the dealer
        # never presses, and Eve's entries are refused
        thief = await (await browser.new_context(viewport=PHONE)).new_page()
        said["takeover"] = await ask_for_place(thief, base, "A", code)
        await expect(ann.locator("#seat-warning")).to_be_visible(timeout=WAIT_MS)
        said["warning"] = await ann.locator("#seat-warning").inner_text()
        said["thief_entry"] = await fetch(thief, "/api/entry", {"name": "guess", "value": "1"}, {})
        # and from her own seat's phone: one place per phone
        said["eve_asks"] = await fetch(eve, "/api/join", {"code": code, "seat": "A"}, {})

        await to_guessing(daemon)
        for phone in phones.values():
            await expect(phone.locator("#entry-label")).to_have_text("Your guess", timeout=WAIT_MS)

        # Ann guesses; Fay replays Ann's request, from her phone and from her script
        captured: list[Request] = []

        def keep(request: Request) -> None:  # Playwright calls a Python function, not a method
            captured.append(request)

        ann.on("request", keep)
        await send(ann, GUESSES["A"])
        await expect(ann.locator("#entry-done")).to_be_visible(timeout=WAIT_MS)
        sent = next(r for r in captured if r.url.endswith("/api/entry"))
        ann_csrf = await sent.header_value(CSRF_HEADER)
        assert ann_csrf is not None
        body = json.loads(sent.post_data or "{}")
        said["replay_phone"] = await fetch(fay, "/api/entry", body, {CSRF_HEADER: ann_csrf})
        for what, origin in (("replay_script", base.rstrip("/")),
                             ("replay_cross_site", "http://evil.example")):  # fmt: skip
            headers = {CSRF_HEADER: ann_csrf, "Origin": origin}
            replay = await script.post(f"{base}api/entry", json=body, headers=headers)
            said[what] = (replay.status, (await replay.json())["error"])

        for seat in "BCDEF":  # the others guess; nobody sees a guess before the last is in
            seen.setdefault("before", []).append(await ann.content())
            await send(phones[seat], GUESSES[seat])
        for phone in honest:
            await expect(phone.locator("#rows")).to_be_visible(timeout=WAIT_MS)

        await dial_decimal(daemon, ANSWER)
        for phone in honest:
            await expect(phone.locator("#facts")).to_contain_text(
                "Bo has won the game", timeout=WAIT_MS
            )
        seen["honest"] = [await phone.content() for phone in honest]
        seen["errors"] = [await phone.locator("#error").is_visible() for phone in honest]
        seen["seats"] = [await phone.locator("#seated").is_visible() for phone in honest]
        for stream in held:
            stream.close()
        refused.close()
        await script.close()

    async def run() -> None:
        async with running_with_browser(daemon) as (browser, base):
            await scenario(browser, base)

    asyncio.run(run())
    assert "event: refused" in said["streams"] and (
        "too many live pages open from this phone (8 at most)" in said["streams"]
    )
    assert said["takeover"].startswith("Number ") and "presses COUNT" in said["takeover"]
    assert said["warning"].startswith("Another phone is asking the dealer for this seat")
    assert said["thief_entry"]["status"] == 403
    assert said["thief_entry"]["body"]["error"].startswith("show this number to the dealer")
    assert said["eve_asks"] == {
        "status": 403,
        "body": {
            "error": "this phone has seat E already: one phone, one place; to change, leave "
            "seat E first"
        },
    }
    assert said["replay_phone"] == {
        "status": 403,
        "body": {"error": "this page is out of date: reload it, then try again"},
    }
    assert said["replay_script"][0] == 403
    assert said["replay_script"][1].startswith("this phone has no seat at this table")
    assert said["replay_cross_site"] == (
        403,
        "a change from another site is refused: use the table's own page",
    )
    for html in seen["before"]:  # only Ann's own guess could be on Ann's page before the reveal
        assert all(f">{GUESSES[s]}<" not in html for s in "BCDEF")
    code = daemon.page.access.code if daemon.page else ""
    for html in seen["honest"]:
        assert code not in html
    assert seen["errors"] == [False] * 4 and seen["seats"] == [True] * 4
    assert daemon.controller.session.champion == "Bo"
    guesses = [action for action in daemon.controller.log if isinstance(action, RecordGuess)]
    assert sorted(g.player for g in guesses) == sorted(PLAYERS)  # one each: no replay counted


@contextlib.asynccontextmanager
async def running_with_browser(daemon: TableDaemon) -> AsyncIterator[tuple[Browser, str]]:
    """The daemon running with its page, and a chromium to open phones in."""
    async with running(daemon) as base, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser, base
        finally:
            await browser.close()
