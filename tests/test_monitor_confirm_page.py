"""Only the Game Monitor's own phone takes the monitor's place on the table's page (R494-R497):
the join code (which the players read off the OLED too) only asks for it; the phone and the OLED
show the same number, and the monitor's COUNT press at the console, which means nothing on any
Pentathlon step, confirms it. One monitor phone at a time; a seat's phone never; the journal
and the game are untouched by the confirmation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.families.pentathlon.flows.page import MONITOR
from firmware_py.families.pentathlon.options import table_settings
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable
from firmware_py.table.web.access import ASK_FOR, CONFIRM_AFTER
from firmware_py.table.web.app import CSRF_HEADER
from tests.web_helpers import LiveTable, Phone, serve

Client = TestClient[Any, Any]
WAITING = (
    "show this number to the dealer: this phone can play once the dealer presses COUNT while "
    "the table's display shows {number} too"
)


def contig_60(directory: Path) -> LiveTable:
    """Contig 60 with A to begin: the monitor enters the die tosses, A's the lower (R788)."""
    table = LiveTable(directory, table_settings(game="contig-60"))
    for toss in (1, 2):
        while table.controller.number < toss:
            table.buttons("next")
        while table.controller.number > toss:
            table.buttons("no")
        table.buttons("yes")
    return table


@pytest.fixture
def table(tmp_path: Path) -> Any:
    table = contig_60(tmp_path)
    yield table
    table.close()


def oled_footer(table: LiveTable) -> str:
    return table.page.on_oled(table.controller.view().screen, table.t).footer


async def ask(phone: Phone, table: LiveTable) -> tuple[int, dict[str, Any]]:
    response = await phone.ask(table, MONITOR)
    return response.status, await response.json()


async def confirmed(phone: Phone, table: LiveTable) -> dict[str, Any]:
    """The phone asks, the monitor reads the number and presses COUNT; the phone's CSRF token."""
    _, asked = await ask(phone, table)
    table.until_on_show(asked["number"]).buttons("count")
    me: dict[str, Any] = await (await phone.get("/api/me")).json()
    phone.csrf = {CSRF_HEADER: me["csrf"]} if me.get("csrf") else {}
    return me


async def number(phone: Phone, value: str) -> tuple[int, dict[str, Any]]:
    response = await phone.post("/api/entry", {"name": "number", "value": value})
    return response.status, await response.json()


def test_asking_for_the_monitor_s_place_shows_one_number_on_the_phone_and_the_oled(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any], dict[str, Any], str]:
        async with Phone(client) as phone:
            status, body = await ask(phone, table)
            me = await (await phone.get("/api/me")).json()
            return status, body, me, oled_footer(table)

    status, body, me, footer = serve(table, scenario)
    assert status == 202 and body["seat"] is None and body["pending"] == MONITOR
    assert body["message"] == WAITING.format(number=body["number"])
    assert me == body
    assert footer == f"COUNT: monitor {body['number']}"


def test_a_phone_with_only_the_join_code_cannot_enter_the_monitor_s_numbers(
    table: LiveTable,
) -> None:
    table.buttons("yes").buttons("yes")  # the turn's menu: Chip placed, the points asked for

    async def scenario(client: Client) -> tuple[int, dict[str, Any], str]:
        async with Phone(client) as phone:
            _, body = await ask(phone, table)
            status, refused = await number(phone, "60")
            return status, refused, body["number"]

    log = list(table.controller.log)
    status, refused, shown = serve(table, scenario)
    assert (status, refused) == (403, {"error": WAITING.format(number=shown)})
    assert table.controller.log == log


def test_the_console_s_count_press_confirms_the_asking_phone(table: LiveTable) -> None:
    table.buttons("yes").buttons("yes")  # Chip placed: the points asked for

    async def scenario(client: Client) -> tuple[dict[str, Any], int]:
        async with Phone(client) as phone:
            me = await confirmed(phone, table)
            status, _ = await number(phone, "37")
            return me, status

    me, status = serve(table, scenario)
    assert (me["seat"], me["name"]) == (MONITOR, "Game Monitor")
    assert status == 200
    assert table.controller.view().scoreboard.scores == {"A": 23, "B": 60}


def test_the_confirming_press_does_nothing_to_the_game(table: LiveTable) -> None:
    table.buttons("yes")  # the turn's menu

    async def scenario(client: Client) -> None:
        async with Phone(client) as phone:
            await confirmed(phone, table)

    before = (list(table.controller.log), table.controller.prompt.key, table.controller.cursor)
    decisions = len(table.controller.finished)
    serve(table, scenario)
    after = (list(table.controller.log), table.controller.prompt.key, table.controller.cursor)
    assert after == before and len(table.controller.finished) == decisions


def test_a_press_right_after_a_request_confirms_nothing(table: LiveTable) -> None:
    """A request slipped in just before the monitor's press (replacing the monitor's own) is
    not what the press grants: it must have been on the OLED for CONFIRM_AFTER seconds."""

    async def scenario(client: Client) -> dict[str, Any]:
        async with Phone(client) as phone:
            await ask(phone, table)
            table.t -= 1.0  # LiveTable's press comes 0.5 s and its view 1 s after: pull it in
            table.buttons("count")
            me: dict[str, Any] = await (await phone.get("/api/me")).json()
            return me

    me = serve(table, scenario)
    assert me["seat"] is None and me["pending"] == MONITOR


