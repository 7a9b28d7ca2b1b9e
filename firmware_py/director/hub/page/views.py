"""The director's pages as HTML, read from the tournament record and the live board.

``director_page`` is the live grid (filled by ``static/board.js``), the latest round's
pairings, the standings and, for staff who may change the record, its forms (R811).
The public page and the projector are ``views_public``'s (names as ``public_names`` says,
R817); a round's prints ``views_print``'s. ``table_page`` is one table's whole record;
``sheet_page`` a match's printable result sheet; each shows every version of a result with
where it came from (R818). All but the public pages are for staff, logged in (R816).
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.director.hub.page import views_pentathlon as pentathlon
from firmware_py.director.hub.page.draw_notes import draw_notes, table_draw_notes
from firmware_py.director.hub.page.field_card import field_section
from firmware_py.director.hub.page.provenance import ResultVersion, result_versions
from firmware_py.director.hub.page.render import (
    Cell,
    hidden,
    line,
    linked_table,
    shell,
    table,
    text,
)
from firmware_py.director.hub.page.sheet_density import sheet_density, sheet_length
from firmware_py.director.hub.page.views_close import close_section
from firmware_py.director.hub.page.views_export import export_section
from firmware_py.director.hub.page.views_undo import round_tools
from firmware_py.director.hub.wire.board import TableRow
from firmware_py.director.record.rooms import room_of, table_label
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.director.record.venue import Venue
from rules.errors import InvalidInput
from rules.tournament import Entrant, RoundPairing, Tournament

STANDINGS_HELD = (
    "The standings are hidden from /public and the projector until a director releases them "
    "(on /checkin)."
)
SHEET_GAME_LINES = 6  # blank lines for the games' scores, written in by the dealer
SIGNATURES = ("Team A's captain", "Team B's captain", "Dealer", "Director")
# /sheet/R/T prints the page's header (the tournament's name over the title) above the sheet,
# which a round's prints do not: measured in chromium, about two lines of the sheet (R969)
PAGE_HEADER_LINES = 2


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a staff member (their name, role and the forms' CSRF token) or anyone."""

    csrf: str | None = None
    notice: str | None = None
    error: str | None = None
    account: str | None = None
    role: str | None = None  # director, results or viewer (staff.Role)

    @property
    def director(self) -> bool:
        """May pair, amend and manage the staff."""
        return self.csrf is not None and self.role == "director"

    @property
    def enters_results(self) -> bool:
        return self.csrf is not None and self.role in ("director", "results")


def director_page(record: TournamentDB, viewer: Viewer, *, top: str = "", tools: str = "") -> str:
    """``top``: the problem queue, above the grid; ``tools``: the grid's filter and search."""
    grid = (
        '<section aria-labelledby="tables-title"><h2 id="tables-title">Tables</h2>'
        '<p id="connection" class="connection" role="status">Connecting to the hub…</p>'
        + tools
        + '<div id="tables" class="grid" aria-live="polite"></div></section>'
    )
    if not record.has_tournament():  # a record of a Pentathlon event alone (R835)
        body = line(viewer.notice, "notice") + line(viewer.error, "error") + top + grid
        body += pentathlon.summary_section(record)
        return shell(
            "Tournament director", body, nav=staff_nav(viewer), script=True, venue=record.venue()
        )
    tournament = record.load()
    latest = tournament.rounds[-1] if tournament.rounds else None
    venue = record.venue()
    parts = [
        _closed_banner(record, venue),
        line(viewer.notice, "notice"),
        line(viewer.error, "error"),
        top,
        grid,
        field_section(record, director=viewer.director),
        _pairings_section(record, tournament, latest, links=True),
    ]
    if viewer.enters_results:
        assert viewer.csrf is not None
        parts.append(_result_form(viewer.csrf, latest, amend=viewer.director))
    if viewer.director:
        assert viewer.csrf is not None
        parts.append(_pair_form(viewer.csrf, tournament))
        parts.append(close_section(record, tournament))  # the end of the day
    if viewer.csrf is not None:  # print the latest round (staff, R822); undo it (R820)
        parts.append(round_tools(tournament, undo=viewer.director))
    if not record.standings_release().public:  # R1043: staff see them; the public not yet
        parts.append(line(STANDINGS_HELD, "notice standings-held"))
    parts.append(_standings_section(tournament))
    parts.append(export_section(enters_results=viewer.enters_results))
    parts.append(pentathlon.summary_section(record))
    return shell(
        f"Tournament director · {tournament.config.format.value}",
        "\n".join(parts),
        nav=staff_nav(viewer),
        script=True,
        venue=venue,
    )


