"""What anyone in the hall reads, without a login: the public page and the projector.

``public_page`` answers "where do I play next?" first: a search by team name (or player name,
while players' names are public) with a plain GET form (``/public?q=eagles``, no script
needed), each team found with its table, opponent, round and game; then the latest round's
pairings and the standings. ``projector_page`` is the hall's screen: large type, the latest
round's pairings and the standings a page at a time, each page sending the screen on to the
next with a meta refresh (no script, R821). Public views show team names; players' names only
where ``public_names_shown`` says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from firmware_py.director.hub.page import views_pentathlon as pentathlon
from firmware_py.director.hub.page.privacy import PublicNames, public_team
from firmware_py.director.hub.page.render import line, shell, text
from firmware_py.director.hub.page.views import (
    _pairings_section,
    _standings_section,
    capitalised,
    table_place,
)
from firmware_py.director.hub.wire.board import TableRow
from firmware_py.director.record.rooms import Room
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import InvalidInput, RuleError
from rules.tournament import Entrant, Match, RoundPairing, Standing, Tournament, name_key

MAX_QUERY = 60  # characters of a search: longer than any team's name needs
MAX_FOUND = 12  # teams answered for one search; more asks for more of the name
# The projector (R821): rows per column, two columns, so that a row's type is about 3.4% of
# the screen's height (37 px at 1080, 24 px at 720): 5 cm on a 3 m screen, read from 10 m.
PROJECTOR_ROWS = 16
PROJECTOR_COLUMNS = 2
PROJECTOR_PER_PAGE = PROJECTOR_ROWS * PROJECTOR_COLUMNS
PROJECTOR_SECONDS = 15  # each page's time on the screen
PUBLIC_NAV = (
    '<nav><a href="#standings-title">Standings</a> · <a href="/projector">Projector</a></nav>'
)
KINDS = {
    "all": "All: games 1 to 5 in turn",
    "call": "Call: each team calls two games",
    "morning": "every game in turn",
    "afternoon": "each team picks a game",
}


def public_names_shown(names: PublicNames) -> bool:
    """Whether the public views show players' names, and find a team by them (R817)."""
    return names is PublicNames.PLAYERS


NO_NAMES = "This tournament does not publish names: ask the director."
NOTHING_YET = "Nothing to show yet: no tournament or Pentathlon event is in the record."
PENTATHLON_NAV = '<nav><a href="/projector">Projector</a></nav>'


@dataclass(frozen=True, slots=True)
class Found:
    """A team a search found, and the player whose name found it, if a player's did."""

    team: Entrant
    player: str | None = None


def search(
    tournament: Tournament, query: str, names: PublicNames = PublicNames.TEAMS
) -> list[Found]:
    """The teams whose name holds ``query`` (without case or spacing), then, while players'
    names are public, the teams of the players whose name holds it; in the record's order."""
    wanted = name_key(query)
    if not wanted:
        return []
    found = [Found(team) for team in tournament.entrants if wanted in name_key(team.name)]
    if public_names_shown(names):
        named = {item.team.name for item in found}
        for team in tournament.entrants:
            if team.name in named:
                continue
            player = next((p for p in team.players if wanted in name_key(p)), None)
            if player is not None:
                found.append(Found(team, player))
    return found


def public_page(
    record: TournamentDB,
    query: str,
    rows: dict[int, TableRow] | None = None,
    *,
    names: PublicNames = PublicNames.TEAMS,
) -> str:
    """The search (and its answer, when asked), the latest pairings, the standings; with
    ``names`` NONE, one line saying that nothing is published (R817)."""
    venue = record.venue()
    if names is PublicNames.NONE:
        return shell("Standings", line(NO_NAMES, "notice"), nav=PUBLIC_NAV, venue=venue)
    if not record.has_tournament():  # a record of a Pentathlon event alone (R835)
        body = pentathlon.public_section(record) or line(NOTHING_YET, "notice")
        return shell("Standings", body, nav=PENTATHLON_NAV, venue=venue)
    tournament = record.load()
    latest = tournament.rounds[-1] if tournament.rounds else None
    query = " ".join(query.split())[:MAX_QUERY]
    teams = {entrant.name: public_team(entrant, names) for entrant in tournament.entrants}
    champion = record.champion()
    parts = [] if champion is None else [_champion(teams.get(champion, champion))]
    parts.append(_search_form(query, names))
    if query:
        parts.append(_answer(record, tournament, query, rows or {}, names))
    parts.append(_pairings_section(record, tournament, latest, links=False, teams=teams))
    parts.append(
        _standings_section(tournament, teams)
        if record.standings_release().public
        else _standings_held()  # R1043
    )
    parts.append(pentathlon.public_section(record))  # its players as R834 names them
    return shell(
        "Where do I play next?",
        "\n".join(parts),
        nav=PUBLIC_NAV,
        scripts=("/static/public.js",),
        venue=venue,
    )


