"""The seat queue as a dealer and a child meet it (issue 25, finding 6): a COUNT that gives
nothing says so on the OLED, a late one gives the number read (R942); a takeover of the Game
Monitor's place is said on the OLED before the press; two tables served from one host keep
their own seats."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, CookieJar
from aiohttp.test_utils import TestServer

from drivers.oled import render
from firmware_py.families.pentathlon.flows.page import MONITOR
from firmware_py.table.web.access import CODE_EVERY
from firmware_py.table.web.app import make_app
from firmware_py.table.web.page import NOTHING_GIVEN, NOTICE_FOR
from tests.oled_text import row_text
from tests.test_monitor_confirm_page import contig_60
from tests.web_helpers import LiveTable, Phone, serve

FOOTER_ROW = 54  # the OLED's footer: its last small row


def oled_footer(table: LiveTable) -> str:
    """The footer as the panel shows it: the frame rendered and read back."""
    screen = table.page.on_oled(table.controller.view().screen, table.t)
    return row_text(render(screen), FOOTER_ROW)


def at_a_cycle_s_start(table: LiveTable) -> None:
    """The clock moved to the start of the OLED's next cycle (a request asked now is on show
    at once, for its whole turn)."""
    table.t = math.ceil(table.t / CODE_EVERY + 0.01) * CODE_EVERY
    table.show()


def test_a_count_too_soon_for_the_number_on_show_says_nothing_given_on_the_oled(
    tmp_path: Path,
) -> None:
    table = LiveTable(tmp_path)

    async def scenario(client: Any) -> tuple[str, str, str, dict[str, Any]]:
        async with Phone(client) as phone:
            at_a_cycle_s_start(table)
            await phone.ask(table, "B")
            number = oled_footer(table)
            table.buttons("count")  # half a second after the number appeared
            said = oled_footer(table)
            table.t += NOTICE_FOR
            again = oled_footer(table)
            return number, said, again, await (await phone.get("/api/me")).json()

    number, said, again, me = serve(table, scenario)
    assert number == f"COUNT: seat B {me['number']}"
    assert (said, again) == (NOTHING_GIVEN, number)
    assert me["seat"] is None and me["pending"] == "B"  # nothing given: the dealer presses again
    table.close()


def test_a_count_pressed_late_while_the_code_shows_gives_the_number_read(
    tmp_path: Path,
) -> None:
    table = LiveTable(tmp_path)

    async def scenario(client: Any) -> tuple[str, dict[str, Any]]:
        async with Phone(client) as phone, Phone(client, address="127.0.0.2") as other:
            at_a_cycle_s_start(table)
            await phone.ask(table, "B")
            await other.ask(table, "C")  # its number is next, after the code
            table.t += 5.0  # the code's part: the number was on show its whole turn
            table.show()
            code = oled_footer(table)
            table.t += 1.5  # pressed 2 s into the code's 3 s
            table.buttons("count")
            return code, await (await phone.get("/api/me")).json()

    code, me = serve(table, scenario)
    assert code == f"JOIN {table.page.access.code}"
    assert me["seat"] == "B"
    table.close()


def test_the_monitor_s_place_taken_over_is_said_on_the_oled_before_the_press(
    tmp_path: Path,
) -> None:
    table = contig_60(tmp_path)

    async def scenario(client: Any) -> tuple[str, str]:
        async with Phone(client) as monitor, Phone(client, address="127.0.0.2") as other:
            await monitor.join(table, MONITOR)
            asked = await (await other.ask(table, MONITOR)).json()
            table.until_on_show(asked["number"])
            return oled_footer(table), asked["number"]

    footer, number = serve(table, scenario)
    assert footer == f"COUNT:replace GM {number}"
    table.close()


def test_two_tables_served_from_one_host_keep_their_own_seats(tmp_path: Path) -> None:
    """One phone, two tables on one host (their ports differ, and a browser sends a host's
    cookies to every port of it): joining the second dropped the seat at the first."""
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    tables = [LiveTable(tmp_path / name) for name in ("one", "two")]

    async def run() -> list[Any]:
        servers = [TestServer(make_app(table.page), host="127.0.0.1") for table in tables]
        for server in servers:
            await server.start_server()
        seats = []
        try:
            async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as phone:
                for table, server in zip(tables, servers, strict=True):
                    origin = {"Origin": str(server.make_url("/")).rstrip("/")}
                    join = {"code": table.page.access.code, "seat": "A"}
                    url = server.make_url("/api/join")
                    async with phone.post(url, json=join, headers=origin) as asked:
                        table.until_on_show((await asked.json())["number"]).buttons("count")
                for server in servers:
                    async with phone.get(server.make_url("/api/me")) as me:
                        seats.append((await me.json()).get("seat"))
        finally:
            for table, server in zip(tables, servers, strict=True):
                await table.page.stop()
                await server.close()
        return seats

    assert asyncio.run(run()) == ["A", "A"]
    for table in tables:
        table.close()
