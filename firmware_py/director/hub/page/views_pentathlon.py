"""The Mathematics Pentathlon on the director's page (R834, R835), read from the record's
Pentathlon event (``record/pentathlon.py``) and what the tables reported of it (``table_events``).

``pentathlon_page`` (staff): each division, its players' standings, every round's seats with
their results, each linked to its score card. ``card_page`` (staff): one table's score card in
a round: the game, the two players, the result with each player's score and challenges, every
version of it and what the table reported. ``public_section``: each division's standings for
anyone, players named as R834 says. ``table_section``: a table's Pentathlon games, on its page.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_py.director.hub.page.render import Cell, linked_table, shell, table, text
from firmware_py.director.record.pentathlon import PentathlonEntry, PentathlonRecord
from firmware_py.director.record.rooms import table_label
from firmware_py.director.record.tournament_db import TableEvent, TournamentDB
from firmware_py.director.record.venue import Venue
from rules.errors import InvalidInput
from rules.tournament.pentathlon import (
    DIVISIONS,
    GameResult,
    Pentathlete,
    PentathlonEvent,
    PentathlonStanding,
    Seat,
)

NAV = '<nav><a href="/">All tables</a> · <a href="/pentathlon">Pentathlon</a></nav>'
# What a phone shows first without scrolling sideways: who, then how they stand, then the rest.
SEAT_HEADINGS = ("A", "B", "result", "game", "")
STANDING_HEADINGS = ("rank", "player", "points", "W", "T", "L", "played", "school", "I/IA")


def has_pentathlon(record: TournamentDB) -> bool:
    return PentathlonRecord(record).has_event()


def card_href(round_number: int, table_number: int) -> str:
    return f"/pentathlon/card/{round_number}/{table_number}"


# --- the staff's views ---------------------------------------------------------------------------


def pentathlon_page(record: TournamentDB) -> str:
    """The event at a glance: divisions, standings per division, every round's seats."""
    event = _event(record)
    schools = {player.name: player.school for player in event.players}
    parts = [_divisions(event)]
    standings = event.standings()
    for division in _divisions_entered(event):
        rows = [row for row in standings if row.division == division]
        parts.append(
            f'<section aria-labelledby="division-{division}">'
            f'<h2 id="division-{division}">Division {division}: standings</h2>'
            + _scroll(table(STANDING_HEADINGS, _standing_rows(rows, schools), css="standings"))
            + "</section>"
        )
    parts.append(_rounds(event))
    return shell("Mathematics Pentathlon", "\n".join(parts), nav=NAV, venue=record.venue())


def card_page(record: TournamentDB, round_number: int, table_number: int) -> str:
    """A table's score card in a round, as the record holds it."""
    event = _event(record)
    seat = event.seat_at(round_number, table_number)  # refused in words if not seated
    players = {player.name: player for player in event.players}
    history = PentathlonRecord(record).history(round_number, table_number)
    current = history[-1] if history else None
    venue = record.venue()
    facts = [
        ("game", seat.game.value),
        ("round", str(seat.round)),
        ("table", str(seat.table)),
        ("division", players[seat.a].division),
        ("result", _said(current.result) if current else "not in yet"),
    ]
    if current is not None:
        facts.append(("entered", _entered(current, venue)))
    parts = [
        '<dl class="facts">'
        + "".join(f"<dt>{text(k)}</dt><dd>{text(v)}</dd>" for k, v in facts)
        + "</dl>",
        _card(seat, current.result if current else None, players),
        "<section><h2>Every version of the result</h2>",
        _scroll(
            table(
                ("version", "winner", "how", "scores A-B", "entered by", "at", "reason"),
                [
                    (
                        e.version,
                        e.result.winner or "tie",
                        e.result.how.value,
                        _scores(e.result),
                        e.entered_by,
                        venue.when(e.entered_at),
                        e.reason,
                    )
                    for e in history
                ],
                caption="" if history else "no result yet",
            )
        ),
        "</section><section><h2>What the table reported</h2>",
        _reports(_table_reports(record, seat), venue),
        f'</section><p><a href="/tables/{seat.table}">Table {seat.table}\'s page</a></p>',
    ]
    place = table_label(record.rooms(), table_number)  # "Ballroom B, table 11" (R1112)
    title = f"Score card · round {round_number}, {place}"
    return shell(title, "\n".join(parts), nav=NAV, venue=venue)


