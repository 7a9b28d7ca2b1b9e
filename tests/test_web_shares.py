"""What one client may hold or try on the table's page (issue 19, findings 3 and 4): its share of
the event streams, counted per address and per IPv6 /64 (one client held all 64 and blinded
every phone); wrong codes per address and per /64; a request's Host checked against the names
the table serves (DNS rebinding passed the old Origin check) (R767-R769). And what an outside
audit of the result found: another device's wrong codes locked a whole IPv6 hall out, a
bystander held the dealer's queue by asking again, and a phone's privacy addresses held a hall's
streams (R776-R778)."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from firmware_py.table.web.access import (
    ASK_FOR,
    MAX_WAITING,
    MAX_WRONG,
    MAX_WRONG_PER_NETWORK,
    WAITING_PER_ADDRESS,
    WAITING_PER_NETWORK,
    WRONG_WINDOW,
    Access,
    AccessError,
    PlaceRequest,
)
from firmware_py.table.web.app import make_app
from firmware_py.table.web.errors import Refused
from firmware_py.table.web.guard import (
    MISDIRECTED,
    Share,
    StreamShares,
    WindowLimit,
    client_keys,
)
from firmware_py.table.web.page import STREAM_SHARE
from tests.web_helpers import LiveTable, Phone, serve

Client = TestClient[Any, Any]
EVENTS = {"Accept": "text/event-stream"}  # as a browser's EventSource asks


@pytest.fixture
def table(tmp_path: Path) -> Any:
    live = LiveTable(tmp_path)
    yield live
    live.close()


async def first_event(phone: Phone) -> tuple[int, str]:
    """The stream's status and its first event, as the page reads it."""
    response = await phone.session.get(phone.url("/api/events"), headers=EVENTS)
    chunk = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 5)
    return response.status, chunk.decode()


# --- finding 3: one client held every event stream -------------------------------------------


def test_one_address_holds_its_share_of_streams_and_the_next_is_refused_in_words(
    table: LiveTable,
) -> None:
    async def scenario(client: Client) -> tuple[list[int], tuple[int, str], tuple[int, str]]:
        async with Phone(client, address="127.0.0.2") as greedy, Phone(client) as honest:
            held = [
                await greedy.session.get(greedy.url("/api/events"), headers=EVENTS)
                for _ in range(STREAM_SHARE.per_address)
            ]
            refused = await first_event(greedy)
            live = await first_event(honest)
            for stream in held:
                stream.close()
            return [stream.status for stream in held], refused, live

    held, refused, live = serve(table, scenario)
    assert held == [200] * STREAM_SHARE.per_address
    status, event = refused
    assert status == 200 and event.startswith("retry: 60000\nevent: refused\ndata: ")
    assert json.loads(event.split("data: ", 1)[1]) == {
        "error": "too many live pages open from this phone (8 at most): close one; this "
        "page checks every few seconds instead"
    }
    assert live[0] == 200 and live[1].startswith("data: {")  # another phone follows live


