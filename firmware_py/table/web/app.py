"""The table's web page: one aiohttp application, every route listed here.

    GET  /               the page (plain HTML, CSS and JS from ``static/``, no build step)
    GET  /api/state      the table as JSON: what the OLED shows, scores, clock, lights
    GET  /api/events     the same, live: server-sent events, one at each change
    GET  /api/me         this phone's seat (and its CSRF token), if it has one; or the
                         request it is waiting on (its confirmation number); or why it lost
                         its seat
    GET  /card           the finished session's printable card (the Pentathlon's score card)
    POST /api/join       {"code": ..., "seat": ...}: ask for a seat (or an official's place)
                         with the join code: 202, and the phone waits for the console's press
                         (R494, R760); a seat a phone holds is taken over the same way (R762)
    POST /api/entry      {"name": ..., "value": ...}: what the seat types (a guess)
    POST /api/leave      give the seat up

Every request must name the table by a name it serves in its Host header, or by an address
(R769). Reading needs nothing more. A POST must carry an Origin header naming this page (a
browser always sends one), be JSON, and carry the seat's cookie and its CSRF token in the
``X-Gametable-CSRF`` header (except the join, which carries the code). Every refusal is one
line of JSON, ``{"error": "..."}``, never a stack trace; an entry goes to the table and comes
back with the rules' own error if they refuse it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

from aiohttp import web

from firmware_py.table.web.access import AccessError, PlaceRequest, SeatSession, waiting_line
from firmware_py.table.web.errors import Refused, json_kind
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
from firmware_py.table.web.state import TablePageState
from rules.text import unprintable

log = logging.getLogger("gametable")

STATIC = Path(__file__).resolve().parent / "static"
PAGE = web.AppKey("page", TablePageState)
CSRF_HEADER = "X-Gametable-CSRF"
MAX_BODY = 4096  # bytes: a join or a guess is a few dozen
MAX_TEXT = 300  # characters of any one field: 21 states' names, a guess of 60 digits
JOIN_BODY = 'a JSON object like {"code": "K7Q2XM", "seat": "A"}'
ENTRY_BODY = 'a JSON object like {"name": "guess", "value": "29029"}'
KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream
# The card is one self-contained page to print: its style inline, no script, nothing fetched.
CARD_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"


def make_app(page: TablePageState) -> web.Application:
    errors = one_line_errors(_error, max_body=MAX_BODY, event="web_error", who="the table")
    app = web.Application(
        client_max_size=MAX_BODY,
        middlewares=[errors, same_site(lambda r: r.app[PAGE].guard), whole_body()],
    )
    app[PAGE] = page
    add_headers(app, security_headers(referrer="no-referrer"))
    app.on_response_prepare.append(_card_policy)
    app.router.add_get("/", _index)
    app.router.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/events", _events)
    app.router.add_get("/api/me", _me)
    app.router.add_get("/card", _card)
    app.router.add_post("/api/join", _join)
    app.router.add_post("/api/entry", _entry)
    app.router.add_post("/api/leave", _leave)
    return app


def seat_cookie(page: TablePageState) -> str:
    """The seat cookie's name on this table's page (``TablePage.cookie``: its port's, R942)."""
    return page.cookie


# --- reading: anyone -------------------------------------------------------------------------


async def _index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html")


async def _state(request: web.Request) -> web.StreamResponse:
    return _json_text(request.app[PAGE].text)


async def _events(request: web.Request) -> web.StreamResponse:
    """The snapshot at once, then again at each change (server-sent events)."""
    page = request.app[PAGE]
    try:
        watcher = page.watch(request.remote or "")
    except Refused as refused:
        page.stream_refusals(page.clock(), address=request.remote)
        if wants_events(request):
            return await refused_stream(request, str(refused))
        raise
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
    )
    try:
        await response.prepare(request)
        sent = ""
        while not page.closed:
            if page.text != sent:
                sent = page.text
                await response.write(f"data: {sent}\n\n".encode())
            try:
                await asyncio.wait_for(watcher.wait(), KEEP_ALIVE)
            except TimeoutError:
                await response.write(b": still here\n\n")
            watcher.clear()
    except ConnectionResetError:
        pass  # the page was closed
    finally:
        page.unwatch(watcher)
    return response


async def _card(request: web.Request) -> web.StreamResponse:
    card = request.app[PAGE].card
    if card is None:
        raise Refused(
            404, "no card to print: the game has not ended, or its result is not confirmed"
        )
    return web.Response(
        text=card,
        content_type="text/html",
        headers={"Cache-Control": "no-store"},
    )


