"""What both web pages (the table's and the director's) install in their aiohttp applications:
the guard's Host and Origin checks before any handler, every refusal as one line, the security
headers, a session cookie set one way, and an event stream refused in words (R770). The checks
themselves are ``guard``'s; this is the glue, so each page's ``app`` lists only its routes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import ssl
from collections.abc import Awaitable, Callable, Mapping

from aiohttp import web
from aiohttp.typedefs import Middleware

from firmware_py.table.web.errors import Refused, refused_route
from firmware_py.table.web.guard import SiteGuard, cookie_attributes

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


def one_line_errors(refusal: Refusal, *, max_body: int, event: str, who: str) -> Middleware:
    """Every refusal as ``refusal(request, status, line)``; anything unexpected logged
    (``event=...``), never shown: ``who`` could not answer."""

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


async def start_serving(
    app: web.Application, sock: socket.socket, tls: ssl.SSLContext | None = None
) -> web.AppRunner:
    """``app`` served on ``sock`` (the loop's own), no access log, no signal handlers."""
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    await web.SockSite(runner, sock, ssl_context=tls).start()
    return runner


async def stop_serving(runner: web.AppRunner | None, sock: socket.socket) -> None:
    if runner is not None:
        with contextlib.suppress(Exception):
            await runner.cleanup()
    with contextlib.suppress(OSError):
        sock.close()
