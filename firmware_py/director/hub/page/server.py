"""The director's page as the hub holds it: served on the hub's own loop, told at once when
the live board changes, so that every open page's event stream sends the tables that changed.

``listen`` opens the socket (and ``tls`` loads the certificate) before the hub starts, so a
port in use or a bad certificate is one line at the command, not a failure later.
"""

from __future__ import annotations

import logging
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

from firmware_py.director.hub.page.app import make_app
from firmware_py.director.hub.page.day import DayPages, day_app
from firmware_py.director.hub.page.state import (
    MAX_WATCHERS_PER_ADDRESS,
    STREAM_SHARE,
    DirectorPageState,
)
from firmware_py.table.web.serving import Serving, open_socket, start_serving, stop_serving, where
from firmware_py.user_files import UserFileError, require_regular_file

log = logging.getLogger("gametable")

__all__ = [  # with the streams' share, in state.py now and still imported from here
    "MAX_WATCHERS_PER_ADDRESS",
    "STREAM_SHARE",
    "DayPage",
    "DirectorPage",
    "PageSetupError",
    "listen",
    "parse_listen",
    "tls",
]


class PageSetupError(Exception):
    """The page cannot listen or load its certificate; ``str()`` is one line naming the option."""


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6), port 0 to 65535 (0: any free port)."""
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isascii() or not port.isdecimal():
        raise PageSetupError(f"--page {text}: expected HOST:PORT, like 127.0.0.1:8080, or off")
    if len(port) > len("65535") or not 0 <= int(port) <= 65535:  # never int() of 5,000 digits
        raise PageSetupError(f"--page {text}: expected a port from 0 to 65535")
    return host, int(port)


def listen(host: str, port: int) -> socket.socket:
    try:
        return open_socket(host, port)
    except (OSError, OverflowError) as error:
        why = (error.strerror if isinstance(error, OSError) else None) or str(error)
        why = why.split(" (while attempting")[0]  # the addition names the address again
        raise PageSetupError(f"--page {host}:{port}: cannot listen there: {why}") from None


def tls(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    for option, path, holding in (
        ("--page-cert", cert, "a PEM certificate"),
        ("--page-key", key, "a PEM private key"),
    ):
        try:  # OpenSSL would wait forever on a FIFO (R947)
            require_regular_file(path, holding)
        except UserFileError as error:
            raise PageSetupError(f"{option}: {error}") from None
    try:
        context.load_cert_chain(cert, key)
    except ssl.SSLError as error:
        raise PageSetupError(
            f"--page-cert {cert}, --page-key {key}: expected a PEM certificate and its "
            f"private key ({error.reason or error})"
        ) from None
    except (OSError, ValueError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise PageSetupError(f"--page-cert {cert}, --page-key {key}: {why}") from None
    return context


@dataclass(slots=True)
class DirectorPage(DirectorPageState):
    """The page as the hub serves it: its shared state (state.py), with its app started on the
    hub's loop and stopped with the hub."""

    _serving: Serving | None = None

    async def start(self) -> None:
        self._serving = await start_serving(make_app(self), self.sock, self.tls)
        host, port = self.sock.getsockname()[:2]
        log.info(
            "event=page_listening url=%s://%s names=%s",
            self.scheme,
            where(host, port),
            ",".join(sorted(self.names)),
        )

    async def stop(self) -> None:
        self.closed = True
        self.changed()  # every open event stream ends
        await stop_serving(self._serving, self.sock)
        self._serving = None


@dataclass(slots=True)
class DayPage:
    """The page of a day of several events (``hub run --day``) as the hub serves it: the day's
    pages (``day.day_pages``: the day and each event's), started on the hub's loop."""

    pages: DayPages
    _serving: Serving | None = None

    @property
    def port(self) -> int:
        return self.pages.lobby.port

    def changed(self) -> None:
        """The board changed: every event's open grids hear it."""
        self.pages.changed()

    async def start(self) -> None:
        lobby = self.pages.lobby
        self._serving = await start_serving(day_app(self.pages), lobby.sock, lobby.tls)
        host, port = lobby.sock.getsockname()[:2]
        log.info(
            "event=page_listening url=%s://%s names=%s events=%s",
            lobby.scheme,
            where(host, port),
            ",".join(sorted(lobby.names)),
            ",".join(self.pages.events),
        )

    async def stop(self) -> None:
        self.pages.close()  # every open event stream ends
        await stop_serving(self._serving, self.pages.lobby.sock)
        self._serving = None
