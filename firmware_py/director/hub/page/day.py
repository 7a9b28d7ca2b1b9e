"""The page of a day of several events (issue 27, ``hub run --day``): every route listed here
(docs/hub.md, "Several events: the day").

    GET  /                  staff: the day at a glance: every event (its round, results in and
                            out, tables reporting, problems), every room with its tables (each
                            tile naming its event), one problem queue over every event
                            (?event=SLUG, ?room=NAME), and the form moving tables between events
    POST /assign            a director: tables (like 1-12,15) to an event, with a reason;
                            refused while a table's match is unfinished (R1143)
    GET  /staff             a director: the day's staff accounts, each with its event (R1142)
    POST /staff/add, /staff/remove   a director: an account, of every event or of one
    GET  /login, POST /login, POST /logout   one login for every event (R1141)
    GET  /public, /projector     anyone: the events, each with its public page and projectors
    GET  /events/<slug>/...      every page of the one-record page (app.py), for that event
                                 (R1140); but its /staff is the day's (/staff), and a change
                                 sent to its /staff/add or /staff/remove is refused in words
    GET  /static/...        the stylesheet and scripts, once for every event

The day's page is built from the day record and its events' open records (``day_pages``), so
that it is tested without a hub; ``server.DayPage`` serves it on the hub's loop.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape
from urllib.parse import quote, urlencode

from aiohttp import web

from firmware_py.director.hub.page.app import (
    MAX_BODY,
    MAX_FIELD_BODY,
    PAGE,
    STATIC,
    add_account_routes,
    field_bodies,
    form_of,
    html,
    make_app,
    see,
    staff_changing,
    staff_reader,
    viewer_of,
)
from firmware_py.director.hub.page.privacy import PublicNames
from firmware_py.director.hub.page.problems import (
    KINDS,
    Hall,
    Problem,
    duration_words,
    find_problems,
    read_hall,
)
from firmware_py.director.hub.page.render import hidden, line, shell, text
from firmware_py.director.hub.page.session_file import SessionFile, sessions_path
from firmware_py.director.hub.page.sessions import DirectorSessions
from firmware_py.director.hub.page.state import DirectorPageState
from firmware_py.director.hub.page.views import Viewer
from firmware_py.director.hub.staff import (
    ROLE_WORDS,
    Role,
    check_name,
    hash_new_password,
    parse_role,
)
from firmware_py.director.hub.staff_events import StaffEvents
from firmware_py.director.hub.staff_password import DirectorPasswordError
from firmware_py.director.hub.wire.board import LiveBoard, TableRow
from firmware_py.director.hub.wire.refusals import HubRefusals
from firmware_py.director.record.day import DayRecord, parse_table_list
from firmware_py.director.record.day_tables import busy_tables, champion_of, tables_moved_line
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.director.record.venue import Venue
from firmware_py.table.web.errors import Refused
from firmware_py.table.web.serving import (
    add_headers,
    one_line_errors,
    same_site,
    security_headers,
    sized_bodies,
    whole_body,
)
from rules.errors import InvalidInput, RuleError

log = logging.getLogger("gametable")
# A table in a game sends its state at least every second (its clock): one heard from no more
# for this long is "silent" on the day's tile (R1161), about when a bridge notices its link is
# cut (1.5 keepalives of the shipped gametable-hall.conf). The queue's problem waits R800's 5 min.
DAY_SILENT_SECONDS = 30.0


@dataclass(slots=True)
class DayPages:
    """The day's page's state: the day, its own page (the login, the glance) and each event's,
    every one sharing the day's sessions and staff accounts."""

    day: DayRecord
    lobby: DirectorPageState
    events: dict[str, DirectorPageState]  # slug -> the event's page, in the day's order

    @property
    def every(self) -> list[DirectorPageState]:
        return [self.lobby, *self.events.values()]

    def changed(self) -> None:
        """The board changed: every open grid of every event hears it."""
        for page in self.every:
            page.changed()

    def close(self) -> None:
        for page in self.every:
            page.closed = True
            page.changed()


DAY = web.AppKey("day", DayPages)