def table_section(record: TournamentDB, table_number: int) -> str:
    """A table's Pentathlon games, each linked to its score card; "" without any."""
    if not has_pentathlon(record):
        return ""
    event = PentathlonRecord(record).event()
    seats = [seat for seat in event.seats if seat.table == table_number]
    if not seats:
        return ""
    rows = _seat_rows(event, seats, first="round")
    return (
        '<section aria-labelledby="pentathlon-games"><h2 id="pentathlon-games">'
        "Pentathlon games at this table</h2>"
        + _scroll(linked_table(("round", *SEAT_HEADINGS), rows, css="seats"))
        + "</section>"
    )


def summary_section(record: TournamentDB) -> str:
    """On the director's page: the event's divisions and a link to its view; "" without one."""
    if not has_pentathlon(record):
        return ""
    event = PentathlonRecord(record).event()
    return (
        '<section aria-labelledby="pentathlon-title"><h2 id="pentathlon-title">'
        'Mathematics Pentathlon</h2><p><a href="/pentathlon" id="pentathlon-link">'
        "Divisions, standings and score cards</a> (staff)</p>" + _divisions(event) + "</section>"
    )


# --- for anyone ----------------------------------------------------------------------------------


def public_section(record: TournamentDB) -> str:
    """Each division's standings for anyone (R834); "" without an event."""
    if not has_pentathlon(record):
        return ""
    event = PentathlonRecord(record).event()
    schools = {player.name: player.school for player in event.players}
    standings = event.standings()
    parts = ['<section aria-labelledby="pentathlon-public"><h2 id="pentathlon-public">'
             "Mathematics Pentathlon</h2>"]  # fmt: skip
    for division in _divisions_entered(event):
        rows = [
            (row.rank, public_name(row.name), row.points, row.wins, row.ties, row.losses,
             row.played, schools[row.name])
            for row in standings
            if row.division == division
        ]  # fmt: skip
        parts.append(
            f"<h3>Division {division}</h3>"
            + _scroll(table(STANDING_HEADINGS[:-1], rows, css="standings"))
        )
    return "".join(parts) + "</section>"


def public_name(name: str) -> str:
    """A player as the public page shows them (R834): the first name and the initial of each
    further name, ``Ann Lee-Park`` -> ``Ann L.``."""
    first, *rest = name.split()
    return " ".join([first, *(f"{part[0]}." for part in rest)])


# --- the parts -----------------------------------------------------------------------------------


def _event(record: TournamentDB) -> PentathlonEvent:
    if not has_pentathlon(record):
        raise InvalidInput("this record holds no Pentathlon event: nothing to show")
    return PentathlonRecord(record).event()


def _divisions_entered(event: PentathlonEvent) -> list[str]:
    entered = {player.division for player in event.players}
    return [division for division in DIVISIONS if division in entered]


def _divisions(event: PentathlonEvent) -> str:
    rows: list[tuple[Cell, ...]] = []
    for division in _divisions_entered(event):
        names = {p.name for p in event.players if p.division == division}
        seats = [s for s in event.seats if s.a in names]
        done = [r for r in event.results if r.seat.a in names]
        rows.append(
            (
                f"Division {division}",
                len(names),
                max((s.round for s in seats), default=0) or "",
                len(seats),
                len(done),
                len(seats) - len(done),
            )
        )
    return _scroll(
        table(
            ("division", "players", "latest round", "games seated", "results in", "waiting"),
            rows,
            css="divisions",
        )
    )


def _standing_rows(
    rows: Sequence[PentathlonStanding], schools: dict[str, str]
) -> list[tuple[Cell, ...]]:
    return [
        (r.rank, r.name, r.points, r.wins, r.ties, r.losses, r.played, schools[r.name], r.i_ia)
        for r in rows
    ]


