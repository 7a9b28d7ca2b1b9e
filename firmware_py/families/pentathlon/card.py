"""The printable score cards of one Pentathlon game: one card per Pentathlete, an HTML page
ready to print (A4 or Letter: each card a page, or both on one page to cut in two), made from
the game's record (``rules.pentathlon.record.record``).

"The Score Card is THE ONLY Official Record of a Pentathlete's score ... Pentathletes are to
verify the information on their score card and sign their own score card" (R261, R788): each
card names the event, date, division, round, table and game, both players, the start, the
result and how it was decided, the final scores, every declared win and what became of it,
every challenge with its ruling in force and who ruled, the player's own C / I / IA, the events
recorded (infractions, trap penalties, stack counts), and a line for the player's signature and
the Game Monitor's. Nothing of the machine is on it (no path, no file name). What is not known
is a blank line to write on. The page is one file with no external assets (its style inline,
no script, no image); every text from the record or the command line is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from html import escape
from typing import Any

from firmware_py.table.family import CardFacts
from rules.tournament.pentathlon import PentathlonPoints

PLAYERS = ("A", "B")
HOW = {
    "goal": "the game's goal, declared",
    "award": "the Monitor's award",
    "time-limit": "time-limit adjudication",
    "three-i-ia": "three I/IA",
    "challenged-win": "a Correct challenge of a declared win",
    "agreement": "agreement (no legal move)",
    "director": "the Tournament Director's result",
}
OFFICIALS = {
    "monitor": "Game Monitor",
    "game-leader": "Game Leader",
    "tournament-director": "Tournament Director",
}
RESULTS = {"win": "WIN", "tie": "TIE", "loss": "LOSS"}
FATES = {
    "standing": "stood: no challenge decided it",
    "confirmed": "confirmed: the challenge was ruled Incorrect",
    "to-challenger": "the win went to the challenger: the challenge was ruled Correct",
    "withdrawn": "withdrawn and play continued: a Correct challenge on another rule",
    "set-aside": "set aside: the game was decided otherwise",
}
# A win the Monitor declared, withdrawn by a Correct ruling on the goal's rule itself (R986)
MONITOR_WITHDRAWN = (
    "withdrawn and play continued: the win the Monitor declared was challenged Correct on the "
    "goal's rule (no sanction)"
)


class Layout(StrEnum):
    PAGES = "pages"  # each Pentathlete's card on a page of its own
    HALVES = "halves"  # both cards on one page, to cut in two


class Density(StrEnum):
    """How tightly a card is set so that it stays on its page (R841): the type and, for the
    densest, the challenges and events in two columns with the officials' initials."""

    NORMAL = "normal"
    COMPACT = "compact"
    DENSE = "dense"
    TINY = "tiny"


# What a card of each density holds of its variable part (the challenges, declared wins and
# events), in the estimate's lines (``_length``), on Letter (the shorter page) with the heading,
# the result and the signatures at their longest; measured in chromium (R841). A half holds
# what is left of half a page.
HOLDS = {  # measured: 21, 58, 221, 353 and 8, 11, 51, 121; held about 8% short of them
    Layout.PAGES: {Density.NORMAL: 19, Density.COMPACT: 53, Density.DENSE: 204, Density.TINY: 325},
    Layout.HALVES: {Density.NORMAL: 7, Density.COMPACT: 10, Density.DENSE: 47, Density.TINY: 111},
}


@dataclass(frozen=True, slots=True)
class Heading:
    """Where and when the game was played, as the card prints it; "" is a blank to write on."""

    event: str = ""
    date: str = ""
    division: str = ""
    round: str = ""
    table: str = ""
    monitor: str = ""  # the Game Monitor's name


