"""A Guesstimation table with its web page, for the page's tests: the table is recorded to a
journal as the daemon records it, and the page is told each view as the daemon tells it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import ClientResponse, ClientSession, CookieJar, TCPConnector
from aiohttp.test_utils import TestClient, TestServer

from firmware_py.table.controller import TableController, TableSettings
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable
from firmware_py.table.web.access import CODE_EVERY, CONFIRM_AFTER, REQUEST_SHOWN, Access
from firmware_py.table.web.app import CSRF_HEADER, make_app
from firmware_py.table.web.page import TablePage, listen
from tests.guesstimation_table_helpers import NAMES, settings

T = TypeVar("T")


class LiveTable:
    """Ann, Bo and Cy with the sample deck, on a journal, with the page fed every view."""

    def __init__(
        self, directory: Path, table_settings: TableSettings | None = None, **options: Any
    ) -> None:
        """Guesstimation's table with ``options``, or the table ``table_settings`` give."""
        options.setdefault("players", list(NAMES))
        options.setdefault("deck", "sample")
        self.journal = Journal.open(directory / "journal.db")
        self.levels: dict[str, bool] = {}
        self.t = 0.0
        self.recorded = RecordedTable.start(
            journal=self.journal,
            settings=table_settings or settings(**options),
            now=0.0,
            read_pin=lambda name: self.levels.get(name, False),
        )
        self.page = TablePage(listen("127.0.0.1", 0), clock=lambda: self.t)
        self.page.enter = self.enter
        self.page.wake = self.show  # as the daemon redraws the OLED when a phone asks
        self.show()

    @property
    def controller(self) -> TableController:
        return self.recorded.controller

    def show(self) -> None:
        self.page.publish(self.controller, self.controller.view(), saved=True)

    def enter(self, seat: str, name: str, value: str) -> str | None:
        self.t += 1.0
        refused = self.recorded.enter(seat, name, value, self.t)
        self.show()
        return refused

    def until_on_show(self, number: str) -> LiveTable:
        """The clock moved on (views shown as the daemon shows them) until the OLED shows the
        request ``number`` with time to read it and press: ``CONFIRM_AFTER`` on show, and
        LiveTable's press (0.5 s later) before the join code's part of the footer (R797)."""
        for _ in range(64):
            request, shown_for = self.page.access.drawn(self.t)
            wait = max(0.0, CONFIRM_AFTER - shown_for)
            shown = request is not None and request.number == number
            if shown and self.t % CODE_EVERY + wait <= REQUEST_SHOWN - 1:
                self.t += wait
                return self
            self.t = self.page.next_oled_change(self.t) + 0.001
            self.show()
        raise AssertionError(f"the OLED never showed {number} long enough to press")

    def buttons(self, *names: str) -> LiveTable:
        return self.inputs(*(f"console.{name}" for name in names))

    def inputs(self, *names: str) -> LiveTable:
        """Press and release each input (``console.yes``, ``A.stand``); the page sees the view."""
        for name in names:
            for active in (True, False):
                self.t += 0.5
                self.levels[name] = active
                self.recorded.edge(name, self.t, active, self.t)
            self.recorded.advance(self.t + 0.1)
        self.show()
        return self

    def pick(self, label: str) -> LiveTable:
        """On a choice: NEXT until ``label`` shows, then YES."""
        labels = [option.label for option in self.controller.prompt.options]
        assert label in labels, (label, labels)
        while self.controller.prompt.options[self.controller.cursor].label != label:
            self.buttons("next")
        return self.buttons("yes")

    def to_guessing(self) -> LiveTable:
        while self.controller.session.phase in ("first_leader", "question_roll"):
            self.buttons("go")
        return self.buttons("yes")

    def close(self) -> None:
        self.page.sock.close()
        self.journal.close()


async def until_pressable(access: Access, number: str, *, within: float = 30.0) -> None:
    """A dealer at a live table waits, on the loop's clock, until the OLED has shown ``number``
    a moment past ``CONFIRM_AFTER`` with a second of its turn left before the join code's
    part of the footer (R797): a press now confirms it."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + within
    while loop.time() < ends:
        now = access.clock()  # the page's own clock (a screenshot's may run ahead of the loop)
        shown, shown_for = access.drawn(now)
        on_show = shown_for >= CONFIRM_AFTER + 0.1 and now % CODE_EVERY <= REQUEST_SHOWN - 1.0
        if shown is not None and shown.number == number and on_show:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the OLED never showed {number} long enough to press")


def serve(table: LiveTable, scenario: Callable[[TestClient[Any, Any]], Awaitable[T]]) -> T:
    """Run ``scenario`` against the page's app with aiohttp's test client (its own server on a
    free port of 127.0.0.1, stopped when the scenario ends)."""

    async def run() -> T:
        async with TestClient(TestServer(make_app(table.page), host="127.0.0.1")) as client:
            try:
                return await scenario(client)
            finally:
                await table.page.stop()  # the event streams end with the server

    return asyncio.run(run())


class Phone:
    """One player's phone: its own cookies, on the test client's server, from ``address`` (any
    of 127.0.0.0/8 reaches the server on 127.0.0.1: another device, as the table sees it)."""

    def __init__(self, client: TestClient[Any, Any], address: str = "127.0.0.1") -> None:
        self.client = client
        self.session = ClientSession(
            cookie_jar=CookieJar(unsafe=True), connector=TCPConnector(local_addr=(address, 0))
        )
        self.csrf: dict[str, str] = {}

    async def __aenter__(self) -> Phone:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.session.close()

    def url(self, path: str) -> str:
        return str(self.client.make_url(path))

    @property
    def origin(self) -> str:
        return str(self.client.make_url("/")).rstrip("/")

    async def ask(self, table: LiveTable, seat: str, code: str | None = None) -> ClientResponse:
        """The phone asks for ``seat`` with the code on the OLED (202: it waits for COUNT)."""
        return await self.post("/api/join", {"code": code or table.page.access.code, "seat": seat})

    async def join(self, table: LiveTable, seat: str, code: str | None = None) -> ClientResponse:
        """The phone asks for ``seat`` and the dealer, reading the number, presses COUNT: the
        phone's ``/api/me`` (its seat and CSRF token), or the refusal of the request."""
        asked = await self.ask(table, seat, code)
        if asked.status != 202:
            return asked
        table.until_on_show((await asked.json())["number"]).buttons("count")
        me = await self.get("/api/me")
        csrf = (await me.json()).get("csrf")
        self.csrf = {CSRF_HEADER: csrf} if csrf else {}
        return me

    async def post(self, path: str, body: Any, **headers: str) -> ClientResponse:
        """A POST as the page sends it: JSON, from the page's own origin."""
        sent = {"Origin": self.origin, **self.csrf, **headers}
        return await self.session.post(self.url(path), json=body, headers=sent)

    async def guess(self, value: str) -> ClientResponse:
        return await self.post("/api/entry", {"name": "guess", "value": value})

    async def get(self, path: str) -> ClientResponse:
        return await self.session.get(self.url(path))