def day_pages(
    day: DayRecord,
    events: Mapping[str, TournamentDB],
    board: LiveBoard,
    refusals: HubRefusals,
    *,
    sock: socket.socket,
    now: Callable[[], str],
    tls: ssl.SSLContext | None = None,
    after_change: Callable[[], None] = lambda: None,
    clock: Callable[[], float] = time.monotonic,
    wall: Callable[[], float] = time.time,
    names: frozenset[str] = frozenset({"localhost"}),
    public_names: PublicNames = PublicNames.TEAMS,
) -> DayPages:
    """The pages of ``day`` and of its ``events`` (slug -> the event's open record)."""
    slugs = [event.slug for event in day.events()]
    missing = [slug for slug in slugs if slug not in events]
    if missing or not slugs:
        raise InvalidInput(
            f"the day {day.path.name} has no event yet: add one with 'gametable day event'"
            if not slugs
            else f"the day's events {', '.join(missing)} have no open record"
        )
    sessions = DirectorSessions(clock=clock, wall=wall, file=SessionFile(sessions_path(day.path)))
    scope = StaffEvents(day).event_of
    titles = {event.slug: event.name for event in day.events()}

    def page(record: TournamentDB, slug: str | None) -> DirectorPageState:
        return DirectorPageState(
            sock,
            record,
            board,
            now,
            tls=tls,
            after_change=after_change,
            clock=clock,
            wall=wall,
            names=names,
            refusals=refusals,
            public_names=public_names,
            base="" if slug is None else f"/events/{slug}",
            event=slug,
            event_name="" if slug is None else titles[slug],
            staff_holder=day,
            shared_sessions=sessions,
            account_event=scope,
            # the day's own pages are headed by its name and time zone; an event's by its
            # own, below the day's line (within.day_banner)
            day_venue=Venue(day.name, day.time_zone) if slug else heading(day),
            playing=None if slug is None or len(slugs) == 1 else _playing(day, slug),
        )

    # the day's own page reads no event's record: the first stands in where a record is asked
    lobby = page(events[slugs[0]], None)
    return DayPages(day, lobby, {slug: page(events[slug], slug) for slug in slugs})


def heading(day: DayRecord) -> Venue:
    """What heads each of the day's own pages: the tournament's name and its time zone."""
    return Venue(f"{day.name} · {day.time_zone}", day.time_zone)


def _playing(day: DayRecord, slug: str) -> Callable[[], set[int]]:
    """The tables that play for ``slug`` now, read from the day as it is."""
    return lambda: set(day.tables_of(slug))


def day_app(pages: DayPages) -> web.Application:
    """The day's page: its own routes, and each event's page mounted at /events/<slug>."""
    errors = one_line_errors(
        _refusal, max_body=MAX_BODY, event="page_error", who="the hub", routes_doc="docs/hub.md"
    )
    larger: dict[str, int] = {}
    for slug in pages.events:
        larger |= field_bodies(f"/events/{slug}")
    app = web.Application(
        client_max_size=MAX_FIELD_BODY,
        middlewares=[
            errors,
            same_site(lambda r: r.app[PAGE].guard),
            whole_body(who="the hub"),
            sized_bodies(MAX_BODY, larger),
        ],
    )
    app[PAGE] = pages.lobby
    app[DAY] = pages
    add_headers(app, security_headers(referrer="same-origin"))
    app.router.add_get("/", _glance)
    app.router.add_post("/assign", _assign)
    app.router.add_get("/staff", _staff_list)
    app.router.add_post("/staff/add", _staff_add)
    app.router.add_post("/staff/remove", _staff_remove)
    app.router.add_get("/public", _public)
    app.router.add_get("/projector", _projector)
    add_account_routes(app)
    app.router.add_get("/events/{slug}", _event_root)
    for slug, page in pages.events.items():
        app.router.add_get(f"/events/{slug}", _event_root)  # before its page takes the prefix
        # the day's staff are managed on the day's page, never as one event's (R1142)
        app.router.add_get(f"/events/{slug}/staff", _day_staff_instead)
        for change in ("add", "remove"):
            app.router.add_post(f"/events/{slug}/staff/{change}", _day_staff_instead)
        app.add_subapp(f"/events/{slug}", make_app(page))
    # any other event's address: after every event's page, so only an unknown slug comes here
    app.router.add_route("*", "/events/{slug}/{within:.*}", _event_root)
    app.router.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)
    return app


