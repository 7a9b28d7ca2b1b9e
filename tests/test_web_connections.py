"""The connections a page serves (issue 19, finding 1): one client cannot take them all, a
request's headers and body have deadlines, and an accept out of descriptors does not flood the
log. Against a real listening page (``serving.Serving``), from other addresses of 127.0.0.0/8."""

from __future__ import annotations

import asyncio
import gc
import gzip
import html
import json
import logging
import os
import subprocess
import sys
import time
import weakref
import zlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, web
from aiohttp.test_utils import TestClient, TestServer
from yarl import URL

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.web.serving import (
    CONNECTION_SHARE,
    ConnectionLimits,
    one_line_errors,
    whole_body,
)
from tests.hub_page_helpers import NOW, error_line, make_record
from tests.web_helpers import LiveTable

ROOT = Path(__file__).resolve().parent.parent
HALF_REQUEST = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # never the blank line
# a whole request's headers and one byte of its 100-byte body
SLOW_BODY = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"


Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def half_open(port: int, address: str, count: int) -> list[Connection]:
    """``count`` connections from ``address``, each half a request (a slowloris)."""
    opened = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        writer.write(HALF_REQUEST)
        opened.append((reader, writer))
    return opened


async def closed_by_server(reader: asyncio.StreamReader, within: float) -> bool:
    """Whether the page closed the connection within ``within`` seconds (what it sent first,
    if anything, read and dropped)."""
    try:
        await asyncio.wait_for(reader.read(), within)
        return True
    except ConnectionResetError:
        return True  # closed at once: a reset
    except TimeoutError:
        return False


