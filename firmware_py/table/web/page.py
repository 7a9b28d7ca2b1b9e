"""The table's web page as the daemon holds it: served on the daemon's own loop (``start``,
``stop``), its shared state (state.py) fed every view the table shows.

``listen`` opens the socket before the daemon starts (like the hardware), so a port in use is
one line at the start, not a failure later.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass

from firmware_py.table.web.app import make_app
from firmware_py.table.web.errors import WebListenError
from firmware_py.table.web.serving import (
    Serving,
    open_socket,
    start_serving,
    stop_serving,
    where,
)
from firmware_py.table.web.state import (
    NOTHING_GIVEN,
    NOTICE_FOR,
    SEAT_COOKIE,
    STREAM_SHARE,
    Enter,
    TablePageState,
)

log = logging.getLogger("gametable")

__all__ = [  # the page's names, where they were before state.py (issue 27)
    "NOTHING_GIVEN",
    "NOTICE_FOR",
    "SEAT_COOKIE",
    "STREAM_SHARE",
    "Enter",
    "TablePage",
    "listen",
]


def listen(host: str, port: int) -> socket.socket:
    """The page's listening socket, opened before the daemon starts (like the hardware)."""
    try:
        return open_socket(host, port)
    except OSError as error:
        # asyncio's "(while attempting to bind on address (...))" names the address again, in
        # Python's words (as the director's page's listen drops it)
        why = str(error.strerror or error).split(" (while attempting")[0]
        raise WebListenError(
            f"web.listen, web.port: cannot listen on {where(host, port)}: {why} (another "
            "program on that port? under systemd, see docs/web.md)"
        ) from None


def _nothing() -> None:
    """A stopped page's ``wake``: there is no table left to redraw."""


@dataclass(slots=True)
class TablePage(TablePageState):
    """The page as the daemon serves it: its shared state (state.py), with its app started on
    the daemon's loop and stopped with the daemon."""

    _serving: Serving | None = None

    async def start(self, enter: Enter, wake: Callable[[], None] = lambda: None) -> None:
        """Serve on the listening socket, taking entries with ``enter``; ``wake`` redraws."""
        self.enter, self.wake = enter, wake
        self._serving = await start_serving(make_app(self), self.sock, limits=self.limits)
        log.info("event=web_listening port=%d", self.port)

    async def stop(self) -> None:
        self.closed = True
        for watcher in self._watchers:
            watcher.set()  # every open event stream ends
        await stop_serving(self._serving, self.sock)
        self._serving = None
        # Let go of the table: aiohttp keeps the middleware chains it built, each with its
        # Application (which holds this page), for the life of the process (an lru_cache of
        # 1 024); through these the table's daemon, journal and sockets would stay too.
        self.enter, self.wake = None, _nothing
