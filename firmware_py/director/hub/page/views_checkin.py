"""Who is here (``/checkin``): each active team marked present or absent for the next round
before it is paired (R1040), the teams withdrawn (R1041), and, for a director, the way to
withdraw one and the standings' release switch (R1043).

Results staff mark teams from a phone: one row per team, its state and two large buttons.
Every change is a POST with the session's CSRF token, refused in the record's words.
"""

from __future__ import annotations

from firmware_py.director.hub.page.render import hidden, line, shell, text
from firmware_py.director.hub.page.views import Viewer, staff_nav
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.director.record.venue import Venue
from rules.tournament import Tournament

MAX_REASON = 500  # characters, as an amendment's (R342)


def checkin_page(record: TournamentDB, viewer: Viewer) -> str:
    assert viewer.csrf is not None
    venue = record.venue()
    parts = [line(viewer.notice, "notice"), line(viewer.error, "error")]
    if not record.has_tournament():
        parts.append(line("No tournament in this record: nothing to check in.", "notice"))
        return shell("Check-in", "".join(parts), nav=staff_nav(viewer), venue=venue)
    tournament = record.load()
    parts.append(_checkin_section(tournament, viewer))
    parts.append(_withdrawn_section(record, venue))
    if viewer.director:
        parts.append(_withdraw_form(tournament, viewer.csrf))
        parts.append(release_card(record, viewer.csrf))
    return shell("Check-in", "\n".join(parts), nav=staff_nav(viewer), venue=venue)


def _checkin_section(tournament: Tournament, viewer: Viewer) -> str:
    number = tournament.next_round
    if number > tournament.config.rounds:
        return line("Every round is paired: nothing to check in.", "notice")
    marks = tournament.attendance.marks(number)
    active = tournament.attendance.active(tournament.names)
    here = sum(1 for team in active if marks.get(team))
    if marks:
        summary = (
            f"Check-in is in use for round {number}: {len(marks)} of {len(active)} teams "
            f"marked, {here} present. Round {number} pairs only the teams present, once every "
            "team is marked."
        )
    else:
        summary = (
            f"No team is marked for round {number} yet: without check-in the round pairs "
            "every active team. Mark one and every team must be marked."
        )
    rows = "".join(
        _team_row(team, number, marks.get(team), viewer) for team in sorted(active, key=str.lower)
    )
    return (
        f'<section aria-labelledby="checkin-title"><h2 id="checkin-title">Round {number} '
        f'check-in</h2><p id="checkin-summary">{text(summary)}</p>'
        f'<ul class="checkin" id="checkin-list">{rows}</ul></section>'
    )


def _team_row(team: str, number: int, present: bool | None, viewer: Viewer) -> str:
    state = "not marked" if present is None else ("present" if present else "absent")
    buttons = ""
    if viewer.enters_results:
        assert viewer.csrf is not None
        buttons = _mark_button(viewer.csrf, number, team, present=True, pressed=present is True)
        buttons += _mark_button(viewer.csrf, number, team, present=False, pressed=present is False)
    return (
        f'<li class="checkin-row {state.replace(" ", "-")}"><span class="team">{text(team)}'
        f'</span><span class="state">{state}</span><span class="marks">{buttons}</span></li>'
    )


def _mark_button(csrf: str, number: int, team: str, *, present: bool, pressed: bool) -> str:
    """One mark's button; the team's current mark is pressed."""
    shown = ' aria-pressed="true"' if pressed else ""
    label = "Present" if present else "Absent"
    return (
        '<form method="post" action="/checkin" class="inline">'
        + hidden("csrf", csrf)
        + hidden("round", str(number))
        + hidden("team", team)
        + hidden("present", "1" if present else "0")
        + f'<button type="submit"{shown}>{label}</button></form>'
    )


def _withdrawn_section(record: TournamentDB, venue: Venue) -> str:
    gone = record.withdrawals()
    if not gone:
        return ""
    items = "".join(
        f"<li><strong>{text(w.team)}</strong> "
        f"{'before round 1' if w.after_round == 0 else f'after round {w.after_round}'}, by "
        f"{text(w.withdrawn_by)} at {text(venue.when(w.withdrawn_at))}: {text(w.reason)}</li>"
        for w in gone.values()
    )
    return (
        '<section aria-labelledby="withdrawn-title"><h2 id="withdrawn-title">Withdrawn</h2>'
        f'<ul id="withdrawn-list">{items}</ul><p>A withdrawn team is never paired again; its '
        "games stay in the standings.</p></section>"
    )


def _withdraw_form(tournament: Tournament, csrf: str) -> str:
    active = sorted(tournament.attendance.active(tournament.names), key=str.lower)
    options = "".join(f'<option value="{text(team)}">{text(team)}</option>' for team in active)
    return f"""<section aria-labelledby="withdraw-title" class="card">
<h2 id="withdraw-title">Withdraw a team</h2>
<p>For good: it is never paired again (a team missing one round is marked absent instead).</p>
<form method="post" action="/withdraw" id="withdraw-form" autocomplete="off">
{hidden("csrf", csrf)}
<label>Team <select name="team" required>{options}</select></label>
<label class="wide">Why (kept in the record)
<input name="reason" required maxlength="{MAX_REASON}" placeholder="e.g. went home ill"></label>
<button type="submit" name="confirm" value="yes" class="danger">Confirm: withdraw the team
</button></form></section>"""


def release_card(record: TournamentDB, csrf: str) -> str:
    """The standings' release switch (R1043): public by default; hidden from /public and the
    projector until a director releases them."""
    release = record.standings_release()
    venue = record.venue()
    who = (
        ""
        if release.set_by is None
        else f" (set by {text(release.set_by)} at {text(venue.when(release.set_at or ''))})"
    )
    if release.public:
        state = f"The standings are public on /public and the projector{who}."
        button = hidden("public", "0") + '<button type="submit">Hide the standings</button>'
    else:
        state = f"The standings are hidden from /public and the projector{who}."
        button = hidden("public", "1") + '<button type="submit">Release the standings</button>'
    return f"""<section aria-labelledby="release-title" class="card" id="release">
<h2 id="release-title">Standings release</h2><p id="release-state">{state}</p>
<form method="post" action="/standings/release" id="release-form">{hidden("csrf", csrf)}
{button}</form></section>"""
