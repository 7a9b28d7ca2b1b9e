"""A round made to print, for the director (R822): every result sheet of the round in one
document, a page per table (CSS page breaks: the browser's print makes one PDF), and the
round's pairings as one sheet for the wall, by table and by team name. Each is its own
document without the page's header, so that nothing but the sheets is printed."""

from __future__ import annotations

from firmware_py.director.hub.page.draw_notes import draw_notes
from firmware_py.director.hub.page.render import table, text
from firmware_py.director.hub.page.views import sheet_body, sheet_density_of, table_place
from firmware_py.director.record.rooms import Room, room_of, table_label
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import InvalidInput
from rules.tournament import RoundPairing, Tournament, name_key

KINDS = {"all": "All", "call": "Call", "morning": "morning", "afternoon": "afternoon"}


def round_sheets_page(record: TournamentDB, round_number: int, *, printed_at: str) -> str:
    """Every result sheet of round ``round_number``, in table order, a printed page each."""
    tournament = record.load()
    paired = _paired(tournament, round_number)
    sheets = [
        f'<section class="print-sheet {density}" aria-label="{text(place)}">'
        f'<h2 class="sheet-title">Result sheet · round {round_number}, {text(place)}</h2>'
        + sheet_body(record, tournament, round_number, match.table, printed_at=printed_at)
        + "</section>"
        for match in paired.matches
        # set as tightly as its names need to stay on its page (R969)
        for density in [sheet_density_of(record, tournament, round_number, match.table)]
        for place in [table_place(record, match.table)]
    ]
    lead = (
        f'<p class="no-print print-lead">{len(sheets)} result sheets of round {round_number}, '
        "one page each: print this page (Ctrl+P) for all of them. "
        '<a href="/">Back to the tables</a></p>'
    )
    title = f"Round {round_number}: result sheets · {record.venue().title}"
    return _document(title, lead + "".join(sheets), "sheets")


def round_pairings_page(record: TournamentDB, round_number: int, *, printed_at: str) -> str:
    """Round ``round_number``'s pairings for the wall: by table, then every team by name with
    its table, so that a team finds itself at a glance."""
    tournament = record.load()
    paired = _paired(tournament, round_number)
    plan = record.round_plans()[round_number]
    rooms = record.rooms()
    by_table = table(
        (*(("room",) if rooms else ()), "table", "team A", "", "team B"),
        [(*_room_cell(rooms, m.table), m.table, m.a, "v", m.b) for m in paired.matches],
        css="wall-tables rooms" if rooms else "wall-tables",
    )
    seats = [(m.a, f"{table_label(rooms, m.table)} (A)") for m in paired.matches]
    seats += [(m.b, f"{table_label(rooms, m.table)} (B)") for m in paired.matches]
    if paired.bye is not None:
        seats.append((paired.bye, "bye"))
    rows = [
        f"<li><span>{text(team)}</span><span>{text(where)}</span></li>"
        for team, where in sorted(seats, key=lambda seat: name_key(seat[0]))
    ]
    bye = "" if paired.bye is None else f'<p class="wall-bye">Bye: {text(paired.bye)}</p>'
    kind = KINDS.get(str(plan["kind"]), str(plan["kind"]))
    venue = record.venue()
    body = (
        '<p class="no-print print-lead">The round\'s pairings for the wall: print this page '
        '(Ctrl+P). <a href="/">Back to the tables</a></p>'
        f'<header class="wall-head"><p class="venue">{text(venue.title)}</p>'
        f"<h1>Round {round_number} of {tournament.config.rounds}: "
        f"pairings</h1><p>{text(kind)}, {text(plan['minutes'])} minutes · "
        f"{len(paired.matches)} tables · printed {text(venue.when(printed_at))}</p></header>"
        + draw_notes(record, round_number)
        + f'<section class="wall-by-table"><h2>By table</h2>{by_table}{bye}</section>'
        # printed on a page of its own and posted apart: it says its round and tournament (R967)
        '<section class="wall-by-team"><h2>Find your team</h2>'
        f'<p class="wall-of">Round {round_number} of {tournament.config.rounds} · '
        f"{text(venue.title)}</p>"
        f'<ol class="wall-teams">{"".join(rows)}</ol></section>'
    )
    return _document(f"Round {round_number}: pairings · {venue.title}", body, "wall")


def _room_cell(rooms: tuple[Room, ...], number: int) -> tuple[str, ...]:
    """The wall's room column (R1112): only when the record has rooms."""
    if not rooms:
        return ()
    room = room_of(rooms, number)
    return (room.place if room else "",)


def _paired(tournament: Tournament, round_number: int) -> RoundPairing:
    if not 1 <= round_number <= len(tournament.rounds):
        paired = len(tournament.rounds)
        expected = f"a round from 1 to {paired}" if paired else "no round is paired yet"
        raise InvalidInput(f"round {round_number} is not paired: expected {expected}")
    return tournament.rounds[round_number - 1]


def _document(title: str, body: str, css: str) -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{text(title)}</title>
<link rel="stylesheet" href="/static/page.css">
</head>
<body class="print-{css}">
<main>
{body}
</main>
</body>
</html>
"""
