"""The seat queue as a dealer and a child meet it (issue 25, finding 6): a COUNT that gives
nothing says so on the OLED, a late one gives the number read (R942); a takeover of the Game
Monitor's place is said on the OLED before the press; two tables served from one host keep
their own seats."""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, CookieJar
from aiohttp.test_utils import TestServer

from drivers.oled import render
from firmware_py.families.pentathlon.flows.page import MONITOR
from firmware_py.table.web.access import (
    CODE_EVERY,
    CONFIRM_AFTER,
    MAX_WAITING,
    MAX_WRONG,
    MAX_WRONG_PER_NETWORK,
    REQUEST_SHOWN,
    WAITING_PER_NETWORK,
    Access,
    AccessError,
    code_on_show,
)
from firmware_py.table.web.app import make_app
from firmware_py.table.web.errors import Refused
from firmware_py.table.web.page import NOTHING_GIVEN, NOTICE_FOR, STREAM_SHARE, TablePage, listen
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


def test_a_count_while_the_oled_says_nothing_given_gives_nothing(tmp_path: Path) -> None:
    """The dealer read B's number, pressed just after C's took its place (nothing given, the
    OLED said so) and pressed again while it said so: C's phone, whose number the OLED hid,
    was given seat C (the notice's seconds counted as C's on show)."""
    table = LiveTable(tmp_path)

    async def scenario(client: Any) -> tuple[str, dict[str, Any]]:
        async with Phone(client) as phone, Phone(client, address="127.0.0.2") as other:
            at_a_cycle_s_start(table)
            await phone.ask(table, "B")
            await other.ask(table, "C")
            table.t += CODE_EVERY - 3.0  # B's turn over: the code's part
            table.show()
            table.t += 3.0  # C's turn: its number appears
            table.show()
            table.buttons("count")  # half a second after C's number appeared: nothing given
            table.buttons("count")  # again, a second later, while the OLED says nothing given
            return oled_footer(table), await (await other.get("/api/me")).json()

    footer, me = serve(table, scenario)
    assert footer == NOTHING_GIVEN
    assert me["seat"] is None and me["pending"] == "C"
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


# --- the refusals a player reads (R942) ----------------------------------------------------------

# Words a 10-year-old at the table cannot act on: the network's, the browser's, the server's.
JARGON = ("address", "/64", "ipv6", "network", "security token", "stale", "console", "confirmed")
HALL = "2001:db8:1:2"
SEATS = ("A", "B", "C", "D", "E", "F")


def refused(act: Callable[[], object]) -> str:
    try:
        act()
    except (AccessError, Refused) as error:
        return str(error)
    raise AssertionError("not refused")