def _closed_banner(record: TournamentDB, venue: Venue) -> str:
    """The first line of ``/`` while the tournament is closed (R850): every staff member
    sees at once that nothing changes now, and why."""
    closed = record.closing()
    if closed is None:
        return ""
    return (
        '<p class="closed-banner" id="closed-banner" role="status"><strong>The tournament is '
        f"closed</strong>: {text(closed.champion)} is the champion (recorded by "
        f"{text(closed.closed_by)} at {text(venue.when(closed.closed_at))}). The record is "
        'final; a director reopens it on <a href="/close">the championship page</a>.</p>'
    )


def login_page(
    error: str | None = None,
    *,
    password_set: bool = True,
    next_path: str = "/",
    why: str | None = None,
    nameless: bool = True,
    venue: Venue | None = None,
) -> str:
    """The staff's login: a name (empty is the director's, R815) and a password; ``next_path``
    is where the login goes, ``why`` the line saying why it was asked for; ``nameless``: False
    once the account director is removed, when a name is required (R851)."""
    name_field = (
        '<label for="name">Staff name <span class="hint">(empty: director)</span></label>'
        '<input id="name" name="name" autocomplete="username" maxlength="32" '
        'autocapitalize="none" spellcheck="false" placeholder="director">'
        if nameless
        else '<label for="name">Staff name</label>'
        '<input id="name" name="name" autocomplete="username" maxlength="32" '
        'autocapitalize="none" spellcheck="false" required>'
    )
    if not password_set:
        body = line(
            "No staff account is set: add the director's on the hub with "
            "'gametable hub director-password RECORD'",
            "error",
        )
    else:
        body = (
            line(error, "error")
            + line(why, "notice")
            + '<form method="post" action="/login" class="card" id="login-form">'
            + hidden("next", next_path)
            + name_field
            + '<label for="password">Password</label>'
            '<input id="password" name="password" type="password" required '
            'autocomplete="current-password" maxlength="256" autofocus>'
            '<button type="submit">Log in</button></form>'
        )
    nav = '<nav><a href="/public">Public standings</a></nav>'
    return shell("Staff login", body, nav=nav, venue=venue)


def table_page(record: TournamentDB, number: int, row: TableRow | None) -> str:
    rounds = record.load().rounds if record.has_tournament() else ()
    matches = [
        (rnd.round, match) for rnd in rounds for match in rnd.matches if match.table == number
    ]
    events = [event for event in record.table_events() if event.table == number]
    venue = record.venue()
    games = pentathlon.table_section(record, number)  # its Pentathlon score cards (R835)
    changed = table_draw_notes(record, number)
    if not matches and not events and row is None and not games and not changed:
        raise InvalidInput(f"table {number} has no match, no report and no state: no such table")
    parts = [f"<section><h2>Now</h2>{_row_summary(row)}</section>", "<section><h2>Matches</h2>"]
    parts.append(changed)
    if not matches:
        parts.append("<p>No match at this table yet.</p>")
    for round_number, match in matches:
        versions = result_versions(record, round_number, number, events)
        parts.append(
            f"<h3>Round {round_number}: {text(match.a)} (A) v {text(match.b)} (B) · "
            f'<a href="/sheet/{round_number}/{number}">result sheet</a></h3>'
        )
        parts.append(_versions_table(versions, venue))
    parts.append("</section><section><h2>Results the table reported</h2>")
    parts.append(
        table(
            ("received", "journal", "entry", "round", "A", "B", "outcome", "note"),
            [
                (
                    venue.when(e.received_at),
                    e.journal[:8],
                    e.seq,
                    e.round,
                    e.a_points,
                    e.b_points,
                    e.outcome,
                    e.note,
                )
                for e in events
            ],
            caption="" if events else "none yet",
            css="reports",
            labelled=True,
        )
    )
    parts.append("</section>")
    parts.append(games)
    nav = '<nav><a href="/">All tables</a></nav>'
    return shell(f"Table {number}", "\n".join(parts), nav=nav, venue=venue)