# --- the day at a glance ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventLine:
    slug: str
    name: str
    latest: int | None
    results_in: int
    results_out: int
    reporting: int
    tables: int
    problems: int
    champion: str | None  # the closed event's (R1182); None while it is open


@dataclass(frozen=True, slots=True)
class DayProblem:
    """One line of the day's queue: a problem of one event's, or of a table of none."""

    event: str | None  # slug; None: a table that plays for no event
    room: str | None
    problem: Problem


async def _glance(request: web.Request) -> web.StreamResponse:
    staff_reader(request, "the day's page")
    return html(_glance_page(request, viewer_of(request)))


def _glance_page(request: web.Request, viewer: Viewer) -> str:
    pages = request.app[DAY]
    day = pages.day
    slugs = list(pages.events)
    rooms = _rooms(pages)
    event_filter = request.query.get("event") or None
    room_filter = request.query.get("room") or None
    if event_filter is not None and event_filter not in pages.events:
        raise Refused(
            404, f"no event {event_filter[:30]!r} this day: its events are {', '.join(slugs)}"
        )
    if room_filter is not None and room_filter not in rooms:
        known = ", ".join(rooms) or "none yet (add them on each event's Rooms page)"
        raise Refused(404, f"no room {room_filter[:40]!r} this day: its rooms are {known}")
    owners = _owners(pages)
    # each event's record read once a glance: the costliest part of its answer, 24 times over
    # on a national tournament's day (bench/day_scale.py)
    halls = {slug: read_hall(page.record) for slug, page in pages.events.items()}
    queue = _queue(pages, halls, owners, rooms)
    lines = [_event_line(pages, slug, halls[slug], owners, queue) for slug in slugs]
    shown = [
        entry
        for entry in queue
        if (event_filter is None or entry.event == event_filter)
        and (room_filter is None or entry.room == room_filter)
    ]
    names = {slug: page.event_title for slug, page in pages.events.items()}
    body = [
        line(viewer.notice, "notice"),
        line(viewer.error, "error"),
        _events_table(lines, names),
        _queue_section(shown, names, slugs, list(rooms), event=event_filter, room=room_filter),
        _rooms_section(pages, rooms, owners, names),
    ]
    if viewer.director:
        body.append(_assign_form(viewer, names))
    return shell("The day", "\n".join(body), nav=_nav(viewer), venue=heading(day))


def _owners(pages: DayPages) -> dict[int, str]:
    """Each assigned table's event; in a day of one event, every table heard is its."""
    owners = {table: a.event for table, a in pages.day.assignments().items()}
    if len(pages.events) == 1:
        (only,) = pages.events
        heard = (row.table for row in pages.lobby.board.rows())
        owners = {table: only for table in heard} | owners
    return owners


def _rooms(pages: DayPages) -> dict[str, tuple[int, ...]]:
    """Every room of every event, by its place ("East Hall, Ballroom B"), its tables."""
    rooms: dict[str, set[int]] = {}
    for page in pages.events.values():
        for room in page.record.rooms():
            rooms.setdefault(room.place, set()).update(room.tables)
    return {place: tuple(sorted(tables)) for place, tables in sorted(rooms.items())}