async def get_state(port: int, address: str = "127.0.0.1") -> bytes:
    """An honest phone's ``GET /api/state`` on a fresh connection: the answer's status line."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    status = await reader.readline()
    writer.close()
    return status


def on_page(
    tmp_path: Path, limits: ConnectionLimits, scenario: Callable[[int], Awaitable[None]]
) -> None:
    table = LiveTable(tmp_path)
    table.page.limits = limits

    async def run() -> None:
        await table.page.start(enter=table.enter)
        try:
            await scenario(table.page.port)
        finally:
            await table.page.stop()

    try:
        asyncio.run(run())
    finally:
        table.close()


def test_one_address_holds_its_share_of_connections_and_no_more(tmp_path: Path) -> None:
    async def scenario(port: int) -> None:
        attack = await half_open(port, "127.0.0.2", CONNECTION_SHARE.per_address + 24)
        closed = await asyncio.gather(*(closed_by_server(r, 2.0) for r, _ in attack))
        assert sum(closed) == 24  # the idlest of its own, each as the next came
        assert (await get_state(port)).startswith(b"HTTP/1.1 200")

    on_page(tmp_path, ConnectionLimits(), scenario)


def test_a_connection_that_never_finishes_its_headers_is_closed_at_its_deadline(
    tmp_path: Path,
) -> None:
    async def scenario(port: int) -> None:
        ((half, _),) = await half_open(port, "127.0.0.2", 1)
        silent, _ = await asyncio.open_connection("127.0.0.1", port)
        started = time.monotonic()
        assert await closed_by_server(half, 5.0)
        assert await closed_by_server(silent, 5.0)
        assert time.monotonic() - started < 3.0

    on_page(tmp_path, ConnectionLimits(first_request_within=0.5), scenario)


def test_a_kept_alive_connection_left_idle_is_closed_after_its_limit(tmp_path: Path) -> None:
    async def scenario(port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert (await reader.readline()).startswith(b"HTTP/1.1 200")
        assert await closed_by_server(reader, 5.0)

    on_page(tmp_path, ConnectionLimits(first_request_within=30.0, idle_for=0.5), scenario)


def test_a_full_page_closes_its_idlest_connection_for_an_honest_phone(tmp_path: Path) -> None:
    async def scenario(port: int) -> None:
        attack = []
        for host in range(1, 41):  # 40 addresses, one connection each: the page's total
            attack += await half_open(port, f"127.0.1.{host}", 1)
        await asyncio.sleep(0.1)
        assert (await get_state(port)).startswith(b"HTTP/1.1 200")
        assert await closed_by_server(attack[0][0], 1.0)  # the oldest of them made room

    on_page(tmp_path, ConnectionLimits(share=CONNECTION_SHARE.__class__(16, 128, 40)), scenario)


def test_a_connection_still_sending_its_body_is_closed_for_an_honest_phone(
    tmp_path: Path,
) -> None:
    """A request whose body has not arrived is not yet being answered: a share full of them
    (slow bodies, 10 s each, reopened at once) closes the idlest for an honest phone, as it
    does a slowloris (an outside attack, issue 19: 8 addresses of a /64 kept the page from
    every other phone on it)."""

    async def scenario(port: int) -> None:
        attack = []
        for host in range(1, 41):  # 40 addresses, one slow body each: the page's total
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(f"127.0.1.{host}", 0)
            )
            writer.write(SLOW_BODY)
            attack.append((reader, writer))
        await asyncio.sleep(0.3)  # each is in its request, waiting for the rest of its body
        assert (await get_state(port)).startswith(b"HTTP/1.1 200")
        assert await closed_by_server(attack[0][0], 1.0)  # the oldest of them made room

    on_page(tmp_path, ConnectionLimits(share=CONNECTION_SHARE.__class__(16, 128, 40)), scenario)


def test_a_body_sent_a_byte_at_a_time_is_refused_at_its_deadline() -> None:
    async def echo(request: web.Request) -> web.Response:
        return web.Response(text=await request.text())

    async def scenario() -> tuple[int, str]:
        def refusal(request: web.Request, status: int, line: str) -> web.Response:
            return web.json_response({"error": line}, status=status)

        errors = one_line_errors(refusal, max_body=100, event="web_error", who="the page")
        app = web.Application(middlewares=[errors, whole_body(0.3)])
        app.router.add_post("/", echo)
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
            writer.write(b'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{"co')
            answer = b""
            while not answer.endswith(b"}"):  # the one line of JSON (the connection stays)
                answer += await asyncio.wait_for(reader.read(1024), 5.0)
            writer.close()
            status, _, body = answer.partition(b"\r\n")
            return int(status.split()[1]), body.rpartition(b"\r\n\r\n")[2].decode()

    status, line = asyncio.run(scenario())
    assert status == 408, line
    # what a phone on a slow Wi-Fi reads: "send it whole" told a player nothing to do (issue
    # 25's attack, finding 9)
    assert json.loads(line) == {
        "error": "the table did not get all of it within 0.3 s (a slow or dropped connection): "
        "try again"
    }


def test_a_client_that_leaves_mid_body_is_no_error_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Nobody is left to answer, and nothing went wrong at the table: no ERROR, no traceback
    (one address could otherwise write ~200 tracebacks a second to the log, no code needed)."""

    async def echo(request: web.Request) -> web.Response:
        return web.Response(text=await request.text())

    async def scenario() -> None:
        def refusal(request: web.Request, status: int, line: str) -> web.Response:
            return web.json_response({"error": line}, status=status)

        errors = one_line_errors(refusal, max_body=100, event="web_error", who="the page")
        app = web.Application(middlewares=[errors, whole_body(5.0)])
        app.router.add_post("/", echo)
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            for _ in range(3):
                _, writer = await asyncio.open_connection("127.0.0.1", client.port)
                writer.write(b'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{"co')
                await writer.drain()
                await asyncio.sleep(0.1)  # the handler waits for the body
                writer.close()
            await asyncio.sleep(0.2)

    with caplog.at_level(logging.INFO, logger="gametable"):
        asyncio.run(scenario())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


# --- a body marked compressed (issue 25, finding 5; R940) --------------------------------------

JOIN = b'{"code": "AAAAAA", "seat": "A"}'
REFUSED_GZIP = (
    "the request's body is marked Content-Encoding 'gzip': this page takes only a plain body: "
    "send it without Content-Encoding"
)


