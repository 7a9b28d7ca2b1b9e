"""What both web pages (the table's and the director's) install in their aiohttp applications:
the guard's Host and Origin checks before any handler, every refusal as one line, the security
headers, a session cookie set one way, and an event stream refused in words (R770). The checks
themselves are ``guard``'s; this is the glue, so each page's ``app`` lists only its routes.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import resource
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Middleware

from firmware_py.table.web.errors import Refused, refused_route
from firmware_py.table.web.guard import Share, SiteGuard, client_keys, cookie_attributes

log = logging.getLogger("gametable")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # reading: no Origin asked for
# Both pages: their own scripts and styles only, never framed, never sniffed.
CONTENT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def security_headers(referrer: str) -> dict[str, str]:
    """Every answer's headers; ``referrer`` is the page's Referrer-Policy."""
    return {
        "Content-Security-Policy": CONTENT_POLICY,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": referrer,
    }


def same_site(guard_of: Callable[[web.Request], SiteGuard]) -> Middleware:
    """A name the page serves (every request), and the page's own origin (every change),
    checked before any handler: a refused request costs no try of a code or password (R723,
    R769)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        guard = guard_of(request)
        host = request.headers.get("Host")
        guard.check_host(host)
        if request.method not in SAFE_METHODS:
            guard.check_origin(request.headers.get("Origin"), host)
        return await handler(request)

    return middleware


Refusal = Callable[[web.Request, int, str], web.StreamResponse]


def one_line_errors(
    refusal: Refusal, *, max_body: int, event: str, who: str, routes_doc: str = "docs/web.md"
) -> Middleware:
    """Every refusal as ``refusal(request, status, line)``; anything unexpected logged
    (``event=...``), never shown: ``who`` could not answer. A path no route takes is sent to
    ``routes_doc``, where the page's routes are listed."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except Refused as refused:
            return refusal(request, refused.status, str(refused))
        except web.HTTPRequestEntityTooLarge:
            return refusal(
                request, 413, f"the request is too large: expected at most {max_body} bytes"
            )
        except web.HTTPException as error:
            if error.status < 400:  # a redirect or "not modified" is an answer, not a refusal
                raise
            words = refused_route(
                error.status,
                error.reason,
                request.method,
                request.path,
                getattr(error, "allowed_methods", ()),
                routes_doc=routes_doc,
            )
            return refusal(request, error.status, words)
        except Exception:
            log.exception("event=%s path=%s", event, request.path)
            return refusal(request, 500, f"{who} could not answer that: its log says why")

    return middleware


def set_session_cookie(
    response: web.StreamResponse, name: str, token: str, *, secure: bool, max_age: int | None = None
) -> None:
    """A session's cookie, with the same attributes on both pages (``guard.cookie_attributes``)."""
    response.set_cookie(name, token, **cookie_attributes(secure=secure, max_age=max_age))


def add_headers(app: web.Application, headers: Mapping[str, str]) -> None:
    async def prepare(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(headers)

    app.on_response_prepare.append(prepare)


async def refused_stream(request: web.Request, message: str) -> web.StreamResponse:
    """An event stream's refusal as one event the page shows in words (R188, R767): a browser's
    EventSource reads nothing of an answer that is not 200 and says only that it failed."""
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
    )
    await response.prepare(request)
    refusal = json.dumps({"error": message})
    await response.write(f"retry: 60000\nevent: refused\ndata: {refusal}\n\n".encode())
    await response.write_eof()
    return response


def wants_events(request: web.Request) -> bool:
    """The client is a page's EventSource (which reads a refusal only as an event)."""
    return "text/event-stream" in request.headers.get("Accept", "")


# --- the servers -------------------------------------------------------------------------------