STYLE = """
@page { size: auto; margin: 12mm; }
* { box-sizing: border-box; overflow-wrap: anywhere; }
body { font: 9.5pt/1.3 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0 auto;
  max-width: 186mm; background: #fff; }
.card { padding: 2mm 0; }
.pages .card { break-after: page; }
.pages .card:last-child { break-after: auto; }
.halves { font-size: 7.4pt; line-height: 1.2; }
.halves .card { min-height: 118mm; break-inside: avoid; padding: 1mm 0; }
.halves .card + .card { border-top: 1px dashed #000; padding-top: 3mm; }
.cut { font-size: 7pt; text-align: right; margin: 0; }
h1 { font-size: 1.45em; margin: 0 0 1mm; }
h2 { font-size: 1.08em; margin: 2.2mm 0 0.8mm; }
.draft { border: 2px solid #000; padding: 1mm 2mm; margin: 0 0 2mm; font-weight: bold; }
table { border-collapse: collapse; width: 100%; margin: 0 0 1mm; table-layout: fixed; }
.challenges col.n { width: 6mm; } .challenges col.by { width: 8mm; }
.challenges col.rule { width: 24%; } .challenges col.cia { width: 15mm; }
.challenges col.who { width: 24%; }
.compact { font-size: 7.2pt; line-height: 1.18; }
.dense { font-size: 6pt; line-height: 1.12; }
.tiny { font-size: 5.2pt; line-height: 1.1; }
.dense h2, .tiny h2 { margin: 1.2mm 0 0.5mm; }
.twocol { column-count: 2; column-gap: 4mm; margin: 0 0 1mm; }
.twocol p, .twocol li { break-inside: avoid; margin: 0 0 0.4mm; }
ul.twocol { list-style-position: inside; margin-left: 0; }
.compact .signatures, .dense .signatures, .tiny .signatures { margin-top: 5mm; }
th, td { border: 1px solid #000; padding: 0.7mm 1.4mm; text-align: left; vertical-align: top; }
th { background: #e6e6e6; font-weight: bold; }
.heading .label { display: block; font-size: 0.8em; color: #333; }
.blank { display: inline-block; min-width: 22mm; border-bottom: 1px solid #000; height: 1.1em; }
.result { font-size: 1.6em; font-weight: bold; }
ul { margin: 0 0 1mm 4mm; padding: 0; }
p { margin: 0 0 1mm; }
.signatures { display: flex; gap: 10mm; margin-top: 7mm; }
.signatures div { flex: 1; border-top: 1px solid #000; padding-top: 0.8mm; font-size: 0.9em; }
.halves .signatures { margin-top: 5mm; }
@media print { body { max-width: none; } th { background: #e6e6e6 !important;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""


def card_html(
    record: Mapping[str, Any],
    *,
    names: Mapping[str, str] | None = None,
    heading: Heading | None = None,
    layout: Layout = Layout.PAGES,
    density: Density | None = None,
    points: PentathlonPoints | None = None,
) -> str:
    """Each Pentathlete's score card of the game ``record`` describes; ``names`` are Player A's
    and B's names and ``heading`` the event's facts (blank lines to write on where not given).
    Each card stays on its page (R841): set as tightly as its length needs (``density``, None:
    chosen so), and both cards of ``halves`` too long for half a page each print a page each.
    ``points``: what a win, tie and loss are worth in the event's standings (None: the standard
    2/1/0, R985)."""
    names = names or {}
    points = points or PentathlonPoints()
    heading = heading or Heading()
    length = _length(record, names, heading, layout)
    if density is None and layout is Layout.HALVES and length > HOLDS[layout][Density.TINY]:
        layout = Layout.PAGES
        length = _length(record, names, heading, layout)
    if density is None:
        # longer than the tiniest setting is reckoned to hold: the tiniest still holds the most
        # (R995)
        density = next((d for d in Density if length <= HOLDS[layout][d]), Density.TINY)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>Score cards: {_e(record['title'])}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        f'<body class="{layout.value}">',
    ]
    for seat in PLAYERS:
        parts += _card(record, seat, names, heading, layout=layout, density=density, points=points)
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def finished_card(record: Mapping[str, Any], facts: CardFacts | None = None) -> str | None:
    """The cards of a game whose result the monitor has confirmed; None before (R263).
    ``facts``: the hub's seat the table held when the result was confirmed (its players'
    names, the event, division, round and table head the cards when it is this game's seat:
    R795), the date of play (R819) and the Game Monitor's name; what is not known (a table
    without the hub, a clock never set, no monitor configured) is a blank line to write on."""
    result = record.get("result")
    if result is None or not result.get("confirmed"):
        return None
    facts = facts or CardFacts()
    day = "" if facts.date is None else facts.date.isoformat()
    seat = facts.seat
    if seat is None or seat.game != record["game"]:
        return card_html(record, heading=Heading(date=day, monitor=facts.monitor))
    heading = Heading(
        event=seat.event,
        date=day,
        division=seat.division,
        round=str(seat.round),
        table="" if seat.table is None else str(seat.table),
        monitor=facts.monitor,
    )
    return card_html(record, names={"A": seat.a, "B": seat.b}, heading=heading)


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _isolated(text: str) -> str:
    """Text a person typed (a name, the event), escaped and isolated from the card's own
    direction: a right-to-left name keeps its "(A)" where its writer put it (R848)."""
    return f"<bdi>{_e(text)}</bdi>"


def _or_blank(text: str, *, typed: bool = True) -> str:
    """``text`` (``typed``: by a person, so isolated), or a blank line to write on."""
    if not text:
        return '<span class="blank"></span>'
    return _isolated(text) if typed else _e(text)


def _card(
    record: Mapping[str, Any],
    seat: str,
    names: Mapping[str, str],
    heading: Heading,
    *,
    layout: Layout,
    density: Density,
    points: PentathlonPoints,
) -> list[str]:
    other = "B" if seat == "A" else "A"
    name = names.get(seat, "")
    parts = [f'<section class="card {density.value}">']
    if layout is Layout.HALVES and seat == "B":
        parts.append('<p class="cut">cut here</p>')
    parts.append(
        f"<h1>Mathematics Pentathlon: Official Score Card of Player {seat}"
        f"{': ' + _isolated(name) if name else ''}</h1>"
    )
    result = record.get("result")
    if result is None or not result.get("confirmed"):
        parts.append(
            '<p class="draft">Not the official record yet: the game has not ended, or the '
            "Monitor has not confirmed its result.</p>"
        )
    parts += _heading(record, heading, seat, other, names)
    parts += _start(record)
    parts += _result(record, seat, points)
    dense = density in (Density.DENSE, Density.TINY)
    parts += _declarations(record, dense=dense)
    parts += _challenges(record, seat, dense=dense)
    parts += _events(record, dense=dense)
    parts += _signatures(seat, name, heading.monitor)
    parts.append("</section>")
    return parts


def _heading(
    record: Mapping[str, Any],
    heading: Heading,
    seat: str,
    other: str,
    names: Mapping[str, str],
) -> list[str]:
    rows = (
        [("Event", _or_blank(heading.event), 4), ("Division", _or_blank(heading.division), 2)],
        [
            ("Date", _or_blank(heading.date, typed=False), 1),
            ("Round", _or_blank(heading.round, typed=False), 1),
            ("Table", _or_blank(heading.table, typed=False), 1),
            ("Game", f"{_e(record['title'])} ({_e(record['minutes'])} min)", 3),
        ],
    )
    cells = [
        "".join(
            f'<td colspan="{span}"><span class="label">{label}</span>{value}</td>'
            for label, value, span in row
        )
        for row in rows
    ]
    players = (
        f'<tr><td colspan="3"><span class="label">Player {seat} (this card)</span>'
        f"{_or_blank(names.get(seat, ''))}</td>"
        f'<td colspan="3"><span class="label">Player {other} (the opponent)</span>'
        f"{_or_blank(names.get(other, ''))}</td></tr>"
    )
    return [
        '<table class="heading">',
        "<colgroup><col><col><col><col><col><col></colgroup>",
        *(f"<tr>{row}</tr>" for row in cells),
        players,
        "</table>",
    ]


def _start(record: Mapping[str, Any]) -> list[str]:
    entries: Sequence[str] = record.get("start") or []
    if entries:
        said = "; ".join(_e(entry) for entry in entries)
    elif record.get("beginner"):
        said = f"Player {_e(record['beginner'])} began (the start was not entered)"
    else:
        said = "not begun"
    return [f"<p><b>The start:</b> {said}.</p>"]


def _result(record: Mapping[str, Any], seat: str, points: PentathlonPoints) -> list[str]:
    player = record["players"][seat]
    result = record.get("result")
    outcome = RESULTS.get(player["result"] or "", "NOT DECIDED")
    how = HOW.get(player["how"] or "", "")
    detail = f" {_e(result['detail'])}." if result else ""
    scores = record.get("scores") or {}
    finals = "; ".join(f"Player {s}: {_e(_score(scores, s))}" for s in PLAYERS)
    zero = (
        " <b>0 points: a Code of Conduct infraction (the Tournament Director).</b>"
        if player.get("zero_points")
        else ""
    )
    turns = (
        f"Player {seat}'s turns forfeited {player['forfeited_turns']}, lost {player['lost_turns']}."
    )
    worth = _standings(player, points)
    return [
        "<table>",
        "<tr><th>Result</th><th>How it was decided</th><th>Final scores</th></tr>",
        f'<tr><td class="result">{outcome}</td><td>{_e(how)}.{detail}{zero}</td>'
        f"<td>{finals}. {turns}</td></tr>",
        "</table>",
        *([f'<p class="standings"><b>Standings:</b> {_e(worth)}</p>'] if worth else []),
    ]


def standings_points(player: Mapping[str, Any], points: PentathlonPoints) -> int | None:
    """What the game is worth to the player in the event's standings, as the hub counts it
    (``GameResult.points_of``, R794): the outcome's points, 0 for the Tournament Director's 0
    points; None before a result."""
    outcome = player.get("result")
    if outcome is None:
        return None
    return 0 if player.get("zero_points") else points.of(outcome)


def _standings(player: Mapping[str, Any], points: PentathlonPoints) -> str:
    """The card's line of standings points (R985): the number the player signs and the hub
    ranks, with the event's scale so that it can be checked."""
    worth = standings_points(player, points)
    if worth is None:
        return ""
    scale = f"a win {points.win}, a tie {points.tie}, a loss {points.loss}"
    why = " (the Tournament Director's 0 points)" if player.get("zero_points") else ""
    return f"this game is worth {worth} point{'' if worth == 1 else 's'}{why} ({scale})."


