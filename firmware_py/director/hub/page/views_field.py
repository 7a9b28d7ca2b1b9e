"""The field on the page (issue 27, R1062, R1063): a director pastes a spreadsheet's rows or
a teams CSV; the preview lists every team and names every bad line; nothing is saved until the
preview's Confirm, which names what was previewed (the text and the field it was checked
against), so a stale one saves nothing."""

from __future__ import annotations

from firmware_py.director.hub.page.render import hidden, line, shell, table, text
from firmware_py.director.hub.page.views import Viewer, staff_nav
from firmware_py.director.record.field import LATE, FieldPreview
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament.teams import CSV_HEADER, PLAYER_SEPARATOR

EXAMPLE = "name\tschool\tplayers\nLincoln Eagles\tLincoln\tAnn;Bo;Cy"


def field_page(
    record: TournamentDB,
    viewer: Viewer,
    *,
    pasted: str = "",
    preview: FieldPreview | None = None,
) -> str:
    """The paste box, and below it the preview of what was pasted (if any)."""
    assert viewer.csrf is not None
    parts = [line(viewer.notice, "notice"), line(viewer.error, "error")]
    if record.paired_round_count():
        parts.append(f'<p class="refused" id="field-closed">{text(LATE)}.</p>')
    else:
        if preview is not None:
            parts.append(_preview(preview, pasted, viewer.csrf))
        parts.append(_paste_form(record, pasted, viewer.csrf))
    return shell(
        "The field",
        "\n".join(parts),
        nav=staff_nav(viewer),
        venue=record.venue(),
        scripts=("/static/field.js",),
    )


def _paste_form(record: TournamentDB, pasted: str, csrf: str) -> str:
    header = ",".join(CSV_HEADER)
    return f"""<section aria-labelledby="paste-title" class="card">
<h2 id="paste-title">Enter teams ({len(record.entrants())} in the field now)</h2>
<p>Copy the rows from a spreadsheet (tab-separated) or a teams CSV, the header line first:
<code>{header}</code> (or with <code>short</code> last); players separated by
<code>{PLAYER_SEPARATOR}</code>. Nothing is saved until you confirm the preview.</p>
<form method="post" action="/field/preview" id="field-form">{hidden("csrf", csrf)}
<label id="teams-file-label" hidden>A teams CSV from this computer (read into the box)
<input type="file" id="teams-file" accept=".csv,.tsv,.txt,text/csv"></label>
<label for="teams">The teams</label>
<textarea id="teams" name="teams" rows="12" required spellcheck="false"
placeholder="{text(EXAMPLE)}">{text(pasted)}</textarea>
<button type="submit">Preview</button></form></section>"""


def _preview(preview: FieldPreview, pasted: str, csrf: str) -> str:
    teams = preview.teams
    bad = ""
    if teams.problems:
        items = "".join(f"<li>{text(problem)}</li>" for problem in teams.problems)
        bad = (
            f'<div class="bad-lines" id="bad-lines" role="alert"><p><strong>'
            f"{len(teams.problems)} bad line(s): nothing can be saved until each is "
            f"corrected</strong></p><ol>{items}</ol></div>"
        )
    listed = table(
        ("team", "school", "players", "short name"),
        [
            (e.name, e.school, f"{PLAYER_SEPARATOR} ".join(e.players), e.short or "(derived)")
            for e in teams.entrants
        ],
        css="field-preview",
        caption=f"{len(teams.entrants)} good line(s)" if teams.entrants else "no good line",
    )
    confirm = ""
    if preview.may_add:
        count = len(teams.entrants)
        confirm = (
            '<form method="post" action="/field" id="field-confirm">'
            + hidden("csrf", csrf)
            + hidden("teams", pasted)
            + hidden("field", str(preview.field))
            + hidden("count", str(count))
            + f'<button type="submit" name="confirm" value="yes">Confirm: add these {count} '
            f"teams to the {preview.field} in the field</button></form>"
        )
    return (
        '<section aria-labelledby="preview-title" class="card" id="field-preview">'
        f'<h2 id="preview-title">Preview: nothing is saved yet</h2>{bad}{listed}{confirm}'
        "</section>"
    )
