"""The line a changed draw leaves on the round's sheets and pairings (R1064): who changed it,
when, why and what, for staff; the public pages show the draw alone."""

from __future__ import annotations

from firmware_py.director.hub.page.render import text
from firmware_py.director.record_draw import draw_changes
from firmware_py.director.tournament_db import TournamentDB


def draw_notes(record: TournamentDB, number: int) -> str:
    """Round ``number``'s draw changes as lines of their own ("" for a draw as paired)."""
    venue = record.venue()
    return "".join(
        f'<p class="draw-changed">{text(change.line(venue.when(change.changed_at)))}</p>'
        for change in draw_changes(record, number)
    )
