"""The requests waiting for the dealer cannot hide the join code, hold the queue, or be granted
by a press meant for another (issue 19, findings 2-4; R797-R799)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.table.web.access import (
    ASK_FOR,
    CODE_EVERY,
    CODE_SHOWN,
    CONFIRM_AFTER,
    DISMISSED_FOR,
    MAX_WAITING,
)
from tests.web_helpers import LiveTable, Phone, serve

Client = TestClient[Any, Any]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    live = LiveTable(tmp_path)
    yield live
    live.close()


def footer(table: LiveTable) -> str:
    return table.page.on_oled(table.controller.view().screen, table.t).footer


async def ask(phone: Phone, table: LiveTable, seat: str = "A") -> tuple[int, dict[str, Any]]:
    response = await phone.ask(table, seat)
    return response.status, await response.json()


# --- R797: the join code keeps its share of the footer --------------------------------------


def test_the_join_code_keeps_its_share_of_the_oled_while_a_request_waits(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> list[str]:
        async with Phone(client) as phone:
            await ask(phone, table)
            start, footers = table.t, []
            while table.t < start + 2 * CODE_EVERY:  # within the request's minute
                table.t += 0.25
                footers.append(footer(table))
            return footers

    footers = serve(table, scenario)
    code = [f for f in footers if f == f"JOIN {table.page.access.code}"]
    assert len(code) / len(footers) == CODE_SHOWN / CODE_EVERY
    assert all(f.startswith("COUNT: seat A ") for f in footers if f not in code)


def test_a_press_while_the_code_is_on_show_gives_the_number_shown_before_it(
    table: LiveTable,
) -> None:
    """R942 (issue 25), where R759 gave a late press 1 s: nothing else was on show since."""

    async def scenario(client: Client) -> dict[str, Any]:
        async with Phone(client) as phone:
            _, asked = await ask(phone, table)
            table.until_on_show(asked["number"])
            table.t += CODE_EVERY - CODE_SHOWN - table.t % CODE_EVERY  # the code's part begins
            table.show()
            table.t += CONFIRM_AFTER
            table.buttons("count")  # pressed 0.5 s later: the code on show for 1.5 s
            me: dict[str, Any] = await (await phone.get("/api/me")).json()
            return me

    me = serve(table, scenario)
    assert me["seat"] == "A"


def test_the_dealer_s_no_turns_down_the_request_on_show_and_its_address_waits(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> tuple[dict[str, Any], int, dict[str, Any], int]:
        async with Phone(client) as phone:
            _, asked = await ask(phone, table)
            table.until_on_show(asked["number"]).buttons("no")  # NO means nothing on a notice
            me = await (await phone.get("/api/me")).json()
            again, refused = await ask(phone, table)
            table.t += DISMISSED_FOR
            later, _ = await ask(phone, table)
            return me, again, refused, later

    me, again, refused, later = serve(table, scenario)
    assert me["seat"] is None and "pending" not in me
    assert me["refused"].startswith("Not given: the dealer turned down this phone's request")
    assert again == 403
    assert refused["error"].startswith("the dealer said no to this phone's last request")
    assert later == 202
    assert table.page.access.requests[0].address == "127.0.0.1"


# --- R799: the queue's places, in order, and the truth about when --------------------------


def test_a_place_that_frees_goes_to_the_address_refused_first_not_back_to_its_holder(
    table: LiveTable,
) -> None:
    """Eight addresses each re-ask the moment their minute ends: the honest ninth, refused
    first, gets the first place that frees, as its refusal said it would."""

    async def scenario(client: Client) -> tuple[dict[str, Any], int, dict[str, Any], int]:
        holders = [Phone(client, address=f"127.0.0.{n}") for n in range(1, MAX_WAITING + 1)]
        honest = Phone(client, address="127.0.0.99")
        try:
            for holder in holders:
                assert (await ask(holder, table))[0] == 202
                table.t += 1.0
            _, refused = await ask(honest, table)
            table.t = table.page.access.requests[0].asked + ASK_FOR + 0.01  # the first ran out
            retaken, line = await ask(Phone(client, address="127.0.0.1"), table)
            taken, _ = await ask(honest, table)
            return refused, retaken, line, taken
        finally:
            for phone in (*holders, honest):
                await phone.session.close()

    refused, retaken, line, taken = serve(table, scenario)
    wait = ASK_FOR - MAX_WAITING  # the first asked 8 s before the honest phone
    assert refused["error"] == (
        f"{MAX_WAITING} phones are already waiting for the dealer: try again in {wait:.0f} s at "
        "the latest (this phone's turn is kept 15 s then)"
    )
    assert retaken == 403
    assert "1 phone asked before this one" in line["error"]
    assert taken == 202


def test_asking_again_keeps_the_phone_s_place_while_others_are_refused(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> int:
        phones = [Phone(client, address=f"127.0.0.{n}") for n in range(1, MAX_WAITING + 2)]
        try:
            for phone in phones:
                await ask(phone, table)
            again, _ = await ask(phones[0], table)  # refreshed: its number, not its minute
            return again
        finally:
            for phone in phones:
                await phone.session.close()

    assert serve(table, scenario) == 202


# --- R799: a press is judged at its own time ------------------------------------------------


def test_a_count_press_handled_late_confirms_the_request_on_show_when_it_was_pressed(
    table: LiveTable,
) -> None:
    """The loop lags: a COUNT pressed while Di's number was on show is handled after the next
    request (an attacker's) has been on show a second. Di's is the one confirmed."""

    async def scenario(client: Client) -> tuple[dict[str, Any], dict[str, Any]]:
        async with Phone(client) as di, Phone(client, address="127.0.0.2") as mal:
            _, di_asked = await ask(di, table, "C")
            _, mal_asked = await ask(mal, table, "A")
            table.until_on_show(di_asked["number"])
            pressed = table.t + 0.5
            table.until_on_show(mal_asked["number"])  # the next turn, Mal's on show 1 s...
            table.t += 1.0
            handled = table.t  # ... when the press is handed over
            table.levels["console.count"] = True
            table.recorded.edge("console.count", pressed, True, handled)
            table.levels["console.count"] = False
            table.recorded.edge("console.count", pressed + 0.1, False, handled)
            table.show()
            return (
                await (await di.get("/api/me")).json(),
                await (await mal.get("/api/me")).json(),
            )

    di_me, mal_me = serve(table, scenario)
    assert di_me["seat"] == "C"
    assert mal_me["seat"] is None and mal_me["pending"] == "A"


def test_a_press_made_before_the_request_had_been_on_show_a_second_confirms_nothing(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> dict[str, Any]:
        async with Phone(client) as phone:
            _, asked = await ask(phone, table)
            table.until_on_show(asked["number"])
            _, shown_for = table.page.access.drawn(table.t)
            pressed = table.t - shown_for + CONFIRM_AFTER - 0.1
            table.t += 2.0  # handled late: by then it has been on show long enough
            table.recorded.edge("console.count", pressed, True, table.t)
            table.recorded.edge("console.count", pressed + 0.1, False, table.t)
            table.show()
            me: dict[str, Any] = await (await phone.get("/api/me")).json()
            return me

    me = serve(table, scenario)
    assert me["seat"] is None and me["pending"] == "A"