def _score(scores: Mapping[str, Any], seat: str) -> str:
    """A player's final score in the game's own terms."""
    if "running_score" in scores:
        text = f"running score {scores['running_score'][seat]}"
        if "chips_left" in scores:
            text += f", {scores['chips_left'][seat]} chips left"
        return text
    if "games" in scores:  # Fab-a-Diffy: best two of three
        games: Sequence[str] = scores["games"]
        unplayed = int(scores.get("not_played", 0))
        won = sum(winner == seat for winner in games)
        # the games the time limit counted as tied are tied here too, as the result says (R993)
        tied = sum(winner == "tie" for winner in games) + unplayed
        text = f"games won {won}, tied {tied} (of {len(games) + unplayed}"
        timed = scores.get("decided_at_time_limit")
        if timed:  # the game the time limit decided counts as the result counted it (R982)
            tricks = timed["tricks"]
            text += (
                f"; game {timed['game']} decided at the time limit on tricks "
                f"A {tricks['A']}, B {tricks['B']}"
            )
        if unplayed:
            numbers = range(len(games) + 1, len(games) + unplayed + 1)
            text += f"; {_games_text(list(numbers))} not played, counted as tied"
        lost = scores.get("lost_at_three_i_ia")
        if lost:  # the games a third I/IA lost the offender count as the result counts them
            text += f"; {_games_text(lost['games'])} lost by {lost['player']} at the third I/IA"
        return text + ")"
    if scores.get("empty_spaces"):
        return f"{scores['empty_spaces'][seat]} empty spaces"
    return "no score kept"


