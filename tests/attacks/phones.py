"""Phones (honest and hostile) against the live table of ``live_table.py``, over real sockets.

Each phone has its own cookie jar and its own source address (any of 127.0.0.0/8, or an IPv6
address added to ``lo``); the dealer is ``live_table.py``'s UNIX socket."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

from aiohttp import ClientSession, CookieJar, TCPConnector

BASE = "http://127.0.0.1:18080"
BASE6 = "http://[::1]:18080"
CSRF = "X-Gametable-CSRF"


def dealer(command: str) -> Any:
    """One command to the live table's dealer (``press count``, ``code``, ``shown``...)."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect("/tmp/i19b/dealer.sock")
        sock.sendall(command.encode() + b"\n")
        sock.shutdown(socket.SHUT_WR)
        return json.loads(sock.makefile().read())


class Phone:
    def __init__(self, address: str = "127.0.0.1", base: str = BASE) -> None:
        self.base = base
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        self.session = ClientSession(
            cookie_jar=CookieJar(unsafe=True),
            connector=TCPConnector(local_addr=(address, 0), family=family, force_close=True),
        )
        self.csrf: str | None = None

    async def close(self) -> None:
        await self.session.close()

    async def __aenter__(self) -> Phone:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def post(self, path: str, body: Any, **headers: str) -> tuple[int, Any]:
        sent = {"Origin": self.base, **({CSRF: self.csrf} if self.csrf else {}), **headers}
        async with self.session.post(self.base + path, json=body, headers=sent) as response:
            return response.status, await _body(response)

    async def get(self, path: str, **headers: str) -> tuple[int, Any]:
        async with self.session.get(self.base + path, headers=headers) as response:
            return response.status, await _body(response)

    async def ask(self, seat: str, code: str | None = None) -> tuple[int, Any]:
        return await self.post("/api/join", {"code": code or dealer("code")["code"], "seat": seat})

    async def join(self, seat: str) -> dict[str, Any]:
        """Ask, and the dealer confirms this phone's number once it is on show."""
        status, body = await self.ask(seat)
        assert status == 202, (status, body)
        number = body["number"]
        for _ in range(300):  # the OLED's footer, not ``shown``: the code has 3 s of every 8
            if number in dealer("oled")["screen"]:
                await asyncio.sleep(1.2)
                if number in dealer("oled")["screen"]:
                    dealer("press count")
                    break
            await asyncio.sleep(0.1)
        _, me = await self.get("/api/me")
        self.csrf = me.get("csrf")
        return dict(me)

    async def enter(self, name: str, value: str) -> tuple[int, Any]:
        return await self.post("/api/entry", {"name": name, "value": value})


async def _body(response: Any) -> Any:
    text = await response.text()
    try:
        return json.loads(text)
    except ValueError:
        return text[:200]
