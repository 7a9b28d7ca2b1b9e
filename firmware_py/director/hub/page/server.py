"""The director's page as the hub holds it: served on the hub's own loop, told at once when
the live board changes, so that every open page's event stream sends the tables that changed.

``listen`` opens the socket (and ``tls`` loads the certificate) before the hub starts, so a
port in use or a bad certificate is one line at the command, not a failure later.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_py.director.hub.page.board import LiveBoard
from firmware_py.director.hub.page.privacy import PublicNames
from firmware_py.director.hub.page.session_file import SessionFile, sessions_path
from firmware_py.director.hub.page.sessions import DirectorSessions
from firmware_py.director.hub.refusals import HubRefusals
from firmware_py.director.tournament_db import TournamentDB
from firmware_py.table.web.guard import Share, SiteGuard, StreamShares
from firmware_py.table.web.serving import Serving, open_socket, start_serving, stop_serving, where
from firmware_py.user_files import UserFileError, require_regular_file

log = logging.getLogger("gametable")

# Open pages at once: the director's, a deputy's, a projector, the public; from one address a
# laptop with a few tabs, never the whole of them (R188), and from one IPv6 /64 twice that (R768).
STREAM_SHARE = Share(per_address=8, per_network=16, total=64)
MAX_WATCHERS_PER_ADDRESS = STREAM_SHARE.per_address


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
class DirectorPage:
    """What the page's handlers share: the record, the board, the staff's sessions."""

    sock: socket.socket
    record: TournamentDB
    board: LiveBoard
    now: Callable[[], str]  # the hub's clock: UTC, ISO 8601, for the record's entries
    tls: ssl.SSLContext | None = None
    after_change: Callable[[], None] = lambda: None  # the hub publishes new pairings at once
    clock: Callable[[], float] = time.monotonic  # for the login limit
    # the wall clock: the sessions' ends, kept over a restart (R813), and the problem queue's
    # "silent" and "since" (problems.py)
    wall: Callable[[], float] = time.time
    # the names the page is opened by, besides any IP address (R722): cli.served_names
    names: frozenset[str] = frozenset({"localhost"})
    # the decisions the hub could not apply (the hub's own list, shared): the problem queue's
    refusals: HubRefusals = field(default_factory=HubRefusals)
    seen_reports: set[str] = field(default_factory=set)  # refused results marked seen (R804)
    public_names: PublicNames = PublicNames.TEAMS  # what /public shows of people (R817)
    sessions: DirectorSessions = field(init=False)
    guard: SiteGuard = field(init=False)  # every request's Host, every change's Origin
    streams: StreamShares = field(init=False)
    closed: bool = False
    notices: dict[str, str] = field(default_factory=dict)  # session key -> one-shot notice
    _watchers: set[asyncio.Event] = field(default_factory=set)
    _serving: Serving | None = None

    def __post_init__(self) -> None:
        self.sessions = DirectorSessions(
            clock=self.clock, wall=self.wall, file=SessionFile(sessions_path(self.record.path))
        )
        self.guard = SiteGuard(
            self.names,
            self.scheme,
            own_page="the hub's own page",
            add_name="or start the hub with --page-name {name}",
        )
        self.streams = StreamShares(
            STREAM_SHARE,
            what="pages",
            advice="close one and reload",
            network_advice="reload later",
            server="the hub",
        )

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    @property
    def scheme(self) -> str:
        return "http" if self.tls is None else "https"

    async def start(self) -> None:
        from firmware_py.director.hub.page.app import make_app  # its handlers import this

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

    def changed(self) -> None:
        """The board changed: wake every open event stream."""
        for watcher in self._watchers:
            watcher.set()

    def watch(self, address: str) -> asyncio.Event:
        """A new open page's wake-up, or Refused in words: the hub's share, or its client's."""
        watcher = asyncio.Event()
        self.streams.take(watcher, address)
        self._watchers.add(watcher)
        return watcher

    def unwatch(self, watcher: asyncio.Event) -> None:
        self._watchers.discard(watcher)
        self.streams.give_back(watcher)
