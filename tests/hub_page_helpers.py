"""For the director's page tests: a tournament record, the page on a free port of 127.0.0.1
with aiohttp's test client, a table's state as a table sends it, staff accounts, and a
logged-in director or staff member."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import ClientResponse, ClientSession, CookieJar
from aiohttp.test_utils import TestClient, TestServer

from firmware_py.director.hub.page.app import COOKIE, make_app
from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.staff import Role, StaffRecord, hash_new_password
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config

T = TypeVar("T")
NOW = "2026-05-09T09:00:00+00:00"
NOW_SHOWN = "Sat 9 May 2026, 09:00 UTC"  # NOW as the page shows it, in a record without a zone
PASSWORD = "correct horse battery"
TEAMS = (
    Entrant("Eagles", "Lincoln", ("Ann", "Bo")),
    Entrant("Hawks", "Adams", ("Cy", "Di")),
    Entrant("Owls", "Lincoln", ("Ed",)),
    Entrant("Ravens", "", ()),
)


def make_record(path: Path, *, password: str | None = PASSWORD, now: str = NOW) -> Path:
    """A Combo 4 tournament of four teams, three rounds, round 1 paired: tables 1 and 2;
    ``now``: when it was made and paired (a screenshot's record: the real time)."""
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with (
        TournamentDB.create(path, config, TEAMS, now=now, by="director") as record,
        record.transaction() as tournament,
    ):
        record.add_round(tournament.pair(1), tournament.plan(1), now=now, by="director")
    if password is not None:
        store_password(path, password)
    return path


def state(table: int = 1, **changes: Any) -> bytes:
    """A table's state as firmware_py/table/uplink.table_state makes it."""
    data: dict[str, Any] = {
        "table": table,
        "family": "geoplunge",
        "session": {"action": "match.start", "round": 1, "minutes": 20},
        "game": "G3 Border-Up",
        "in_game": True,
        "screen": {"title": "G3 12:41", "big": "0:0", "lines": [], "footer": "", "alert": None},
        "scores": {"A": 20, "B": 10},
        "clock": "12:41",
        "lights": {"A": "off", "B": "plunging"},
        "saved": True,
    }
    data.update(changes)
    return json.dumps(data).encode()


def director_page(
    record: TournamentDB, board: LiveBoard | None = None, *, names: tuple[str, ...] = ()
) -> DirectorPage:
    """The page on 127.0.0.1, opened as localhost, by its address, or as one of ``names``."""
    clock = [0.0]
    return DirectorPage(
        listen("127.0.0.1", 0),
        record,
        board or LiveBoard(),
        lambda: NOW,
        clock=lambda: clock[0],
        names=frozenset({"localhost", *names}),
    )


def serve(page: DirectorPage, scenario: Callable[[TestClient[Any, Any]], Awaitable[T]]) -> T:
    async def run() -> T:
        server = TestServer(make_app(page), host="127.0.0.1")
        await server.start_server()
        # like Chromium (R181): a Secure cookie is kept and sent back on http://127.0.0.1
        jar = CookieJar(unsafe=True, treat_as_secure_origin=[server.make_url("/")])
        async with TestClient(server, cookie_jar=jar) as client:
            try:
                return await scenario(client)
            finally:
                await page.stop()

    return asyncio.run(run())


def origin(client: TestClient[Any, Any]) -> dict[str, str]:
    return {"Origin": str(client.make_url("/").origin())}


async def log_in(client: TestClient[Any, Any], password: str = PASSWORD, name: str = "") -> str:
    """Log in as the director (or the staff account ``name``); the CSRF token of the forms."""
    form = {"password": password, "name": name}
    answer = await client.post("/login", data=form, headers=origin(client))
    assert answer.status == 200, await answer.text()  # the redirect, followed, to the page
    return csrf_of(await answer.text())


async def cookie_of_login(
    client: ClientSession, port: int, password: str = PASSWORD, name: str = ""
) -> dict[str, str]:
    """A login on the page at 127.0.0.1:``port`` from a plain client (whose jar would not keep
    a Secure cookie over http): the ``Cookie`` header to send with each request."""
    base = f"http://127.0.0.1:{port}"
    answer = await client.post(
        f"{base}/login",
        data={"password": password, "name": name},
        headers={"Origin": base},
        allow_redirects=False,
    )
    assert answer.status == 303, await answer.text()
    return {"Cookie": f"{COOKIE}={answer.cookies[COOKIE].value}"}


def add_staff(record: TournamentDB, name: str, role: Role, password: str | None = None) -> str:
    """A staff account in the record, added by the director; its password."""
    password = password or f"{name}'s own password"
    StaffRecord(record).add(name, role, hash_new_password(password), now=NOW, by="director")
    return password


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, "no form with a CSRF token on the page"
    return found.group(1)


async def error_line(answer: ClientResponse) -> str:
    found = re.search(r'class="error" role="alert">([^<]*)<', await answer.text())
    assert found is not None, "no error line on the page"
    return found.group(1)


async def problem_once_heard(
    http: ClientSession,
    url: str,
    headers: dict[str, str],
    send: Callable[[], object],
    kind: str,
) -> list[dict[str, Any]]:
    """The problems of ``kind`` on ``url`` (the page's /api/problems) once there are any,
    ``send`` called again each time (a table's decision published until the hub hears it: it may
    not have subscribed yet). The caller bounds the wait (``asyncio.timeout``)."""
    while True:
        await asyncio.to_thread(send)
        async with http.get(url, headers=headers) as answer:
            problems: list[dict[str, Any]] = (await answer.json())["problems"]
        found = [problem for problem in problems if problem["kind"] == kind]
        if found:
            return found
        await asyncio.sleep(0.1)