def table_place(record: TournamentDB, number: int) -> str:
    """How a table is named to people: "Ballroom B, table 14" once it is in a room, else
    "table 14" (R1112)."""
    return table_label(record.rooms(), number)


def capitalised(words: str) -> str:
    """ "table 14" as a sentence starts it: "Table 14" ("Ballroom B, ..." stays)."""
    return words[:1].upper() + words[1:]


def sheet_page(record: TournamentDB, round_number: int, number: int, *, printed_at: str) -> str:
    tournament = record.load()
    body = sheet_body(record, tournament, round_number, number, printed_at=printed_at)
    density = sheet_density_of(record, tournament, round_number, number, header=PAGE_HEADER_LINES)
    title = f"Result sheet · round {round_number}, {table_place(record, number)}"
    return shell(title, f'<div class="sheet {density}">{body}</div>', venue=record.venue())


def sheet_density_of(
    record: TournamentDB, tournament: Tournament, round_number: int, number: int, header: int = 0
) -> str:
    """How tightly the sheet of round ``round_number``'s table ``number`` is set to print on
    one page of A4 and of Letter, its names and versions as they are (R969); ``header``: the
    lines printed above it besides its title (the page's own header, on ``/sheet/R/T``)."""
    match = tournament.match(round_number, number)
    teams = {entrant.name: entrant for entrant in tournament.entrants}
    title = record.venue().title
    length = sheet_length(
        f"{title} ({tournament.config.format.value})",
        teams[match.a],
        teams[match.b],
        result_versions(record, round_number, number),
        f"Round {round_number}, {table_place(record, number)}: {match.a} v {match.b} · {title}",
    )
    return sheet_density(length + header)


def sheet_body(
    record: TournamentDB,
    tournament: Tournament,
    round_number: int,
    number: int,
    *,
    printed_at: str,
) -> str:
    """A match's result sheet without the page around it (a round's sheets print together).
    Its result, versions and signatures are one block (``sign-off``) that prints on one page,
    never the signatures alone (R983)."""
    match = tournament.match(round_number, number)
    plan = record.round_plans()[round_number]
    versions = result_versions(record, round_number, number)
    current = versions[-1] if versions else None
    teams = {entrant.name: entrant for entrant in tournament.entrants}
    venue = record.venue()
    if current is None:
        a_points = b_points = result = ""
        entered = "not entered yet: write the points and sign"
    else:
        a_points, b_points = str(current.a_points), str(current.b_points)
        if current.a_points == current.b_points:
            result = "a tie"
        else:
            result = f"{match.a if current.a_points > current.b_points else match.b} wins"
        entered = f"version {current.version}, from {current.origin} at {venue.when(current.at)}"
    # the signatures say which match they are for: long names push them onto a page of their
    # own, which must not be a signed page of no match (R967)
    place = table_place(record, number)
    signed_for = f"Round {round_number}, {place}: {match.a} v {match.b} · {venue.title}"
    games = table(
        ("game", f"A: {match.a}", f"B: {match.b}"),
        [("", "", "")] * SHEET_GAME_LINES,
        css="games",
        caption="each game's points, written in at the table",
    )
    body = f"""<p class="no-print"><a href="/tables/{number}">Table {number}'s record</a> ·
print this page (Ctrl+P) for the captains' signatures</p>
<dl class="facts">
<dt>Tournament</dt><dd>{text(venue.title)} ({text(tournament.config.format.value)})</dd>
<dt>Round</dt><dd>{round_number} ({text(plan["kind"])}, {text(plan["minutes"])} minutes)</dd>
<dt>Table</dt><dd>{text(place) if place != f"table {number}" else number}</dd>
<dt>Printed</dt><dd>{text(venue.when(printed_at))}</dd>
</dl>
{draw_notes(record, round_number)}
<div class="teams">{_team("A", teams[match.a])}{_team("B", teams[match.b])}</div>
{games}
<div class="sign-off">
<table class="result"><caption>the match's result (the tournament record)</caption>
<thead><tr><th scope="col"></th><th scope="col">A: {text(match.a)}</th>
<th scope="col">B: {text(match.b)}</th></tr></thead>
<tbody><tr><th scope="row">match points</th><td class="points">{text(a_points)}</td>
<td class="points">{text(b_points)}</td></tr>
<tr><th scope="row">result</th><td colspan="2">{text(result)}</td></tr></tbody></table>
<p class="entered">{text(entered)}</p>
{_versions_table(versions, venue) if len(versions) > 1 else ""}
<div class="signatures">
<p class="signed-for">{text(signed_for)}</p>{
        "".join(
            f'<div class="signature"><span class="sign-line"></span>{text(who)}</div>'
            for who in SIGNATURES
        )
    }</div>
</div>"""
    return body


