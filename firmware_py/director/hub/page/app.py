"""The director's page: one aiohttp application, every route listed here (docs/hub.md).

    GET  /                  staff: the live grid, the latest round's pairings, the standings;
                            the forms that change the record, as the staff member's role allows
    GET  /public            standings and pairings for anyone: no login, no control (R817)
    GET  /tables/{n}        staff: a table's whole record: its matches, results, reports, state
    GET  /sheet/{r}/{t}     staff: the printable result sheet of round r's match at table t
    GET  /api/board         staff: every table as JSON
    GET  /api/events        staff: the same, live: server-sent events with the tables that changed
    GET  /login, POST /login, POST /logout
    POST /result            results staff: enter a match's points; a director: amend them too
    POST /pair              a director: pair the next round (the hub publishes it at once)
    GET  /staff             a director: the staff accounts
    POST /staff/add, /staff/remove   a director: add or remove an account
    GET  /projector         the hall's screen: pairings, then standings, a page at a time;
                            ?room=NAME: that room's tables' pairings alone (R1113)
    GET  /problems          staff: the problem queue alone (it tops ``/`` too); /api/problems
    POST /problems/seen     a director: mark seen a decision the hub could not apply (R804)
    GET  /pentathlon        staff: the Pentathlon's divisions, standings and seats (R835)
    GET  /pentathlon/card/{r}/{t}  staff: table t's score card in round r
    GET  /print/round/{r}/sheets    staff: every result sheet of round r, a page each (R822)
    GET  /print/round/{r}/pairings  staff: round r's pairings for the wall
    GET  /export/standings.csv, /export/results.csv, /export/record.json
                            a director or results staff: the standings, the results and the
                            whole record (``gametable tournament export``) as downloads (R1060)
    GET  /field             a director, before round 1: paste the teams (R1062)
    POST /field/preview     a director: the preview of what was pasted, every bad line named
    POST /field             a director: add the previewed teams, confirmed (R1063)
    GET  /draw/round/{r}    a director: round r's draw and the form swapping two of its teams
    POST /draw/round/{r}    a director: the swap, with a reason; warned first of a rematch or
                            a same-school pair, made by its Confirm (R1064-R1066)
    POST /draw/round/{r}/move  a director: a match moved to a free table, with a reason (R1068)
    GET  /teams             a director: every team; ?team=NAME: the form editing it (R1067)
    POST /teams/edit        a director: a team's name, school or players, with a reason
    GET  /rooms             a director: the rooms and their tables (R1115)
    POST /rooms/add, /rooms/remove   a director: add a room; remove one, confirmed
    GET  /undo/round/{r}    a director: the confirmation of undoing round r's pairing
    POST /undo/round/{r}    a director: undo it, with a reason (R820)
    GET  /close             a director: the final standings, the championship, and the
                            confirmation of closing the tournament
    POST /close             a director: record the champion (the record's ``set_champion``),
                            which closes the tournament: every change refused after (R850)
    POST /reopen            a director: reopen the closed tournament, with a reason (R850)
    POST /playoff           a director: the next Border-Up playoff game's winner
    POST /playoff/void      a director: void the playoff's games with a reason (R960, R961, R964)
    GET  /checkin           staff: the next round's check-in, the teams withdrawn (R1040, R1041)
    POST /checkin           results staff: mark a team present or absent for the next round
    POST /withdraw          a director: withdraw a team for good, with a reason (R1041)
    POST /standings/release a director: hide the public standings, or release them (R1043)

On a day of several events (``hub run --day``) this is each event's page, mounted by the day's
(``day.py``) at ``/events/<slug>``: its routes as above under that address, its addresses kept
inside it by ``within.py`` (R1140), its accounts and sessions the day's (R1141, R1142).

Every request must name the hub by a name it serves in its Host header, or by an address (a
page elsewhere re-pointed at the hub's address names itself: R722). Every view but /public
and /projector needs a staff login (R816): without one a browser is sent to /login, anything
else refused in words. A POST must carry an Origin header naming this page (a browser always
sends one), checked before anything else, the login's password included (R723); and every
POST but the login a staff session's cookie, the session's CSRF token in the form and a role
that may make the change (R811), checked by ``_staff`` (reading: ``_reader``). Every refusal
is the page again with one line saying why, never a trace.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import re
import sqlite3
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

from aiohttp import web
from aiohttp.typedefs import Middleware
from multidict import MultiDictProxy

from firmware_py.director.hub.page.access import StaffSession, role_refusal, staff_session
from firmware_py.director.hub.page.changes import (
    enter_result,
    pair_next_round,
    record_champion,
    record_playoff_game,
    reopen_tournament,
    unpair_round,
    void_playoff,
)
from firmware_py.director.hub.page.problems import (
    HUB_KINDS,
    Hall,
    Problem,
    as_seen_by,
    find_problems,
    hall_json,
    read_hall,
)
from firmware_py.director.hub.page.problems_view import grid_tools, problems_page, problems_section
from firmware_py.director.hub.page.sessions import SESSION_SECONDS, AccessError
from firmware_py.director.hub.page.state import DirectorPageState
from firmware_py.director.hub.page.views import (
    Viewer,
    director_page,
    login_page,
    sheet_page,
    table_page,
)
from firmware_py.director.hub.page.views_checkin import checkin_page
from firmware_py.director.hub.page.views_close import close_page
from firmware_py.director.hub.page.views_draw import draw_page
from firmware_py.director.hub.page.views_field import field_page
from firmware_py.director.hub.page.views_pentathlon import card_page, pentathlon_page
from firmware_py.director.hub.page.views_print import round_pairings_page, round_sheets_page
from firmware_py.director.hub.page.views_public import projector_page, public_page
from firmware_py.director.hub.page.views_rooms import rooms_page
from firmware_py.director.hub.page.views_staff import staff_page
from firmware_py.director.hub.page.views_teams import teams_page
from firmware_py.director.hub.page.views_undo import undo_page
from firmware_py.director.hub.page.within import within_event
from firmware_py.director.hub.staff import (
    DIRECTOR_ACCOUNT,
    NAME,
    NAMELESS_ENDS,
    NAMELESS_REFUSED,
    Role,
    StaffAccount,
    check_name,
    hash_new_password,
    parse_role,
)
from firmware_py.director.hub.staff_password import (
    DirectorPasswordError,
    hash_password,
    verify_password,
)
from firmware_py.director.record.day_tables import require_event_table
from firmware_py.director.record.draw import (
    checked_reason,
    move_in_draw,
    plan_swap,
    swap_in_draw,
)
from firmware_py.director.record.export import record_json, results_csv, standings_csv
from firmware_py.director.record.field import MAX_PASTED, add_field, preview_field
from firmware_py.director.record.rooms import check_room_name, parse_tables
from firmware_py.director.record.teams import edit_team
from firmware_py.director.record.tournament_db import RecordGone, TournamentDB
from firmware_py.table.web.errors import Refused
from firmware_py.table.web.guard import new_secret
from firmware_py.table.web.serving import (
    add_headers,
    one_line_errors,
    refused_stream,
    same_site,
    security_headers,
    set_session_cookie,
    sized_bodies,
    wants_events,
    whole_body,
)
from rules.errors import IllegalAction, RuleError
from rules.tournament import find_entrant
from rules.tournament.records import spell_tables
from rules.tournament.teams import one_line_reason

log = logging.getLogger("gametable")

STATIC = Path(__file__).resolve().parent / "static"
PAGE = web.AppKey("page", DirectorPageState)
COOKIE = "gametable_director"
MAX_BODY = 8192  # bytes: a form of a few numbers and a reason
# bytes: the teams pasted on /field, a field of 512 teams as a form (R1062); every other form
# is held to MAX_BODY
MAX_FIELD_BODY = 4 * MAX_PASTED
FIELD_PATHS = ("/field", "/field/preview")
MAX_NUMBER_DIGITS = 6
KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream
# At most this often per stream: 500 tables change 5 000 times a second, a screen redraws 60
# times; what changes in between is sent once, its latest (R182).
STREAM_INTERVAL = 0.05
STAFF_RECHECK = 1.0  # seconds: an open live grid's account is checked again at most this often
# On a day's page, how long a change waits for its event's record another program holds: the
# page runs on the hub's loop, which every event's results wait on meanwhile (R1171)
DAY_PAGE_BUSY_WAIT = 1.0
# where a login may send its browser: a path of the page's own (never //elsewhere)
LOCAL_PATH = re.compile(r"/(?!/)[A-Za-z0-9/_.-]{0,200}")
Form = MultiDictProxy[str | bytes | bytearray | web.FileField]
T = TypeVar("T")


def make_app(page: DirectorPageState) -> web.Application:
    """The page of one record: alone (``hub run --db``), or one event's on a day's page,
    mounted at ``page.base`` (``day.day_app``), its links kept inside it (R1140)."""
    app = web.Application(client_max_size=MAX_FIELD_BODY, middlewares=_middlewares(page))
    app[PAGE] = page
    if not page.base:  # an event's page is mounted in the day's, which sends them once
        add_headers(app, security_headers(referrer="same-origin"))
    app.router.add_get("/", _index)
    app.router.add_get("/public", _public)
    app.router.add_get("/tables/{table}", _table)
    app.router.add_get("/sheet/{round}/{table}", _sheet)
    app.router.add_get("/api/board", _board)
    app.router.add_get("/api/events", _events)
    add_account_routes(app)
    app.router.add_post("/result", _result)
    app.router.add_post("/pair", _pair)
    app.router.add_get("/pentathlon", _pentathlon)
    app.router.add_get("/pentathlon/card/{round}/{table}", _pentathlon_card)

    app.router.add_get("/problems", _problems_page)
    app.router.add_get("/api/problems", _problems_json)
    app.router.add_post("/problems/seen", _problem_seen)
    app.router.add_get("/projector", _projector)
    app.router.add_get("/print/round/{round}/sheets", _print_sheets)
    app.router.add_get("/print/round/{round}/pairings", _print_pairings)
    app.router.add_get("/export/{file}", _export)
    app.router.add_get("/field", _field_form)
    app.router.add_post("/field/preview", _field_preview)
    app.router.add_post("/field", _field_add)
    app.router.add_get("/draw/round/{round}", _draw_form)
    app.router.add_post("/draw/round/{round}", _draw_swap)
    app.router.add_post("/draw/round/{round}/move", _draw_move)
    app.router.add_get("/teams", _teams)
    app.router.add_post("/teams/edit", _team_edit)
    app.router.add_get("/rooms", _rooms)
    app.router.add_post("/rooms/add", _room_add)
    app.router.add_post("/rooms/remove", _room_remove)
    app.router.add_get("/undo/round/{round}", _undo_form)
    app.router.add_post("/undo/round/{round}", _undo)
    app.router.add_get("/close", _close_form)
    app.router.add_post("/close", _close)
    app.router.add_get("/staff", _staff_list)
    app.router.add_post("/staff/add", _staff_add)
    app.router.add_post("/staff/remove", _staff_remove)
    app.router.add_post("/reopen", _reopen)
    app.router.add_post("/playoff", _playoff)
    app.router.add_post("/playoff/void", _void_playoff)
    app.router.add_get("/checkin", _checkin_page)
    app.router.add_post("/checkin", _checkin)
    app.router.add_post("/withdraw", _withdraw)
    app.router.add_post("/standings/release", _standings_release)
    if not page.base:  # the day's page serves them once, at /static, for every event
        app.router.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)
    return app


def _middlewares(page: DirectorPageState) -> list[Middleware]:
    errors = one_line_errors(
        _refusal,
        max_body=MAX_BODY,
        event="page_error",
        who="the hub",
        # the director's routes are in hub.md: web.md is the table's page (R945)
        routes_doc="docs/hub.md",
    )
    middlewares: list[Middleware] = [
        errors,
        same_site(lambda r: r.app[PAGE].guard),
        whole_body(who="the hub"),
        sized_bodies(MAX_BODY, field_bodies(page.base)),
    ]
    if page.base:  # an event's page: its links kept inside it, outermost
        middlewares.insert(0, within_event(page.base, page.day_venue, page.event_title))
    return middlewares


def add_account_routes(app: web.Application) -> None:
    """The login and the logout: the one-record page's, and the day's, one for every event
    (R1141)."""
    app.router.add_get("/login", _login_form)
    app.router.add_post("/login", _login)
    app.router.add_post("/logout", _logout)


# what the day's page (day.py) checks and answers as the one-record page does
def field_bodies(base: str) -> dict[str, int]:
    """The paths that take a pasted field's larger body, under ``base``."""
    return dict.fromkeys((base + path for path in FIELD_PATHS), MAX_FIELD_BODY)


