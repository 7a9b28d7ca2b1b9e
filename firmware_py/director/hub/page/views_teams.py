"""The teams on the page, for a director (issue 27, R1067): every team with its school and
players, each with a link to edit it; the edit's form, filled with the team as it stands, and
the record's edits (old values, who, when, why)."""

from __future__ import annotations

from urllib.parse import quote

from firmware_py.director.hub.page.render import hidden, line, linked_table, shell, table, text
from firmware_py.director.hub.page.views import Viewer, staff_nav
from firmware_py.director.record.teams import team_edits
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant
from rules.tournament.teams import MAX_NAME, MAX_REASON, MAX_SCHOOL, PLAYER_SEPARATOR


def teams_page(record: TournamentDB, viewer: Viewer, editing: Entrant | None = None) -> str:
    assert viewer.csrf is not None
    venue = record.venue()
    parts = [line(viewer.notice, "notice"), line(viewer.error, "error")]
    if editing is not None:
        parts.append(_edit_form(editing, viewer.csrf))
    rows = [
        (
            (e.name, f"/teams?team={quote(e.name)}#edit"),
            (e.school, None),
            (f"{PLAYER_SEPARATOR} ".join(e.players), None),
        )
        for e in record.entrants()
    ]
    parts.append(
        '<section aria-labelledby="teams-title"><h2 id="teams-title">Teams (a name to edit '
        f"it)</h2>{linked_table(('team', 'school', 'players'), rows, css='teams')}</section>"
    )
    edits = [
        (venue.when(e.edited_at), e.edited_by, e.after.name, e.change, e.reason)
        for e in reversed(team_edits(record))
    ]
    if edits:
        parts.append(
            '<section aria-labelledby="edits-title"><h2 id="edits-title">Edits</h2>'
            + table(("when", "by", "team", "what changed (old to new)", "why"), edits)
            + "</section>"
        )
    return shell("Teams", "\n".join(parts), nav=staff_nav(viewer), venue=venue)


def _edit_form(team: Entrant, csrf: str) -> str:
    players = f"{PLAYER_SEPARATOR}".join(team.players)
    return f"""<section aria-labelledby="edit-title" class="card" id="edit">
<h2 id="edit-title">Edit {text(team.name)}</h2>
<form method="post" action="/teams/edit" id="team-form">{hidden("csrf", csrf)}
{hidden("team", team.name)}
<label>Name <input name="name" required maxlength="{MAX_NAME}" value="{text(team.name)}"></label>
<label>School <input name="school" maxlength="{MAX_SCHOOL}" value="{text(team.school)}"></label>
<label class="wide">Players (separated by {PLAYER_SEPARATOR})
<input name="players" value="{text(players)}"></label>
<label class="wide">Why <input name="reason" required maxlength="{MAX_REASON}"></label>
<button type="submit">Save the edit</button></form>
<p>The old values stay in the record with who and when; the sheets, pages and tables show
the team as edited from now on.</p></section>"""
