"""The rooms as a director manages them on the page (``/rooms``, issue 27, R1115): each room
with its building, its tables and who added it when; a form to add one; a Remove that asks
first. Refused in the CLI's words: the checks are record_rooms'."""

from __future__ import annotations

from firmware_py.director.hub.page.render import hidden, line, shell, text
from firmware_py.director.hub.page.views import Viewer, staff_nav
from firmware_py.director.record.rooms import MAX_NAME, Room
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.director.record.venue import Venue
from rules.tournament.records import spell_tables


def rooms_page(record: TournamentDB, viewer: Viewer) -> str:
    assert viewer.csrf is not None
    venue = record.venue()
    standing = record.rooms()
    rows = "".join(_row(room, viewer.csrf, venue) for room in standing)
    listed = (
        '<table class="rooms-list"><thead><tr><th scope="col">room</th>'
        '<th scope="col">building</th><th scope="col">tables</th>'
        '<th scope="col">added</th><th scope="col"></th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
        if standing
        else "<p>No rooms yet: every table is in none.</p>"
    )
    body = f"""{line(viewer.notice, "notice")}{line(viewer.error, "error")}
<section aria-labelledby="rooms-title"><h2 id="rooms-title">Rooms</h2>{listed}</section>
<section aria-labelledby="add-title" class="card"><h2 id="add-title">Add a room</h2>
<form method="post" action="/rooms/add" id="room-form" autocomplete="off">
{hidden("csrf", viewer.csrf)}
<label>Name <input name="name" required maxlength="{MAX_NAME}" placeholder="Ballroom B"></label>
<label>Tables <input name="tables" required placeholder="9-16 or 1,3,5"
inputmode="numeric" spellcheck="false"></label>
<label>Building (if any) <input name="building" maxlength="{MAX_NAME}"
placeholder="East Hall"></label>
<button type="submit">Add the room</button></form>
<p>A table is in one room at most. To change a room, remove it and add it again.</p>
</section>"""
    return shell("Rooms", body, nav=staff_nav(viewer), venue=venue)


def _row(room: Room, csrf: str, venue: Venue) -> str:
    tables = spell_tables(room.tables)
    # the form names the tables it showed: a room since removed and added again with other
    # tables is not removed by a stale page (R1115)
    remove = (
        f'<details class="remove"><summary aria-label="Remove {text(room.name)}…">Remove…'
        f"</summary><p>Remove {text(room.name)}? Tables {text(tables)} are then in no room; "
        "the room stays in the record as removed.</p>"
        '<form method="post" action="/rooms/remove" class="inline">'
        + hidden("csrf", csrf)
        + hidden("name", room.name)
        + hidden("tables", tables)
        + '<button type="submit" name="confirm" value="yes" class="danger">'
        f"Confirm: remove {text(room.name)}</button></form></details>"
    )
    return (
        f'<tr><td>{text(room.name)}</td><td data-label="building">{text(room.building)}</td>'
        f'<td data-label="tables">{text(tables)}</td>'
        f'<td data-label="added">{text(venue.when(room.added_at))} by {text(room.added_by)}</td>'
        f"<td>{remove}</td></tr>"
    )
