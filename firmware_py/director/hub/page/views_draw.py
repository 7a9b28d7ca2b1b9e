"""Changing a round's draw on the page (issue 27, R1064-R1066, R1068): a director picks two
teams of the round to swap and says why; a swap that makes a rematch or a same-school pair is
shown with its warnings and made only by a second step, its Confirm; or moves a match to a free
table of the tournament. Every form names the draw it was made from, so one left open while the
draw changed changes nothing."""

from __future__ import annotations

from collections.abc import Collection

from firmware_py.director.hub.page.draw_notes import draw_notes
from firmware_py.director.hub.page.render import hidden, line, shell, table, text
from firmware_py.director.hub.page.views import Viewer, staff_nav
from firmware_py.director.record.draw import SwapPlan, round_free_tables
from firmware_py.director.record.rooms import Room, table_label
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import RoundPairing
from rules.tournament.draw_edit import free_tables, pairing_stamp
from rules.tournament.teams import MAX_REASON


def draw_page(
    record: TournamentDB,
    number: int,
    viewer: Viewer,
    *,
    warned: SwapPlan | None = None,
    reason: str = "",
    playing: Collection[int] | None = None,
) -> str:
    """Round ``number``'s draw and the swap's form; ``warned``: a swap shown with its warnings
    and its Confirm (nothing swapped yet); ``playing``: on a day of several events, the tables
    playing for the event, the only ones a match may move to (R1172)."""
    assert viewer.csrf is not None
    tournament = record.load()
    paired = next((r for r in tournament.rounds if r.round == number), None)
    parts = [line(viewer.notice, "notice"), line(viewer.error, "error")]
    if paired is None:
        parts.append(f"<p>Round {number} is not paired: no draw to change.</p>")
    else:
        if warned is not None:
            parts.append(_warning(number, warned, reason, viewer.csrf))
        parts.append(_draw(paired) + draw_notes(record, number))
        parts.append(_swap_form(paired, viewer.csrf, reason))
        if playing is None:
            free = round_free_tables(record, paired)
        else:
            free = free_tables(paired, playing)
        parts.append(_move_form(paired, free, record.rooms(), viewer.csrf, day=playing is not None))
    return shell(
        f"Round {number}: change the draw",
        "\n".join(parts),
        nav=staff_nav(viewer),
        venue=record.venue(),
    )


def _draw(paired: RoundPairing) -> str:
    rows = [(m.table, m.a, m.b) for m in paired.matches]
    bye = "" if paired.bye is None else f"<p>Bye: {text(paired.bye)}</p>"
    return (
        '<section aria-labelledby="draw-title" class="card"><h2 id="draw-title">The draw now'
        f"</h2>{table(('table', 'A', 'B'), rows, css='pairings')}{bye}</section>"
    )


def _swap_form(paired: RoundPairing, csrf: str, reason: str) -> str:
    teams = sorted(paired.teams, key=str.casefold)
    options = "".join(f"<option>{text(team)}</option>" for team in teams)
    return f"""<section aria-labelledby="swap-title" class="card">
<h2 id="swap-title">Swap two teams</h2>
<p>Each takes the other's table and side (or the bye). Only before the round starts: once a
result is in, the draw stays. The tables are told at once.</p>
<form method="post" action="/draw/round/{paired.round}" id="swap-form">{hidden("csrf", csrf)}
{hidden("draw", pairing_stamp(paired))}
<label>Team <select name="first" required><option value=""></option>{options}</select></label>
<label>with <select name="second" required><option value=""></option>{options}</select></label>
<label class="wide">Why <input name="reason" required maxlength="{MAX_REASON}"
value="{text(reason)}"></label>
<button type="submit">Swap</button></form></section>"""


def _move_form(
    paired: RoundPairing,
    free: tuple[int, ...],
    rooms: tuple[Room, ...],
    csrf: str,
    *,
    day: bool = False,
) -> str:
    """A match to a table no match of the round is at (R1068), named as R1112 names it, or why
    none can be; ``day``: an event of a day, whose spare tables the day gives it (R1172)."""
    head = (
        '<section aria-labelledby="move-title" class="card">'
        '<h2 id="move-title">Move a match to a free table</h2>'
    )
    if not paired.matches:
        return f"{head}<p>No match in this round to move.</p></section>"
    if not free and day:
        return (
            f"{head}<p>No free table: every table that plays for this event has a match this "
            "round. To move a match to a spare table, give the event one on the day's page "
            "(Move tables to an event).</p></section>"
        )
    if not free:
        return (
            f"{head}<p>No free table: every table of the tournament has a match this round. "
            'To move a match to a spare table, add a room holding it on <a href="/rooms">'
            "Rooms</a>.</p></section>"
        )
    matches = "".join(
        f'<option value="{text(m.a)}">table {m.table}: {text(m.a)} v {text(m.b)}</option>'
        for m in paired.matches
    )
    tables = "".join(
        f'<option value="{table}">{text(table_label(rooms, table))}</option>' for table in free
    )
    return f"""{head}
<p>Both teams of the match go to the table, on their sides; their old table has no match this
round. Only before the round starts. The tables are told at once.</p>
<form method="post" action="/draw/round/{paired.round}/move" id="move-form">{hidden("csrf", csrf)}
{hidden("draw", pairing_stamp(paired))}
<label>Match <select name="team" required><option value=""></option>{matches}</select></label>
<label>to <select name="table" required><option value=""></option>{tables}</select></label>
<label class="wide">Why <input name="reason" required maxlength="{MAX_REASON}"></label>
<button type="submit">Move</button></form></section>"""


def _warning(number: int, plan: SwapPlan, reason: str, csrf: str) -> str:
    items = "".join(f"<li>{text(warning)}</li>" for warning in plan.warnings)
    first, second = plan.teams
    return (
        '<section aria-labelledby="warn-title" class="card bad-lines" id="swap-warning" '
        f'role="alert"><h2 id="warn-title">{text(plan.change)}: the pairing avoids what this '
        f"makes</h2><ul>{items}</ul><p>Nothing is swapped yet.</p>"
        f'<form method="post" action="/draw/round/{number}" id="swap-confirm">'
        + hidden("csrf", csrf)
        + hidden("draw", plan.stamp)
        + hidden("first", first)
        + hidden("second", second)
        + hidden("reason", reason)
        + '<button type="submit" name="confirm" value="yes" class="danger">Confirm: swap '
        f'anyway</button> <a href="/draw/round/{number}">Cancel</a></form></section>'
    )