def _here(request: web.Request) -> str:
    """The request's path within its page: an event's page answers as the page alone."""
    return request.path.removeprefix(request.app[PAGE].base) or "/"


# --- reading: anyone ---------------------------------------------------------------------------


# --- reading: staff (R816) ---------------------------------------------------------------------


async def _index(request: web.Request) -> web.StreamResponse:
    staff = _reader(request, "the director's page")
    return _html(_the_directors_page(request, staff, _viewer(request)))


def _the_directors_page(request: web.Request, staff: StaffSession, viewer: Viewer) -> str:
    """``/`` as ``staff`` sees it: the queue on top, the grid's tools, the forms; after a
    refused change too (``viewer`` carries its line)."""
    page = request.app[PAGE]
    hall, problems, now = _problems(page)
    top = problems_section(
        as_seen_by(problems, staff.role),
        now,
        csrf=viewer.csrf,
        back="/",
        enters=staff.account.may(Role.RESULTS),
        venue=page.record.venue(),
    )
    tools = grid_tools(hall.latest or 0)
    return director_page(page.record, viewer, top=top, tools=tools)


async def _public(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    query = request.query.get("q", "")
    rows = {row.table: row for row in page.grid.rows()} if query.strip() else {}
    return _html(public_page(page.record, query, rows, names=page.public_names))


async def _table(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    number = _path_number(request, "table")
    _reader(request, f"table {number}'s record")
    try:
        return _html(table_page(page.record, number, page.grid.row(number)))
    except RuleError as error:
        raise Refused(404, str(error)) from None


async def _sheet(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    round_number, number = _path_number(request, "round"), _path_number(request, "table")
    _reader(request, "a result sheet")
    try:
        return _html(sheet_page(page.record, round_number, number, printed_at=page.now()))
    except RuleError as error:
        raise Refused(404, str(error)) from None


async def _board(request: web.Request) -> web.StreamResponse:
    _reader(request, "the tables' board")
    board = request.app[PAGE].grid
    return web.json_response(
        {"version": board.version, "rows": [row.to_json() for row in board.rows()]},
        headers={"Cache-Control": "no-store"},
    )


async def _events(request: web.Request) -> web.StreamResponse:
    """Every table at once, then the tables that changed, as they change."""
    page = request.app[PAGE]
    board = page.grid
    token = request.cookies.get(COOKIE)
    try:
        _reader(request, "the tables' live board")
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
        checked = page.clock()
        while not page.closed:
            if page.clock() - checked >= STAFF_RECHECK:  # an account removed ends it (R814)
                if staff_session(page, token) is None:
                    break
                checked = page.clock()
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
    next_path = _local_path(request.query.get("next"))
    why = f"staff only: log in to open {next_path}" if "next" in request.query else None
    return _html(
        login_page(
            password_set=_any_account(request),
            next_path=next_path,
            why=why,
            nameless=_nameless_login(request),
            venue=request.app[PAGE].login_venue(),
        )
    )


# --- the Pentathlon: staff (R835) ----------------------------------------------------------------


async def _pentathlon(request: web.Request) -> web.StreamResponse:
    _reader(request, "the Pentathlon's view")
    try:
        return _html(pentathlon_page(request.app[PAGE].record))
    except RuleError as error:
        raise Refused(404, str(error)) from None


async def _pentathlon_card(request: web.Request) -> web.StreamResponse:
    _reader(request, "a Pentathlon score card")
    round_number, number = _path_number(request, "round"), _path_number(request, "table")
    try:
        return _html(card_page(request.app[PAGE].record, round_number, number))
    except RuleError as error:
        raise Refused(404, str(error)) from None


# --- staff -------------------------------------------------------------------------------------


async def _login(request: web.Request) -> web.StreamResponse:
    page = request.app[PAGE]
    address = request.remote or ""  # the connection's own peer: no header can name it
    if not _any_account(request):
        return _html(login_page(password_set=False), status=403)
    if not request.secure and not _on_this_machine(address):
        return _html(login_page(_PLAIN_HTTP, nameless=_nameless_login(request)), status=403)
    form = await _form(request)
    next_path = _local_path(form.get("next"))
    typed = str(form.get("name", "")).strip()
    name = typed or DIRECTOR_ACCOUNT  # R815
    if not typed and not _nameless_login(request):  # R851: no password to check, nothing counted
        log.info("event=page_login_refused address=%s why=no_name", address)
        return _html(login_page(NAMELESS_REFUSED, next_path=next_path, nameless=False), 403)
    try:
        # the attempt is reserved before the password is checked: a second one from the same
        # address while it is checked is refused at once, not checked beside it (R186)
        with page.sessions.trying(address):
            account = _account(request, name)
            given = form.get("password", "")
            stored = account.password if account is not None else _unknown_account_hash()
            # an unknown name costs the same scrypt as a known one: the time tells nothing
            right = isinstance(given, str) and await asyncio.to_thread(
                verify_password, stored, given
            )
            if not right or account is None:
                log.warning("event=page_login_refused address=%s", address)
                raise page.sessions.wrong_password(address)
    except AccessError as error:
        # shown again as GET /login shows it: without the empty name once director is gone
        again = login_page(str(error), next_path=next_path, nameless=_nameless_login(request))
        return _html(again, status=403)
    token, _ = page.sessions.open(address, account.name, account.stamp)
    log.info("event=page_login address=%s account=%s role=%s", address, name, account.role)
    response = _see(next_path)
    # Secure even over plain HTTP on the hub itself: browsers keep it for localhost (R181)
    set_session_cookie(response, COOKIE, token, secure=True, max_age=SESSION_SECONDS)
    return response


_PLAIN_HTTP = (
    "the director logs in over plain HTTP only on the hub itself (127.0.0.1): "
    "from another machine, start the page with --page-cert and --page-key (docs/hub.md)"
)


async def _logout(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.VIEWER, doing="logging out")
    request.app[PAGE].sessions.end(staff.key)
    request.app[PAGE].notices.pop(staff.key, None)
    response = _see("/login")
    response.del_cookie(COOKIE, path="/")
    return response


async def _result(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.RESULTS, doing="entering a result")
    form = await _form(request)
    numbers = [_form_number(form, key, what) for key, what in _RESULT_FIELDS]
    reason = str(form.get("reason", "")).strip() or None
    page = request.app[PAGE]
    if reason is not None:
        _may(staff, Role.DIRECTOR, "amending a result")
    elif not staff.account.may(Role.DIRECTOR):
        _first_result_only(page, staff, numbers[0], numbers[1])
    done = _change(
        request,
        lambda: enter_result(
            page.record, *numbers, now=page.now(), amend_reason=reason, by=staff.name
        ),
    )
    log.info("event=page_result by=%s %s", staff.name, done)
    return _done(request, staff, done)


_RESULT_FIELDS = (
    ("round", "the round"),
    ("table", "the table"),
    ("a_points", "A's points"),
    ("b_points", "B's points"),
)


def _first_result_only(
    page: DirectorPageState, staff: StaffSession, round_number: int, table: int
) -> None:
    """Results staff enter a match's first result: a second is an amendment, a director's
    (R811), and is refused in those words rather than the record's "expected a reason"."""
    current = page.record.current_result(round_number, table)
    if current is not None:
        refusal = role_refusal(staff, Role.DIRECTOR, "changing it")
        raise Refused(
            403,
            f"round {round_number} table {table} already has a result ({current.a_points}-"
            f"{current.b_points}, entered by {current.entered_by} at "
            f"{page.record.venue().when(current.entered_at)}): "
            f"{refusal}",
        )


async def _pair(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.DIRECTOR, doing="pairing a round")
    form = await _form(request)
    # the page's button names its round: a stale page pairs nothing (None: a form without it)
    expected = _optional_number(form, "round", "the round")
    page = request.app[PAGE]
    # on a day of several events, its matches go to the tables playing for it (R1172)
    tables = _playing(page)
    done = _change(
        request,
        lambda: pair_next_round(
            page.record,
            now=page.now(),
            by=staff.name,
            expected=expected,
            tables=tables,
            event=page.event or "",
        ),
    )
    log.info("event=page_pair by=%s %s", staff.name, done)
    return _done(request, staff, done)


async def _staff_list(request: web.Request) -> web.StreamResponse:
    _reader(request, "the staff accounts", needs=Role.DIRECTOR)
    page = request.app[PAGE]
    accounts = page.staff().accounts()
    return _html(staff_page(accounts, _viewer(request), page.record.venue()))


async def _staff_add(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.DIRECTOR, doing="managing the staff")
    form = await _form(request)
    try:
        name = check_name(str(form.get("name", "")).strip())
        role = parse_role(str(form.get("role", "")))
    except RuleError as error:
        raise Refused(400, str(error)) from None
    password = form.get("password", "")
    try:
        hashed = await asyncio.to_thread(hash_new_password, str(password))
    except DirectorPasswordError as error:
        raise Refused(400, f"{name}'s password: {error}") from None
    page = request.app[PAGE]
    record = page.staff()
    added = _change(
        request,
        lambda: record.add(name, role, hashed, now=page.now(), by=staff.name),
        tables=False,
    )
    log.info("event=page_staff_added by=%s account=%s role=%s", staff.name, name, role)
    return _done(request, staff, f"{added.name} added ({added.role})", to="/staff")


async def _staff_remove(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.DIRECTOR, doing="managing the staff")
    # ends a session at once: never in one click (issue 26), as Reopen and Undo are confirmed
    form = await _confirmed(request, "removing a staff account")
    name = str(form.get("name", ""))
    page = request.app[PAGE]
    record = page.staff()
    removed = _change(
        request, lambda: record.remove(name, now=page.now(), by=staff.name), tables=False
    )
    page.changed()  # an open live grid of the account's sees it at once (R814)
    log.info("event=page_staff_removed by=%s account=%s", staff.name, name)
    done = f"{removed.name} removed: their sessions have ended"
    if removed.name == DIRECTOR_ACCOUNT:
        done += f"; {NAMELESS_ENDS}"
    return _done(request, staff, done, to="/staff" if name != staff.name else "/login")


def _playing(page: DirectorPageState) -> tuple[int, ...] | None:
    """On a day of several events, the tables playing for the page's event, ascending (R1144,
    R1172); None: the page of one record, or of a day's only event."""
    return None if page.playing is None else tuple(sorted(page.playing()))


def _change(request: web.Request, change: Callable[[], T], *, tables: bool = True) -> T:
    """``change`` through the record, refused in its words; ``tables``: the tables are told
    (a new round's pairings), which a change to the staff is not for."""
    page = request.app[PAGE]
    try:
        if page.event is None:
            done = change()
        else:  # a day's event: its record held elsewhere never stalls the other events long
            with page.record.waiting_at_most(DAY_PAGE_BUSY_WAIT):
                done = change()
    except RuleError as error:
        raise Refused(409, str(error)) from None
    except RecordGone as error:  # no use trying again: it says what to do (R1170)
        raise Refused(503, str(error)) from None
    except sqlite3.OperationalError as error:
        raise Refused(503, f"the record is busy ({error}): try again") from None
    if tables:
        page.after_change()
    return done


def _done(
    request: web.Request, staff: StaffSession, done: str, *, to: str = "/"
) -> web.StreamResponse:
    request.app[PAGE].notices[staff.key] = done
    return _see(to)


# --- the field: a director's, before round 1 (R1062, R1063) ------------------------------------


async def _field_form(request: web.Request) -> web.StreamResponse:
    _reader(request, "the field's page", needs=Role.DIRECTOR)
    _requires_tournament(request)
    return _html(field_page(request.app[PAGE].record, _viewer(request)))


async def _field_preview(request: web.Request) -> web.StreamResponse:
    """What the pasted teams would add, every bad line named; nothing saved (R1062)."""
    await _staff(request, needs=Role.DIRECTOR, doing="entering teams")
    _requires_tournament(request)
    pasted = _pasted(await _form(request))
    page = request.app[PAGE]
    try:
        preview = preview_field(page.record, pasted)
    except RuleError as error:
        raise Refused(409, str(error)) from None
    return _html(field_page(page.record, _viewer(request), pasted=pasted, preview=preview))


async def _field_add(request: web.Request) -> web.StreamResponse:
    """The previewed teams added to the field, confirmed; a stale preview adds none (R1063)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="entering teams")
    _requires_tournament(request)
    form = await _confirmed(request, "entering teams")
    pasted = _pasted(form)
    expected = _form_number(form, "field", "the field the preview saw")
    count = _form_number(form, "count", "the number of teams previewed")
    page = request.app[PAGE]

    def add() -> str:
        preview = preview_field(page.record, pasted)
        if len(preview.teams.entrants) != count:
            raise IllegalAction(
                f"the preview listed {count} teams, the form holds {len(preview.teams.entrants)}"
                ": preview the teams again"
            )
        added = add_field(page.record, pasted, expected=expected, now=page.now(), by=staff.name)
        return f"{len(added)} teams added to the field: {len(page.record.entrants())} now"

    done = _change(request, add, tables=False)
    log.info("event=page_field_added by=%s %s", staff.name, done)
    return _done(request, staff, done)


def _pasted(form: Form) -> str:
    pasted = form.get("teams", "")
    if not isinstance(pasted, str) or not pasted.strip():
        raise Refused(400, "entering teams: expected the teams' rows, the header line first")
    return pasted


def _requires_tournament(request: web.Request) -> None:
    if not request.app[PAGE].record.has_tournament():
        raise Refused(404, "the record holds no tournament (a Pentathlon event alone): no field")


# --- who may (R811, R814, R816) ----------------------------------------------------------------


async def _staff(request: web.Request, *, needs: Role, doing: str) -> StaffSession:
    """The staff session behind a changing request (its origin checked already): the cookie,
    the CSRF token, and a role that may do ``doing``; else refused in words."""
    form = await _form(request)
    csrf = form.get("csrf")
    page = request.app[PAGE]
    token = request.cookies.get(COOKIE)
    try:
        page.sessions.require(token, csrf if isinstance(csrf, str) else None)
    except AccessError as error:
        raise Refused(403, str(error)) from None
    staff = staff_session(page, token)
    if staff is None:
        raise Refused(403, "your staff account was changed or removed: log in again")
    _may(staff, needs, doing)
    return staff


async def _director(request: web.Request) -> StaffSession:
    """A director's session behind a changing request (pair, amend, settle, manage)."""
    return await _staff(request, needs=Role.DIRECTOR, doing="this change")


def _reader(request: web.Request, what: str, *, needs: Role = Role.VIEWER) -> StaffSession:
    """The staff session behind a request that reads a staff view (R816): a browser without
    one is sent to the login, anything else refused in words."""
    staff = staff_session(request.app[PAGE], request.cookies.get(COOKIE))
    if staff is None:
        if request.method == "GET" and "text/html" in request.headers.get("Accept", ""):
            raise web.HTTPSeeOther(location=f"/login?next={quote(request.path)}")
        raise Refused(403, f"{what} is for staff: log in first (/login)")
    _may(staff, needs, f"seeing {what}")
    return staff


def _may(staff: StaffSession, needs: Role, doing: str) -> None:
    refusal = role_refusal(staff, needs, doing)
    if refusal is not None:
        log.info("event=page_refused account=%s role=%s needs=%s", staff.name, staff.role, needs)
        raise Refused(403, refusal)


async def _confirmed(request: web.Request, doing: str) -> Form:
    """The form of a change that asks to be confirmed first (its Confirm button)."""
    form = await _form(request)
    if form.get("confirm") != "yes":
        raise Refused(400, f"{doing}: expected the confirmation (the Confirm button)")
    return form


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


def _optional_number(form: Form, key: str, what: str) -> int | None:
    """The number a form names, or None from a form of a page made before it named one."""
    return _form_number(form, key, what) if key in form else None


def _path_number(request: web.Request, key: str) -> int:
    value = request.match_info[key]
    if not value.isascii() or not value.isdecimal() or len(value) > MAX_NUMBER_DIGITS:
        raise Refused(404, f"{key} {value[:20]!r}: expected a number")
    return int(value)


def _viewer(request: web.Request, error: str | None = None) -> Viewer:
    page = request.app[PAGE]
    staff = staff_session(page, request.cookies.get(COOKIE))
    if staff is None:
        return Viewer(error=error)
    return Viewer(
        csrf=staff.csrf,
        notice=page.notices.pop(staff.key, None),
        error=error,
        account=staff.name,
        role=staff.role.value,
    )


def _account(request: web.Request, name: str) -> StaffAccount | None:
    if not NAME.fullmatch(name):
        return None
    try:
        return request.app[PAGE].staff().find(name)
    except DirectorPasswordError as error:  # the director's password file, damaged
        log.error("event=page_password_error error=%s", error)
        raise Refused(500, str(error)) from None


def _nameless_login(request: web.Request) -> bool:
    """Whether a login without a name has an account to log in as: director's (R815, R851)."""
    return _account(request, DIRECTOR_ACCOUNT) is not None


def _any_account(request: web.Request) -> bool:
    try:
        return bool(request.app[PAGE].staff().accounts())
    except DirectorPasswordError as error:
        log.error("event=page_password_error error=%s", error)
        raise Refused(500, str(error)) from None


_UNKNOWN: list[str] = []


def _unknown_account_hash() -> str:
    """A hash no password gives, checked for a name that is no account (made once)."""
    if not _UNKNOWN:
        _UNKNOWN.append(hash_password(new_secret()))
    return _UNKNOWN[0]


def _local_path(value: object) -> str:
    """Where a login may go next: a path of this page's, else the page's own start."""
    return value if isinstance(value, str) and LOCAL_PATH.fullmatch(value) else "/"


def _on_this_machine(address: str) -> bool:
    """Whether a connection comes from the hub's own machine, by its peer address (R185)."""
    try:
        peer = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return False
    if isinstance(peer, ipaddress.IPv6Address) and peer.ipv4_mapped is not None:
        return peer.ipv4_mapped.is_loopback  # ::ffff:127.0.0.1, from a dual-stack listener
    return peer.is_loopback


# --- the control room: the problem queue ------------------------------------------------------


def _problems(page: DirectorPageState) -> tuple[Hall, list[Problem], float]:
    now = page.wall()
    hall = read_hall(page.record)
    found = find_problems(hall, page.grid.rows(), page.pending_refusals(), now, page.seen_reports)
    return hall, found, now


async def _problems_page(request: web.Request) -> web.StreamResponse:
    staff = _reader(request, "the problem queue")
    _, problems, now = _problems(request.app[PAGE])
    return _html(
        problems_page(
            as_seen_by(problems, staff.role),
            now,
            csrf=_viewer(request).csrf,
            enters=staff.account.may(Role.RESULTS),
            venue=request.app[PAGE].record.venue(),
        )
    )


async def _problems_json(request: web.Request) -> web.StreamResponse:
    staff = _reader(request, "the problem queue")
    page = request.app[PAGE]
    hall, problems, now = _problems(page)
    found = hall_json(
        hall, problems, now, rounds=hall.latest or 0, role=staff.role, venue=page.record.venue()
    )
    # the grid's headings: its tiles grouped by room, by the rooms' first tables (R1114)
    found["rooms"] = [
        {"name": room.place, "tables": list(room.tables)} for room in page.record.rooms()
    ]
    return web.json_response(found, headers={"Cache-Control": "no-store"})


async def _problem_seen(request: web.Request) -> web.StreamResponse:
    session = await _staff(request, needs=Role.DIRECTOR, doing="marking a problem seen")
    form = await _form(request)
    page = request.app[PAGE]
    key, back = str(form.get("key", "")), str(form.get("back", ""))
    _, problems, _ = _problems(page)
    problem = next((p for p in problems if p.seen_key is not None and p.seen_key == key), None)
    if problem is None:
        raise Refused(409, f"no problem {key[:40]!r} to mark seen: it is gone already")
    if problem.kind in HUB_KINDS:
        page.refusals.mark_seen(key)
    else:
        page.seen_reports.add(key)
    log.info("event=page_problem_seen table=%s key=%s", problem.table, key)
    page.notices[session.key] = f"table {problem.table}: {problem.label.lower()} marked seen"
    return _see(back if back in ("/", "/problems") else "/problems")


# --- the tournament day (issue 21): the projector, a round's prints, undoing a pairing ----------


async def _projector(request: web.Request) -> web.StreamResponse:
    value = request.query.get("page", "1")
    number = int(value) if value.isascii() and value.isdecimal() and len(value) <= 6 else 1
    page = request.app[PAGE]
    room = request.query.get("room")  # a room's own projector (R1113)
    return _html(
        _or_404(lambda: projector_page(page.record, number, names=page.public_names, room=room))
    )


async def _print_sheets(request: web.Request) -> web.StreamResponse:
    _may_print(request)
    page = request.app[PAGE]
    number = _path_number(request, "round")
    return _html(_or_404(lambda: round_sheets_page(page.record, number, printed_at=page.now())))


async def _print_pairings(request: web.Request) -> web.StreamResponse:
    _may_print(request)
    page = request.app[PAGE]
    number = _path_number(request, "round")
    return _html(_or_404(lambda: round_pairings_page(page.record, number, printed_at=page.now())))


# the page's downloads (R1060): the file's name, what it holds, and how it is made
_EXPORTS: dict[str, tuple[str, Callable[[TournamentDB], str]]] = {
    "standings.csv": ("text/csv", standings_csv),
    "results.csv": ("text/csv", results_csv),
    "record.json": ("application/json", lambda record: json.dumps(record_json(record), indent=2)),
}


async def _export(request: web.Request) -> web.StreamResponse:
    """A download of the record: for those who enter results and a director (R1060), as the
    record holds it now."""
    name = request.match_info["file"]
    _reader(request, "the record's downloads", needs=Role.RESULTS)
    if name not in _EXPORTS:
        raise Refused(404, f"no export {name[:40]!r}: expected one of {', '.join(_EXPORTS)}")
    page = request.app[PAGE]
    kind, make = _EXPORTS[name]
    if name.endswith(".csv") and not page.record.has_tournament():
        raise Refused(404, f"{name}: the record holds no tournament (a Pentathlon event alone)")
    body = make(page.record)
    filename = f"{_file_stem(page.record)}-{name}"
    return web.Response(
        text=body,
        content_type=kind,
        headers={
            "Cache-Control": "no-store",
            "Content-Disposition": f'attachment; filename="{filename}"',
        },
    )


def _file_stem(record: TournamentDB) -> str:
    """The tournament's name as a download's file name: letters, digits and dashes only (no
    quote or path can reach the header); ``tournament`` without one."""
    stem = re.sub(r"[^A-Za-z0-9]+", "-", record.venue().name or "").strip("-").lower()[:40]
    return stem or "tournament"


async def _draw_form(request: web.Request) -> web.StreamResponse:
    _reader(request, "changing a draw", needs=Role.DIRECTOR)
    _requires_tournament(request)
    number = _path_number(request, "round")
    page = request.app[PAGE]
    return _html(draw_page(page.record, number, _viewer(request), playing=_playing(page)))


async def _draw_swap(request: web.Request) -> web.StreamResponse:
    """Two teams swapped in a round's draw, with a reason (R1064): a swap that warns is
    shown with its warnings, nothing swapped, until its Confirm (R1065); the form names the
    draw it was made from (R1066)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="changing a draw")
    _requires_tournament(request)
    form = await _form(request)
    number = _path_number(request, "round")
    first, second, reason, drawn = (
        str(form.get(key, "")) for key in ("first", "second", "reason", "draw")
    )
    if not first or not second:
        raise Refused(400, "changing a draw: expected the two teams to swap")
    page = request.app[PAGE]
    confirmed = form.get("confirm") == "yes"
    if not confirmed:
        try:
            checked_reason(number, reason)
            plan = plan_swap(page.record, number, first, second)
        except RuleError as error:
            raise Refused(409, str(error)) from None
        if plan.warnings:  # shown, nothing swapped: the second step is the Confirm
            viewer = _viewer(request)
            return _html(
                draw_page(
                    page.record,
                    number,
                    viewer,
                    warned=plan,
                    reason=reason,
                    playing=_playing(page),
                )
            )
    done = _change(
        request,
        lambda: swap_in_draw(
            page.record,
            number,
            first,
            second,
            reason=reason,
            now=page.now(),
            by=staff.name,
            confirmed=confirmed,
            expected=drawn or None,
        ),
    )
    log.info("event=page_draw_changed by=%s round=%d", staff.name, number)
    return _done(request, staff, f"round {number}: {done.change}; the tables are told")


async def _draw_move(request: web.Request) -> web.StreamResponse:
    """A match moved to a free table of the tournament, with a reason (R1068); the form names
    the draw it was made from (R1066)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="changing a draw")
    _requires_tournament(request)
    form = await _form(request)
    number = _path_number(request, "round")
    team, table, reason, drawn = (
        str(form.get(key, "")).strip() for key in ("team", "table", "reason", "draw")
    )
    if not team or not table:
        raise Refused(400, "moving a match: expected the match and the free table to move it to")
    if not (table.isascii() and table.isdigit() and len(table) <= 9):
        raise Refused(
            400, f"moving a match to table {table[:12]!r}: expected a table number such as 12"
        )
    page = request.app[PAGE]
    playing = _playing(page)
    if playing is not None:  # never to another event's table (R1172)
        try:
            require_event_table(playing, int(table), page.event or "", undone="nothing moved")
        except RuleError as error:
            raise Refused(409, str(error)) from None
    done = _change(
        request,
        lambda: move_in_draw(
            page.record,
            number,
            team,
            int(table),
            reason=reason,
            now=page.now(),
            by=staff.name,
            expected=drawn or None,
            tables=playing,
        ),
    )
    log.info("event=page_draw_changed by=%s round=%d", staff.name, number)
    return _done(request, staff, f"round {number}: {done.change}; the tables are told")


async def _teams(request: web.Request) -> web.StreamResponse:
    _reader(request, "the teams' page", needs=Role.DIRECTOR)
    _requires_tournament(request)
    record = request.app[PAGE].record
    name = request.query.get("team")
    try:
        editing = None if name is None else find_entrant(record.entrants(), name)
    except RuleError as error:
        raise Refused(404, str(error)) from None
    return _html(teams_page(record, _viewer(request), editing))


async def _team_edit(request: web.Request) -> web.StreamResponse:
    """A team's name, school or players, with a reason (R1067)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="editing a team")
    _requires_tournament(request)
    form = await _form(request)
    team, name, school, players, reason = (
        str(form.get(key, "")) for key in ("team", "name", "school", "players", "reason")
    )
    page = request.app[PAGE]
    edit = _change(
        request,
        lambda: edit_team(
            page.record,
            team,
            name=name,
            school=school,
            players=players,
            reason=reason,
            now=page.now(),
            by=staff.name,
        ),
    )
    log.info("event=page_team_edited by=%s", staff.name)
    return _done(request, staff, f"{edit.before.name} edited: {edit.change}", to="/teams")


# --- rooms: a director's (R1110-R1115) ---------------------------------------------------------

ROOM_PATHS = ("/rooms/add", "/rooms/remove")  # refused: shown on /rooms, to try again


async def _rooms(request: web.Request) -> web.StreamResponse:
    _reader(request, "the rooms' page", needs=Role.DIRECTOR)
    _requires_tournament(request)
    return _html(rooms_page(request.app[PAGE].record, _viewer(request)))


async def _room_add(request: web.Request) -> web.StreamResponse:
    """A room from the page, checked as the CLI's ``room add`` checks it (R1110, R1111)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="managing the rooms")
    _requires_tournament(request)
    form = await _form(request)
    try:
        name = check_room_name(str(form.get("name", "")))
        tables = parse_tables(str(form.get("tables", "")))
        building = check_room_name(str(form.get("building", "")), "the building")
    except RuleError as error:
        raise Refused(400, str(error)) from None
    page = request.app[PAGE]
    room = _change(
        request,
        lambda: page.record.add_room(
            name, tables, building=building, now=page.now(), by=staff.name
        ),
        tables=False,  # the grid reads the rooms with its queue (R1114); no table is told
    )
    log.info("event=page_room_added by=%s room=%s", staff.name, room.name)
    done = f"room {room.place}: tables {spell_tables(room.tables)} added (by {staff.name})"
    return _done(request, staff, done, to="/rooms")


async def _room_remove(request: web.Request) -> web.StreamResponse:
    """A room removed, confirmed, if it still holds the tables the page showed (R1115)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="managing the rooms")
    _requires_tournament(request)
    form = await _confirmed(request, "removing a room")
    name = str(form.get("name", ""))
    try:
        seen = parse_tables(str(form.get("tables", "")))
    except RuleError as error:
        raise Refused(400, f"the room's tables as the page showed them: {error}") from None
    page = request.app[PAGE]
    room = _change(
        request,
        lambda: page.record.remove_room(name, now=page.now(), by=staff.name, seen=seen),
        tables=False,
    )
    log.info("event=page_room_removed by=%s room=%s", staff.name, room.name)
    done = (
        f"room {room.name!r} removed (by {staff.name}): tables {spell_tables(room.tables)} "
        "in no room"
    )
    return _done(request, staff, done, to="/rooms")


async def _undo_form(request: web.Request) -> web.StreamResponse:
    session = _may_undo(request)
    number = _path_number(request, "round")
    return _html(_or_404(lambda: undo_page(request.app[PAGE].record, number, session.csrf)))


async def _undo(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.DIRECTOR, doing="undoing a pairing")
    form = await _confirmed(request, "undoing a pairing")
    reason = form.get("reason", "")
    number = _path_number(request, "round")
    page = request.app[PAGE]
    done = _change(
        request,
        lambda: unpair_round(
            page.record,
            number,
            now=page.now(),
            by=staff.name,
            reason=reason if isinstance(reason, str) else "",
        ),
    )
    log.info("event=page_unpair by=%s round=%d %s", staff.name, number, done)
    return _done(request, staff, done)


async def _close_form(request: web.Request) -> web.StreamResponse:
    session = _reader(request, "the page closing the tournament", needs=Role.DIRECTOR)
    page = request.app[PAGE]
    notice = page.notices.pop(session.key, None)  # a playoff game just recorded, say
    return _html(close_page(page.record, session.csrf, notice=notice))


async def _close(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.DIRECTOR, doing="closing the tournament")
    form = await _confirmed(request, "closing the tournament")
    champion = form.get("champion", "")
    if not isinstance(champion, str) or not champion.strip():
        raise Refused(400, "closing the tournament: expected the championship's winner")
    # the form names the latest closing it saw: drawn before a reopening, it closes nothing
    expected = _optional_number(form, "closing", "the closing")
    # and the championship it showed: played again since, it closes nothing (R963)
    championship = _two_teams_of(form, "closing the tournament", "the championship's")
    page = request.app[PAGE]
    done = _change(
        request,
        lambda: record_champion(
            page.record,
            champion.strip(),
            now=page.now(),
            by=staff.name,
            expected=expected,
            championship=championship,
        ),
        tables=False,
    )
    log.info("event=page_closed by=%s", staff.name)
    return _done(request, staff, done)


async def _reopen(request: web.Request) -> web.StreamResponse:
    """Reopen the closed tournament: a director's, confirmed, with a reason (R850)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="reopening the tournament")
    form = await _confirmed(request, "reopening the tournament")
    reason = form.get("reason", "")
    # the form names the closing it reopens: a stale page reopens no later one (R856)
    expected = _optional_number(form, "closing", "the closing")
    page = request.app[PAGE]
    done = _change(
        request,
        lambda: reopen_tournament(
            page.record,
            reason if isinstance(reason, str) else "",
            now=page.now(),
            by=staff.name,
            expected=expected,
        ),
        tables=False,
    )
    log.info("event=page_reopened by=%s", staff.name)
    return _done(request, staff, done)


async def _playoff(request: web.Request) -> web.StreamResponse:
    """The next playoff game's winner: a director's, as the command line's (issue 21)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="recording a playoff game")
    form = await _confirmed(request, "recording a playoff game")
    winner = form.get("winner", "")
    if not isinstance(winner, str) or not winner.strip():
        raise Refused(400, "recording a playoff game: expected its winner")
    expected = _playoff_game_of(form)
    page = request.app[PAGE]
    done = _change(
        request,
        lambda: record_playoff_game(
            page.record, winner.strip(), now=page.now(), by=staff.name, expected=expected
        ),
        tables=False,
    )
    log.info("event=page_playoff by=%s %s", staff.name, done)
    return _done(request, staff, done, to="/close")


async def _void_playoff(request: web.Request) -> web.StreamResponse:
    """Void the playoff's games with a reason: a director's, confirmed (R960, R961, R964)."""
    staff = await _staff(request, needs=Role.DIRECTOR, doing="voiding the playoff")
    form = await _confirmed(request, "voiding the playoff")
    reason = form.get("reason", "")
    # the form names how many games it voids: a page left open voids no game recorded since
    expected = _optional_number(form, "games", "the playoff's games")
    # and the latest game it showed: voided and played again since, it is not voided (R964)
    last = _optional_number(form, "last", "the playoff's latest game")
    page = request.app[PAGE]
    done = _change(
        request,
        lambda: void_playoff(
            page.record,
            reason if isinstance(reason, str) else "",
            now=page.now(),
            by=staff.name,
            expected=expected,
            last=last,
        ),
        tables=False,
    )
    log.info("event=page_playoff_void by=%s %s", staff.name, done)
    return _done(request, staff, done, to="/close")


# --- who is here (issue 27): check-in, withdrawal, the standings' release -----------------------

_FROM_CHECKIN = ("/checkin", "/withdraw", "/standings/release")  # refused: shown on /checkin


async def _checkin_page(request: web.Request) -> web.StreamResponse:
    _reader(request, "the check-in")
    return _html(checkin_page(request.app[PAGE].record, _viewer(request)))


async def _checkin(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.RESULTS, doing="checking in a team")
    form = await _form(request)
    number = _form_number(form, "round", "the round")
    team, present = form.get("team", ""), form.get("present", "")
    if not isinstance(team, str) or not team.strip():
        raise Refused(400, "checking in a team: expected the team")
    if present not in ("0", "1"):
        raise Refused(400, "checking in a team: expected present (1) or absent (0)")
    page = request.app[PAGE]
    name, here = _change(
        request,
        lambda: page.record.mark_checkin(
            number, team, present=present == "1", now=page.now(), by=staff.name
        ),
        tables=False,
    )
    log.info("event=page_checkin by=%s round=%d present=%s", staff.name, number, here)
    done = f"round {number}: {name} marked {'present' if here else 'absent'}"
    return _done(request, staff, done, to="/checkin")


async def _withdraw(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.DIRECTOR, doing="withdrawing a team")
    form = await _confirmed(request, "withdrawing a team")
    team, reason = form.get("team", ""), form.get("reason", "")
    if not isinstance(team, str) or not team.strip():
        raise Refused(400, "withdrawing a team: expected the team")
    page = request.app[PAGE]
    gone = _change(
        request,
        lambda: page.record.withdraw_team(
            team,
            now=page.now(),
            by=staff.name,
            reason=one_line_reason(reason) if isinstance(reason, str) and reason.strip() else "",
        ),
        tables=False,
    )
    log.info("event=page_withdraw by=%s", staff.name)
    when = "before round 1" if gone.after_round == 0 else f"after round {gone.after_round}"
    done = f"{gone.team} withdrawn {when}: never paired again"
    return _done(request, staff, done, to="/checkin")


async def _standings_release(request: web.Request) -> web.StreamResponse:
    staff = await _staff(request, needs=Role.DIRECTOR, doing="releasing the standings")
    form = await _form(request)
    public = form.get("public", "")
    if public not in ("0", "1"):
        raise Refused(400, "the standings' release: expected public (1) or hidden (0)")
    page = request.app[PAGE]
    shown = _change(
        request,
        lambda: page.record.set_standings_release(
            public=public == "1", now=page.now(), by=staff.name
        ),
        tables=False,
    )
    log.info("event=page_standings_release by=%s public=%s", staff.name, shown.public)
    done = "the standings are public" if shown.public else "the standings are hidden"
    return _done(request, staff, done, to="/checkin")


def _playoff_game_of(form: Form) -> tuple[int, str, str] | None:
    """The game a playoff form was for (its number, its two teams), or None: a form without
    it, as the command line's (R855)."""
    if "game" not in form:
        return None
    number = _form_number(form, "game", "the playoff game's number")
    teams = _two_teams_of(form, "recording a playoff game", "the game's")
    if teams is None:
        raise Refused(400, "recording a playoff game: expected the game's two teams (a and b)")
    return number, *teams


def _two_teams_of(form: Form, doing: str, whose: str) -> tuple[str, str] | None:
    """The two teams a form names (hidden ``a`` and ``b``), or None: a form without them (a
    request made by hand); one of them alone, or empty, is refused."""
    if "a" not in form and "b" not in form:
        return None
    a, b = form.get("a"), form.get("b")
    if not isinstance(a, str) or not isinstance(b, str) or not a or not b:
        raise Refused(400, f"{doing}: expected {whose} two teams (a and b)")
    return a, b


def _may_print(request: web.Request) -> StaffSession:
    """Who may print a round's sheets (players' names on them): staff (R816, R822)."""
    return _reader(request, "printing a round")


def _may_undo(request: web.Request) -> StaffSession:
    """Who may see the confirmation of undoing a pairing: a director (R811, R820)."""
    return _reader(request, "the confirmation of undoing a pairing", needs=Role.DIRECTOR)


def _or_404(view: Callable[[], str]) -> str:
    try:
        return view()
    except RuleError as error:
        raise Refused(404, str(error)) from None


# --- every response ----------------------------------------------------------------------------


def _html(body: str, status: int = 200) -> web.Response:
    return web.Response(
        text=body, status=status, content_type="text/html", headers={"Cache-Control": "no-store"}
    )


def _see(path: str) -> web.Response:
    return web.Response(status=303, headers={"Location": path})


_FROM_CLOSE = (
    "/close",
    "/reopen",
    "/playoff",
    "/playoff/void",
)  # the forms of /close: refused, shown there


def _refusal(request: web.Request, status: int, message: str) -> web.Response:
    path = _here(request)
    if path.startswith("/api/"):
        return web.json_response({"error": message}, status=status)
    # the director's page with the line, but never to a name the hub does not serve (whose page
    # can read the answer)
    if request.method == "POST" and request.app[PAGE].guard.serves(request.headers.get("Host")):
        page = request.app[PAGE]
        try:
            viewer = _viewer(request, message)  # anyone else is shown nothing of a staff view
            if viewer.director and path in _FROM_CLOSE:
                staff = staff_session(page, request.cookies.get(COOKIE))
                if staff is not None:  # shown again where it was sent from, to try again
                    return _html(close_page(page.record, staff.csrf, error=message), status)
            if viewer.csrf is not None and (
                path in ("/result", "/pair", "/logout", *_FROM_CLOSE) or path.startswith("/undo/")
            ):
                staff = staff_session(page, request.cookies.get(COOKIE))
                if staff is not None:  # the same page as /, its queue and tools too
                    return _html(_the_directors_page(request, staff, viewer), status)
                return _html(director_page(page.record, viewer), status)
            if viewer.csrf is not None and path in _FROM_CHECKIN:
                return _html(checkin_page(page.record, viewer), status)
            if viewer.director and path == "/teams/edit" and page.record.has_tournament():
                return _html(teams_page(page.record, viewer), status)
            if viewer.director and path in ROOM_PATHS and page.record.has_tournament():
                return _html(rooms_page(page.record, viewer), status)
            if viewer.director and path.startswith("/draw/round/"):
                number = _path_number(request, "round")  # shown again, to try again
                return _html(draw_page(page.record, number, viewer, playing=_playing(page)), status)
            if viewer.director and path in FIELD_PATHS and page.record.has_tournament():
                return _html(field_page(page.record, viewer), status)  # to paste again
            if viewer.director and path in ("/staff/add", "/staff/remove"):
                accounts = page.staff().accounts()
                return _html(staff_page(accounts, viewer, page.record.venue()), status)
        except Exception:
            log.exception("event=page_error path=%s", request.path)
    return _html(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>gametable</title>'
        f'<link rel="stylesheet" href="/static/page.css"></head><body><main>'
        f'<p class="error" role="alert">{escape(message)}</p><p><a href="/">The tables</a></p>'
        "</main></body></html>",
        status,
    )


# --- what the day's page (day.py) checks and answers as the one-record page does ----------------


def staff_reader(request: web.Request, what: str, *, needs: Role = Role.VIEWER) -> StaffSession:
    return _reader(request, what, needs=needs)


async def staff_changing(request: web.Request, *, needs: Role, doing: str) -> StaffSession:
    return await _staff(request, needs=needs, doing=doing)


async def form_of(request: web.Request) -> Form:
    return await _form(request)


def viewer_of(request: web.Request, error: str | None = None) -> Viewer:
    return _viewer(request, error)


def html(body: str, status: int = 200) -> web.Response:
    return _html(body, status)


def see(path: str) -> web.Response:
    return _see(path)