def test_two_phones_asking_are_shown_in_turn_and_a_press_confirms_the_one_on_show(
    table: LiveTable,
) -> None:
    """R764: a phone asking cannot keep another's number off the OLED; the dealer presses
    while the number on the phone in hand is the one shown."""

    async def scenario(client: Client) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        async with Phone(client) as first, Phone(client, address="127.0.0.2") as second:
            _, one = await ask(first, table)
            _, two = await ask(second, table)
            table.until_on_show(one["number"])
            footers = [oled_footer(table)]
            table.until_on_show(two["number"])  # the next turn: a cycle later (R797)
            footers.append(oled_footer(table))
            table.buttons("count")
            assert [one["number"], two["number"]] == [f[-4:] for f in footers]
            me_one = await (await first.get("/api/me")).json()
            me_two = await (await second.get("/api/me")).json()
            return footers, me_one, me_two

    footers, me_one, me_two = serve(table, scenario)
    assert [footer[:-4] for footer in footers] == ["COUNT: monitor "] * 2
    assert me_one["pending"] == MONITOR and me_two["seat"] == MONITOR


def test_a_phone_at_an_address_with_a_request_waiting_is_told_to_wait(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any], int]:
        async with Phone(client) as phone, Phone(client) as neighbour:
            await ask(phone, table)
            status, refused = await ask(neighbour, table)
            table.t += ASK_FOR + 1.0
            again, _ = await ask(neighbour, table)
            return status, refused, again

    status, refused, again = serve(table, scenario)
    assert (status, refused) == (
        403,
        {
            "error": "a phone on this connection is already waiting for the dealer: try again "
            f"once the dealer has answered it, or in {ASK_FOR:.0f} s"
        },
    )
    assert again == 202


def test_asking_for_a_seat_replaces_the_phone_s_request_for_the_monitor(table: LiveTable) -> None:
    """R765: a phone asks for one place at a time."""

    async def scenario(client: Client) -> tuple[str, dict[str, Any]]:
        async with Phone(client) as phone:
            await ask(phone, table)
            await phone.join(table, "B")
            me: dict[str, Any] = await (await phone.get("/api/me")).json()
            return oled_footer(table), me

    footer, me = serve(table, scenario)
    assert not footer.startswith("COUNT")
    assert me["seat"] == "B"


def test_one_monitor_phone_at_a_time(table: LiveTable) -> None:
    table.buttons("yes").buttons("yes")  # Chip placed: the points asked for

    async def scenario(client: Client) -> tuple[int, dict[str, Any]]:
        async with Phone(client) as first, Phone(client) as second:
            await confirmed(first, table)
            await confirmed(second, table)
            return await number(first, "37")

    status, refused = serve(table, scenario)
    assert status == 403 and refused["error"].startswith(
        "this phone no longer holds its seat: the dealer gave monitor to another phone"
    )


def test_a_seat_s_phone_cannot_ask_for_the_monitor_s_place(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any], str]:
        async with Phone(client) as phone:
            await phone.join(table, "A")
            status, body = await ask(phone, table)
            return status, body, oled_footer(table)

    status, body, footer = serve(table, scenario)
    assert (status, body) == (
        403,
        {
            "error": "this phone has seat A: a player's phone cannot take the place monitor too; "
            "ask for it from another phone"
        },
    )
    assert not footer.startswith("COUNT")


def test_a_wrong_code_asks_for_nothing(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any]]:
        async with Phone(client) as phone:
            response = await phone.join(table, MONITOR, code="WRONG1")
            return response.status, await response.json()

    status, body = serve(table, scenario)
    assert status == 403 and body["error"].startswith("that is not the join code")
    assert table.page.access.shown is None


def test_a_request_runs_out_and_a_late_press_confirms_nothing(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[dict[str, Any], str]:
        async with Phone(client) as phone:
            await ask(phone, table)
            table.t += ASK_FOR + 1.0
            footer = oled_footer(table)
            table.buttons("count")
            me: dict[str, Any] = await (await phone.get("/api/me")).json()
            return me, footer

    me, footer = serve(table, scenario)
    assert me["seat"] is None and me["refused"].startswith(
        "Not given: the dealer did not give this phone monitor (its number was "
    )
    assert not footer.startswith("COUNT")


def test_a_press_before_anyone_asks_confirms_no_later_request(table: LiveTable) -> None:
    table.buttons("count")

    async def scenario(client: Client) -> dict[str, Any]:
        async with Phone(client) as phone:
            await ask(phone, table)
            table.t += CONFIRM_AFTER
            table.show()  # a view with no new press
            me: dict[str, Any] = await (await phone.get("/api/me")).json()
            return me

    assert serve(table, scenario)["pending"] == MONITOR


def test_the_confirmation_leaves_the_journal_replaying_to_the_same_table(tmp_path: Path) -> None:
    table = contig_60(tmp_path).buttons("yes").buttons("yes")

    async def scenario(client: Client) -> None:
        async with Phone(client) as phone:
            await confirmed(phone, table)
            await number(phone, "12")

    serve(table, scenario)
    expected = (table.controller.log, table.controller.view())
    table.close()
    journal = Journal.open(tmp_path / "journal.db")
    try:
        rebuilt = RecordedTable.start(
            journal=journal, settings=table.controller.settings, now=0.0, read_pin=lambda n: False
        ).controller
    finally:
        journal.close()
    assert (rebuilt.log, rebuilt.view()) == expected