def every_refusal_a_phone_reads() -> list[str]:
    """Each way the table's page refuses a phone, driven on its own: what the phone shows."""
    clock = [0.0]
    access = Access(clock=lambda: clock[0])
    access.follow(1)

    def ask(address: str, place: str = "A", token: str | None = None, code: str = "") -> Any:
        return access.ask(
            code or access.code, place, seats=SEATS, officials=(MONITOR,), address=address,
            token=token,
        )  # fmt: skip

    def seated(address: str, place: str) -> Any:
        request = ask(address, place)
        while access.footer(clock[0]) != request:
            clock[0] += 1.0
        clock[0] += CONFIRM_AFTER
        return access.confirm(clock[0])

    said = [refused(lambda: ask("10.0.0.1", code="WRONG1"))]
    said += [refused(lambda: ask("10.0.0.1", code="WRONG1")) for _ in range(MAX_WRONG - 1)]
    said.append(refused(lambda: ask("10.0.0.1")))  # past its own five
    for n in range(MAX_WRONG_PER_NETWORK):  # a /64's twenty, from four of its addresses
        address = f"{HALL}::{n // MAX_WRONG + 1:x}"
        refused(lambda: ask(address, code="WRONG1"))  # noqa: B023 - called at once
    said.append(refused(lambda: ask(f"{HALL}::99", code="WRONG1")))
    said.append(refused(lambda: ask("10.0.0.2", place="Z")))
    ann = seated("10.0.0.3", "A")
    said.append(refused(lambda: ask("10.0.0.3", "A", ann.token)))
    said.append(refused(lambda: ask("10.0.0.3", "B", ann.token)))
    said.append(refused(lambda: ask("10.0.0.3", MONITOR, ann.token)))
    waiting = ask("10.0.0.4", "B")
    said.append(refused(lambda: ask("10.0.0.4", "C")))  # its address waits already
    said.append(refused(lambda: access.require(waiting.token, None)))
    said.append(refused(lambda: access.require(ann.token, "stale")))
    said.append(refused(lambda: access.require("unknown", None)))
    for n in range(WAITING_PER_NETWORK):
        ask(f"2001:db8:9::{n + 1:x}", SEATS[n])
    said.append(refused(lambda: ask("2001:db8:9::ff", "B")))  # its /64's six wait already
    for n in range(MAX_WAITING):
        with contextlib.suppress(AccessError):
            ask(f"10.1.0.{n + 1}", "C")
    said.append(refused(lambda: ask("10.2.0.1", "D")))  # the table's eight wait
    page = TablePage(listen("127.0.0.1", 0))
    for _ in range(STREAM_SHARE.per_address):
        page.streams.take(object(), "10.0.0.9")
    said.append(refused(lambda: page.streams.take(object(), "10.0.0.9")))
    for n in range(STREAM_SHARE.per_network // STREAM_SHARE.per_address):
        for _ in range(STREAM_SHARE.per_address):
            page.streams.take(object(), f"2001:db8:7::{n + 1:x}")
    said.append(refused(lambda: page.streams.take(object(), "2001:db8:7::ff")))
    page.sock.close()
    return said


def test_no_refusal_a_phone_reads_speaks_of_addresses_networks_or_tokens() -> None:
    """ "this address", "its /64" and "security token is stale" told a child nothing to do."""
    said = every_refusal_a_phone_reads()
    assert len(said) == 19
    spoken = {line: [w for w in JARGON if w in line.lower()] for line in said}
    assert {line: words for line, words in spoken.items() if words} == {}


def test_every_refusal_a_phone_reads_says_what_to_do() -> None:
    actions = ("try again", "wait", "ask", "join", "leave", "reload", "pick", "close", "check",
               "show this number")  # fmt: skip
    said = every_refusal_a_phone_reads()
    assert [line for line in said if not any(a in line for a in actions)] == [
        "this phone has seat A already"  # nothing to do: it plays
    ]


# --- whatever the dealer presses, and when (R942, R943) -------------------------------------

TICK = 0.05  # the OLED redrawn this often: what it showed, tick by tick


def _given_only_what_was_read(seed: int) -> list[str]:
    """Five minutes of phones asking and leaving and a dealer pressing COUNT at random, the
    page's notice drawn as the page draws it: each seat given, checked against what the OLED
    showed, tick by tick (its number a second up to the press, or, the press in the code's
    part, a second up to the code)."""
    draw = random.Random(seed)
    clock = [0.0]
    access = Access(clock=lambda: clock[0])
    access.follow(1)
    notice_until, shown, numbers, tokens = -1.0, list[str](), dict[str, str](), dict[str, str]()
    wrong = []
    for tick in range(int(300 / TICK)):
        now = clock[0] = tick * TICK
        address = f"10.0.0.{draw.randint(1, 12)}"
        if draw.random() < 0.01:
            with contextlib.suppress(AccessError):
                asked = access.ask(
                    access.code, draw.choice(SEATS), seats=SEATS, officials=(),
                    address=address, token=tokens.get(address),
                )  # fmt: skip
                tokens[address], numbers[asked.token] = asked.token, asked.number
        elif draw.random() < 0.005:
            access.leave(tokens.get(address))
        covered = now < notice_until
        request = access.footer(now, covered=covered)
        code = code_on_show(now) and not covered
        shown.append("notice" if covered else "code" if code else getattr(request, "number", ""))
        if draw.random() < 0.02:
            waiting = bool(access.requests)
            session = access.confirm(now)
            if session is not None and not _read(shown, numbers[session.token]):
                wrong.append(f"seed {seed}: {numbers[session.token]} given at {now:.2f}")
            elif session is None and waiting:  # as TablePage does (R942, R943)
                notice_until = max(notice_until, now + NOTICE_FOR)
                access.cover(now)
    return wrong


def _read(shown: list[str], number: str) -> bool:
    """Whether the OLED showed ``number`` a second up to the press (the last tick), or, the
    press in the code's part (for less than its 3 s), a second up to the code."""
    ticks = round(CONFIRM_AFTER / TICK)
    if shown[-ticks - 1 :] == [number] * (ticks + 1):
        return True
    before = list(shown)
    while before and before[-1] == "code":
        before.pop()
    code_for = (len(shown) - len(before)) * TICK
    return 0 < code_for <= CODE_EVERY - REQUEST_SHOWN and before[-ticks:] == [number] * ticks


def test_whatever_the_dealer_presses_a_seat_goes_only_to_a_number_read_a_second() -> None:
    assert [line for seed in range(4) for line in _given_only_what_was_read(seed)] == []
