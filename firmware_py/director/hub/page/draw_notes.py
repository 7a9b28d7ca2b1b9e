"""The line a changed draw leaves on the round's sheets and pairings (R1064), and on the record
of each table whose match it changed (R1068): who changed it, when, why and what, for staff;
the public pages show the draw alone."""

from __future__ import annotations

from firmware_py.director.hub.page.render import text
from firmware_py.director.record.draw import draw_changes
from firmware_py.director.record.tournament_db import TournamentDB


def draw_notes(record: TournamentDB, number: int) -> str:
    """Round ``number``'s draw changes as lines of their own ("" for a draw as paired)."""
    venue = record.venue()
    return "".join(
        f'<p class="draw-changed">{text(change.line(venue.when(change.changed_at)))}</p>'
        for change in draw_changes(record, number)
    )


def table_draw_notes(record: TournamentDB, table: int) -> str:
    """The draw changes of every round that changed table ``table``'s match: a match moved to
    it or away from it, a team swapped in or out ("" for none)."""
    if not record.has_tournament():
        return ""
    venue = record.venue()
    return "".join(
        f'<p class="draw-changed">Round {change.round}: '
        f"{text(change.line(venue.when(change.changed_at)))}</p>"
        for pairing in record.rounds()
        for change in draw_changes(record, pairing.round)
        if table in change.tables
    )
