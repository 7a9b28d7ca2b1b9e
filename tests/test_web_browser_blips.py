"""A phone's moment off the Wi-Fi (issue 25's attack, finding 8): what the phone holds or waits
for is the table's, and a fetch of ``/api/me`` that fails changes nothing of it. It showed the
join form instead: a waiting phone lost the number the dealer was to read, a seated one its seat
and its entry form, until something else changed at the table."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import Page, Route, async_playwright, expect

from firmware_py.table.daemon import TableDaemon
from tests.browser_helpers import (
    CHROMIUM,
    PHONE,
    WAIT_MS,
    ask_for_place,
    dealer_confirms,
    join,
    page_daemon,
    running,
)
from tests.guesstimation_table_helpers import NAMES, settings

Scenario = Callable[[Page, TableDaemon, str], Awaitable[None]]


def on_a_phone(tmp_path: Path, scenario: Scenario) -> None:
    daemon = page_daemon(settings(players=list(NAMES), deck="sample"), tmp_path / "journal.db")

    async def run() -> None:
        async with running(daemon) as base, async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                phone = await (await browser.new_context(viewport=PHONE)).new_page()
                await scenario(phone, daemon, base)
            finally:
                await browser.close()

    asyncio.run(run())


async def off_the_wifi(phone: Page) -> None:
    """Every ``/api/me`` the phone asks fails as a dropped connection does."""

    async def dropped(route: Route) -> None:
        await route.abort("internetdisconnected")

    await phone.route("**/api/me", dropped)


def test_a_waiting_phone_keeps_its_number_through_a_moment_off_the_wifi(tmp_path: Path) -> None:
    async def scenario(phone: Page, daemon: TableDaemon, base: str) -> None:
        assert daemon.page is not None
        waiting = await ask_for_place(phone, base, "B", daemon.page.access.code)
        await off_the_wifi(phone)
        await phone.wait_for_timeout(2500)  # the waiting phone asks /api/me every second
        await expect(phone.locator("#waiting")).to_be_visible()
        await expect(phone.locator("#waiting")).to_have_text(waiting)
        await phone.unroute("**/api/me")
        await dealer_confirms(daemon, waiting.removeprefix("Number ").split(":")[0])
        await expect(phone.locator("#seated")).to_be_visible(timeout=WAIT_MS)

    on_a_phone(tmp_path, scenario)


def test_a_seated_phone_keeps_its_seat_on_show_through_a_moment_off_the_wifi(
    tmp_path: Path,
) -> None:
    async def scenario(phone: Page, daemon: TableDaemon, base: str) -> None:
        assert daemon.page is not None
        await join(phone, daemon, base, "B")
        await off_the_wifi(phone)
        await phone.evaluate("refreshMe()")  # as the page does when the table's access changes
        await phone.wait_for_timeout(500)
        await expect(phone.locator("#seated")).to_be_visible()
        await expect(phone.locator("#join")).to_be_hidden()

    on_a_phone(tmp_path, scenario)