def bomb(inflated_mb: int) -> bytes:
    """A gzip body of a JSON object padded with ``inflated_mb`` MB of spaces (about 1 KB on the
    wire for each MB it inflates to)."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: the gzip format
    parts = [squeeze.compress(b'{"code": "AAAAAA", "seat": "A"')]
    parts += [squeeze.compress(b" " * 1_000_000) for _ in range(inflated_mb)]
    return b"".join([*parts, squeeze.compress(b"}"), squeeze.flush()])


async def post_marked(
    url: str, body: bytes, coding: str = "gzip", times: int = 1
) -> list[tuple[int, str]]:
    """``times`` POSTs of ``body`` marked ``Content-Encoding: coding``, as sent (never
    compressed by the client), from the page's own origin: each answer's status and line."""
    origin = str(URL(url).origin())
    headers = {"Origin": origin, "Content-Type": "application/json", "Content-Encoding": coding}
    answers = []
    async with ClientSession() as client:
        for _ in range(times):
            async with client.post(url, data=body, headers=headers) as answer:
                if answer.content_type == "application/json":  # the table's page, the APIs
                    line = (await answer.json())["error"]
                else:  # the director's page shows it on a page
                    line = html.unescape(await error_line(answer))
                answers.append((answer.status, line))
    return answers


def noisy(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the log holds that a person would have to read: warnings, errors, tracebacks."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


def test_a_body_marked_gzip_that_is_not_is_one_clear_line_and_nothing_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """200 such requests wrote 16,800 log lines, two tracebacks each, and answered 500."""
    answers: list[tuple[int, str]] = []

    async def scenario(port: int) -> None:
        answers.extend(await post_marked(f"http://127.0.0.1:{port}/api/join", JOIN, times=200))

    with caplog.at_level(logging.DEBUG):
        on_page(tmp_path, ConnectionLimits(), scenario)
    assert set(answers) == {(400, REFUSED_GZIP)}
    assert noisy(caplog) == []


def test_a_body_in_real_gzip_is_refused_unread_too(tmp_path: Path) -> None:
    """Nothing marked compressed is inflated, so nothing asks the dealer from a gzip body."""
    answers: list[tuple[int, str]] = []
    table = LiveTable(tmp_path)

    async def run() -> None:
        await table.page.start(enter=table.enter)
        try:
            url = f"http://127.0.0.1:{table.page.port}/api/join"
            code = table.page.access.code.encode()
            join = gzip.compress(b'{"code": "%s", "seat": "A"}' % code)
            answers.extend(await post_marked(url, join))
        finally:
            await table.page.stop()

    try:
        asyncio.run(run())
        assert answers == [(400, REFUSED_GZIP)]
        assert table.page.access.drawn(table.t)[0] is None  # no request on the OLED
    finally:
        table.close()


def test_a_gzip_bomb_is_refused_before_a_byte_of_it_is_inflated(tmp_path: Path) -> None:
    """1 MB on the wire that inflates to 1 GB: refused by its mark, whatever it holds (aiohttp
    would inflate it in the loop, a second and more of CPU each, to find it too large)."""
    answers: list[tuple[int, str]] = []
    body = bomb(1000)

    async def scenario(port: int) -> None:
        answers.extend(await post_marked(f"http://127.0.0.1:{port}/api/join", body, times=3))

    on_page(tmp_path, ConnectionLimits(), scenario)
    assert set(answers) == {(400, REFUSED_GZIP)}


@pytest.mark.parametrize("coding", ["deflate", "br", "zstd", "GZIP", "x-gzip, identity"])
def test_every_content_coding_but_identity_is_refused_by_name(tmp_path: Path, coding: str) -> None:
    answers: list[tuple[int, str]] = []

    async def scenario(port: int) -> None:
        answers.extend(await post_marked(f"http://127.0.0.1:{port}/api/join", JOIN, coding))

    on_page(tmp_path, ConnectionLimits(), scenario)
    assert answers == [(400, REFUSED_GZIP.replace("'gzip'", repr(coding.lower())))]


def test_a_body_marked_identity_is_read_as_plain(tmp_path: Path) -> None:
    answers: list[tuple[int, str]] = []

    async def scenario(port: int) -> None:
        answers.extend(await post_marked(f"http://127.0.0.1:{port}/api/join", JOIN, "identity"))

    on_page(tmp_path, ConnectionLimits(), scenario)
    assert answers[0][0] == 403  # read, and the code judged: a wrong one
    assert "code" in answers[0][1]


async def raw_join(port: int, marks: bytes) -> tuple[bytes, str]:
    """A join with the code on the OLED, as sent with the header lines ``marks``: the status
    line and the answer's one line."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: http://127.0.0.1:%d\r\n"
        b"Content-Type: application/json\r\nConnection: close\r\n%s\r\n" % (port, port, marks)
    )
    writer.write(b'a\r\n{"code": "\r\n0\r\n\r\n' if b"chunked" in marks else JOIN)
    answer = await reader.read()
    writer.close()
    status, _, body = answer.partition(b"\r\n")
    return status, body.rpartition(b"\r\n\r\n")[2].decode()


