"""The printable score card of one Pentathlon game: an HTML page ready to print (A4 or Letter,
one page), made from the game's record (``rules.pentathlon.record.record``).

"The Score Card is THE ONLY Official Record of a Pentathlete's score": per player the result
and how it was decided, the final score, the challenges made (C / I / IA, the rules) and the
opinions asked, with a line for each player's signature (R261). The page is one file with no
external assets (its style inline, no script, no image); every text from the record or the
command line is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

PLAYERS = ("A", "B")
HOW = {
    "goal": "the game's goal",
    "award": "the Monitor's award",
    "time-limit": "time-limit adjudication",
    "three-i-ia": "three I/IA",
    "challenged-win": "a Correct challenge of a declared win",
    "agreement": "agreement (no legal move)",
}
OFFICIALS = {
    "monitor": "Game Monitor",
    "game-leader": "Game Leader",
    "tournament-director": "Tournament Director",
}
RESULTS = {"win": "WIN", "tie": "TIE", "loss": "LOSS"}

STYLE = """
@page { size: auto; margin: 14mm; }
* { box-sizing: border-box; }
body { font: 10.5pt/1.35 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0 auto;
  max-width: 182mm; padding: 6mm; background: #fff; }
h1 { font-size: 16pt; margin: 0 0 1mm; }
.sub { margin: 0 0 4mm; color: #333; }
.draft { border: 2px solid #000; padding: 2mm 3mm; margin: 0 0 4mm; font-weight: bold; }
table { border-collapse: collapse; width: 100%; margin: 0 0 4mm; }
th, td { border: 1px solid #000; padding: 1.2mm 2mm; text-align: left; vertical-align: top; }
th { background: #e6e6e6; }
.players td.result { font-size: 13pt; font-weight: bold; }
h2 { font-size: 11.5pt; margin: 4mm 0 1.5mm; }
.none { margin: 0 0 4mm; }
.signatures { display: flex; gap: 8mm; margin-top: 10mm; }
.signatures div { flex: 1; border-top: 1px solid #000; padding-top: 1mm; font-size: 9pt; }
.foot { margin-top: 5mm; font-size: 8pt; color: #333; }
@media print { body { padding: 0; max-width: none; } th { background: #e6e6e6 !important;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""


def card_html(
    record: Mapping[str, Any], *, names: Mapping[str, str] | None = None, source: str = ""
) -> str:
    """The score card of the game ``record`` describes; ``names`` are the Pentathletes' names
    (blank lines to write them on where not given), ``source`` where the record came from."""
    names = names or {}
    result = record.get("result")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>Score card: {_e(record['title'])}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{_e(record['title'])}: Score Card</h1>",
        f'<p class="sub">Mathematics Pentathlon. {_e(_game_line(record))}</p>',
    ]
    if result is None or not result.get("confirmed"):
        parts.append(
            '<p class="draft">Not the official record yet: the game has not ended, or the '
            "Monitor has not confirmed its result.</p>"
        )
    parts += _players_table(record, names)
    parts += _challenges(record)
    parts += _signatures(names)
    if source:
        parts.append(f'<p class="foot">From {_e(source)}.</p>')
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def finished_card(record: Mapping[str, Any]) -> str | None:
    """The card of a game whose result the monitor has confirmed; None before (R263)."""
    result = record.get("result")
    if result is None or not result.get("confirmed"):
        return None
    return card_html(record, source="the table")


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _game_line(record: Mapping[str, Any]) -> str:
    words = [f"Time limit {record['minutes']} minutes."]
    if record.get("beginner"):
        words.append(f"Player {record['beginner']} began.")
    result = record.get("result")
    if result is not None:
        words.append(f"Result: {result['detail']}.")
    return " ".join(words)


def _players_table(record: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    scores = record.get("scores") or {}
    rows = [
        '<table class="players">',
        "<tr><th>Player</th><th>Name</th><th>Result</th><th>How</th><th>Final score</th>"
        "<th>Challenges made</th><th>I/IA</th><th>Turns forfeited / lost</th></tr>",
    ]
    for seat in PLAYERS:
        player = record["players"][seat]
        counts = player["challenges"]
        made = f"{len(counts['made'])} (C {counts['C']}, I {counts['I']}, IA {counts['IA']})"
        result = RESULTS.get(player["result"] or "", "not decided")
        how = HOW.get(player["how"] or "", "")
        turns = f"{player['forfeited_turns']} / {player['lost_turns']}"
        rows.append(
            f"<tr><td>{seat}</td><td>{_e(names.get(seat, ''))}</td>"
            f'<td class="result">{result}</td><td>{_e(how)}</td>'
            f"<td>{_e(_score(scores, seat))}</td><td>{made}</td>"
            f"<td>{player['i_ia']}</td><td>{turns}</td></tr>"
        )
    rows.append("</table>")
    return rows


def _score(scores: Mapping[str, Any], seat: str) -> str:
    """A player's final score in the game's own terms."""
    if "running_score" in scores:
        text = f"running score {scores['running_score'][seat]}"
        if "chips_left" in scores:
            text += f", {scores['chips_left'][seat]} chips left"
        return text
    if "games" in scores:  # Fab-a-Diffy: best two of three
        games: Sequence[str] = scores["games"]
        won = sum(winner == seat for winner in games)
        tied = sum(winner == "tie" for winner in games)
        return f"games won {won}, tied {tied} (of {len(games)})"
    if scores.get("empty_spaces"):
        return f"{scores['empty_spaces'][seat]} empty spaces"
    return "no score kept"


def _challenges(record: Mapping[str, Any]) -> list[str]:
    challenges = record["challenges"]
    parts = ["<h2>Challenge record</h2>"]
    if not challenges:
        return [*parts, '<p class="none">No challenges.</p>']
    parts += [
        "<table>",
        "<tr><th>#</th><th>By</th><th>Rule challenged</th><th>Ruling</th>"
        "<th>Who ruled (opinions)</th><th>What it did</th></tr>",
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
    return parts


def _ruling(entry: Mapping[str, Any]) -> str:
    by = OFFICIALS.get(entry["by"], entry["by"])
    asked = f", asked by {entry['asked_by']}" if entry.get("asked_by") else ""
    return f"{entry['ruling']} by the {by}{asked}"


def _signatures(names: Mapping[str, str]) -> list[str]:
    lines = [
        f"<div>Player {seat} signature{_e(': ' + names[seat]) if names.get(seat) else ''}</div>"
        for seat in PLAYERS
    ]
    return [
        "<p>Pentathletes: verify the information on this card, then sign it. Your signature "
        "means the information and score were correctly recorded by the Monitor.</p>",
        '<div class="signatures">',
        *lines,
        "<div>Game Monitor</div>",
        "</div>",
    ]