def _games_text(numbers: Sequence[int]) -> str:
    """``game 3``, ``games 2 and 3``, ``games 1 and 2``."""
    if len(numbers) == 1:
        return f"game {numbers[0]}"
    return f"games {' and '.join(str(number) for number in numbers)}"


# The characters of a declared win's line that make a line of the estimate (``_length``), as
# measured in chromium on Letter: a half page's card runs its declared wins' lines longer than
# a page's (R989).
DECLARATION_CHARS = {Layout.PAGES: 40, Layout.HALVES: 20}
# The same for an event's text (an infraction, a trap penalty, a stack count): Queens & Guards'
# trap penalty, about 140 characters, is three on a page's card and five on a half page's (R995).
EVENT_CHARS = {Layout.PAGES: 50, Layout.HALVES: 35}


def _length(
    record: Mapping[str, Any], names: Mapping[str, str], heading: Heading, layout: Layout
) -> int:
    """The card's variable part in lines of a line's worth of text (about 40 characters, a
    cell of the normal challenge table): the names and heading beyond a line each, each
    challenge by its longest cell, each declared win by its line as printed (R989) and each
    event by its text. An estimate, calibrated against chromium's pages (R841)."""
    lines = sum(len(name) // 30 for name in names.values())
    lines += len(heading.event) // 50 + len(heading.division) // 25 + len(heading.monitor) // 40
    for challenge in record["challenges"]:
        who = "; ".join(_ruling(entry) for entry in challenge["rulings"])
        cells = (len(challenge["effect"]) / 40, len(who) / 24, len(challenge["rule_title"]) / 24)
        lines += 1 + int(max(cells))
    for declaration in record.get("declarations") or []:
        text = _declaration_text(declaration, record)
        lines += 1 + len(text) // DECLARATION_CHARS[layout]
    for event in record.get("events") or []:
        lines += 1 + len(str(event.get("text") or "")) // EVENT_CHARS[layout]
    return lines


def _declarations(record: Mapping[str, Any], *, dense: bool = False) -> list[str]:
    declarations: Sequence[Mapping[str, Any]] = record.get("declarations") or []
    if not declarations:
        return []
    items = [f"<li>{_e(_declaration_text(d, record))}</li>" for d in declarations]
    return ["<h2>Declared wins</h2>", '<ul class="twocol">' if dense else "<ul>", *items, "</ul>"]


def _declaration_text(declaration: Mapping[str, Any], record: Mapping[str, Any]) -> str:
    """A declared win's line as the card prints it (not yet escaped): the goal, who declared
    it in which turn, its one fate (R981), the challenge that decided it, what the record said."""
    d = declaration
    result = record.get("result")
    who = "the Monitor declared for" if d["by_monitor"] else "declared by"
    decided = f" (challenge {d['challenge']})" if d.get("challenge") else ""
    said = f" The record said: {d['record_says']}." if d.get("record_says") else ""
    goal = d["goal_title"][:1].upper() + d["goal_title"][1:]
    # the fate the result tells (R981): one per declaration, never beside another result
    fate = FATES.get(d["fate"], d["fate"])
    if d["fate"] == "withdrawn" and _on_the_goal(record, d.get("challenge")):
        fate = MONITOR_WITHDRAWN  # the fate the goal's C gives only the Monitor's win (R994)
    if d["fate"] == "set-aside" and result:
        fate += f" ({result['detail']})"
    return f"{goal}, {who} Player {d['player']} in turn {d['turn']}: {fate}{decided}.{said}"


def _on_the_goal(record: Mapping[str, Any], number: int | None) -> bool:
    """Challenge ``number`` was on a rule about the game's goal."""
    return any(c["number"] == number and c.get("goal_rule") for c in record.get("challenges") or [])


def _challenges(record: Mapping[str, Any], seat: str, *, dense: bool = False) -> list[str]:
    player = record["players"][seat]
    counts = player["challenges"]
    # the C, I and IA in force, as the hub records them (R988)
    void = counts.get("not_in_force", 0)
    beside = (
        f"; {void} not in force: ruled after the game had ended at a third I/IA" if void else ""
    )
    own = (
        f"<p><b>Player {seat}'s challenges:</b> {len(counts['made'])} (C {counts['C']}, "
        f"I {counts['I']}, IA {counts['IA']}{beside}); I/IA in force {player['i_ia']} of 3.</p>"
    )
    challenges = record["challenges"]
    parts = ["<h2>Challenges</h2>"]
    if not challenges:
        return [*parts, "<p>No challenges.</p>", own]
    if dense:
        return [*parts, *_challenge_list(challenges), own]
    parts += [
        '<table class="challenges">',
        '<colgroup><col class="n"><col class="by"><col class="rule"><col class="cia">'
        '<col class="who"><col></colgroup>',
        "<tr><th>#</th><th>By</th><th>Rule challenged</th><th>C/I/IA</th>"
        "<th>Who ruled</th><th>What it did</th></tr>",
    ]
    for challenge in challenges:
        rulings = "; ".join(_ruling(entry) for entry in challenge["rulings"]) or "not ruled"
        win = " (a declared win)" if challenge["of_declared_win"] else ""
        parts.append(
            f"<tr><td>{challenge['number']}</td><td>{_e(challenge['challenger'])}</td>"
            f"<td>{_e(challenge['rule_title'])}{win}</td>"
            f"<td>{_e(challenge['ruling'] or '-')}</td><td>{_e(rulings)}</td>"
            f"<td>{_e(challenge['effect'])}</td></tr>"
        )
    parts.append("</table>")
    return [*parts, own]


INITIALS = {"monitor": "GM", "game-leader": "GL", "tournament-director": "TD"}


def _challenge_list(challenges: Sequence[Mapping[str, Any]]) -> list[str]:
    """The challenges of a long card in two columns (R841): each rule's title once, then each
    challenge in a line or two, the officials by their initials."""
    titles = {c["rule"]: c["rule_title"] for c in challenges}
    legend = "; ".join(f"{_e(key)}: {_e(title)}" for key, title in titles.items())
    items = []
    for c in challenges:
        rulings = "; ".join(
            f"{e['ruling']} {INITIALS.get(e['by'], e['by'])}"
            + (f" ({e['asked_by']} asked)" if e.get("asked_by") else "")
            for e in c["rulings"]
        )
        win = " (a declared win)" if c["of_declared_win"] else ""
        items.append(
            f"<p><b>{c['number']}.</b> {_e(c['challenger'])} on {_e(c['rule'])}{win}: "
            f"<b>{_e(c['ruling'] or '-')}</b> ({_e(rulings or 'not ruled')}). "
            f"{_e(c['effect'])}</p>"
        )
    return [
        f"<p>Rules: {legend}. Who ruled: GM the Game Monitor, GL the Game Leader, TD the "
        "Tournament Director; the ruling in force in bold.</p>",
        '<div class="twocol">',
        *items,
        "</div>",
    ]


def _ruling(entry: Mapping[str, Any]) -> str:
    by = OFFICIALS.get(entry["by"], entry["by"])
    asked = f", asked by {entry['asked_by']}" if entry.get("asked_by") else ""
    return f"{entry['ruling']} by the {by}{asked}"


def _events(record: Mapping[str, Any], *, dense: bool = False) -> list[str]:
    events: Sequence[Mapping[str, Any]] = record.get("events") or []
    if not events:
        return ["<p><b>Infractions and other events:</b> none.</p>"]
    items = [
        f"<li>{'Turn ' + str(event['turn']) if event['turn'] else 'Before the first turn'}: "
        f"{_e(event['text'])}.</li>"
        for event in events
    ]
    listed = '<ul class="twocol">' if dense else "<ul>"
    return ["<h2>Infractions and other events</h2>", listed, *items, "</ul>"]


def _signatures(seat: str, name: str, monitor: str) -> list[str]:
    return [
        "<p>Pentathlete: verify the information on this card, then sign it. Your signature "
        "means the information and score were correctly recorded by the Monitor.</p>",
        '<div class="signatures">',
        f"<div>Player {seat}'s signature{': ' + _isolated(name) if name else ''}</div>",
        f"<div>Game Monitor's signature{': ' + _isolated(monitor) if monitor else ''}</div>",
        "</div>",
    ]
