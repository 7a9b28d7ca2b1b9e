"""The director's page: one aiohttp application, every route listed here (docs/hub.md).

    GET  /                  the live grid, the latest round's pairings, the standings; the
                            forms that change the record once the director has logged in
    GET  /public            standings and pairings for anyone: no login, no control
    GET  /tables/{n}        a table's whole record: its matches, results, reports, state
    GET  /sheet/{r}/{t}     the printable result sheet of round r's match at table t
    GET  /api/board         every table as JSON
    GET  /api/events        the same, live: server-sent events with the tables that changed
    GET  /login, POST /login, POST /logout
    POST /result            enter a match's points, or amend them with a reason
    POST /pair              pair the next round (the hub publishes it to the tables at once)

Every request must name the hub by a name it serves in its Host header, or by an address (a
page elsewhere re-pointed at the hub's address names itself: R722). Reading needs nothing more.
A POST must carry an Origin header naming this page (a browser always sends one), checked
before anything else, the login's password included (R723); and every POST but the login the
director's session cookie and the session's CSRF token in the form. Every refusal is the page
again with one line saying why, never a trace.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import sqlite3
from collections.abc import Callable
from html import escape
from pathlib import Path

from aiohttp import web
from multidict import MultiDictProxy

from firmware_py.director.hub.page.changes import enter_result, pair_next_round
from firmware_py.director.hub.page.password import (
    DirectorPasswordError,
    read_stored,
    verify_password,
)
from firmware_py.director.hub.page.server import DirectorPage
from firmware_py.director.hub.page.sessions import (
    SESSION_SECONDS,
    AccessError,
    DirectorSession,
)
from firmware_py.director.hub.page.views import (
    Viewer,
    director_page,
    login_page,
    public_page,
    sheet_page,
    table_page,
)
from firmware_py.table.web.errors import Refused
from firmware_py.table.web.serving import (
    add_headers,
    one_line_errors,
    refused_stream,
    same_site,
    security_headers,
    set_session_cookie,
    wants_events,
    whole_body,
)
from rules.errors import RuleError

log = logging.getLogger("gametable")

STATIC = Path(__file__).resolve().parent / "static"
PAGE = web.AppKey("page", DirectorPage)
COOKIE = "gametable_director"
MAX_BODY = 8192  # bytes: a form of a few numbers and a reason
MAX_NUMBER_DIGITS = 6
KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream
# At most this often per stream: 500 tables change 5 000 times a second, a screen redraws 60
# times; what changes in between is sent once, its latest (R182).
STREAM_INTERVAL = 0.05
Form = MultiDictProxy[str | bytes | bytearray | web.FileField]


def make_app(page: DirectorPage) -> web.Application:
    errors = one_line_errors(_refusal, max_body=MAX_BODY, event="page_error", who="the hub")
    app = web.Application(
        client_max_size=MAX_BODY,
        middlewares=[errors, same_site(lambda r: r.app[PAGE].guard), whole_body()],
    )
    app[PAGE] = page
    add_headers(app, security_headers(referrer="same-origin"))
    app.router.add_get("/", _index)
    app.router.add_get("/public", _public)
    app.router.add_get("/tables/{table}", _table)
    app.router.add_get("/sheet/{round}/{table}", _sheet)
    app.router.add_get("/api/board", _board)
    app.router.add_get("/api/events", _events)
    app.router.add_get("/login", _login_form)
    app.router.add_post("/login", _login)
    app.router.add_post("/logout", _logout)
    app.router.add_post("/result", _result)
    app.router.add_post("/pair", _pair)
    app.router.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)
    return app


# --- reading: anyone ---------------------------------------------------------------------------


async def _index(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    return _html(director_page(page.record, _viewer(request)))


async def _public(request: web.Request) -> web.StreamResponse:
    return _html(public_page(request.app[PAGE].record))


async def _table(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    number = _path_number(request, "table")
    try:
        return _html(table_page(page.record, number, page.board.row(number)))
    except RuleError as error:
        raise Refused(404, str(error)) from None


async def _sheet(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    round_number, number = _path_number(request, "round"), _path_number(request, "table")
    try:
        return _html(sheet_page(page.record, round_number, number, printed_at=page.now()))
    except RuleError as error:
        raise Refused(404, str(error)) from None


async def _board(request: web.Request) -> web.StreamResponse:
    board = request.app[PAGE].board
    return web.json_response(
        {"version": board.version, "rows": [row.to_json() for row in board.rows()]},
        headers={"Cache-Control": "no-store"},
    )


async def _events(request: web.Request) -> web.StreamResponse:
    """Every table at once, then the tables that changed, as they change."""
    page = request.app[PAGE]
    board = page.board
    try:
        watcher = page.watch(request.remote or "")
    except Refused as refused:
        if wants_events(request):
            return await refused_stream(request, str(refused))
        raise
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
    )
    try:
        await response.prepare(request)
        sent = -1
        while not page.closed:
            watcher.clear()
            if board.version != sent:
                rows = board.rows() if sent < 0 else board.changed_since(sent)
                message = {"full": sent < 0, "rows": [row.to_json() for row in rows]}
                sent = board.version
                await response.write(f"data: {json.dumps(message)}\n\n".encode())
                await asyncio.sleep(STREAM_INTERVAL)
            try:
                await asyncio.wait_for(watcher.wait(), KEEP_ALIVE)
            except TimeoutError:
                await response.write(b": still here\n\n")
    except ConnectionResetError:
        pass  # the page was closed
    finally:
        page.unwatch(watcher)
    return response


async def _login_form(request: web.Request) -> web.StreamResponse:
    return _html(login_page(password_set=_stored(request) is not None))


# --- the director ------------------------------------------------------------------------------


async def _login(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    address = request.remote or ""  # the connection's own peer: no header can name it
    stored = _stored(request)
    if stored is None:
        return _html(login_page(password_set=False), status=403)
    if not request.secure and not _on_this_machine(address):
        return _html(login_page(_PLAIN_HTTP), status=403)
    form = await _form(request)
    try:
        # the attempt is reserved before the password is checked: a second one from the same
        # address while it is checked is refused at once, not checked beside it (R186)
        with page.sessions.trying(address):
            given = form.get("password", "")
            if not isinstance(given, str) or not await asyncio.to_thread(
                verify_password, stored, given
            ):
                log.warning("event=page_login_refused address=%s", address)
                raise page.sessions.wrong_password(address)
    except AccessError as error:
        return _html(login_page(str(error)), status=403)
    session = page.sessions.open(address)
    log.info("event=page_login address=%s", address)
    response = _see("/")
    # Secure even over plain HTTP on the hub itself: browsers keep it for localhost (R181)
    set_session_cookie(response, COOKIE, session.token, secure=True, max_age=SESSION_SECONDS)
    return response


_PLAIN_HTTP = (
    "the director logs in over plain HTTP only on the hub itself (127.0.0.1): "
    "from another machine, start the page with --page-cert and --page-key (docs/hub.md)"
)


async def _logout(request: web.Request) -> web.StreamResponse:
    session = await _director(request)
    request.app[PAGE].sessions.close(session.token)
    request.app[PAGE].notices.pop(session.token, None)
    response = _see("/")
    response.del_cookie(COOKIE, path="/")
    return response


async def _result(request: web.Request) -> web.StreamResponse:
    session = await _director(request)
    form = await _form(request)
    numbers = [_form_number(form, key, what) for key, what in _RESULT_FIELDS]
    reason = str(form.get("reason", "")).strip() or None
    page = request.app[PAGE]
    done = _change(
        request,
        lambda: enter_result(page.record, *numbers, now=page.now(), amend_reason=reason),
    )
    log.info("event=page_result %s", done)
    return _done(request, session, done)


_RESULT_FIELDS = (
    ("round", "the round"),
    ("table", "the table"),
    ("a_points", "A's points"),
    ("b_points", "B's points"),
)


async def _pair(request: web.Request) -> web.StreamResponse:
    session = await _director(request)
    page = request.app[PAGE]
    done = _change(request, lambda: pair_next_round(page.record, now=page.now()))
    log.info("event=page_pair %s", done)
    return _done(request, session, done)


def _change(request: web.Request, change: Callable[[], str]) -> str:
    page = request.app[PAGE]
    try:
        done = change()
    except RuleError as error:
        raise Refused(409, str(error)) from None
    except sqlite3.OperationalError as error:
        raise Refused(503, f"the record is busy ({error}): try again") from None
    page.after_change()
    return done


def _done(request: web.Request, session: DirectorSession, done: str) -> web.StreamResponse:
    request.app[PAGE].notices[session.token] = done
    return _see("/")


async def _director(request: web.Request) -> DirectorSession:
    """The director's session behind a changing request (its origin checked already): the
    cookie and the CSRF token."""
    form = await _form(request)
    csrf = form.get("csrf")
    try:
        return request.app[PAGE].sessions.require(
            request.cookies.get(COOKIE), csrf if isinstance(csrf, str) else None
        )
    except AccessError as error:
        raise Refused(403, str(error)) from None


async def _form(request: web.Request) -> Form:
    if request.content_type != "application/x-www-form-urlencoded":
        raise Refused(415, "expected a form sent as application/x-www-form-urlencoded")
    try:
        return await request.post()
    except (UnicodeDecodeError, LookupError):
        raise Refused(
            400, f"the form is not {request.charset or 'utf-8'} text: expected a form in UTF-8"
        ) from None


def _form_number(form: Form, key: str, what: str) -> int:
    value = form.get(key, "")
    if (
        not isinstance(value, str)
        or not value.isascii()
        or not value.isdecimal()
        or len(value) > MAX_NUMBER_DIGITS
    ):
        raise Refused(400, f"{what}: expected a whole number from 0, got {str(value)[:20]!r}")
    return int(value)


def _path_number(request: web.Request, key: str) -> int:
    value = request.match_info[key]
    if not value.isascii() or not value.isdecimal() or len(value) > MAX_NUMBER_DIGITS:
        raise Refused(404, f"{key} {value[:20]!r}: expected a number")
    return int(value)


def _viewer(request: web.Request, error: str | None = None) -> Viewer:
    page = request.app[PAGE]
    session = page.sessions.session(request.cookies.get(COOKIE))
    if session is None:
        return Viewer(error=error)
    return Viewer(csrf=session.csrf, notice=page.notices.pop(session.token, None), error=error)


def _stored(request: web.Request) -> str | None:
    try:
        return read_stored(request.app[PAGE].record.path)
    except DirectorPasswordError as error:
        log.error("event=page_password_error error=%s", error)
        raise Refused(500, str(error)) from None


def _on_this_machine(address: str) -> bool:
    """Whether a connection comes from the hub's own machine, by its peer address (R185)."""
    try:
        peer = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return False
    if isinstance(peer, ipaddress.IPv6Address) and peer.ipv4_mapped is not None:
        return peer.ipv4_mapped.is_loopback  # ::ffff:127.0.0.1, from a dual-stack listener
    return peer.is_loopback


# --- every response ----------------------------------------------------------------------------


def _html(body: str, status: int = 200) -> web.Response:
    return web.Response(
        text=body, status=status, content_type="text/html", headers={"Cache-Control": "no-store"}
    )


def _see(path: str) -> web.Response:
    return web.Response(status=303, headers={"Location": path})


def _refusal(request: web.Request, status: int, message: str) -> web.Response:
    if request.path.startswith("/api/"):
        return web.json_response({"error": message}, status=status)
    # the director's page with the line, but never to a name the hub does not serve (whose page
    # can read the answer)
    if (
        request.method == "POST"
        and request.path in ("/result", "/pair", "/logout")
        and request.app[PAGE].guard.serves(request.headers.get("Host"))
    ):
        try:
            return _html(director_page(request.app[PAGE].record, _viewer(request, message)), status)
        except Exception:
            log.exception("event=page_error path=%s", request.path)
    return _html(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>gametable</title>'
        f'<link rel="stylesheet" href="/static/page.css"></head><body><main>'
        f'<p class="error" role="alert">{escape(message)}</p><p><a href="/">The tables</a></p>'
        "</main></body></html>",
        status,
    )
