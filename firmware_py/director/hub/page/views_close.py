"""The end of the day on the page: the final standings, the championship's two teams, and
recording the champion, which closes the tournament (the record's own ``set_champion``, the
same as ``gametable tournament championship --winner``).

``close_section`` is the director's card on ``/`` once every round is paired: what is still
missing, or the way to the confirmation. ``close_page`` is that confirmation: the final
standings' top, the two teams, a choice of the champion and Confirm (a POST with the session's
CSRF token); or, when the tournament cannot be closed yet, why, in words, and no form.

While a Border-Up playoff decides the championship's last place, the page shows its bracket
(each game played with its two teams and winner, the games to come), the next game's form and
the void of the games so far (``void_form``). A playoff whose recorded games the standings no
longer seed, a result having changed after a game was played, is shown stopped
(``playoff_stopped``, R960): the games as played, what the standings make now, and only the
void, so that nothing is read as a game that was not played.
"""

from __future__ import annotations

from firmware_py.director.hub.page.render import hidden, line, shell, table, text
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import RuleError
from rules.tournament import Playoff, PlayoffChanged, Qualification, Tournament

SHOWN_STANDINGS = 10  # rows of the final standings on the confirmation
RECORDED = ("game", "teams", "winner", "the standings now make")  # a stopped playoff's games


def qualification(record: TournamentDB, tournament: Tournament) -> Qualification:
    """The championship's teams once every result is in (IllegalAction in words before)."""
    return tournament.qualification(record.playoff_games())


def close_section(record: TournamentDB, tournament: Tournament) -> str:
    """The director's card for the end of the day, once every round is paired."""
    if len(tournament.rounds) < tournament.config.rounds:
        return ""
    closed = record.closing()
    if closed is not None:
        return (
            '<section class="card" id="closed" aria-labelledby="closed-title">'
            f'<h2 id="closed-title">Closed: {text(closed.champion)} is the champion</h2>'
            f"<p>Closed by {text(closed.closed_by)} at "
            f"{text(record.venue().when(closed.closed_at))}. The record is "
            "final: no result is entered or amended, no round paired or undone, and the "
            "tables' results wait in the queue. The final standings are below; "
            '<a href="/close">the championship</a>, where a director may reopen it.</p>'
            "</section>"
        )
    missing = len(tournament.missing_results())
    if missing:
        body = (
            f"<p>Every round is paired; {missing} result{'s' if missing != 1 else ''} still "
            "missing.</p>"
        )
    else:
        body = _stopped_or_close(record, tournament)
    return (
        '<section class="card" id="close-tools" aria-labelledby="close-title">'
        f'<h2 id="close-title">The end of the day</h2>{body}</section>'
    )


def _stopped_or_close(record: TournamentDB, tournament: Tournament) -> str:
    """The end of the day's link: to Close, or, while the playoff is stopped (R960, R968), to
    the void on /close, since nothing can be closed until the playoff is voided."""
    try:
        qualification(record, tournament)
    except PlayoffChanged as changed:
        return (
            f"<p>The playoff stopped: a result changed after game {changed.number} was played, "
            "and the standings as they are now do not make that game as it was played. "
            '<a href="/close#playoff-stopped" id="void-link">Void the playoff</a> with a '
            "reason on the championship page, then play it again; the tournament cannot be "
            "closed until then.</p>"
        )
    return (
        '<p><a href="/close" id="close-link">Close the tournament</a>: the final '
        "standings, the championship, the champion (you confirm on the next page).</p>"
    )


