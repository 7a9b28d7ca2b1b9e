"""Regenerate docs/scripts.md from docs/scripts/*.jsonl (a test checks it is up to date).

Run from the repository root: ``.venv/bin/python scripts/make_scripts_doc.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_py import families
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import run_script

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs/scripts.md"

INTRO = """# Timed input scripts: the table on virtual time

`gametable sim --headless --script FILE.jsonl` plays a script of input changes on virtual time
(no real waiting: a 20-minute match runs in about a second) and prints every decision the
table makes as JSON Lines. The inputs go through gpiozero's MockFactory pins with the script's
times as their edge times, so a script exercises the real input path: leading-edge debounce,
the arbiter ordering shouts by edge time, the 5-count, the timers and the match flow.

## Script lines

| line | meaning |
|---|---|
| `{"setup": {"game": 5}}` | optional, first: play one game (1-5) on its own; or `{"round": 2}` for a Call match; `{"format": "combo3", "round": 5}` for a Combo 3 afternoon match, `{"format": "championship"}` for the Combo 3 championship (with `"game"`: that game at Level 3); also `"minutes"`, `"on_time_up"`. `{"family": "pentathlon", "game": "contig-60"}`: a Mathematics Pentathlon table and the family's options (`"minutes": {"contig-60": 5}`, `"chips"`, `"partitions"`, `"turn_seconds"`, `"capture_seconds"`: [pentathlon.md](pentathlon.md#the-monitors-table)) |
| `{"t": 12.5, "press": "A.shout"}` | at 12.5 s the input becomes active (a buzzer pressed, a team stands up) |
| `{"t": 12.9, "release": "A.shout"}` | the input becomes inactive (released, sits down) |
| `{"t": 30}` | let time run on to 30 s (timers fire on the way) |
| `{"setup": {"family": "guesstimation", "seats": ["A", "B", "C"], "players": ["Ann", "Bo", "Cy"], "deck": "sample", "seed": 2026}}` | another game family with its own options ([guesstimation.md](guesstimation.md#at-the-table)); `seats` for a family played by more than two (A, B, ... in order) |
| `{"setup": {"family": "states", "players": ["Ann", "Bo"], "deck": "docs/states/example-deck.toml"}}` | a STATES table in table mode and its options (`teams`, `scoring`, `knocking`, `connect`, `target`, `deck`: [states.md](states.md#at-the-table)) |
| `{"t": 20, "entry": {"seat": "C", "name": "guess", "value": "1972"}}` | what the player at seat C types on the table's web page ([web.md](web.md)): it goes where a button press goes |

Inputs: `A.stand`, `A.shout`, `B.stand`, `B.shout` (and `C.` to `F.` when the config has more
seats), `console.count`, `console.go`, `console.yes`, `console.no`, `console.undo`,
`console.next`. Times never go backwards; a bad line is one error line naming the line and
what was expected (exit 2).

## Output lines

Every line has `"t"` (virtual seconds) and `"event"`. The decisions:

| event | fields |
|---|---|
| `plunge` | `plunging`: the teams standing when the count reached 5 |
| `shout` | `first`, `margin_ms` (how far the first press was ahead of the second; `null` when alone), `result`: the team, or `"tie"` inside the tie window (15 ms) |
| `stuck` / `released` | `input`: a buzzer held when the shout window opened; it can never win until released |
| `timeout` | `timer`: `"chummy"` (15 s after the reading) or `"match"` (the match clock); the Pentathlon: `"turn"` (the one-minute turn), `"capture"` (Fab-a-Diffy's 10 s), `"match"` (the game's time limit) |
| `game_result` | `game`, `level` (4 or 3), `title`, `winner` (`null`: a tie), `bonus`, `abandoned`, `plunging`, `points` (`null` in the championship, which counts games won; it adds `tiebreaker`), `reason` |
| `score` | `A`, `B`: the match score after a game (STATES: after a hand, each seat its side's) |
| `match_result` | `winner` (`null`: a tie), `A`, `B` |
| `wins` | the championship: `A`, `B`, the championship games each team has won (instead of `score`) |
| `match_result` (championship) | `champion`, `wins`, `not_played`: the games the early end left out |
| `session` | `number` (2, 3, ...) and the start action: the next round's match, started from the console in the same journal |
| `reminder` | the Pentathlon: `player`, whose minute is up |
| `ruling` | the Pentathlon: `challenge`, `challenger`, `rule`, `ruling` (`C`, `I`, `IA`), `by` (`monitor`, `game-leader`, `tournament-director`), `effect` |
| `warning` | the Pentathlon: `player`, `i_ia` (1 or 2), `warning` |
| `game_result` (Pentathlon) | `winner` (`null`: a tie), `how`, `detail`: the game has ended, the monitor confirms |
| `game_over` | the Pentathlon: the result the monitor confirmed (`winner`, `how`, `detail`) |
| `round_result` | Guesstimation: `round`, `final`, `answer`, `winners`, `exact`, `moves`, `positions`, `chip` |
| `claim` | STATES: `player`, `states` (empty when the dealer judged), `connects`, `judged_by` (`rules`, `overruled`, `dealer`), `reason` |
| `knock` | STATES: `player` knocked: the last round begins |
| `hand_result` | STATES: `hand`, `how` (`connect` or `knock`), `winners`, `points` and `bonus` per side |
| `game_result` (STATES) | `winner` (a player or a team), `scores` |
| `entry_refused` | an entry the table did not take: `seat`, `name`, `reason` (the rules' own words). The page's answer, not a decision: never journaled |

And what led to them: `count` (`n` 1-5), `window` (a shout window opened), `press` (a counted
shout with its edge `ticks`), `prompt` (what the OLED asks the dealer now), `option` (NEXT or
NO moved a choice to the option `shown`), `number` (NEXT or NO changed a number entry to
`value`), `action` (the rules action the table applied, in the replay log's vocabulary:
[actions.md](actions.md)), `session` (the next match began), `clock` (started; a time out
`paused` it or it `resumed`, with the seconds `left`), `undo`, `refused`.

Each script below is in `docs/scripts/` and is played by `tests/test_scripts.py`, which checks
the decisions shown here; this page is generated by `scripts/make_scripts_doc.py`.
"""

SECTIONS = [
    ("plunge", "A plunge declaration",
     "Team A stands and stays up; Team B stands but sits down before the dealer reaches 5. The "
     "sensors are read at count 5 (2.0 s + 4 x 1.0 s); the decision waits the settle time (6 ms) for late "
     "callbacks.", ("plunge",)),
    ("shout-won-by-ms", "A shout won by a few milliseconds",
     "B's buzzer edge is 18 ms ahead of A's: outside the 15 ms tie window, so B wins the shout; "
     "the margin is shown and logged. A's LED shows locked out, B's won.", ("shout",)),
    ("simultaneous-shouts", "Simultaneous shouts",
     "4.2 ms apart: inside the tie window, a tie (in Border-Up both teams then show their "
     "groups).", ("shout",)),
    ("chummy-no-shout", "A Chummy question with no shout within 15 s",
     "Game 5 on its own: the count, YES for the GeoPlungers, YES for the question colour (the "
     "reading starts and the shout window opens), GO when the reading is done. Nobody shouts: "
     "at GO + 15 s the challenge is a tie.", ("plunge", "timeout")),
    ("stuck-buzzer", "A buzzer held since before the shout window opened",
     "B's buzzer is jammed down before the dealer's GO. When the window opens it is flagged "
     "stuck (on the OLED too) and ignored; A's later press wins.", ("stuck", "shout")),
    ("combo4-match", "A whole Combo 4 match",
     "Round 1, an All match: GO starts the 20-minute clock and Game 1. Border-Up (A plunges, "
     "wins the shout alone, valid groups: 20), State IQ (A 2 right, B cannot catch up: 10), "
     "Dashing States (B plunges and wins the first two races: 30), Game 4 as Border Zap (B "
     "leads and wins the first 5 tricks: 20), Chummy Challenge (A, a timeout tie, A: 10), then "
     "Border-Up again until the clock runs out: the unfinished game is abandoned (rulings R9) "
     "and B wins 50-40.", ("plunge", "shout", "timeout", "game_result", "match_result")),
    ("combo3-match", "A whole Combo 3 match, and the next round's from the console",
     "Round 4, a morning match (Level 3, 20 minutes): Border-Up (A plunges, valid groups of 3: "
     "20), State IQ with one card each (B names A's state on guess 2, A names B's on guess 1: "
     "fewer guesses with the bonus, 20), Dashing States (B plunges and wins races 1 and 3, race "
     "3 sorted by state name like race 1: 20), Play the Ranks 2 with two Power cards turned, "
     "both 30 (B leads, plays its Power cards on tricks 1-2, A on tricks 3-4, B wins 6 tricks "
     "and the game ends (R68): 20), Chummy Challenge asked by the blue and red squares (A, a timeout tie, A: 10), then "
     "Border-Up again until the clock runs out: A wins 50-40. At \"Match over\" GO shows the "
     "next round, UNDO goes back, GO twice starts round 5 in the same journal (rulings R150); "
     "UNDO there takes nothing back. The afternoon draw (B), B picks game 3, A game 5, GO "
     "starts the 12 minutes; A wins Dashing States with the bonus and plunging (30); the clock "
     "runs out during Chummy Challenge: A wins round 5 30-0.",
     ("game_result", "match_result", "session", "clock")),
    ("championship", "The Combo 3 championship, decided by a tie-breaker",
     "Games won count, not points, and there is no clock (R81, R154). A wins Border-Up, B State "
     "IQ (A misses three times, B names A's state at once), A Dashing States, B Border Zap (B "
     "zaps trick 1 and takes the first five): 2-2. The Border-Up tie-breaker is itself a tie "
     "(shouts 4 ms apart, both showings valid), so Border-Up is played again (R80): B wins it "
     "and is champion; nothing comes next.",
     ("game_result", "wins", "match_result")),
    ("pentathlon-contig60", "A Mathematics Pentathlon game: Contig 60 with a 5-minute limit",
     "The monitor's table (pentathlon.md). A begins (the lower die toss) and places a chip "
     "scoring 12, B one scoring 9. At A's turn A challenges B's scoring with the challenge "
     "input: a time out, the clock stands still. The monitor rules I (A is warned: 1 I/IA); A "
     "asks the Game Leader, who rules C: B's turn is restored and A subtracts 2, and A begins a "
     "turn afresh once the monitor lets play go on. A's minute runs out: the monitor lets the "
     "turn finish (a chip scoring 5); B's minute runs out and the monitor forfeits it. Chips "
     "for both, then turns without chips until time is called on A's turn, A not having "
     "played: the game ends at once (R231) and A, 25 lower, wins; the monitor confirms.",
     ("clock", "ruling", "warning", "reminder", "game_result", "game_over")),
    ("guesstimation-two-rounds", "Guesstimation: two rounds, guesses from phones and the console",
     "Three players, the sample deck, the table's dice seeded (2026). Each player presses their "
     "buzzer to roll for the lead: Bo's 4 is highest. Bo's buzzer rolls question 1, YES reads it "
     "(Apollo 11's year); the guesses come from the players' phones in any order, hidden until "
     "all are in: Bo's \"1,969\" is refused with the rules' own words and nothing changes, his "
     "1969 is exact (+3). In round 2 Cy leads; Cy's phone guess is in, a second one is refused; "
     "Ann has no phone, so the dealer enters her 3 on the console (NEXT three times, YES); Cy's "
     "2.54 is exact (+3).",
     ("action", "entry_refused", "round_result", "score")),
    ("states-connect-and-knock", "STATES: a claim typed on the page, the rulebook's knock",
     "Ann and Bo, the example deck (docs/states/example-deck.toml), table mode: the cards are "
     "real and dealt by hand. YES: Ann, the youngest, plays first. Ann shouts \"STATES!\" and "
     "types UT, CO, KS, TX on her phone: the rules core says they do not connect, the dealer "
     "agrees (YES), nothing is scored and play goes on. Ann shouts again and types the "
     "rulebook's Utah, Colorado, Kansas, Oklahoma: they connect, the dealer agrees; she has AK "
     "in front of her (NEXT, YES), nobody has HI (YES): 4 + 1. Bo, with the lowest score, plays "
     "first in hand 2 and knocks with his knock input; DE, OR, CO is refused (not one colour), "
     "DE, OR, NM and a water card is the rulebook's blue 19. GO: Ann's last turn is over and "
     "nobody connected; Ann types her cards, her best colour is lower, Bo wins 3.",
     ("action", "entry_refused", "claim", "knock", "hand_result", "score")),
]  # fmt: skip


def render() -> str:
    parts = [INTRO]
    for name, title, text, kinds in SECTIONS:
        script = (ROOT / f"docs/scripts/{name}.jsonl").read_text(encoding="utf-8").strip()
        events: list[dict[str, Any]] = []
        run_script(script.splitlines(), TableSettings(), events.append)
        shown = "\n".join(json.dumps(e) for e in events if e["event"] in kinds)
        parts.append(
            f"## {title}\n\n{text}\n\n`docs/scripts/{name}.jsonl`:\n\n```jsonl\n{script}\n```\n\n"
            f"Decisions:\n\n```jsonl\n{shown}\n```\n"
        )
    return "\n".join(parts)


if __name__ == "__main__":
    families.install()
    DOC.write_text(render(), encoding="utf-8")
    print(f"wrote {DOC}")