@pytest.mark.parametrize(
    ("marks", "coding"),
    [
        (b"Content-Encoding: identity\r\nContent-Encoding: gzip\r\n", "identity, gzip"),
        (b"Content-Encoding: identity\r\nContent-Encoding: br\r\n", "identity, br"),
    ],
)
def test_a_coding_in_a_second_content_encoding_header_is_refused_too(
    tmp_path: Path, marks: bytes, coding: str
) -> None:
    """Only the first header was looked at: a body marked identity, then gzip, was read."""
    answers: list[tuple[bytes, str]] = []

    async def scenario(port: int) -> None:
        answers.append(await raw_join(port, marks + b"Content-Length: %d\r\n" % len(JOIN)))

    on_page(tmp_path, ConnectionLimits(), scenario)
    line = REFUSED_GZIP.replace("'gzip'", repr(coding))
    assert answers == [(b"HTTP/1.1 400 Bad Request", json.dumps({"error": line}))]


def test_a_body_in_a_transfer_coding_but_chunked_is_refused_by_name(tmp_path: Path) -> None:
    """`Transfer-Encoding: gzip, chunked` was read as plain chunks, the gzip not looked at."""
    answers: list[tuple[bytes, str]] = []

    async def scenario(port: int) -> None:
        answers.append(await raw_join(port, b"Transfer-Encoding: gzip, chunked\r\n"))

    on_page(tmp_path, ConnectionLimits(), scenario)
    line = (
        "the request's body is marked Transfer-Encoding 'gzip, chunked': this page takes only "
        "a plain body: send it without Transfer-Encoding, or only chunked"
    )
    assert answers == [(b"HTTP/1.1 400 Bad Request", json.dumps({"error": line}))]


def test_a_body_marked_identity_twice_is_read_as_plain(tmp_path: Path) -> None:
    answers: list[tuple[bytes, str]] = []

    async def scenario(port: int) -> None:
        marks = b"Content-Encoding: identity, identity\r\nContent-Length: %d\r\n" % len(JOIN)
        answers.append(await raw_join(port, marks))

    on_page(tmp_path, ConnectionLimits(), scenario)
    assert answers[0][0] == b"HTTP/1.1 403 Forbidden"  # read, and the code judged: a wrong one


def test_the_director_s_page_refuses_a_body_marked_gzip_in_one_line_and_logs_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The same guard on the hub's page (R770): its login form, before any password."""
    answers: list[tuple[int, str]] = []

    async def run() -> None:
        with TournamentDB.open(make_record(tmp_path / "t.db")) as record:
            page = DirectorPage(listen("127.0.0.1", 0), record, LiveBoard(), lambda: NOW)
            await page.start()
            try:
                url = f"http://127.0.0.1:{page.port}/login"
                answers.extend(await post_marked(url, b"password=x", times=20))
                answers.extend(await post_marked(url, bomb(200)))
            finally:
                await page.stop()

    with caplog.at_level(logging.DEBUG):
        asyncio.run(run())
    assert set(answers) == {(400, REFUSED_GZIP)}
    assert noisy(caplog) == []