def _queue(
    pages: DayPages,
    halls: Mapping[str, Hall],
    owners: Mapping[int, str],
    rooms: Mapping[str, tuple[int, ...]],
) -> list[DayProblem]:
    """One queue over every event: each event's problems from its record and its own tables,
    and each table heard that plays for no event (its decisions held: R1118)."""
    now = pages.lobby.wall()
    rows = pages.lobby.board.rows()
    pending = pages.lobby.refusals.pending()
    room_of = {table: place for place, tables in rooms.items() for table in tables}
    found: list[DayProblem] = []
    for slug, page in pages.events.items():
        hall = halls[slug]
        mine = [row for row in rows if owners.get(row.table) == slug]
        refused = [r for r in pending if owners.get(r.table) == slug]
        for problem in find_problems(hall, mine, refused, now, page.seen_reports):
            room = None if problem.table is None else room_of.get(problem.table)
            found.append(DayProblem(slug, room, problem))
    names = {slug: page.event_title for slug, page in pages.events.items()}
    moved = {table: a.at for table, a in pages.day.assignments().items()}
    for place, tables in rooms.items():
        cut = _room_silent(place, [row for row in rows if row.table in tables], now)
        if cut is not None:
            found.append(DayProblem(None, place, cut))
    for row in rows:
        if row.table not in owners:
            found.append(DayProblem(None, room_of.get(row.table), _no_event(row, now)))
        elif _follows_another(row, owners[row.table], moved.get(row.table), now):
            problem = _other_event(row, names, owners[row.table])
            found.append(DayProblem(owners[row.table], room_of.get(row.table), problem))
    return sorted(found, key=lambda entry: entry.problem.since)


# DayProblem kinds of the day's own (never on an event's grid), with their labels
DAY_KINDS = {
    "no_event": "No event",
    "other_event": "Follows another event",
    "room_silent": "Room silent",
}
# a room is silent when this many of its tables, at least, and every one heard in a game, have
# gone silent together: one table is its own problem (its tile), a whole room is its link
ROOM_SILENT_TABLES = 2
NO_EVENT = DAY_KINDS["no_event"]
# how long a table may still follow its former event after a move: it hears its new one within
# the hub's next read of the day (a second) and says so in its next state
FOLLOW_GRACE_SECONDS = 10.0


def _follows_another(row: TableRow, event: str, moved_at: str | None, now: float) -> bool:
    """Whether an online table says it follows another event than the day gives it, longer
    than a move takes to reach it (R1174). A table that says none (before issue 27, or a hub
    serving one record) is not held to it."""
    if row.follows is None or row.follows == event or not row.online:
        return False
    since = _seconds(moved_at) if moved_at is not None else None
    return since is None or now - since >= FOLLOW_GRACE_SECONDS


def _seconds(at: str) -> float | None:
    try:
        return datetime.fromisoformat(at).timestamp()
    except ValueError:
        return None


def _other_event(row: TableRow, names: Mapping[str, str], event: str) -> Problem:
    follows = names.get(row.follows or "", row.follows or "")
    return Problem(
        kind="other_event",  # the day's own kind, as "no_event"
        since=row.heard or 0.0,
        what=f"table {row.table} follows {follows} but plays for {names[event]}",
        todo=(
            "It shows the other event's match and its teams may play the wrong one: check that "
            f"it hears the hub (its event is kept on tournament/tables/{row.table}/event), or "
            "restart its service"
        ),
        links=(),
        table=row.table,
    )


def _room_silent(place: str, rows: Sequence[TableRow], now: float) -> Problem | None:
    """A room whose every table in a game has been silent DAY_SILENT_SECONDS, two at least
    (R1167): the room's link to the hub (its hall broker, its bridge, its network) is the
    likelier cause than every table at once, and the tiles alone do not say so."""
    playing = [row for row in rows if row.in_game and row.online is not False]
    silent = [
        row for row in playing if row.heard is not None and now - row.heard > DAY_SILENT_SECONDS
    ]
    if len(silent) < ROOM_SILENT_TABLES or len(silent) < len(playing):
        return None
    since = min(row.heard for row in silent if row.heard is not None)
    return Problem(
        kind="room_silent",  # the day's own kind, as "no_event"
        since=since,
        what=(
            f"{len(silent)} tables in a game have sent nothing for {duration_words(now - since)}"
        ),
        todo=(
            "The room's link to the hub is likely cut: its hall broker and its bridge "
            "(systemctl status mosquitto on the hall's machine), or its network. The tables keep "
            "what they play and send it once the link is back"
        ),
        links=(),
    )


def _no_event(row: TableRow, now: float) -> Problem:
    return Problem(
        kind="no_event",  # the day's own kind: never on an event's grid
        since=row.heard or now,
        what="plays for no event",
        todo="Assign it on the day page (its decisions are held until then)",
        links=(),
        table=row.table,
    )


