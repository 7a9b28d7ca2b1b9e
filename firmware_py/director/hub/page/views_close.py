"""The end of the day on the page: the final standings, the championship's two teams, and
recording the champion, which closes the tournament (the record's own ``set_champion``, the
same as ``gametable tournament championship --winner``).

``close_section`` is the director's card on ``/`` once every round is paired: what is still
missing, or the way to the confirmation. ``close_page`` is that confirmation: the final
standings' top, the two teams, a choice of the champion and Confirm (a POST with the session's
CSRF token); or, when the tournament cannot be closed yet, why, in words, and no form.
"""

from __future__ import annotations

from firmware_py.director.hub.page.render import hidden, line, shell, table, text
from firmware_py.director.tournament_db import TournamentDB
from rules.errors import RuleError
from rules.tournament import Qualification, Tournament

SHOWN_STANDINGS = 10  # rows of the final standings on the confirmation


def qualification(record: TournamentDB, tournament: Tournament) -> Qualification:
    """The championship's teams once every result is in (IllegalAction in words before)."""
    return tournament.qualification([game.winner for game in record.playoff_games()])


def close_section(record: TournamentDB, tournament: Tournament) -> str:
    """The director's card for the end of the day, once every round is paired."""
    if len(tournament.rounds) < tournament.config.rounds:
        return ""
    closed = record.closing()
    if closed is not None:
        return (
            '<section class="card" id="closed" aria-labelledby="closed-title">'
            f'<h2 id="closed-title">Closed: {text(closed.champion)} is the champion</h2>'
            f"<p>Closed by {text(closed.closed_by)} at {text(closed.closed_at)}. The record is "
            "final: no result is entered or amended, no round paired or undone, and the "
            "tables' results wait in the queue. The final standings are below; "
            '<a href="/close">the championship</a>, where a director may reopen it.</p>'
            "</section>"
        )
    missing = len(tournament.missing_results())
    body = (
        f"<p>Every round is paired; {missing} result{'s' if missing != 1 else ''} still "
        "missing.</p>"
        if missing
        else '<p><a href="/close" id="close-link">Close the tournament</a>: the final '
        "standings, the championship, the champion (you confirm on the next page).</p>"
    )
    return (
        '<section class="card" id="close-tools" aria-labelledby="close-title">'
        f'<h2 id="close-title">The end of the day</h2>{body}</section>'
    )


def close_page(
    record: TournamentDB, csrf: str, *, notice: str | None = None, error: str | None = None
) -> str:
    """The confirmation of closing the tournament, or why it cannot be closed yet;
    ``notice``: what the director's last change here did; ``error``: why the last one sent
    from here (Close, Reopen, a playoff game) was refused, shown where it can be tried again."""
    seen = record.last_closing()  # read first: what the page shows is no older (R857)
    tournament = record.load()
    title = "Close the tournament"
    nav = '<nav><a href="/">Back to the tables</a></nav>'
    done = line(notice, "notice") + line(error, "error")
    try:
        found = qualification(record, tournament)
    except RuleError as why:
        said = "" if str(why) == error else line(str(why), "error")  # the refusal, said once
        return shell(title, done + said, nav=nav)
    standings = table(
        ("rank", "team", "W", "T", "L", "points", "opp W"),
        [
            (s.rank, s.team, s.wins, s.ties, s.losses, s.points, s.opponents_wins)
            for s in tournament.standings()[:SHOWN_STANDINGS]
        ],
        css="standings",
        caption=f"The final standings after round {tournament.config.rounds}: the top "
        f"{SHOWN_STANDINGS}",
    )
    closed = record.closing()
    finalists = found.finalists
    if closed is not None:
        decided = line(
            f"Closed: {closed.champion} is the champion (recorded by {closed.closed_by} at "
            f"{closed.closed_at}).",
            "notice",
        )
        return shell(title, done + decided + reopen_form(closed.row, csrf) + standings, nav=nav)
    if finalists is None:
        assert found.playoff is not None
        game = found.playoff.next_game()
        playing = "" if game is None else f" next: {game[0]} v {game[1]}"
        said = (
            "a playoff decides the championship's last place first "
            f"({', '.join(found.playoff.seeds)};{playing}): record each game's winner below "
            "(or gametable tournament playoff --winner NAME), then close the tournament here"
        )
        form = (
            ""
            if game is None
            else playoff_form(
                len(found.playoff.games) + 1, game, found.playoff.next_game_decides(), csrf
            )
        )
        return shell(title, done + line(said, "error") + form + standings, nav=nav)
    options = "".join(
        f'<label class="choice"><input type="radio" name="champion" value="{text(team)}" '
        f"required> {text(team)}</label>"
        for team in finalists
    )
    body = f"""<section class="card close" aria-labelledby="close-title">
<h2 id="close-title">Close the tournament? The championship: {text(finalists[0])} v
{text(finalists[1])}</h2>
<p>Every result of the {tournament.config.rounds} rounds is in. The two teams at the top of the
final standings play the championship; record its winner once it is played.</p>
<ul>
<li>The champion goes into the record with you and the time; the director's page shows it
from then on.</li>
<li>A champion recorded wrongly is changed only with a reason:
gametable tournament championship --winner NAME --amend --reason TEXT.</li>
</ul>
<form method="post" action="/close" id="close-form" autocomplete="off">
{hidden("csrf", csrf)}{hidden("closing", str(seen))}
<fieldset><legend>The championship's winner</legend>{options}</fieldset>
<button type="submit" name="confirm" value="yes" class="danger">Confirm: record the champion
and close</button>
<a href="/" class="cancel">Cancel</a>
</form></section>"""
    return shell(title, done + body + standings, nav=nav)