def test_a_refused_stream_asked_for_as_json_is_a_429_line(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[int, dict[str, Any]]:
        async with Phone(client, address="127.0.0.3") as greedy:
            held = [
                await greedy.session.get(greedy.url("/api/events"), headers=EVENTS)
                for _ in range(STREAM_SHARE.per_address)
            ]
            response = await greedy.get("/api/events")
            answer = response.status, await response.json()
            for stream in held:
                stream.close()
            return answer

    status, body = serve(table, scenario)
    assert status == 429 and body["error"].startswith("too many live pages open from this phone")


def test_streams_refused_by_the_hundred_are_one_log_line_a_minute(
    table: LiveTable, caplog: pytest.LogCaptureFixture
) -> None:
    """Past its share, each refused stream was an INFO line, at the table's default level: 300
    requests, 300 lines, from anyone, no code needed."""

    async def scenario(client: Client) -> None:
        async with Phone(client, address="127.0.0.5") as greedy:
            held = [
                await greedy.session.get(greedy.url("/api/events"), headers=EVENTS)
                for _ in range(STREAM_SHARE.per_address)
            ]
            for _ in range(100):
                (await greedy.get("/api/events")).close()
            for stream in held:
                stream.close()

    with caplog.at_level(logging.INFO):
        serve(table, scenario)
    logged = [r.getMessage() for r in caplog.records if "web_stream_refused" in r.getMessage()]
    assert logged == ["event=web_stream_refused address=127.0.0.5 left_out=0"]


def test_streams_closed_by_their_page_are_given_back(table: LiveTable) -> None:
    """A closed page's stream is noticed at its next write (a change, or the keep-alive)."""

    async def scenario(client: Client) -> tuple[int, tuple[int, str]]:
        async with Phone(client, address="127.0.0.4") as phone:
            held = [
                await phone.session.get(phone.url("/api/events"), headers=EVENTS)
                for _ in range(STREAM_SHARE.per_address)
            ]
            for stream in held:
                stream.close()
            table.buttons("go")  # a change: every stream is written to, the closed ones fail
            await asyncio.sleep(0.2)
            return len(table.page.streams), await first_event(phone)

    open_streams, (status, event) = serve(table, scenario)
    assert open_streams == 0
    assert status == 200 and event.startswith("data: {")


def test_every_address_of_one_ipv6_64_shares_one_share() -> None:
    shares = StreamShares(Share(per_address=2, per_network=3, total=10))
    for n in range(3):
        shares.take(object(), f"2001:db8:1:2::{n + 1}")
    with pytest.raises(Refused) as refused:
        shares.take(object(), "2001:db8:1:2:ffff::9")  # a fresh address, the same /64
    assert refused.value.status == 429
    assert "from this network (its /64) (3 at most; this address holds 0)" in str(refused.value)
    shares.take(object(), "2001:db8:1:3::1")  # the next /64 is another client


def test_the_table_s_streams_have_a_limit_and_past_it_a_503_in_words() -> None:
    shares = StreamShares(Share(per_address=1, per_network=1, total=2))
    shares.take(object(), "10.0.0.1")
    shares.take(object(), "10.0.0.2")
    with pytest.raises(Refused) as refused:
        shares.take(object(), "10.0.0.3")
    assert refused.value.status == 503
    assert (
        str(refused.value) == "this table serves as many live pages as it can (2): try again later"
    )


def test_a_phone_s_privacy_addresses_cannot_take_the_hall_s_streams() -> None:
    """A phone holding every stream its three addresses may (R778): the /64's share is sized
    for a hall, so the other phones of the hall's /64 still follow live."""
    shares = StreamShares(STREAM_SHARE)
    for address in (f"{HALL}::a", f"{HALL}::b", f"{HALL}::c"):
        for _ in range(STREAM_SHARE.per_address):
            shares.take(object(), address)
    for n in range(STREAM_SHARE.per_network - 3 * STREAM_SHARE.per_address):
        shares.take(object(), f"{HALL}:1::{n + 1:x}")  # the hall's honest phones and laptops
    with pytest.raises(Refused) as refused:
        shares.take(object(), f"{HALL}:2::1")
    assert str(refused.value) == (
        f"too many live pages open from this network (its /64) ({STREAM_SHARE.per_network} at "
        "most; this address holds 0): this page checks every few seconds instead"
    )
    shares.take(object(), "10.0.0.1")  # another network's phone still follows live


def test_a_phone_whose_64_is_full_is_told_so_and_reads_the_state(tmp_path: Path) -> None:
    """The polling the page falls back on (R767, R778): a phone refused a stream because other
    devices of its /64 hold them all still reads the table from ``/api/state``, which no share
    limits."""
    table = LiveTable(tmp_path)
    held = STREAM_SHARE.per_network // STREAM_SHARE.per_address
    for n in range(held):  # another device, on the phone's /64 (::/64, as ::1 is)
        for _ in range(STREAM_SHARE.per_address):
            table.page.streams.take(object(), f"::{n + 2:x}")

    async def scenario() -> tuple[tuple[int, str], list[tuple[int, Any]]]:
        server = TestServer(make_app(table.page), host="::1")
        async with TestClient(server) as client, Phone(client, address="::1") as phone:
            try:
                refused = await first_event(phone)
                reads = []
                for _ in range(2):  # the page's polls, every 3 s: the table moves between them
                    response = await phone.get("/api/state")
                    reads.append((response.status, await response.json()))
                    seen.append(json.loads(table.page.text))
                    table.buttons("go")
                return refused, reads
            finally:
                await table.page.stop()

    seen: list[Any] = []
    (status, event), reads = asyncio.run(scenario())
    assert status == 200 and "event: refused" in event
    assert json.loads(event.split("data: ", 1)[1]) == {
        "error": f"too many live pages open from this Wi-Fi "
        f"({STREAM_SHARE.per_network} at most; this phone holds 0): this page checks every few "
        "seconds instead"
    }
    assert reads == [(200, state) for state in seen] and seen[0] != seen[1]
    table.close()


@pytest.mark.parametrize(
    ("address", "keys"),
    [
        ("192.168.1.7", ("192.168.1.7", "192.168.1.7")),
        ("::ffff:192.168.1.7", ("192.168.1.7", "192.168.1.7")),
        ("2001:db8:1:2:a:b:c:d", ("2001:db8:1:2:a:b:c:d", "2001:db8:1:2::/64")),
        ("fe80::1%eth0", ("fe80::1", "fe80::/64")),
        ("", ("", "")),
    ],
)
def test_a_client_is_counted_by_its_address_and_its_network(
    address: str, keys: tuple[str, str]
) -> None:
    assert client_keys(address) == keys


# --- finding 4: the wrong-code limit per address only ----------------------------------------


HALL = "2001:db8:0:1"  # a whole IPv6 hall's /64: every phone on its Wi-Fi has an address in it
SEATS = ("A", "B", "C", "D")


def new_access() -> tuple[Access, list[float]]:
    clock = [0.0]
    access = Access(clock=lambda: clock[0])
    access.follow(1)
    return access, clock


def ask(access: Access, code: str, address: str, token: str | None = None) -> PlaceRequest:
    return access.ask(code, "A", seats=SEATS, officials=(), address=address, token=token)


def refusal(access: Access, code: str, address: str) -> str:
    with pytest.raises(AccessError) as refused:
        ask(access, code, address)
    return str(refused.value)


def test_a_device_s_wrong_codes_never_keep_the_right_code_out_of_its_64() -> None:
    """The audit: one device sending wrong codes from the hall's /64 (a fresh privacy address for
    each) locked every phone of the hall out for a minute, again and again (R776)."""
    access, _ = new_access()
    for n in range(3 * MAX_WRONG_PER_NETWORK):
        assert refusal(access, "WRONG1", f"{HALL}::{n + 1:x}").startswith("that is not the join")
    honest = ask(access, access.code, f"{HALL}:a:b:c:d")  # a phone of the same hall
    assert honest.place == "A"


def test_an_address_past_its_own_five_is_refused_before_its_code_is_looked_at() -> None:
    access, clock = new_access()
    for _ in range(MAX_WRONG):
        refusal(access, "WRONG1", f"{HALL}::7")
    assert refusal(access, access.code, f"{HALL}::7") == (
        "too many wrong codes from this phone: wait 60 s, then type the code on the table's "
        "display again"
    )
    assert ask(access, access.code, f"{HALL}::8").place == "A"  # its neighbour is not refused
    clock[0] += WRONG_WINDOW
    assert ask(access, access.code, f"{HALL}::7").place == "A"


def test_in_a_64_past_its_share_a_wrong_code_ends_its_address_s_tries_for_the_minute() -> None:
    """A /64 past its 20 refuses nobody; it tightens its addresses: one wrong code each."""
    access, clock = new_access()
    for n in range(MAX_WRONG_PER_NETWORK):  # four addresses, five each: the /64's twenty
        refusal(access, "WRONG1", f"{HALL}::{n // MAX_WRONG + 1:x}")
    assert refusal(access, "WRONG1", f"{HALL}::99") == (
        "that is not the join code on the table's display, and too many wrong codes came from "
        "this Wi-Fi in the last minute: wait 60 s, then try again"
    )
    assert refusal(access, access.code, f"{HALL}::99").startswith(
        "too many wrong codes from this phone: wait 60 s, then type the code on the table's "
        "display again"
    )
    assert ask(access, access.code, f"{HALL}::100").place == "A"  # the right code still passes
    clock[0] += WRONG_WINDOW
    assert ask(access, access.code, f"{HALL}::99").place == "A"


def test_a_64_of_k_addresses_has_at_most_20_plus_k_codes_looked_at_in_a_minute() -> None:
    """The bound the brute-force arithmetic counts on (R776): every address of the /64 tries
    until it is refused, and only 20 + one per address are compared with the code."""
    access, _ = new_access()
    addresses = 50
    looked_at = 0
    for n in range(addresses):
        for _ in range(2 * MAX_WRONG):
            looked_at += refusal(access, "WRONG1", f"{HALL}::{n + 1:x}").startswith("that is not")
    assert looked_at <= MAX_WRONG_PER_NETWORK + addresses
    assert looked_at > addresses  # the first addresses had their five each


def test_a_64_flooded_from_thousands_of_addresses_stays_crowded_in_bounded_memory() -> None:
    """Every fresh address's wrong code is remembered, so a flood is bounded by forgetting the
    least recently tried; the flooded /64, tried at every code, is never what is forgotten."""
    limit = WindowLimit(clock=lambda: 0.0, share=Share(5, 20, 64), window=60.0)
    left, remembered = [], []
    for n in range(2000):
        left.append(limit.miss(f"{HALL}::{n + 1:x}"))
        remembered.append(len(limit))
    assert max(remembered) <= 64
    assert left[:20] == [4] * 20 and left[20:] == [0] * 1980  # crowded after its twenty


def test_an_ipv4_address_is_its_own_network_and_waits_after_its_own_five() -> None:
    limit = WindowLimit(clock=lambda: 0.0, share=Share(5, 20, 256), window=60.0)
    for _ in range(5):
        assert limit.wait("10.0.0.1") is None
        limit.miss("10.0.0.1")
    assert limit.wait("10.0.0.1") == 60.0
    assert limit.wait("10.0.0.2") is None


# --- the audit of issue 19: requests held in the dealer's queue -------------------------------


def test_asking_again_keeps_the_first_time_so_the_request_runs_out_on_time() -> None:
    """The audit: a bystander with the code re-asked every few seconds with the same cookie, and
    his request never ran out: he held the dealer's queue for good (R777)."""
    access, clock = new_access()
    request = ask(access, access.code, "10.0.0.9")
    for _ in range(5):
        clock[0] += 10.0
        request = ask(access, access.code, "10.0.0.9", token=request.token)
    assert access.waiting(request.token) is not None  # 50 s after the first ask
    clock[0] += ASK_FOR - 50.0 + 0.5
    assert access.requests == []
    assert access.lapsed(request.token) is not None  # its phone is told it ran out


def test_a_whole_table_of_phones_on_one_ipv6_64_waits_at_once() -> None:
    """A hall's Wi-Fi is one /64: every seat of a six-seat table asking at a match's start waits
    for the dealer, and the /64's share leaves places for the other networks (R777)."""
    access, _ = new_access()
    seats = ("A", "B", "C", "D", "E", "F")
    for n, seat in enumerate(seats):
        access.ask(access.code, seat, seats=seats, officials=(), address=f"{HALL}::{n + 1:x}",
                   token=None)  # fmt: skip
    with pytest.raises(AccessError) as refused:
        ask(access, access.code, f"{HALL}::99")
    assert str(refused.value) == (
        f"{WAITING_PER_NETWORK} phones on this Wi-Fi are already waiting for the dealer: try "
        f"again once the dealer has answered one, or in {ASK_FOR:.0f} s"
    )
    for n in range(MAX_WAITING - WAITING_PER_NETWORK):  # phones on other networks still ask
        assert ask(access, access.code, f"10.0.0.{n + 1}").place == "A"
    assert len(access.requests) == MAX_WAITING


def test_one_address_holds_one_waiting_request_whatever_its_cookies() -> None:
    access, _ = new_access()
    ask(access, access.code, f"{HALL}::5")
    with pytest.raises(AccessError, match="a phone on this connection is already waiting for"):
        ask(access, access.code, f"{HALL}::5")  # no cookie: another browser on the device
    assert len(access.requests) == WAITING_PER_ADDRESS


# --- finding 4: the Origin check trusted the Host ---------------------------------------------


def test_a_rebinding_page_s_request_is_refused_by_its_host(table: LiveTable) -> None:
    """A page at evil.example rebound to the table's address sends Host and Origin that agree:
    the Host, a name the table does not serve, refuses it before the code is tried."""
    code = table.page.access.code

    async def scenario(client: Client) -> list[tuple[int, str]]:
        answers = []
        for method, path, body in (("GET", "/api/state", None),
                                   ("POST", "/api/join", {"code": code, "seat": "A"})):  # fmt: skip
            response = await client.request(
                method,
                path,
                json=body,
                headers={"Host": "evil.example:8080", "Origin": "http://evil.example:8080"},
            )
            answers.append((response.status, (await response.json())["error"]))
        return answers

    answers = serve(table, scenario)
    refused = (
        MISDIRECTED,
        "this page is not served as 'evil.example': open it as localhost or by its address; or "
        "add it to [web] names in the table's config",
    )
    assert answers == [refused, refused]
    assert table.page.access.requests == []


def test_a_post_without_an_origin_is_refused(table: LiveTable) -> None:
    async def scenario(client: Client) -> tuple[int, str]:
        response = await client.post("/api/join", json={"code": "X", "seat": "A"})
        return response.status, (await response.json())["error"]

    assert serve(table, scenario) == (
        403,
        "a change without an Origin header is refused: use the table's own page",
    )


def test_a_name_in_web_names_is_served(tmp_path: Path) -> None:
    table = LiveTable(tmp_path)
    table.page.guard = type(table.page.guard)(
        frozenset({"localhost", "table7.local"}), "http", own_page="the table's own page"
    )

    async def scenario(client: Client) -> int:
        response = await client.get("/api/state", headers={"Host": "table7.local:8080"})
        return response.status

    assert serve(table, scenario) == 200
    table.close()