def _event_line(
    pages: DayPages,
    slug: str,
    hall: Hall,
    owners: Mapping[int, str],
    queue: Iterable[DayProblem],
) -> EventLine:
    page = pages.events[slug]
    latest = hall.latest
    results_in = sum((latest, table) in hall.results for table in hall.matches)
    tables = [table for table, event in owners.items() if event == slug]
    now = pages.lobby.wall()
    # a table reports while its tile says "online": not offline, not silent in a game (R1161)
    reporting = sum(1 for table in tables if _tile_state(page.board.row(table), now) == "online")
    problems = sum(1 for entry in queue if entry.event == slug)
    name = page.event_title
    return EventLine(
        slug,
        name,
        latest,
        results_in,
        len(hall.matches) - results_in,
        reporting,
        len(tables),
        problems,
        champion_of(page.record),
    )


def _round_cell(line: EventLine) -> str:
    """The event's latest round, and once it is closed its champion (R1182)."""
    latest = "not paired yet" if line.latest is None else str(line.latest)
    if line.champion is None:
        return latest
    return f'{latest} · <strong class="closed">closed: {text(line.champion)} champion</strong>'


def _events_table(lines: list[EventLine], names: Mapping[str, str]) -> str:
    rows = "".join(
        "<tr>"
        f'<td data-label="Event"><a href="/events/{quote(e.slug)}/">{text(names[e.slug])}</a>'
        f' <span class="muted">{text(e.slug)}</span></td>'
        f'<td data-label="Round">{_round_cell(e)}</td>'
        f'<td data-label="Results">{e.results_in} in, {e.results_out} out</td>'
        f'<td data-label="Tables reporting">{e.reporting} of {e.tables}</td>'
        f'<td data-label="Problems"><a href="/?{urlencode({"event": e.slug})}#queue">'
        f"{e.problems}</a></td></tr>"
        for e in lines
    )
    head = "".join(
        f'<th scope="col">{h}</th>'
        for h in ("Event", "Round", "Results", "Tables reporting", "Problems")
    )
    return (
        '<section><h2>Events</h2><table class="events">'
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></section>"
    )


def _queue_section(
    shown: list[DayProblem],
    names: Mapping[str, str],
    slugs: list[str],
    rooms: list[str],
    *,
    event: str | None,
    room: str | None,
) -> str:
    def options(values: list[str], chosen: str | None, every: str) -> str:
        picked = {value: " selected" if value == chosen else "" for value in values}
        return f'<option value="">{every}</option>' + "".join(
            f'<option value="{text(v)}"{picked[v]}>{text(names.get(v, v))}</option>' for v in values
        )

    filters = (
        '<form method="get" action="/" class="grid-tools">'
        f'<label>Event <select name="event">{options(slugs, event, "every event")}'
        "</select></label> "
        f'<label>Room <select name="room">{options(rooms, room, "every room")}</select>'
        "</label> "
        '<button type="submit">Show</button></form>'
    )
    if not shown:
        items = '<p class="muted">Nothing needs you now.</p>'
    else:
        items = '<ol class="day-queue">' + "".join(_queue_item(e, names) for e in shown) + "</ol>"
    return (
        f'<section id="queue" class="problems"><h2>Problems ({len(shown)})</h2>'
        f"{filters}{items}</section>"
    )


def _queue_item(entry: DayProblem, names: Mapping[str, str]) -> str:
    problem = entry.problem
    where = [names[entry.event]] if entry.event else []
    if entry.room:
        where.append(entry.room)
    if problem.table is not None:
        where.append(f"table {problem.table}")
    if entry.event is not None and problem.table is not None:
        link = f' <a href="/events/{quote(entry.event)}/tables/{problem.table}">open</a>'
    elif entry.event is not None:
        link = f' <a href="/events/{quote(entry.event)}/">open</a>'
    elif problem.kind == "room_silent" and entry.room is not None:
        link = f' <a href="/?{urlencode({"room": entry.room})}#queue">its tables</a>'
    else:
        link = ' <a href="#assign">assign</a>'
    return (
        f'<li class="problem {text(problem.kind)}">'
        f"<strong>{text(KINDS.get(problem.kind) or DAY_KINDS[problem.kind])}</strong> · "
        f"{text(', '.join(where))}: "
        f"{text(problem.what)}. {text(problem.todo)}{link}</li>"
    )