def _standings_held() -> str:
    return (
        '<section aria-labelledby="standings-title"><h2 id="standings-title">Standings</h2>'
        + line(STANDINGS_HIDDEN, "notice")
        + "</section>"
    )


def _champion(team: str) -> str:
    """The tournament's end, first: its champion (recorded by the director: /close)."""
    return (
        '<section aria-labelledby="champion-title" class="card champion">'
        f'<h2 id="champion-title">Champion</h2><p class="champion-name">{text(team)}</p></section>'
    )


def _search_form(query: str, names: PublicNames) -> str:
    what = "Team or player name" if public_names_shown(names) else "Team name"
    return f"""<section aria-labelledby="search-title" class="card search">
<h2 id="search-title">Find your table</h2>
<form method="get" action="/public" role="search" id="search-form">
<label for="q">{what}</label>
<input id="q" name="q" type="search" value="{text(query)}" maxlength="{MAX_QUERY}"
 autocomplete="off" spellcheck="false" placeholder="e.g. Eagles">
<button type="submit">Search</button></form></section>"""


def _answer(
    record: TournamentDB,
    tournament: Tournament,
    query: str,
    rows: dict[int, TableRow],
    names: PublicNames,
) -> str:
    found = search(tournament, query, names)
    if not found:
        what = "team or player" if public_names_shown(names) else "team"
        return line(
            f"No {what} named like {query!r}: check the spelling, or type part of the name",
            "error",
        )
    standings = {row.team: row for row in tournament.standings()}
    released = record.standings_release().public  # R1043: no rank while they are held
    cards = [
        _team_card(record, tournament, item, standings[item.team.name] if released else None, rows)
        for item in found[:MAX_FOUND]
    ]
    more = ""
    if len(found) > MAX_FOUND:
        more = line(
            f"{len(found) - MAX_FOUND} more teams match {query!r}: type more of the name",
            "notice",
        )
    return (
        '<section aria-labelledby="found-title" id="found">'
        f'<h2 id="found-title">Found for “{text(query)}”</h2>'
        + "".join(cards)
        + more
        + "</section>"
    )


def _team_card(
    record: TournamentDB,
    tournament: Tournament,
    found: Found,
    standing: Standing | None,
    rows: dict[int, TableRow],
) -> str:
    team = found.team
    school = f" ({text(team.school)})" if team.school else ""
    who = "" if found.player is None else f"<p>{text(found.player)} plays for this team.</p>"
    place = (
        STANDINGS_HIDDEN
        if standing is None
        else f"rank {standing.rank} of {len(tournament.entrants)}: {standing.wins} W, "
        f"{standing.ties} T, {standing.losses} L, {standing.points} points"
    )
    return (
        f'<article class="card found"><h3>{text(team.name)}{school}</h3>{who}'
        + _next_match(record, tournament, team.name, rows)
        + f'<p class="place">{text(place)}</p>'
        + _earlier(record, tournament, team.name)
        + "</article>"
    )


def _next_match(
    record: TournamentDB, tournament: Tournament, team: str, rows: dict[int, TableRow]
) -> str:
    if not tournament.rounds:
        return '<p class="next">No round is paired yet: look again when round 1 is.</p>'
    latest = tournament.rounds[-1]
    plan = record.round_plans()[latest.round]
    heading = f"Round {latest.round} of {tournament.config.rounds}"
    if latest.bye == team:
        return f'<p class="next"><strong>{heading}: a bye</strong> (no match this round)</p>'
    match = _match_of(latest, team)
    if match is None:  # every team is paired or has the bye: a record from elsewhere
        return f'<p class="next">{heading}: no match for this team</p>'
    side, opponent = ("A", match.b) if match.a == team else ("B", match.a)
    game = KINDS.get(str(plan["kind"]), str(plan["kind"]))
    facts = [
        ("Table", _table_fact(record, match.table)),
        ("Against", opponent),
        ("Round", f"{latest.round} of {tournament.config.rounds}"),
        ("Game", f"{game}, {plan['minutes']} minutes"),
        ("You are", f"team {side}"),
    ]
    row = rows.get(match.table)
    if row is not None and row.round == latest.round and row.game:
        facts.append(("Now", f"{row.game}" + (f", {row.clock}" if row.clock else "")))
    result = next(
        (r for r in tournament.results if r.round == latest.round and r.table == match.table),
        None,
    )
    if result is not None:
        facts.append(("Result", _outcome(team, match, result.a_points, result.b_points)))
    place = capitalised(table_place(record, match.table))
    return (
        f'<p class="next"><strong>{text(place)}</strong> · against '
        f"<strong>{text(opponent)}</strong> · round {latest.round}</p>"
        '<dl class="facts">'
        + "".join(f"<dt>{text(k)}</dt><dd>{text(v)}</dd>" for k, v in facts)
        + "</dl>"
    )


