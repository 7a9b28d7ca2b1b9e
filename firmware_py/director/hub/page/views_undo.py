"""The director's round tools: print a round, and undo its pairing with a confirmation (R820).

``round_tools`` is the staff's card for the latest round: its prints (any staff member, R822)
and, for a director, the way to undo its pairing while no result is in. ``undo_page`` is the
confirmation: what is undone and what follows, a reason, and Confirm (a POST with the
session's CSRF token); or, when the undo cannot be done, why, in words, and no form.
"""

from __future__ import annotations

from firmware_py.director.hub.page.render import hidden, line, shell, text
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import RuleError
from rules.tournament import Tournament
from rules.tournament.records import counted

MAX_REASON = 500  # characters, as an amendment's (R342)


def round_tools(tournament: Tournament, *, undo: bool) -> str:
    """The latest round's prints, for any staff member (R822), and ``undo``: its undo, for a
    director (R820)."""
    if not tournament.rounds:
        return ""
    latest = tournament.rounds[-1]
    number = latest.round
    entered = sum(1 for r in tournament.results if r.round == number)
    if not undo:
        undo_line = ""
    elif entered:
        undo_line = (
            f"<p>Undo: not once a result is in ({entered} of {len(latest.matches)} are); "
            "amend a wrong result instead.</p>"
        )
    else:
        undo_line = (
            f'<p><a href="/undo/round/{number}" id="undo-link">Undo round {number}\'s '
            "pairing</a> (no result is in yet; you confirm on the next page)</p>"
        )
        undo_line += (  # the draw changes while the undo may (R1064)
            f'<p><a href="/draw/round/{number}" id="draw-link">Change round {number}\'s '
            "draw</a>: swap two teams, with a reason</p>"
        )
    return f"""<section aria-labelledby="round-tools-title" class="card" id="round-tools">
<h2 id="round-tools-title">Round {number}: print{", undo" if undo else ""}</h2>
<p>Print: <a href="/print/round/{number}/sheets" id="print-sheets">every result sheet</a>
({counted(len(latest.matches), "page", "pages")}, one per table) ·
<a href="/print/round/{number}/pairings" id="print-pairings">the pairings for the wall</a></p>
{undo_line}</section>"""


def undo_page(record: TournamentDB, number: int, csrf: str) -> str:
    """The confirmation of undoing round ``number``'s pairing, or why it cannot be undone."""
    tournament = record.load()
    venue = record.venue()
    back = '<p><a href="/">Back to the tables</a></p>'
    title = "Undo a pairing"
    try:
        paired = tournament.unpairable(number)
    except RuleError as error:
        return shell(title, line(str(error), "error") + back, nav=_nav(), venue=venue)
    plan = record.round_plans()[number]
    bye = "" if paired.bye is None else f" and the bye ({text(paired.bye)})"
    tables = counted(len(paired.matches), "table", "tables")
    matches = counted(len(paired.matches), "match", "matches")
    body = f"""<section class="card undo" aria-labelledby="undo-title">
<h2 id="undo-title">Undo round {number}'s pairing? {tables}; no result is
in</h2>
<p>Round {number}: {matches}{bye}, paired by {text(plan["paired_by"])} at
{text(venue.when(plan["paired_at"]))}.</p>
<ul>
<li>The pairing stays in the record, marked withdrawn, with you, the time and your reason.</li>
<li>The standings, this page and the tables forget it: each table's screen stops showing its
round {number} match within a second.</li>
<li>Round {number} can then be paired again. From the same results it is the same pairing:
undo when something that decides it has changed (a result amended, a team missing).</li>
</ul>
<form method="post" action="/undo/round/{number}" id="undo-form" autocomplete="off">
{hidden("csrf", csrf)}
<label class="wide">Why (kept in the record)
<input name="reason" required maxlength="{MAX_REASON}"
 placeholder="e.g. paired before a result was amended"></label>
<button type="submit" name="confirm" value="yes" class="danger">Confirm: undo round {number}'s
pairing</button>
<a href="/" class="cancel">Cancel</a>
</form></section>"""
    return shell(title, body, nav=_nav(), venue=venue)


def _nav() -> str:
    return '<nav><a href="/">Back to the tables</a></nav>'