async def _me(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    token = request.cookies.get(seat_cookie(page))
    session = page.access.session(token)
    asked = page.access.waiting(token)
    answer: dict[str, object]
    if session is None and asked is not None:
        answer = dict(_waiting(asked))
    elif session is None:
        answer = {"seat": None}
        displaced = page.access.displaced(token)
        lapsed = page.access.lapsed(token)
        if displaced is not None:
            answer["displaced"] = f"This phone no longer holds its seat: {displaced}."
        elif lapsed is not None:
            answer["refused"] = f"Not given: {lapsed}."
    else:
        answer = {"seat": session.seat, "name": _name(page, session.seat), "csrf": session.csrf}
        others = page.access.asking_for(session.seat)
        if others:  # the seat's own phone sees a takeover coming (R762)
            numbers = " or ".join(request.number for request in others)
            answer["warning"] = (
                f"Another phone is asking the dealer for this seat (number {numbers} on the "
                "table's display): if it is not yours, tell the dealer not to press COUNT."
            )
    return web.json_response(answer, headers={"Cache-Control": "no-store"})


# --- entering: a seat ------------------------------------------------------------------------


async def _join(request: web.Request) -> web.StreamResponse:
    """A seat, or an official's place, is asked for: the phone waits (202) for the console's
    press (R494, R760); the request's cookie becomes the place's session once confirmed."""
    page = request.app[PAGE]
    body = await _body(request, {"code", "seat"}, JOIN_BODY)
    place = body["seat"]
    try:
        asked = page.access.ask(
            body["code"],
            place,
            seats=page.seats,
            officials=page.officials,
            address=request.remote or "",
            token=request.cookies.get(seat_cookie(page)),
        )
    except AccessError as error:
        raise Refused(403, str(error)) from None
    taking_over = page.access.held(place)
    log.info("event=web_place_asked place=%s number=%s held=%s", place, asked.number, taking_over)
    if page.code_in_log:  # the OLED is off: the number is shown only here (as R492's code)
        log.warning("event=web_place_number number=%s place=%s", asked.number, place)
    page.changed()
    response = web.json_response(_waiting(asked), status=202)
    set_session_cookie(response, seat_cookie(page), asked.token, secure=request.secure)
    return response


def _waiting(asked: PlaceRequest) -> dict[str, str | None]:
    return {
        "seat": None,
        "pending": asked.place,
        "number": asked.number,
        "message": waiting_line(asked),
    }


async def _entry(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    body = await _body(request, {"name", "value"}, ENTRY_BODY)
    session = _seat(request)
    if page.enter is None:  # the table stopped while this request was on its way
        raise Refused(503, "the table has stopped: try again once it is back")
    refused = page.enter(session.seat, body["name"], body["value"])
    if refused is not None:
        log.info(
            "event=web_entry_refused seat=%s name=%s reason=%s", session.seat, body["name"], refused
        )
        raise Refused(409, refused)
    return web.json_response({"ok": True})


async def _leave(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    await _body(request, set(), "an empty JSON object {}")
    session = _seat(request)
    page.access.leave(session.token)
    page.changed()
    response = web.json_response({"ok": True})
    response.del_cookie(seat_cookie(page), path="/")
    return response


def _seat(request: web.Request) -> SeatSession:
    try:
        page = request.app[PAGE]
        return page.access.require(
            request.cookies.get(seat_cookie(page)), request.headers.get(CSRF_HEADER)
        )
    except AccessError as error:
        raise Refused(403, str(error)) from None


def _name(page: TablePageState, seat: str) -> str:
    places = (*page.state.get("seats", ()), *page.state.get("officials", ()))
    return next((place["name"] for place in places if place["seat"] == seat), seat)


async def _body(request: web.Request, keys: set[str], expected: str) -> dict[str, str]:
    """A POST's JSON body (its Origin checked already), with exactly ``keys``, each a short
    text."""
    if request.content_type != "application/json":
        raise Refused(415, f"expected {expected}, sent as application/json")
    try:
        body = json.loads(await request.text())
    except LookupError:  # a charset Python does not know (an audit's 500)
        raise Refused(415, f"expected {expected}, sent as UTF-8 JSON") from None
    except (ValueError, RecursionError):
        raise Refused(400, f"expected {expected}: the body is not JSON") from None
    if not isinstance(body, dict):
        raise Refused(400, f"expected {expected}, got {json_kind(body)}")
    if set(body) != keys:
        got = ", ".join(sorted(body)) or "an empty object"
        raise Refused(400, f"expected {expected}, got {got}")
    for key, value in body.items():
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
            raise Refused(400, f"{key}: expected text of 1 to {MAX_TEXT} characters")
        at_fault = unprintable(value)
        if at_fault is not None:
            raise Refused(
                400, f"{key}: {at_fault} is not printable: expected one line of plain text"
            )
    return body


# --- every response --------------------------------------------------------------------------


def _json_text(text: str) -> web.Response:
    return web.Response(
        text=text, content_type="application/json", headers={"Cache-Control": "no-store"}
    )


def _error(request: web.Request, status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


async def _card_policy(request: web.Request, response: web.StreamResponse) -> None:
    """The card is one self-contained page to print: no script at all, nothing fetched."""
    if request.path == "/card" and response.status == 200:
        response.headers["Content-Security-Policy"] = CARD_POLICY