def _rooms_section(
    pages: DayPages,
    rooms: Mapping[str, tuple[int, ...]],
    owners: Mapping[int, str],
    names: Mapping[str, str],
) -> str:
    in_rooms = {table for tables in rooms.values() for table in tables}
    heard = {row.table for row in pages.lobby.board.rows()}
    elsewhere = tuple(sorted((set(owners) | heard) - in_rooms))
    groups = [*rooms.items(), *([("Tables in no room", elsewhere)] if elsewhere else [])]
    parts = []
    for place, tables in groups:
        tiles = "".join(_tile(pages, table, owners.get(table), names) for table in tables)
        parts.append(f'<h3>{text(place)}</h3><div class="grid day-tiles">{tiles}</div>')
    if not parts:
        parts.append('<p class="muted">No rooms and no tables heard yet.</p>')
    return "<section><h2>Rooms</h2>" + "".join(parts) + "</section>"


def _tile(pages: DayPages, table: int, event: str | None, names: Mapping[str, str]) -> str:
    row = pages.lobby.board.row(table)
    state = _tile_state(row, pages.lobby.wall())
    playing = names[event] if event is not None else "plays for no event"
    inner = (
        f'<span class="head">Table {table} <span class="status {_css(state)}">'
        f'{state}</span></span><span class="event">{text(playing)}</span>'
    )
    css = "tile" + ("" if state == "online" else " offline")
    if event is None:
        return f'<div class="{css} unassigned">{inner}</div>'
    return f'<a class="{css}" href="/events/{quote(event)}/tables/{table}">{inner}</a>'


def _tile_state(row: TableRow | None, now: float) -> str:
    """What a tile says of its table: not heard, online, offline, or silent for how long: a
    table in a game heard from no more for DAY_SILENT_SECONDS (R1161), the only sign of a room
    whose bridge to the hub is cut (its tables' retained "online" stands on the hub's broker)."""
    if row is None or row.online is None:
        return "not heard"
    if not row.online:
        return "offline"
    if row.in_game and row.heard is not None and now - row.heard > DAY_SILENT_SECONDS:
        return f"silent {duration_words(now - row.heard)}"
    return "online"


def _css(state: str) -> str:
    """A tile's status as a CSS class: ``not-heard``, ``online``, ``offline``, ``silent``."""
    return "silent" if state.startswith("silent") else state.replace(" ", "-")


def _assign_form(viewer: Viewer, names: Mapping[str, str]) -> str:
    options = "".join(f'<option value="{text(s)}">{text(n)}</option>' for s, n in names.items())
    return (
        '<section id="assign" class="card"><h2>Move tables to an event</h2>'
        '<p class="muted">A table moves between rounds: never while its match has no result.</p>'
        '<form method="post" action="/assign">'
        + hidden("csrf", viewer.csrf or "")
        + '<label>Tables <input name="tables" placeholder="1-12,15" required></label> '
        f'<label>Event <select name="event">{options}</select></label> '
        '<label>Reason <input name="reason" required></label> '
        '<button type="submit">Move</button></form></section>'
    )


def _nav(viewer: Viewer) -> str:
    links = ['<a href="/public">Public</a>', '<a href="/projector">Projectors</a>']
    if viewer.director:
        links.append('<a href="/staff">Staff</a>')
    if viewer.csrf is not None:
        links.append(
            '<form method="post" action="/logout" class="inline">'
            + hidden("csrf", viewer.csrf)
            + f'<button type="submit">Log out {text(viewer.account or "")}</button></form>'
        )
    return "<nav>" + " · ".join(links) + "</nav>"


# --- moving tables between events (R1143) ----------------------------------------------------


