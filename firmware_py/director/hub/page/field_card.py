"""The card of ``/`` that leads a director to the field's page (R1062); apart from
``views_field``, which uses ``views``' navigation, so that ``views`` may show it."""

from __future__ import annotations

from firmware_py.director.record.tournament_db import TournamentDB


def field_section(record: TournamentDB, *, director: bool) -> str:
    """The card of ``/`` that leads to the field's page: a director's, before round 1 only."""
    if not director or record.paired_round_count():
        return ""
    count = len(record.entrants())
    return (
        '<section aria-labelledby="field-title" class="card" id="field">'
        f'<h2 id="field-title">The field: {count} teams</h2><p><a href="/field" '
        'id="field-link">Enter teams</a> from a spreadsheet or a teams CSV (before round 1 is '
        "paired; you confirm a preview first)</p></section>"
    )