def _rounds(event: PentathlonEvent) -> str:
    parts = ['<section aria-labelledby="rounds-title"><h2 id="rounds-title">Rounds</h2>']
    for number in sorted({seat.round for seat in event.seats}, reverse=True):  # latest first
        seats = sorted((s for s in event.seats if s.round == number), key=lambda s: s.table)
        rows = _seat_rows(event, seats, first="table")
        parts.append(
            f"<h3>Round {number}</h3>"
            + _scroll(linked_table(("table", *SEAT_HEADINGS), rows, css="seats"))
        )
    if len(parts) == 1:
        parts.append("<p>No game is seated yet.</p>")
    return "".join(parts) + "</section>"


def _seat_rows(
    event: PentathlonEvent, seats: Sequence[Seat], *, first: str
) -> list[tuple[tuple[Cell, str | None], ...]]:
    """A row per seat: its round (or its table, linked to the table's page), players, result,
    game and a link to its score card."""
    results = {(r.seat.round, r.seat.table): r for r in event.results}
    rows: list[tuple[tuple[Cell, str | None], ...]] = []
    for seat in seats:
        result = results.get((seat.round, seat.table))
        lead: tuple[Cell, str | None] = (
            (seat.round, None) if first == "round" else (seat.table, f"/tables/{seat.table}")
        )
        rows.append(
            (
                lead,
                (seat.a, None),
                (seat.b, None),
                ("not in yet" if result is None else _outcome(result), None),
                (seat.game.value, None),
                ("card", card_href(seat.round, seat.table)),
            )
        )
    return rows


def _card(seat: Seat, result: GameResult | None, players: dict[str, Pentathlete]) -> str:
    rows: list[tuple[Cell, ...]] = []
    for index, (side, name) in enumerate((("A", seat.a), ("B", seat.b))):
        school = players[name].school
        if result is None:
            rows.append((side, name, school, "", "", "", "", ""))
            continue
        challenges = result.challenges[index]
        score = result.scores[index]
        rows.append(
            (
                side,
                name,
                school,
                result.outcome(side),
                "" if score is None else score,
                challenges.c,
                challenges.i,
                challenges.ia,
            )
        )
    return _scroll(
        table(
            ("seat", "player", "school", "result", "final score", "C", "I", "IA"),
            rows,
            css="score-card",
            caption="the score card: each player's result, final score and challenges (C, I, IA)",
        )
    )


def _table_reports(record: TournamentDB, seat: Seat) -> list[TableEvent]:
    return [e for e in record.table_events() if e.table == seat.table and e.round == seat.round]


def _reports(events: Sequence[TableEvent], venue: Venue) -> str:
    return _scroll(
        table(
            ("received", "journal", "entry", "scores A-B", "outcome", "note"),
            [
                (
                    venue.when(e.received_at),
                    e.journal[:8],
                    e.seq,
                    _pair(e.a_points, e.b_points),
                    e.outcome,
                    e.note,
                )
                for e in events
            ],
            caption="" if events else "nothing reported by the table for this round",
        )
    )


def _said(result: GameResult) -> str:
    seat = result.seat
    if result.winner is None:
        return f"tie ({result.how.value})"
    name = seat.a if result.winner == "A" else seat.b
    return f"{name} ({result.winner}) wins ({result.how.value})"


def _outcome(result: GameResult) -> str:
    """A result beside its players' names: which seat won, and how."""
    winner = "tie" if result.winner is None else f"{result.winner} wins"
    return f"{winner} ({result.how.value})"


def _entered(entry: PentathlonEntry, venue: Venue) -> str:
    return f"version {entry.version}, by {entry.entered_by} at {venue.when(entry.entered_at)}"


def _scores(result: GameResult) -> str:
    return _pair(*result.scores)


def _pair(a: int | None, b: int | None) -> str:
    if a is None and b is None:
        return ""
    return f"{'' if a is None else a}-{'' if b is None else b}"


def _scroll(html: str) -> str:
    """A wide table scrolls sideways on a phone instead of widening the page."""
    return f'<div class="scroll">{html}</div>'