async def _assign(request: web.Request) -> web.StreamResponse:
    staff = await staff_changing(request, needs=Role.DIRECTOR, doing="moving tables")
    form = await form_of(request)
    pages = request.app[DAY]
    event, reason = str(form.get("event", "")), str(form.get("reason", ""))
    try:
        tables = parse_table_list(str(form.get("tables", "")))
        pages.day.event(event)
        busy = busy_tables(pages.day, {s: p.record for s, p in pages.events.items()})
        moved = pages.day.assign(
            tables, event, now=pages.lobby.now(), by=staff.name, reason=reason, busy=busy
        )
    except RuleError as error:
        raise Refused(409, str(error)) from None
    pages.lobby.after_change()  # the hub tells the tables their event
    pages.changed()
    log.info("event=page_tables_assigned by=%s event=%s tables=%s", staff.name, event, moved)
    name = pages.events[event].event_title
    # the command line's words (R1180): the tables as typed, "table 3 now plays", those kept
    done = tables_moved_line(tables, moved, name) + (f" (by {staff.name})" if moved else "")
    pages.lobby.notices[staff.key] = done
    return see("/")


# --- the day's staff: every event's, or one event's (R1141, R1142) ------------------------------


async def _staff_list(request: web.Request) -> web.StreamResponse:
    staff_reader(request, "the staff accounts", needs=Role.DIRECTOR)
    return html(_staff_page(request, viewer_of(request)))


def _staff_page(request: web.Request, viewer: Viewer) -> str:
    pages = request.app[DAY]
    scope = StaffEvents(pages.day)
    names = {slug: page.event_title for slug, page in pages.events.items()}
    csrf = hidden("csrf", viewer.csrf or "")
    rows = "".join(
        f'<tr><td data-label="Name">{text(account.name)}</td>'
        f'<td data-label="Role">{text(account.role.value)}</td>'
        f'<td data-label="Event">'
        f"{text(names.get(scope.event_of(account.name) or '', 'every event'))}</td>"
        f'<td><form method="post" action="/staff/remove" class="inline">{csrf}'
        f"{hidden('name', account.name)}{hidden('confirm', 'yes')}"
        f'<button type="submit">Remove</button></form></td></tr>'
        for account in pages.lobby.staff().accounts()
    )
    options = '<option value="">every event</option>' + "".join(
        f'<option value="{text(s)}">{text(n)}</option>' for s, n in names.items()
    )
    body = (
        line(viewer.notice, "notice")
        + line(viewer.error, "error")
        + '<table class="staff"><thead><tr><th scope="col">Name</th><th scope="col">Role</th>'
        f'<th scope="col">Event</th><th scope="col"></th></tr></thead><tbody>{rows}</tbody></table>'
        '<h2>Add an account</h2><form method="post" action="/staff/add">'
        + hidden("csrf", viewer.csrf or "")
        + '<label>Name <input name="name" required></label> '
        '<label>Role <select name="role"><option>results</option><option>viewer</option>'
        "<option>director</option></select></label> "
        f'<label>Event <select name="event">{options}</select></label> '
        '<label>Password <input name="password" type="password" required></label> '
        '<button type="submit">Add</button></form>'
    )
    day = pages.day
    nav = '<nav><a href="/">The day</a></nav>'
    return shell("Staff of the day", body, nav=nav, venue=heading(day))


async def _staff_add(request: web.Request) -> web.StreamResponse:
    staff = await staff_changing(request, needs=Role.DIRECTOR, doing="managing the staff")
    form = await form_of(request)
    pages = request.app[DAY]
    event = str(form.get("event", "")) or None
    try:
        name = check_name(str(form.get("name", "")).strip())
        role = parse_role(str(form.get("role", "")))
        if event is not None:
            pages.day.event(event)
            if role is Role.DIRECTOR:
                raise InvalidInput(
                    "a director is every event's director: expected results or viewer for "
                    "one event, or every event"
                )
    except RuleError as error:
        raise Refused(400, str(error)) from None
    try:
        hashed = await asyncio.to_thread(hash_new_password, str(form.get("password", "")))
    except DirectorPasswordError as error:
        raise Refused(400, f"{name}'s password: {error}") from None
    now = pages.lobby.now()
    scope = StaffEvents(pages.day)
    before = scope.event_of(name)
    # the limit first: an account never stands, not even for a moment, wider than asked
    scope.limit(name, event, now=now, by=staff.name)
    try:
        added = pages.lobby.staff().add(name, role, hashed, now=now, by=staff.name)
    except RuleError as error:  # a name taken: its account's limit as it was
        scope.limit(name, before, now=now, by=staff.name)
        raise Refused(409, str(error)) from None
    where = "every event" if event is None else f"the event {event} only"
    log.info("event=page_staff_added by=%s account=%s event=%s", staff.name, name, event)
    pages.lobby.notices[staff.key] = f"{added.name} added ({ROLE_WORDS[added.role]} of {where})"
    return see("/staff")