def close_page(
    record: TournamentDB, csrf: str, *, notice: str | None = None, error: str | None = None
) -> str:
    """The confirmation of closing the tournament, or why it cannot be closed yet;
    ``notice``: what the director's last change here did; ``error``: why the last one sent
    from here (Close, Reopen, a playoff game) was refused, shown where it can be tried again."""
    seen = record.last_closing()  # read first: what the page shows is no older (R857)
    last = record.last_playoff_game()  # likewise the Void form's latest game (R964)
    tournament = record.load()
    venue = record.venue()
    title = "Close the tournament"
    nav = '<nav><a href="/">Back to the tables</a></nav>'
    done = line(notice, "notice") + line(error, "error")
    try:
        found = qualification(record, tournament)
    except PlayoffChanged as changed:
        stopped = playoff_stopped(record, tournament, changed, last, csrf)
        return shell(title, done + stopped + _standings(tournament), nav=nav, venue=venue)
    except RuleError as why:
        said = "" if str(why) == error else line(str(why), "error")  # the refusal, said once
        return shell(title, done + said, nav=nav, venue=venue)
    standings = _standings(tournament)
    closed = record.closing()
    finalists = found.finalists
    playoff = found.playoff
    if closed is not None:
        decided = line(
            f"Closed: {closed.champion} is the champion (recorded by {closed.closed_by} at "
            f"{venue.when(closed.closed_at)}).",
            "notice",
        )
        played = "" if playoff is None else bracket_card(playoff)
        body = done + decided + reopen_form(closed.row, csrf) + played + standings
        return shell(title, body, nav=nav, venue=venue)
    if finalists is None:
        assert playoff is not None
        game = playoff.next_game()
        assert game is not None  # the playoff is not over while the finalists are unknown
        form = playoff_form(len(playoff.games) + 1, game, playoff.next_game_decides(), csrf)
        body = done + bracket_card(playoff) + form + void_form(playoff, last, csrf) + standings
        return shell(title, body, nav=nav, venue=venue)
    options = "".join(
        f'<label class="choice"><input type="radio" name="champion" value="{text(team)}" '
        f"required> {text(team)}</label>"
        for team in finalists
    )
    # the championship the form is for: played again before Confirm, it closes nothing (R963)
    shown = hidden("a", finalists[0]) + hidden("b", finalists[1])
    how = (
        "The two teams at the top of the final standings play the championship"
        if playoff is None
        else "The championship's two teams are known, the playoff played (below)"
    )
    body = f"""<section class="card close" aria-labelledby="close-title">
<h2 id="close-title">Close the tournament? The championship: {text(finalists[0])} v
{text(finalists[1])}</h2>
<p>Every result of the {tournament.config.rounds} rounds is in. {how}; record its winner once
it is played.</p>
<ul>
<li>The champion goes into the record with you and the time; the director's page shows it
from then on.</li>
<li>A champion recorded wrongly: Reopen on this page with the reason, and close again with
the right one.</li>
</ul>
<form method="post" action="/close" id="close-form" autocomplete="off">
{hidden("csrf", csrf)}{hidden("closing", str(seen))}{shown}
<fieldset><legend>The championship's winner</legend>{options}</fieldset>
<button type="submit" name="confirm" value="yes" class="danger">Confirm: record the champion
and close</button>
<a href="/" class="cancel">Cancel</a>
</form></section>"""
    played = "" if playoff is None else bracket_card(playoff) + void_form(playoff, last, csrf)
    return shell(title, done + body + played + standings, nav=nav, venue=venue)


def _standings(tournament: Tournament) -> str:
    return table(
        ("rank", "team", "W", "T", "L", "points", "opp W"),
        [
            (s.rank, s.team, s.wins, s.ties, s.losses, s.points, s.opponents_wins)
            for s in tournament.standings()[:SHOWN_STANDINGS]
        ],
        css="standings",
        caption=f"The final standings after round {tournament.config.rounds}: the top "
        f"{SHOWN_STANDINGS}",
    )


def bracket_table(playoff: Playoff) -> str:
    """Every game of the playoff: those played with their two teams and winner, then those to
    come (a side not known yet is "the winner of game N")."""
    return table(
        ("game", "teams", "decides", "winner"),
        [
            (game.number, f"{game.a} v {game.b}", game.decides, game.winner or "to play")
            for game in playoff.bracket()
        ],
        css="bracket",
        caption=f"The Border-Up playoff among {', '.join(playoff.seeds)} (seeded in that "
        f"order) for {_places(playoff.places)}",
    )


def bracket_card(playoff: Playoff) -> str:
    """The playoff as it stands: why it is played, and its bracket."""
    left = len(playoff.to_come())
    status = (
        "it is over: the championship's teams are known"
        if left == 0
        else f"{len(playoff.games)} game{_s(len(playoff.games))} played, {left} to play"
    )
    return f"""<section class="card playoff" id="bracket" aria-labelledby="bracket-title">
<h2 id="bracket-title">The playoff: {text(status)}</h2>
<p>Teams tied at the championship's last {_places(playoff.places)} play Border-Up games, seeded
by the final standings: while more teams remain than places plus one, the two lowest seeds
meet and the loser is out; then the two highest meet and the winner advances.</p>
{bracket_table(playoff)}</section>"""