def open_socket(host: str, port: int) -> socket.socket:
    """A page's listening socket, opened before its program starts (so a port in use is one
    line at the command); OSError as the system says it."""
    return socket.create_server(
        (host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET
    )


def where(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


# --- the connections: shares, deadlines, and an accept that never floods (issue 19) ------------

# A connection that is not in a request must finish its next request's headers in time: a new
# one within FIRST_REQUEST_WITHIN of opening, a kept-alive one within IDLE_FOR of its last
# answer, however slowly it sends them (slowloris). A request's body is read within BODY_WITHIN.
FIRST_REQUEST_WITHIN = 10.0  # seconds
IDLE_FOR = 30.0  # seconds: a browser's kept-alive connection, between two reads of the page
BODY_WITHIN = 10.0  # seconds: a join or a guess is a few dozen bytes
# Open connections: a browser opens six at most to one server, and a hall on IPv6 may share a
# /64; the total stays below the process's file descriptors (RESERVED_FDS for the rest).
CONNECTION_SHARE = Share(per_address=16, per_network=128, total=512)
RESERVED_FDS = 128  # the journal, the OLED's bus, the scoreboard, GPIO, the broker, the logs
LOG_EVERY = 60.0  # seconds: a repeated failure is one log line in each
ACCEPT_RETRY = 0.1  # seconds: out of descriptors, wait before accepting again
# The accept failures that mean "out of a resource": asyncio logs each with a traceback.
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    share: Share = CONNECTION_SHARE
    first_request_within: float = FIRST_REQUEST_WITHIN
    idle_for: float = IDLE_FOR
    reserved_fds: int = RESERVED_FDS

    def total(self) -> int:
        """Connections open at most: the share's total, and fewer file descriptors than the
        process may open (``LimitNOFILE`` in the units)."""
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self.share.total
        return max(8, min(self.share.total, soft - self.reserved_fds))


@dataclass(eq=False, slots=True)
class _Connection:
    keys: tuple[str, str]  # its address and /64 (guard.client_keys)
    idle_since: float  # opened, or its last answer ended
    busy: int = 0  # requests being answered (headers read)
    reading: int = 0  # of those, still waiting for their body: not yet answered (whole_body)
    answered: bool = False  # the keep-alive limit applies from now on
    transport: asyncio.BaseTransport | None = None
    connecting: asyncio.Task[None] | None = None  # handing it to aiohttp (TLS: the handshake)

    def due(self, limits: ConnectionLimits) -> float | None:
        """When it is closed unless a request's headers arrive; None while one is answered."""
        if self.busy:
            return None
        return self.idle_since + (limits.idle_for if self.answered else limits.first_request_within)

    @property
    def gone(self) -> bool:
        if self.transport is not None:
            return self.transport.is_closing()
        return self.connecting is not None and self.connecting.done()

    def close(self) -> None:
        """At once: a reset, so its descriptor is free now (never a request being answered)."""
        if self.transport is not None:
            self.transport.abort()  # type: ignore[attr-defined]
        elif self.connecting is not None:
            self.connecting.cancel()  # the handshake's transport is closed with it


# a request's connection, for whole_body (its body is not yet an answer under way)
_CONNECTION = web.RequestKey("connection", _Connection)


@dataclass(slots=True)
class RareLog:
    """One line per ``LOG_EVERY`` for a failure that may repeat thousands of times a second,
    with how many were left out, at ``level``."""

    event: str
    level: int = logging.WARNING
    _next: float = 0.0
    _left_out: int = 0

    def __call__(self, now: float, **fields: object) -> None:
        if now < self._next:
            self._left_out += 1
            return
        words = " ".join(f"{key}={value}" for key, value in fields.items())
        log.log(self.level, "event=%s %s left_out=%d", self.event, words, self._left_out)
        self._next, self._left_out = now + LOG_EVERY, 0


class ServerLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's own log for one page (``logger=``): a request it could not read (a malformed
    request line, header or chunk: the client's doing) is one line, its reason without the
    traceback, at most one in ``LOG_EVERY`` with how many were left out. Each was an ERROR with
    a traceback, and anyone who reaches the page could send hundreds a second (R940)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__(HTTP_LOG, {})
        self.clock = clock
        self._next = 0.0
        self._left_out = 0

    def log(self, level: int, msg: object, *args: object, **kwargs: Any) -> None:
        if level < logging.WARNING:
            self.logger.log(level, msg, *args, **kwargs)
            return
        now = self.clock()
        if now < self._next:
            self._left_out += 1
            return
        error = kwargs.get("exc_info")
        said = str(error) if isinstance(error, BaseException) else str(msg) % args
        reason = " ".join(said.split())[:MAX_REASON_LOGGED]
        self.logger.warning("event=web_bad_request reason=%r left_out=%d", reason, self._left_out)
        self._next, self._left_out = now + LOG_EVERY, 0


MAX_REASON_LOGGED = 200  # characters of aiohttp's reason for a request it could not read
HTTP_LOG = logging.getLogger("gametable.http")  # aiohttp's server log, for both pages


class Serving:
    """An aiohttp application served on a listening socket by its own accept loop, so that each
    connection is admitted or refused by its address before aiohttp sees it (``loop.
    connect_accepted_socket``): shares per address and per /64, a total below the descriptors,
    deadlines for headers and idle connections (aiohttp has none for headers), and an accept
    that, out of descriptors, logs one line a minute instead of asyncio's thousands a second.

    When a share is full, the connection closed is the one idle longest (waiting for headers
    that a slowloris never finishes, or kept alive and unused) in that share; a connection in a
    request is never closed, and if every one in the share is, the new one is closed at once."""

    def __init__(
        self,
        runner: web.AppRunner,
        sock: socket.socket,
        tls: ssl.SSLContext | None,
        limits: ConnectionLimits,
    ) -> None:
        self.runner, self.sock, self.tls, self.limits = runner, sock, tls, limits
        self.total = limits.total()
        self._open: list[_Connection] = []
        self._by_handler: dict[object, _Connection] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._accept_failed = RareLog("web_accept_failed")
        self._refused = RareLog("web_connection_refused")

    def __len__(self) -> int:
        """Connections open now."""
        self._prune()
        return len(self._open)

    async def start(self) -> None:
        self.sock.setblocking(False)
        self._tasks = [asyncio.create_task(self._accept()), asyncio.create_task(self._watch())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for connection in self._open:
            if connection.transport is None:
                connection.close()  # still connecting: aiohttp never saw it
        with contextlib.suppress(Exception):
            await self.runner.cleanup()  # aiohttp closes the connections it serves
        with contextlib.suppress(OSError):
            self.sock.close()

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Outermost on the app: a connection in a request is busy (never closed for a share or
        a deadline); its answer ends the request and starts the keep-alive limit."""
        connection = self._by_handler.get(request.protocol)
        if connection is None:
            return await handler(request)
        connection.busy += 1
        request[_CONNECTION] = connection
        try:
            return await handler(request)
        finally:
            connection.busy -= 1
            connection.answered = True
            connection.idle_since = asyncio.get_running_loop().time()

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, peer = await loop.sock_accept(self.sock)
            except OSError as error:
                if error.errno in OUT_OF_RESOURCES:
                    self._accept_failed(loop.time(), error=errno.errorcode.get(error.errno, "?"))
                    self._prune()
                    self._close_idlest(self._open)
                    await asyncio.sleep(ACCEPT_RETRY)
                continue  # ECONNABORTED and the like: that client gave up
            self._admit(conn, str(peer[0]), loop.time())

    def _admit(self, conn: socket.socket, address: str, now: float) -> None:
        self._prune()
        keys = client_keys(address)
        if not self._make_room(keys):
            conn.close()
            self._refused(now, address=keys[0], open=len(self._open))
            return
        connection = _Connection(keys=keys, idle_since=now)
        self._open.append(connection)
        connection.connecting = asyncio.create_task(self._connect(connection, conn))

    async def _connect(self, connection: _Connection, conn: socket.socket) -> None:
        server = self.runner.server
        assert server is not None

        def handler() -> asyncio.BaseProtocol:
            protocol = server()
            self._by_handler[protocol] = connection
            return protocol

        conn.setblocking(False)
        loop = asyncio.get_running_loop()
        try:
            if self.tls is None:
                transport, _ = await loop.connect_accepted_socket(handler, conn)
            else:
                transport, _ = await loop.connect_accepted_socket(
                    handler,
                    conn,
                    ssl=self.tls,
                    ssl_handshake_timeout=self.limits.first_request_within,
                )
        except (OSError, TimeoutError, ssl.SSLError):
            conn.close()  # a handshake that failed or never finished
            return
        connection.transport = transport

    def _make_room(self, keys: tuple[str, str]) -> bool:
        """Room for one more from ``keys``: the idlest of a full share closed; False if none
        in it is idle (every one in a request)."""
        share = self.limits.share
        for index, limit in ((0, share.per_address), (1, share.per_network)):
            same = [c for c in self._open if c.keys[index] == keys[index]]
            if len(same) >= limit and not self._close_idlest(same):
                return False
        return len(self._open) < self.total or self._close_idlest(self._open)

    def _close_idlest(self, among: list[_Connection]) -> bool:
        """Close the connection idle longest: one not in a request, or one whose request's body
        has not arrived (a slow body is no more an answer under way than a slow header)."""
        idle = [connection for connection in among if connection.reading or not connection.busy]
        if not idle:
            return False
        idlest = min(idle, key=lambda connection: connection.idle_since)
        idlest.close()
        self._forget(idlest)
        return True

    async def _watch(self) -> None:
        """Close each connection past its deadline (checked a few times a deadline)."""
        limits = self.limits
        tick = min(1.0, limits.first_request_within / 4, limits.idle_for / 4)
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(tick)
            now = loop.time()
            self._prune()
            for connection in list(self._open):
                due = connection.due(limits)
                if due is not None and now >= due:
                    connection.close()
                    self._forget(connection)

    def _prune(self) -> None:
        for connection in [c for c in self._open if c.gone]:
            self._forget(connection)

    def _forget(self, connection: _Connection) -> None:
        with contextlib.suppress(ValueError):
            self._open.remove(connection)
        for protocol in [p for p, c in self._by_handler.items() if c is connection]:
            del self._by_handler[protocol]


def client_gone(request: web.Request) -> bool:
    """The client's connection is closed (it left, or the page closed it): no answer reaches it."""
    transport = request.transport
    return transport is None or transport.is_closing()


# A body as it was sent: neither page takes a compressed one (a browser never compresses what it
# posts, and every body fits in 4 KB), so nothing is inflated (R940).
PLAIN_BODY = frozenset({"", "identity"})
MAX_CODING_SHOWN = 30  # characters of a refused Content-Encoding said back


def refused_coding(coding: str) -> Refused | None:
    """The refusal of a body marked with ``coding`` (its Content-Encoding, every header of it
    joined by commas), or None when it is plain: every coding listed ``identity``. A gzip body
    that is not gzip, or that inflates to gigabytes, is refused like any other: unread, before
    a byte of it is inflated (R940)."""
    marked = coding.strip().lower()
    if all(listed.strip() in PLAIN_BODY for listed in marked.split(",")):
        return None
    return _refused_mark("Content-Encoding", marked, "")


def refused_transfer(coding: str) -> Refused | None:
    """The refusal of a body in a transfer coding but chunked (``gzip, chunked``): aiohttp
    reads its chunks and leaves the gzip as it is, so it is refused by name like a
    Content-Encoding (R944)."""
    marked = coding.strip().lower()
    if marked in ("", "chunked"):
        return None
    return _refused_mark("Transfer-Encoding", marked, ", or only chunked")


def _refused_mark(header: str, marked: str, instead: str) -> Refused:
    shown = marked[:MAX_CODING_SHOWN] if marked.isprintable() else "something unreadable"
    return Refused(
        400,
        f"the request's body is marked {header} {shown!r}: this page takes only a plain "
        f"body: send it without {header}{instead}",
    )


def marks(request: web.Request, header: str) -> str:
    """Every ``header`` of the request, joined as one list: a second header's coding is as
    much the body's as the first's (R944)."""
    return ", ".join(request.headers.getall(header, ()))


def sized_bodies(limit: int, larger: Mapping[str, int]) -> Middleware:
    """A body of at most ``limit`` bytes, or of ``larger[path]`` at the paths that take more (the
    director's pasted field, R1062); listed after ``whole_body``, so the body is in already. The
    application's ``client_max_size`` is the largest of them."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        allowed = larger.get(request.path, limit)
        if request.body_exists and len(await request.read()) > allowed:
            raise Refused(413, f"the request is too large: expected at most {allowed} bytes")
        return await handler(request)

    return middleware


def whole_body(within: float = BODY_WITHIN, who: str = "the table") -> Middleware:
    """A request's body read in full within ``within`` seconds (a body sent a byte at a time is
    refused, 408), before any handler reads it; a page lists it after its refusals. A body
    marked compressed is refused unread (``refused_coding``)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.body_exists:
            refused = refused_coding(marks(request, "Content-Encoding")) or refused_transfer(
                marks(request, "Transfer-Encoding")
            )
            if refused is not None:
                raise refused
            connection = request.get(_CONNECTION)
            if connection is not None:
                connection.reading += 1  # closed for another's room until its body is in
            try:
                await asyncio.wait_for(request.read(), within)
            except TimeoutError:
                # read on a phone whose Wi-Fi is slow: words a player can act on (R942)
                raise Refused(
                    408,
                    f"{who} did not get all of it within {within:g} s (a slow or dropped "
                    "connection): try again",
                ) from None
            except (ConnectionError, RuntimeError):
                if not client_gone(request):
                    raise
                # the client left mid-body, or the page closed it for room: nobody to answer,
                # nothing wrong here (never an ERROR with a traceback: one address could write
                # hundreds a second)
                raise Refused(
                    400, "the connection closed before the request's body arrived"
                ) from None
            finally:
                if connection is not None:
                    connection.reading -= 1
        return await handler(request)

    return middleware


async def start_serving(
    app: web.Application,
    sock: socket.socket,
    tls: ssl.SSLContext | None = None,
    limits: ConnectionLimits | None = None,
) -> Serving:
    """``app`` served on ``sock`` (the loop's own), no access log, no signal handlers, no body
    inflated (R940), each connection within ``limits`` (``Serving``)."""
    runner = web.AppRunner(
        app,
        access_log=None,
        handle_signals=False,
        shutdown_timeout=1.0,
        # aiohttp inflates a body marked gzip as it arrives, before any handler: a plain body
        # so marked was a 500 and two tracebacks, a bomb a second of CPU (R940)
        auto_decompress=False,
        logger=ServerLog(time.monotonic),
    )
    serving = Serving(runner, sock, tls, limits or ConnectionLimits())
    app.middlewares.insert(0, serving.middleware)  # outermost: before the app is frozen
    await runner.setup()
    await serving.start()
    return serving


async def stop_serving(serving: Serving | None, sock: socket.socket) -> None:
    if serving is not None:
        await serving.stop()
    with contextlib.suppress(OSError):
        sock.close()