async def _staff_remove(request: web.Request) -> web.StreamResponse:
    staff = await staff_changing(request, needs=Role.DIRECTOR, doing="managing the staff")
    form = await form_of(request)
    if form.get("confirm") != "yes":
        raise Refused(400, "removing a staff account: expected the confirmation (the button)")
    pages = request.app[DAY]
    name, now = str(form.get("name", "")), pages.lobby.now()
    try:
        removed = pages.lobby.staff().remove(name, now=now, by=staff.name)
        StaffEvents(pages.day).limit(name, None, now=now, by=staff.name)
    except RuleError as error:
        raise Refused(409, str(error)) from None
    pages.changed()  # an open grid of the account's sees it at once (R814)
    pages.lobby.notices[staff.key] = f"{removed.name} removed: their sessions have ended"
    return see("/staff" if name != staff.name else "/login")


# --- anyone: the events' public pages and projectors --------------------------------------------


async def _public(request: web.Request) -> web.StreamResponse:
    pages = request.app[DAY]
    items = "".join(
        f'<li><a href="/events/{quote(slug)}/public">{text(page.event_title)}</a></li>'
        for slug, page in pages.events.items()
    )
    return html(
        _anyone_page(pages, "Standings and pairings", f'<ul class="events-list">{items}</ul>')
    )


async def _projector(request: web.Request) -> web.StreamResponse:
    pages = request.app[DAY]
    items = []
    for slug, page in pages.events.items():
        address = f"/events/{quote(slug)}/projector"
        rooms = "".join(
            f' · <a href="{address}?{urlencode({"room": room.name})}">{text(room.place)}</a>'
            for room in page.record.rooms()
        )
        name = text(page.event_title)
        items.append(f'<li><a href="{address}">{name}</a>{rooms}</li>')
    return html(_anyone_page(pages, "Projectors", f'<ul class="events-list">{"".join(items)}</ul>'))


def _anyone_page(pages: DayPages, title: str, body: str) -> str:
    day = pages.day
    return shell(title, body, venue=heading(day))


async def _day_staff_instead(request: web.Request) -> web.StreamResponse:
    """An event's Staff link, on a day: the day's staff page, where an account is given every
    event or one; a change sent to an event's address is refused in words, nothing changed."""
    if request.method == "GET":
        return see("/staff")
    raise Refused(
        409,
        "a day's staff accounts are managed on the day's Staff page (/staff), each of every "
        "event or of one: nothing changed",
    )


async def _event_root(request: web.Request) -> web.StreamResponse:
    slug = request.match_info.get("slug") or request.path.removeprefix("/events/")
    pages = request.app[DAY]
    if slug not in pages.events:
        known = ", ".join(pages.events)
        raise Refused(404, f"no event {slug[:30]!r} this day: its events are {known}")
    return see(f"/events/{slug}/")


# --- every refusal ---------------------------------------------------------------------------


def _refusal(request: web.Request, status: int, message: str) -> web.Response:
    """The glance with the line, for a director's refused change; else one line."""
    if request.method == "POST" and request.app[PAGE].guard.serves(request.headers.get("Host")):
        try:
            viewer = viewer_of(request, message)
            if viewer.director and request.path == "/assign":
                return html(_glance_page(request, viewer), status)
            if viewer.director and request.path in ("/staff/add", "/staff/remove"):
                return html(_staff_page(request, viewer), status)
        except Exception:
            log.exception("event=page_error path=%s", request.path)
    return html(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>gametable</title>'
        '<link rel="stylesheet" href="/static/page.css"></head><body><main>'
        f'<p class="error" role="alert">{escape(message)}</p><p><a href="/">The day</a></p>'
        "</main></body></html>",
        status,
    )