def playoff_stopped(
    record: TournamentDB, tournament: Tournament, changed: PlayoffChanged, last: int, csrf: str
) -> str:
    """A playoff whose recorded games the standings no longer seed (a result changed after a
    game was played, R960): the games as played, the playoff the standings make now, and the
    void that lets it be played again from them. Nothing else is offered: no next game, no
    Close."""
    played = record.playoff_games()
    rows = [
        (number, f"{game.a} v {game.b}", game.winner, _now_made(number, changed))
        for number, game in enumerate(played, start=1)
    ]
    fresh = tournament.qualification()
    if fresh.playoff is None:
        assert fresh.finalists is not None
        now = f"need no playoff: the championship is {fresh.finalists[0]} v {fresh.finalists[1]}"
    else:
        first = fresh.playoff.next_game()
        assert first is not None
        now = f"seed it {', '.join(fresh.playoff.seeds)}, game 1 {first[0]} v {first[1]}"
    return f"""<section class="card close stopped" id="playoff-stopped"
aria-labelledby="stopped-title">
<h2 id="stopped-title">The playoff stopped: game {changed.number} is not the game the standings
make now</h2>
<p>{text(_sentence(str(changed)))}.</p>
{table(RECORDED, rows, css="bracket recorded", caption="The games recorded", labelled=True)}
<p>The standings as they are now {text(now)}. Void the recorded games to play the playoff again
from them: the games stay in the record as played, with the void, you, the time and your
reason.</p>
{_void_fields(len(played), last, csrf, "Void the playoff")}</section>"""


def _now_made(number: int, changed: PlayoffChanged) -> str:
    """What the standings as they are now make of recorded game ``number``."""
    if number < changed.number:
        return "the same game"
    if number > changed.number:
        return "after the game that changed"
    if changed.seeded is None:
        return "no such game"
    seeded = f"{changed.seeded[0]} v {changed.seeded[1]}"
    # the same two teams, read as deciding something else (R968): say what
    return seeded if changed.decides_now is None else f"{seeded}, where {changed.decides_now}"


def void_form(playoff: Playoff, last: int, csrf: str) -> str:
    """A game entered wrongly: void the playoff's games with a reason, and play it again."""
    if not playoff.games:
        return ""
    return f"""<details class="card close" id="void">
<summary>A game entered wrongly? Void the playoff</summary>
<p>Voiding starts the playoff again from game 1; the {len(playoff.games)} game{
        _s(len(playoff.games))
    } recorded stay in the record as voided, with you, the time and
your reason.</p>
{_void_fields(len(playoff.games), last, csrf, "Void the playoff")}</details>"""


def _void_fields(games: int, last: int, csrf: str, button: str) -> str:
    """The void's form: it names how many games it voids (``games``) and the latest of them
    (``last``, its row): a page left open while someone recorded another, or voided the
    playoff and played a game again, voids nothing (R961, R964)."""
    return f"""<form method="post" action="/playoff/void" id="void-form" autocomplete="off">
{hidden("csrf", csrf)}{hidden("games", str(games))}{hidden("last", str(last))}
<label for="void-reason" class="wide">Why
<input id="void-reason" name="reason" required maxlength="500"
placeholder="e.g. table 7's round 4 result was amended after game 1"></label>
<button type="submit" name="confirm" value="yes" class="danger">Confirm: {text(button)}</button>
</form>"""


def _sentence(said: str) -> str:
    return said[:1].upper() + said[1:]


def _places(places: int) -> str:
    return "place" if places == 1 else f"{places} places"


def _s(count: int) -> str:
    return "" if count == 1 else "s"


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
    checks as ``gametable tournament playoff --winner``); a game entered wrongly is voided
    with the void form below it (``void_form``). The form names its game (``number``, the
    two teams): sent again, or from a page left open while someone recorded it, it records
    nothing rather than the winner of the game after it (R855)."""
    options = "".join(
        f'<label class="choice"><input type="radio" name="winner" value="{text(team)}" '
        f"required> {text(team)}</label>"
        for team in game
    )
    return f"""<section class="card close" aria-labelledby="playoff-title">
<h2 id="playoff-title">The playoff's next game: {text(game[0])} v {text(game[1])}</h2>
<p>{text(decides[:1].upper() + decides[1:])}. The game goes into the record with its two teams,
you and the time; a game entered wrongly is voided with a reason below, which starts the
playoff again.</p>
<form method="post" action="/playoff" id="playoff-form" autocomplete="off">
{hidden("csrf", csrf)}{hidden("game", str(number))}{hidden("a", game[0])}{hidden("b", game[1])}
<fieldset><legend>Its winner</legend>{options}</fieldset>
<button type="submit" name="confirm" value="yes">Confirm: record the winner</button>
<a href="/" class="cancel">Cancel</a>
</form></section>"""