def _table_fact(record: TournamentDB, number: int) -> str:
    """The card's "Table" fact: "Ballroom B, table 14" in a room (R1112), else "14"."""
    place = table_place(record, number)
    return str(number) if place == f"table {number}" else place


def _earlier(record: TournamentDB, tournament: Tournament, team: str) -> str:
    points = {(r.round, r.table): (r.a_points, r.b_points) for r in tournament.results}
    lines = []
    for rnd in tournament.rounds[:-1]:
        if rnd.bye == team:
            lines.append(f"Round {rnd.round}: a bye")
            continue
        match = _match_of(rnd, team)
        if match is None:
            continue
        opponent = match.b if match.a == team else match.a
        score = points.get((rnd.round, match.table))
        shown = "no result yet" if score is None else _outcome(team, match, *score)
        where = table_place(record, match.table)
        lines.append(f"Round {rnd.round}: {where} v {opponent}: {shown}")
    if not lines:
        return ""
    return (
        '<details class="earlier"><summary>Earlier rounds</summary><ul>'
        + "".join(f"<li>{text(item)}</li>" for item in lines)
        + "</ul></details>"
    )


def _match_of(rnd: RoundPairing, team: str) -> Match | None:
    return next((m for m in rnd.matches if team in (m.a, m.b)), None)


def _outcome(team: str, match: Match, a_points: int, b_points: int) -> str:
    ours, theirs = (a_points, b_points) if match.a == team else (b_points, a_points)
    verdict = "won" if ours > theirs else "lost" if ours < theirs else "tied"
    return f"{verdict} {ours}-{theirs}"


# --- the projector ----------------------------------------------------------------------------


WITHDRAWN = " (withdrawn)"  # R1041
STANDINGS_HIDDEN = "The standings are hidden until the director releases them."
Screen = tuple[str, str]  # one screen of the projector's turn: its title and its body


def projector_page(
    record: TournamentDB,
    page: int,
    *,
    names: PublicNames = PublicNames.TEAMS,
    room: str | None = None,
) -> str:
    """Page ``page`` (from 1; any number wraps around) of the latest round's pairings, then
    the standings, a screen at a time; each sends the screen on to the next. With ``names``
    NONE, one screen saying that nothing is published (R817). ``room``: a room's projector,
    its own tables' pairings alone (R1113); an unknown room is refused in words."""
    shown_room = None if room is None else _projected_room(record, room)
    screens: list[Screen] = [("Standings", f'<p class="notice">{text(NO_NAMES)}</p>')]
    if names is not PublicNames.NONE and record.has_tournament():
        tournament = record.load()
        standing = (
            _standing_screens(tournament)
            if record.standings_release().public
            else [("Standings", _standings_held())]  # R1043
        )
        screens = _pairing_screens(record, tournament, shown_room) + standing
        champion = record.champion()
        if champion is not None:  # the day's end, first in the turn
            screens.insert(0, ("Champion", _champion_screen(champion)))
        screens[1 if champion is not None else 0 : 0] = _playoff_screens(record, tournament)
    elif names is not PublicNames.NONE:  # a Pentathlon event alone: its standings (R834)
        body = pentathlon.public_section(record) or f'<p class="notice">{text(NOTHING_YET)}</p>'
        screens = [("Mathematics Pentathlon", body)]
    number = (max(page, 1) - 1) % len(screens) + 1
    title, body = screens[number - 1]
    named = record.venue().title
    following = number % len(screens) + 1
    onward = f"/projector?page={following}"
    if shown_room is not None:
        onward += f"&room={quote(shown_room.name)}"
        named = f"{named} · {shown_room.place}"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="{PROJECTOR_SECONDS};url={text(onward)}">