def reopen_form(closing: int, csrf: str) -> str:
    """A director's way back from a closed tournament: a reason, and Confirm (R850). The form
    names the ``closing`` it reopens (its champion row): a page left open while the tournament
    was reopened and closed again reopens nothing (R856)."""
    return f"""<section class="card close" aria-labelledby="reopen-title">
<h2 id="reopen-title">Reopen the tournament?</h2>
<p>While it is closed, nothing in the record changes. Reopened, the champion no longer stands
(the public page and the hall's screen stop naming it), results may be entered and amended
again, and the tables' results that arrived meanwhile are in the problem queue. The reopening
is kept in the record with you, the time and the reason; close it again here when done.</p>
<form method="post" action="/reopen" id="reopen-form" autocomplete="off">
{hidden("csrf", csrf)}{hidden("closing", str(closing))}
<label for="reopen-reason">Why</label>
<input id="reopen-reason" name="reason" required maxlength="500"
placeholder="e.g. table 12's sheet was entered wrong">
<button type="submit" name="confirm" value="yes" class="danger">Confirm: reopen</button>
<a href="/" class="cancel">Cancel</a>
</form></section>"""


def playoff_form(number: int, game: tuple[str, str], decides: str, csrf: str) -> str:
    """The next Border-Up playoff game's winner, a director's choice and Confirm (the same
    checks as ``gametable tournament playoff --winner``); a game entered wrongly is voided on
    the command line (``playoff --void --reason``). The form names its game (``number``, the
    two teams): sent again, or from a page left open while someone recorded it, it records
    nothing rather than the winner of the game after it (R855)."""
    options = "".join(
        f'<label class="choice"><input type="radio" name="winner" value="{text(team)}" '
        f"required> {text(team)}</label>"
        for team in game
    )
    return f"""<section class="card close" aria-labelledby="playoff-title">
<h2 id="playoff-title">The playoff's next game: {text(game[0])} v {text(game[1])}</h2>
<p>{text(decides[:1].upper() + decides[1:])}. The game goes into the record with you and the
time; a game entered wrongly is voided with a reason on the command line (gametable tournament
playoff --void --reason TEXT), which starts the playoff again.</p>
<form method="post" action="/playoff" id="playoff-form" autocomplete="off">
{hidden("csrf", csrf)}{hidden("game", str(number))}{hidden("a", game[0])}{hidden("b", game[1])}
<fieldset><legend>Its winner</legend>{options}</fieldset>
<button type="submit" name="confirm" value="yes">Confirm: record the winner</button>
<a href="/" class="cancel">Cancel</a>
</form></section>"""
