"""The table's web page (aiohttp's test client): spectators read without a code, a player joins
with the code on the OLED, every entry goes through the table's own path (the controller, the
journal, the rules core), guesses stay hidden until all are in, and every refusal is one line."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from drivers.display import Screen
from firmware_py.table.web.access import (
    CODE_ALPHABET,
    CODE_EVERY,
    CODE_LENGTH,
    CODE_SHOWN,
    MAX_WRONG,
    WRONG_WINDOW,
)
from firmware_py.table.web.app import MAX_BODY, seat_cookie
from tests.web_helpers import LiveTable, Phone, serve

Client = TestClient[Any, Any]


@pytest.fixture
def table(tmp_path: Path) -> Any:
    live = LiveTable(tmp_path)
    yield live
    live.close()


def journal_bodies(table: LiveTable) -> list[dict[str, Any]]:
    return [entry.body for entry in table.journal.entries()]


# --- reading: anyone ---------------------------------------------------------------------------


def test_a_spectator_reads_the_table_without_a_code(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any], str]:
        response = await client.get("/api/state")
        page = await client.get("/")
        return response.status, await response.json(), await page.text()

    status, state, html = serve(table, scenario)
    assert status == 200
    assert state["screen"]["lines"] == ["Ann", "rolls for the lead"]
    assert state["seats"] == [
        {"seat": "A", "name": "Ann"},
        {"seat": "B", "name": "Bo"},
        {"seat": "C", "name": "Cy"},
    ]
    assert (state["scores"], state["lights"]["A"]) == ({"A": 0, "B": 0, "C": 0}, "standing")
    assert '<script src="/static/page.js" defer></script>' in html


def test_every_response_forbids_framing_sniffing_and_other_origins_scripts(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> list[Any]:
        return [(await client.get(path)).headers for path in ("/", "/api/state", "/static/page.js")]

    for headers in serve(table, scenario):
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert (headers["X-Frame-Options"], headers["X-Content-Type-Options"]) == (
            "DENY",
            "nosniff",
        )


def test_the_page_never_shows_the_console_s_button_hints(table: LiveTable) -> None:
    """Issue 19, finding 8: a phone showed "NEXT +1 NO -1", buttons no player has."""
    table.to_guessing()
    assert table.controller.view().screen.footer  # the OLED's hint, for the dealer

    async def scenario(client: Client) -> tuple[dict[str, Any], str]:
        state = await (await client.get("/api/state")).json()
        return state, await (await client.get("/static/page.js")).text()

    state, script = serve(table, scenario)
    assert set(state["screen"]) == {"title", "subtitle", "big", "lines", "alert"}
    assert "NEXT" not in json.dumps(state) and "footer" not in script


def test_the_join_code_is_never_in_what_spectators_read(table: LiveTable) -> None:
    code = table.page.access.code
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)

    async def scenario(client: Client) -> str:
        state = await (await client.get("/api/state")).text()
        stream = await client.get("/api/events")
        first = await stream.content.readuntil(b"\n\n")
        stream.close()
        return state + first.decode()

    assert code not in serve(table, scenario)


def test_the_event_stream_sends_the_table_at_once_and_again_at_each_change(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> list[dict[str, Any]]:
        stream = await client.get("/api/events")
        assert stream.headers["Content-Type"] == "text/event-stream"
        first = await stream.content.readuntil(b"\n\n")
        table.buttons("go")  # Ann's roll
        second = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
        stream.close()
        return [json.loads(chunk.decode().removeprefix("data: ")) for chunk in (first, second)]

    first, second = serve(table, scenario)
    assert first["screen"]["lines"] == ["Ann", "rolls for the lead"]
    assert second["screen"]["lines"] == ["Bo", "rolls for the lead"]
    assert second["screen"]["big"].startswith("A ROLLED ")


# --- joining -----------------------------------------------------------------------------------


def test_the_code_only_asks_for_a_seat_with_a_number_shown_on_the_phone_and_the_oled(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any], str, dict[str, Any]]:
        async with Phone(client) as phone:
            response = await phone.ask(table, "B", code=table.page.access.code.lower())
            me = await (await phone.get("/api/me")).json()
            return response.status, await response.json(), response.headers["Set-Cookie"], me

    status, body, cookie, me = serve(table, scenario)
    assert status == 202 and (body["seat"], body["pending"]) == (None, "B")
    assert body["message"] == (
        "show this number to the dealer: this phone can play once the dealer presses COUNT "
        f"while the table's display shows {body['number']} too"
    )
    assert (
        cookie.startswith(f"{seat_cookie(table.page)}=")
        and "HttpOnly" in cookie
        and "SameSite=Strict" in cookie
    )
    assert me == body
    footer = table.page.on_oled(table.controller.view().screen, table.t).footer
    assert footer == f"COUNT: seat B {body['number']}"


def test_the_dealer_s_count_gives_the_asking_phone_its_seat_and_a_csrf_token(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> dict[str, Any]:
        async with Phone(client) as phone:
            return dict(await (await phone.join(table, "B")).json())

    me = serve(table, scenario)
    assert (me["seat"], me["name"]) == ("B", "Bo") and len(me["csrf"]) > 30
    assert table.page.state["phones"] == ["B"]


def test_a_wrong_code_is_refused_and_counts_against_its_address(table: LiveTable) -> None:
    async def scenario(client: Client) -> list[tuple[int, str]]:
        answers = []
        async with Phone(client) as phone:
            for code in ["WRONG1"] * MAX_WRONG + [table.page.access.code]:
                response = await phone.join(table, "A", code=code)
                answers.append((response.status, (await response.json()).get("error", "")))
        return answers

    answers = serve(table, scenario)
    assert answers[0] == (
        403,
        "that is not the join code on the table's display: check it and type it again (4 more "
        "tries this minute)",
    )
    assert answers[-1] == (
        403,
        "too many wrong codes from this phone: wait 60 s, then type the code on the table's "
        "display again",
    )
    table.t += WRONG_WINDOW  # a minute later the right code is taken again
    assert serve(table, lambda client: _join_status(client, table)) == 200


async def _join_status(client: Client, table: LiveTable) -> int:
    async with Phone(client) as phone:
        return (await phone.join(table, "A")).status


def test_a_seat_the_table_does_not_have_is_refused(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any]]:
        async with Phone(client) as phone:
            response = await phone.join(table, "Z")
            return response.status, await response.json()

    assert serve(table, scenario) == (
        403,
        {"error": "there is no seat 'Z' at this table: pick one of A, B, C"},
    )


def test_a_second_phone_takes_a_seat_only_with_the_dealer_s_count_and_the_first_is_told(
    table: LiveTable,
) -> None:
    table.to_guessing()

    async def scenario(client: Client) -> tuple[str, dict[str, Any], int, dict[str, Any]]:
        async with Phone(client) as first, Phone(client) as second:
            await first.join(table, "A")
            asked = await (await second.ask(table, "A")).json()
            footer = table.page.on_oled(table.controller.view().screen, table.t).footer
            warned = await (await first.get("/api/me")).json()
            table.t += 1.0
            table.buttons("count")
            response = await first.guess("1969")
            refused = await response.json()
            assert footer == f"COUNT:replace A {asked['number']}"
            return asked["number"], warned, response.status, refused

    number, warned, status, refused = serve(table, scenario)
    assert warned["seat"] == "A" and warned["warning"] == (
        f"Another phone is asking the dealer for this seat (number {number} on the table's "
        "display): if it is not yours, tell the dealer not to press COUNT."
    )
    assert (status, refused["error"]) == (
        403,
        f"this phone no longer holds its seat: the dealer gave A to another phone (its number "
        f"was {number}): if that was not your doing, tell the dealer",
    )


def test_leaving_gives_the_seat_up(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any]]:
        async with Phone(client) as phone:
            await phone.join(table, "A")
            left = await phone.post("/api/leave", {})
            return left.status, await (await phone.get("/api/me")).json()

    assert serve(table, scenario) == (200, {"seat": None})


def test_a_new_match_draws_a_new_code_and_ends_every_seat(tmp_path: Path) -> None:
    table = LiveTable(tmp_path, finish=2)
    table.to_guessing()
    old = table.page.access.code

    async def scenario(client: Client) -> tuple[str | None, int]:
        async with Phone(client) as phone:
            await phone.join(table, "A")
            for seat, value in (("A", "1968"), ("B", "1969"), ("C", "1990")):
                table.enter(seat, "guess", value)
            table.buttons("yes", "go")  # Bo wins at 2 spaces; GO: a new game
            me = await phone.get("/api/me")
            again = await phone.join(table, "A", code=old)
            return (await me.json())["seat"], again.status

    try:
        assert serve(table, scenario) == (None, 403)
        assert table.page.state["match"] == 2 and table.page.access.code != old
    finally:
        table.close()


# --- entering ----------------------------------------------------------------------------------


def test_a_guess_from_a_phone_goes_through_the_journal_to_the_rules(table: LiveTable) -> None:
    table.to_guessing()

    async def scenario(client: Client) -> int:
        async with Phone(client) as phone:
            await phone.join(table, "C")
            return (await phone.guess("1972.5")).status

    assert serve(table, scenario) == 200
    bodies = journal_bodies(table)
    at = next(i for i, body in enumerate(bodies) if "entry" in body)
    assert bodies[at]["entry"][:3] == ["C", "guess", "1972.5"]
    decided = bodies[at + 1]  # the action the entry decided, next in the journal
    assert {"event": "action", "action": "guesstimation.guess", "player": "Cy",
            "value": "1972.5"}.items() <= decided.items()  # fmt: skip


def test_the_rules_refusal_comes_back_in_one_line_and_nothing_is_journaled(
    table: LiveTable,
) -> None:
    table.to_guessing()
    before = journal_bodies(table)

    async def scenario(client: Client) -> tuple[int, dict[str, Any]]:
        async with Phone(client) as phone:
            await phone.join(table, "B")
            response = await phone.guess("29,029")
            return response.status, await response.json()

    status, body = serve(table, scenario)
    assert status == 409
    assert body == {
        "error": "guess for Bo '29,029' is not a number: expected a decimal like 29029 or -3.75 "
        "(no thousands separators)"
    }
    assert journal_bodies(table) == before


def test_an_entry_the_step_does_not_take_says_what_the_table_shows(table: LiveTable) -> None:
    async def scenario(client: Client) -> dict[str, Any]:
        async with Phone(client) as phone:
            await phone.join(table, "A")
            return dict(await (await phone.guess("12")).json())

    assert serve(table, scenario) == {
        "error": "the table takes no guess now: it shows 'Ann rolls for the lead'"
    }


def test_guesses_stay_hidden_from_every_page_until_all_are_in(table: LiveTable) -> None:
    table.to_guessing()

    async def scenario(client: Client) -> list[str]:
        seen = []
        async with Phone(client) as ann, Phone(client) as bo, Phone(client) as cy:
            for phone, seat, value in ((ann, "A", "1901"), (cy, "C", "1902"), (bo, "B", "1903")):
                await phone.join(table, seat)
                assert (await phone.guess(value)).status == 200
                seen.append(await (await client.get("/api/state")).text())
        return seen

    after_one, after_two, after_all = serve(table, scenario)
    for hidden in (after_one, after_two):
        assert "1901" not in hidden and "1902" not in hidden
    assert json.loads(after_two)["entry"]["seats"] == ["B"]
    rows = json.loads(after_all)["rows"]
    assert sorted(rows) == [["Ann", "1901"], ["Bo", "1903"], ["Cy", "1902"]]


def test_a_guess_dialled_on_the_console_is_on_the_oled_but_never_on_the_page(
    table: LiveTable,
) -> None:
    table.to_guessing().buttons("next", "next", "next")
    assert table.controller.view().screen.big == "3"  # the dealer sees what they dial

    async def scenario(client: Client) -> dict[str, Any]:
        async with client.get("/api/events") as stream:
            first: dict[str, Any] = json.loads(
                (await stream.content.readuntil(b"\n\n")).decode().removeprefix("data: ")
            )
        state: dict[str, Any] = await (await client.get("/api/state")).json()
        assert state == first
        return state

    assert serve(table, scenario)["screen"]["big"] == "?"


# --- bad requests ------------------------------------------------------------------------------


def test_a_post_without_the_csrf_token_is_refused(table: LiveTable) -> None:
    table.to_guessing()

    async def scenario(client: Client) -> tuple[int, dict[str, Any]]:
        async with Phone(client) as phone:
            await phone.join(table, "A")
            phone.csrf = {}
            response = await phone.guess("1969")
            return response.status, await response.json()

    assert serve(table, scenario) == (
        403,
        {"error": "this page is out of date: reload it, then try again"},
    )


def test_a_post_from_another_site_is_refused(table: LiveTable) -> None:
    table.to_guessing()

    async def scenario(client: Client) -> tuple[int, dict[str, Any]]:
        async with Phone(client) as phone:
            await phone.join(table, "A")
            response = await phone.post(
                "/api/entry", {"name": "guess", "value": "1"}, Origin="http://evil.example"
            )
            return response.status, await response.json()

    status, body = serve(table, scenario)
    assert status == 403 and body["error"] == (
        "a change from another site is refused: use the table's own page"
    )


@pytest.mark.parametrize(
    ("body", "content_type", "status", "error"),
    [
        ("name=guess&value=1", "application/x-www-form-urlencoded", 415, "as application/json"),
        ("{oops", "application/json", 400, "the body is not JSON"),
        ('{"name": "guess", "value": "1"}', "application/json; charset=nosuch", 415, "UTF-8"),
        ("[1, 2]", "application/json", 400, "got an array"),
        ("null", "application/json", 400, "got null"),
        ('{"name": "guess"}', "application/json", 400, "got name"),
        ('{"name": "guess", "value": 5}', "application/json", 400, "value: expected text"),
        ('{"name": "guess", "value": "1\\n2"}', "application/json", 400, "one line of plain"),
        ('{"name": "guess", "value": "1\\u200d2"}', "application/json", 400,
         "value: U+200D ZERO WIDTH JOINER is not printable"),
        ('{"name": "guess", "value": "' + "9" * 301 + '"}', "application/json", 400, "1 to 300"),
        ('{"name": "guess", "value": "' + "9" * MAX_BODY + '"}', "application/json", 413, "large"),
    ],
    ids=["a form", "not JSON", "an unknown charset", "an array", "null", "a key missing",
         "a number", "two lines", "a zero-width joiner", "too long", "too large"],
)  # fmt: skip
def test_a_malformed_post_is_one_clear_line_and_changes_nothing(
    table: LiveTable, body: str, content_type: str, status: int, error: str
) -> None:
    table.to_guessing()
    before = journal_bodies(table)

    async def scenario(client: Client) -> tuple[int, str]:
        async with Phone(client) as phone:
            await phone.join(table, "A")
            response = await phone.session.post(
                phone.url("/api/entry"),
                data=body.encode(),
                headers={**phone.csrf, "Content-Type": content_type, "Origin": phone.origin},
            )
            return response.status, (await response.json())["error"]

    got_status, got_error = serve(table, scenario)
    assert (got_status, "\n" in got_error) == (status, False)
    assert error in got_error
    assert journal_bodies(table) == before


def test_an_unknown_path_or_method_is_one_line_of_json(table: LiveTable) -> None:
    async def scenario(client: Client) -> list[tuple[int, Any]]:
        answers = []
        origin = {"Origin": str(client.make_url("/")).rstrip("/")}  # a change's, checked first
        for method, path in (("GET", "/api/nothing"), ("PUT", "/api/state"), ("GET", "/nope")):
            response = await client.request(method, path, headers=origin)
            answers.append((response.status, await response.json()))
        return answers

    assert serve(table, scenario) == [
        (
            404,
            {"error": "nothing at /api/nothing: expected one of the page's routes (docs/web.md)"},
        ),
        (405, {"error": "PUT /api/state is not answered: expected GET or HEAD"}),
        (404, {"error": "nothing at /nope: expected one of the page's routes (docs/web.md)"}),
    ]


# --- the page and the OLED -------------------------------------------------------------------


def test_the_oled_shows_the_join_code_in_its_footer_part_of_the_time(table: LiveTable) -> None:
    screen = Screen(title="R1 Q2", big="0", footer="NEXT +1 NO -1 YES:ok")
    code = table.page.access.code
    switch = CODE_EVERY - CODE_SHOWN
    assert table.page.on_oled(screen, 0.0) == screen
    assert table.page.on_oled(screen, switch).footer == f"JOIN {code}"
    assert table.page.on_oled(screen, CODE_EVERY) == screen
    assert table.page.next_oled_change(1.0) == switch
    assert table.page.next_oled_change(switch) == CODE_EVERY


def test_while_the_journal_fails_the_page_keeps_the_last_saved_state_and_says_so(
    table: LiveTable,
) -> None:
    saved = dict(table.page.state)
    for active in (True, False):  # GO, decided but (say) not yet saved
        table.recorded.edge("console.go", 1.0 + active, active, 1.0 + active)
    table.page.publish(table.controller, table.controller.view(), saved=False)
    assert table.page.state == {**saved, "saved": False}