# --- the parts ---------------------------------------------------------------------------------


def staff_nav(viewer: Viewer) -> str:
    """The links of every staff view: who is logged in, and the way out."""
    links = ['<a href="/public">Public standings</a>']
    if viewer.csrf is not None:
        links.insert(0, '<a href="/">Tables</a>')
        links.insert(1, '<a href="/checkin" id="checkin-link">Check-in</a>')  # R1040
    if viewer.director:
        links.append('<a href="/staff" id="staff-link">Staff</a>')
        links.append('<a href="/teams" id="teams-link">Teams</a>')  # R1067
        links.append('<a href="/rooms" id="rooms-link">Rooms</a>')  # R1115
    if viewer.csrf is not None:
        links.append(
            f'<span class="who" id="who">{text(viewer.account)} ({text(viewer.role)})</span>'
            '<form method="post" action="/logout" class="inline">'
            + hidden("csrf", viewer.csrf)
            + '<button type="submit">Log out</button></form>'
        )
    else:
        links.append('<a href="/login" id="login-link">Staff login</a>')
    return "<nav>" + " · ".join(links) + "</nav>"


def _versions_table(versions: tuple[ResultVersion, ...], venue: Venue) -> str:
    """Every version of a result, first to current: its points, where it came from, when, and
    why it amends the one before (R818)."""
    return table(
        ("version", "A", "B", "from", "at", "why amended"),
        [
            (v.version, v.a_points, v.b_points, v.origin, venue.when(v.at), v.reason)
            for v in versions
        ],
        css="versions",
        caption="" if versions else "no result yet",
        labelled=True,
    )


def _pairings_section(
    record: TournamentDB,
    tournament: Tournament,
    latest: RoundPairing | None,
    *,
    links: bool,
    teams: dict[str, str] | None = None,
) -> str:
    """``teams``: how each team is shown (the public page's names, R817); else its name."""
    shown_as = teams or {}
    if latest is None:
        return "<section><h2>Pairings</h2><p>No round is paired yet.</p></section>"
    scores = {r.table: r for r in tournament.results if r.round == latest.round}
    plan = record.round_plans()[latest.round]
    rooms = record.rooms()
    rows: list[list[tuple[Cell, str | None]]] = []
    for match in latest.matches:
        result = scores.get(match.table)
        shown = "" if result is None else f"{result.a_points}-{result.b_points}"
        sheet = f"/sheet/{latest.round}/{match.table}" if links else None
        room = room_of(rooms, match.table)
        in_room: list[tuple[Cell, str | None]] = [(room.place if room else "", None)]
        rows.append(
            [
                *(in_room if rooms else []),  # the room's column, once there are rooms (R1112)
                (match.table, f"/tables/{match.table}" if links else None),
                (shown_as.get(match.a, match.a), None),
                (shown_as.get(match.b, match.b), None),
                (shown, None),
                ("sheet" if links else "", sheet),
            ]
        )
    bye = "" if latest.bye is None else f"<p>Bye: {text(shown_as.get(latest.bye, latest.bye))}</p>"
    heading = f"Round {latest.round} of {tournament.config.rounds} ({text(plan['kind'])})"
    headings = (
        *(("room",) if rooms else ()),
        "table",
        "A",
        "B",
        "result",
        "sheet" if links else "",
    )
    return (
        f'<section aria-labelledby="pairings-title"><h2 id="pairings-title">{heading}</h2>'
        + linked_table(headings, rows, css="pairings")
        + bye
        + (draw_notes(record, latest.round) if links else "")  # staff's, not the public's
        + "</section>"
    )