BAD_CHUNK = (
    b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b'Transfer-Encoding: chunked\r\n\r\n5\r\n{"coZZ\r\n\r\n'
)


def test_requests_aiohttp_cannot_read_are_one_log_line_a_minute_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A malformed chunk (or request line, or header) is the client's doing: aiohttp answers
    400 and logged an ERROR with a traceback for each, hundreds a second from anyone."""
    statuses: list[bytes] = []

    async def scenario(port: int) -> None:
        for _ in range(50):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(BAD_CHUNK)
            statuses.append(await reader.readline())
            writer.close()

    with caplog.at_level(logging.DEBUG):
        on_page(tmp_path, ConnectionLimits(), scenario)
    assert {status.split()[1] for status in statuses} == {b"400"}
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert len(logged) == 1
    assert (logged[0].exc_info, logged[0].levelname) == (None, "WARNING")
    assert logged[0].getMessage().startswith("event=web_bad_request reason=")
    assert "\n" not in logged[0].getMessage()


# --- out of descriptors: a page in its own process, with few -----------------------------------

SERVE = """
import asyncio, resource
from firmware_py.table.web.page import TablePage, listen

resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))  # as few as a test can afford

async def main() -> None:
    page = TablePage(listen("127.0.0.1", 0))
    await page.start(enter=lambda seat, name, value: None)
    print(page.port, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_half_open_connections_past_the_descriptors_leave_the_page_answering() -> None:
    """400 slowloris connections from 200 addresses, against a page that may open 256 files:
    an honest phone's /api/state is answered at once, and the log has no flood."""
    page = subprocess.Popen(
        [sys.executable, "-c", SERVE],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert page.stdout is not None
        port = int(page.stdout.readline())

        async def attack() -> tuple[bytes, float]:
            held: list[Any] = []
            for host in range(1, 201):
                held += await half_open(port, f"127.0.1.{host}", 2)
            await asyncio.sleep(0.5)
            started = time.monotonic()
            status = await asyncio.wait_for(get_state(port), 10.0)
            return status, time.monotonic() - started

        status, took = asyncio.run(attack())
        assert status.startswith(b"HTTP/1.1 200"), status
        assert took < 2.0
    finally:
        page.kill()
        _, errors = page.communicate()
    assert errors.count(b"out of system resource") == 0
    assert errors.count(b"\n") < 10, errors[-2000:]


class _Table:
    """A table behind a page: its ``enter`` is what the page holds of it."""

    def enter(self, seat: str, name: str, value: str) -> str | None:
        return None

    def wake(self) -> None:
        pass


def test_a_stopped_page_lets_go_of_its_table_though_aiohttp_keeps_its_app(
    tmp_path: Path,
) -> None:
    """aiohttp keeps each middleware chain it built, with its Application, for the process's
    life (an lru_cache): a page that held its table would keep the stopped table's daemon,
    journal and sockets with it (the soak's day grew by a table a match)."""
    gone = _served_then_stopped(tmp_path, _Table())
    gc.collect()
    assert gone() is None


def _served_then_stopped(tmp_path: Path, table: _Table) -> weakref.ref[_Table]:
    """A page started for ``table``, asked once (aiohttp builds its middleware chain), stopped;
    what is left of ``table`` once the caller's references are gone."""
    live = LiveTable(tmp_path)

    async def run() -> None:
        await live.page.start(enter=table.enter, wake=table.wake)
        try:
            assert (await get_state(live.page.port)).startswith(b"HTTP/1.1 200")
        finally:
            await live.page.stop()

    try:
        asyncio.run(run())
    finally:
        live.close()
    return weakref.ref(table)