<title>{text(title)} · {text(named)}</title>
<link rel="stylesheet" href="/static/page.css">
</head>
<body class="projector">
<header><h1>{text(title)}</h1><p class="turn"><span class="venue">{text(named)}</span> ·
{number}/{len(screens)}</p></header>
<main>
{body}
</main>
</body>
</html>
"""


def _champion_screen(champion: str) -> str:
    """The champion's name alone, centred in the screen's room below the header: a name of
    40 characters takes two lines and still fits 1920x1080 and 1280x720."""
    return f'<div class="projector-end"><p class="projector-champion">{text(champion)}</p></div>'


def _playoff_screens(record: TournamentDB, tournament: Tournament) -> list[Screen]:
    """The championship's playoff once every result is in: each game played with its winner,
    then the games to come (R960). None while no playoff is needed, before the last result,
    or while the director settles a playoff a change stopped (it is not the hall's yet)."""
    if not tournament.complete:
        return []
    try:
        playoff = tournament.qualification(record.playoff_games()).playoff
    except RuleError:
        return []
    if playoff is None:
        return []
    cells = [
        f'<li><span class="n">{game.number}</span><span class="a">{text(game.a)}</span>'
        f'<span class="v">v</span><span class="b">{text(game.b)}</span>'
        f'<span class="w">{text(game.winner or "")}</span></li>'
        for game in playoff.bracket()
    ]
    return _screens("Playoff for the championship · game, teams, winner", "playoff", cells)


def _projected_room(record: TournamentDB, wanted: str) -> Room:
    rooms = record.rooms()
    found = next((room for room in rooms if name_key(room.name) == name_key(wanted)), None)
    if found is None:
        known = ", ".join(repr(room.name) for room in rooms) or "none yet"
        raise InvalidInput(
            f"no room named {wanted[:MAX_QUERY]!r}: expected one of the rooms ({known})"
        )
    return found


def _pairing_screens(
    record: TournamentDB, tournament: Tournament, room: Room | None = None
) -> list[Screen]:
    if not tournament.rounds:
        return [("No round is paired yet", "")]
    latest = tournament.rounds[-1]
    plan = record.round_plans()[latest.round]
    scores = {
        r.table: f"{r.a_points}-{r.b_points}" for r in tournament.results if r.round == latest.round
    }

    def score(table: int) -> str:
        """The results' column, only once one is in: until then the names have its room."""
        return f'<span class="s">{text(scores.get(table, ""))}</span>' if scores else ""

    cells = [
        f'<li><span class="n">{m.table}</span><span class="a">{text(m.a)}</span>'
        f'<span class="v">v</span><span class="b">{text(m.b)}</span>{score(m.table)}</li>'
        for m in latest.matches
        if room is None or m.table in room.tables
    ]
    if latest.bye is not None:  # on every room's screen too: the team may look in any (R1113)
        cells.append(
            f'<li class="bye"><span class="n"></span><span class="a">{text(latest.bye)}</span>'
            f'<span class="v"></span><span class="b">has the bye</span>{score(0)}</li>'
        )
    kind = KINDS.get(str(plan["kind"]), str(plan["kind"]))
    title = f"Round {latest.round} of {tournament.config.rounds} · {kind}"
    if room is not None:
        title += f" · {room.name}"
    return _screens(title, "pairings scored" if scores else "pairings", cells)


def _standing_screens(tournament: Tournament) -> list[Screen]:
    gone = tournament.attendance.withdrawn
    cells = [
        f'<li><span class="n">{row.rank}</span><span class="a">{text(row.team)}'
        f"{WITHDRAWN if row.team in gone else ''}</span>"
        f'<span class="w">{row.wins}-{row.ties}-{row.losses}</span>'
        f'<span class="s">{row.points}</span></li>'
        for row in tournament.standings()
    ]
    return _screens("Standings · rank, team, W-T-L, points", "standings", cells)


def _screens(title: str, css: str, cells: list[str]) -> list[Screen]:
    """The cells a page of ``PROJECTOR_PER_PAGE`` at a time, each page titled as it goes."""
    pages = [cells[i : i + PROJECTOR_PER_PAGE] for i in range(0, len(cells), PROJECTOR_PER_PAGE)]
    return [
        (
            title if len(pages) == 1 else f"{title} ({n}/{len(pages)})",
            f'<ol class="{css}">{"".join(chunk)}</ol>',
        )
        for n, chunk in enumerate(pages or [[]], start=1)
    ]