def _standings_section(tournament: Tournament, teams: dict[str, str] | None = None) -> str:
    shown_as = teams or {}
    gone = tournament.attendance.withdrawn
    rows = [
        (
            s.rank,
            shown_as.get(s.team, s.team) + (" (withdrawn)" if s.team in gone else ""),  # R1041
            s.wins,
            s.ties,
            s.losses,
            s.points,
            s.opponents_wins,
        )
        for s in tournament.standings()
    ]
    return (
        '<section aria-labelledby="standings-title"><h2 id="standings-title">Standings</h2>'
        + table(("rank", "team", "W", "T", "L", "points", "opp W"), rows, css="standings")
        + "</section>"
    )


def _result_form(csrf: str, latest: RoundPairing | None, *, amend: bool = True) -> str:
    """``amend``: with the reason that amends a result (a director's, R811)."""
    number = "" if latest is None else str(latest.round)
    reason = (
        """<label class="wide">Reason, to amend a result already entered
<input name="reason" maxlength="500" placeholder="empty for a first result"></label>"""
        if amend
        else '<p class="wide hint">A result already entered is amended by a director.</p>'
    )
    title = "Enter or amend a result" if amend else "Enter a result"
    return f"""<section aria-labelledby="result-title" class="card">
<h2 id="result-title">{title}</h2>
<form method="post" action="/result" id="result-form" autocomplete="off">{hidden("csrf", csrf)}
<label>Round <input name="round" type="number" min="1" required value="{number}"></label>
<label>Table <input name="table" type="number" min="1" required></label>
<label>A's points <input name="a_points" type="number" min="0" step="5" required></label>
<label>B's points <input name="b_points" type="number" min="0" step="5" required></label>
{reason}
<button type="submit">Enter the result</button></form></section>"""


def _pair_form(csrf: str, tournament: Tournament) -> str:
    number = tournament.next_round
    if number > tournament.config.rounds:
        return '<section class="card"><h2>Next round</h2><p>Every round is paired.</p></section>'
    missing = tournament.missing_results()
    waiting = (
        ""
        if not missing
        else "<p>Waiting for: "
        + text(", ".join(f"round {r} table {t}" for r, t in missing))
        + "</p>"
    )
    return f"""<section aria-labelledby="pair-title" class="card">
<h2 id="pair-title">Next round</h2>{waiting}{_checkin_line(tournament, number)}
<form method="post" action="/pair" id="pair-form">{hidden("csrf", csrf)}
{hidden("round", str(number))}<button type="submit">Pair round {number}</button></form></section>"""


def _checkin_line(tournament: Tournament, number: int) -> str:
    """Where the next round's check-in stands (R1040), beside its Pair button."""
    marks = tournament.attendance.marks(number)
    active = tournament.attendance.active(tournament.names)
    if not marks:
        return (
            f'<p id="pair-checkin">No <a href="/checkin">check-in</a> for round {number}: it '
            f"pairs all {len(active)} active teams.</p>"
        )
    marked = sum(1 for team in active if team in marks)
    here = sum(1 for team in active if marks.get(team))
    return (
        f'<p id="pair-checkin"><a href="/checkin">Check-in</a> for round {number}: {marked} of '
        f"{len(active)} teams marked, {here} present.</p>"
    )


def _team(side: str, entrant: Entrant) -> str:
    school = f" ({text(entrant.school)})" if entrant.school else ""
    players = "".join(f"<li>{text(p)}</li>" for p in entrant.players) or "<li>&nbsp;</li>" * 4
    return (
        f'<section class="team"><h2>{side}: {text(entrant.name)}{school}</h2>'
        f"<p>Players</p><ol>{players}</ol></section>"
    )


def _row_summary(row: TableRow | None) -> str:
    if row is None:
        return "<p>Nothing heard from this table since the hub started.</p>"
    status = {True: "online", False: "offline", None: "status not heard"}[row.online]
    scores = ", ".join(f"{seat} {points}" for seat, points in row.scores.items())
    facts = [
        ("status", status),
        ("family", row.family),
        ("format", row.format),
        ("round", row.round),
        ("game", row.game),
        ("clock", row.clock),
        ("scores", scores),
        ("alert", row.alert),
        ("journal", "saved" if row.saved else "NOT SAVED"),
    ]
    return (
        '<dl class="facts">'
        + "".join(f"<dt>{text(k)}</dt><dd>{text(v)}</dd>" for k, v in facts)
        + "</dl>"
    )
