"""For the day's page tests (issue 27): a day of two events, each a tournament record of its
own, and the day's page on a free port of 127.0.0.1 with aiohttp's test client."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import CookieJar
from aiohttp.test_utils import TestClient, TestServer

from firmware_py.director.hub.page.day import DayPages, day_app, day_pages
from firmware_py.director.hub.page.server import listen
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.hub.wire.refusals import HubRefusals
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TournamentDB
from tests.hub_page_helpers import NOW, PASSWORD, make_record

T = TypeVar("T")
EVENTS = (("combo4-junior", "Combo 4 Junior"), ("combo4-senior", "Combo 4 Senior"))


def make_day(folder: Path, now: str = NOW) -> Path:
    """A day of two events, each round 1 paired at tables 1 and 2 of its own record; tables
    1-2 play for the first event, 3-4 for the second; the director's password beside the
    day; ``now``: when it was all made (a screenshot's day: the real time)."""
    path = folder / "day.sqlite"
    with DayRecord.create(
        path, name="Spring League", time_zone="America/Chicago", now=now, by="director"
    ) as day:
        for slug, name in EVENTS:
            record = make_record(folder / f"{slug}.sqlite", password=None, now=now)
            with TournamentDB.open(record) as opened:
                opened.set_venue(name=name, now=now, by="director")
            day.add_event(slug, name, record, now=now, by="director")
        day.assign([1, 2], EVENTS[0][0], now=now, by="director", reason="the junior hall")
        day.assign([3, 4], EVENTS[1][0], now=now, by="director", reason="the senior hall")
    store_password(path, PASSWORD)
    return path


@contextmanager
def opened_day(path: Path, board: LiveBoard | None = None) -> Iterator[DayPages]:
    day = DayRecord.open(path)
    events = day.open_events()
    clock = [0.0]
    try:
        yield day_pages(
            day,
            events,
            board or LiveBoard(),
            HubRefusals(),
            sock=listen("127.0.0.1", 0),
            now=lambda: NOW,
            clock=lambda: clock[0],
        )
    finally:
        for record in events.values():
            record.close()
        day.close()


def serve_day(pages: DayPages, scenario: Callable[[TestClient[Any, Any]], Awaitable[T]]) -> T:
    async def run() -> T:
        server = TestServer(day_app(pages), host="127.0.0.1")
        await server.start_server()
        jar = CookieJar(unsafe=True, treat_as_secure_origin=[server.make_url("/")])
        async with TestClient(server, cookie_jar=jar) as client:
            try:
                return await scenario(client)
            finally:
                pages.close()
                pages.lobby.sock.close()

    return asyncio.run(run())
