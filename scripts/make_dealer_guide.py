"""Regenerate docs/dealer-guide.md and its OLED screenshots (a test checks both are current).

The table is driven through its real controller on MockFactory pins, and each screen is the
frame luma.emulator's ``capture`` device writes: what the dealer's OLED shows, pixel for pixel.
Run from the repository root: ``.venv/bin/python scripts/make_dealer_guide.py [OUTDIR]``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.oled import Oled, open_emulator
from firmware_py import families
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import Entry, VirtualTable

ROOT = Path(__file__).resolve().parents[1]
IMAGES = "dealer-guide"


@dataclass
class Guide:
    """Sections of screens: each a table of OLED frames and what the dealer (or monitor) does.
    ``settings`` makes a family's table settings from its options."""

    images: Path
    settings: Callable[..., TableSettings] = table_settings
    who: str = "the dealer"
    sections: list[str] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)
    table: VirtualTable | None = None
    t: float = 0.0

    def start(self, title: str, text: str, **settings: Any) -> None:
        self.flush()
        self.sections.append(f"## {title}\n\n{text}\n")
        self.new_table(**settings)

    def new_table(self, **settings: Any) -> None:
        """Another table for the section's next screens (another game, say)."""
        self.table = VirtualTable(self.settings(**settings), lambda event: None)
        self.t = 0.0

    def flush(self) -> None:
        if self.rows:
            header = f"| the OLED | {self.who} |\n|---|---|\n"
            self.sections.append(header + "\n".join(self.rows) + "\n")
            self.rows = []

    def _table(self) -> VirtualTable:
        assert self.table is not None
        return self.table

    def press(self, *buttons: str) -> None:
        for button in buttons:
            self.tap(f"console.{button}")

    def tap(self, name: str, hold: float = 0.1) -> None:
        table = self._table()
        self.t += 1.0
        table.controller.advance(self.t)
        table.drive(name, True, self.t)
        table.controller.advance(self.t + hold)
        table.drive(name, False, self.t + hold)

    def level(self, name: str, active: bool) -> None:
        self.t += 0.5
        self._table().controller.advance(self.t)
        self._table().drive(name, active, self.t)

    def enter(self, seat: str, name: str, value: str) -> None:
        """What a phone types on the table's web page (``seat``'s ``name``)."""
        self.t += 1.0
        self._table().enter(Entry(seat, name, value), self.t)

    def wait(self, seconds: float) -> None:
        self.t += seconds
        self._table().controller.advance(self.t)

    def shot(self, name: str, says: str) -> None:
        """Capture the OLED now, with what the dealer does on this screen."""
        path = self.images / f"{name}.png"
        device = open_emulator("capture", scale=2, file_template=str(path))
        Oled(device=device).show(self._table().controller.view().screen)
        self.rows.append(f"| ![{name}]({self.images.name}/{name}.png) | {says} |")


INTRO = """# The dealer's guide

The table walks the dealer through a Combo 4 match, a Combo 3 match or the championship with
six console buttons (the Level 3 differences are at the end):

| button | what it does |
|---|---|
| **COUNT** | "Are you GeoPlunging?": counts 1 to 5 on the OLED and the scoreboard; the stand-up sensors are read at 5 |
| **GO** | starts the match clock; "Ready, Set, GeoPlunge!" (opens the shout window); the end of a Chummy reading |
| **YES** | yes / right / valid; takes the choice shown |
| **NO** | no / wrong / not valid; in a choice, back one |
| **NEXT** | the next choice; the next game |
| **UNDO** | takes back the last decision (or stops a count) |

The OLED shows, top to bottom: the game and the match clock (or an inverse alert such as a
stuck buzzer), the big text (the count, a countdown, the choice shown), the question, the score
and what the buttons do now. Team LEDs: dim = standing, bright = GeoPlunging, fast blink = won
the shout, slow pulse = locked out. A disputed card question goes to the judge's CLI
(`gametable check ...`, see the README). Every screen below is a frame of the real OLED,
captured with luma.emulator while `scripts/make_dealer_guide.py` plays the buttons.
"""


def build(images: Path) -> str:
    images.mkdir(parents=True, exist_ok=True)
    g = Guide(images)

    g.start(
        "Starting the match",
        "Round 1 is an All match (games 1 to 5, repeating); round 2 a "
        "Call match, which first takes each team's two secret picks.",
        round=1,
    )
    g.shot("match-start", "Shuffle every deck. **GO** starts the 20-minute clock and Game 1.")
    g.start("Call match picks", "Each team tells the dealer its two games in secret.", round=2)
    g.shot("call-picks", "**NEXT** until Team A's pair shows, **YES**; then Team B's.")

    g.start("Game 1: Border-Up", "", round=1)
    g.press("go")
    g.shot("bu-plunge", 'Deal 21 cards each, face down. **COUNT**: "Are you GeoPlunging?"')
    g.level("A.stand", True)
    g.press("count")
    g.wait(1.5)
    g.shot("bu-count", "The count runs by itself; a team standing at 5 is GeoPlunging.")
    g.wait(4)
    g.level("A.stand", False)
    g.shot("bu-race", 'Say "Ready, Set, GeoPlunge!" and press **GO**: the shout window opens.')
    g.press("go")
    g.tap("B.shout")
    g.wait(1)
    g.shot(
        "bu-three-o",
        "B shouted first (its LED blinks; A's is locked out). **YES** if B "
        "shouted ThreeOPlunge, **NO** for GeoPlunge.",
    )
    g.press("no")
    g.shot(
        "bu-verdict", "Check B's groups: each state borders the next. **YES** valid, **NO** not."
    )
    g.press("yes")
    g.shot("bu-result", "The points are added. Shuffle as shown; **NEXT** starts the next game.")

    g.start("Game 2: State IQ", "", game=2)
    g.shot(
        "iq-draw",
        "Each team draws a card: **NEXT**/**YES** the team whose statehood is closer to 1.",
    )
    g.press("yes")
    g.press("count")
    g.wait(5)
    g.shot("iq-power", "Turn the top Power card: **NEXT** to its letter order, **YES**.")
    g.press("next", "next", "yes")
    g.shot(
        "iq-guess",
        "Turn a Clue card of the type shown; after the guess **YES** right, **NO** wrong.",
    )
    g.press("yes")
    g.shot("iq-deal", "A right guess: deal the other team its next card, as the OLED says.")

    g.start("Game 3: Dashing States", "", game=3)
    g.press("count")
    g.wait(5)
    g.shot("ds-race", 'Deal 7 Map cards each, face down. "Ready, Set, GeoPlunge!" and **GO**.')
    g.press("go")
    g.tap("A.shout")
    g.wait(1)
    g.shot(
        "ds-met",
        "**YES** if the team's 6 cards are in order, the 7th face down and each "
        "player named their 2 cards unaided; else **NO** (the other team wins the race).",
    )
    g.press("yes", "go")
    g.tap("B.shout")
    g.wait(1)
    g.press("yes")
    g.shot("ds-category", "Race 3: turn a Power card, **NEXT** to its category, **YES**.")

    g.start(
        "Game 4: Play the Ranks or Border Zap",
        "The lead for trick 1 is the Dashing States "
        "winner (All match) or the last game's winner (Call match); otherwise a draw.",
        game=4,
    )
    g.shot("g4-version", "Turn a Power card: **NEXT** to the version at its bottom, **YES**.")
    g.press("yes", "yes")
    g.shot(
        "g4-bases",
        "Turn Power cards until three left numbers differ; enter each: **NEXT**, **YES**.",
    )
    g.press("yes", "next", "yes", "next", "next", "yes")
    g.shot("g4-roles", "The lead team says Cards or Call (then Up the BUR if it comes).")
    g.press("yes", "next", "yes")
    g.shot(
        "g4-bur",
        "Deal the BUR cards face up to the Cards team, **YES**. Then each team: Pull the Power? **YES**/**NO**.",
    )
    g.press("yes", "no", "no", "count")
    g.wait(5)
    g.shot("g4-geostar", "Turn the next Power card: **NEXT** to its Star Area, **YES**.")
    g.press("yes")
    g.shot(
        "g4-power",
        "Each trick: which Power cards were played face up (only those still held are offered).",
    )
    g.press("yes")
    g.shot(
        "g4-trick",
        "**YES** if the lead wins the trick, **NO** if the other team does. "
        "A dispute: `gametable check trick ...`.",
    )

    g.start("Game 5: Chummy Challenge", "", game=5)
    g.press("count")
    g.wait(5)
    g.shot("ch-seated", "Each team seats a new GeoPlunger nearest you: **YES**.")
    g.press("yes")
    g.shot(
        "ch-colour",
        "Look at the Power card's circle(s): **NEXT** to the colour you will ask, **YES**.",
    )
    g.press("yes")
    g.shot(
        "ch-reading",
        "Read the question. A shout stops you at once. **GO** when you finish reading.",
    )
    g.press("go")
    g.wait(3.4)
    g.shot("ch-waiting", "15 seconds to shout, counting down; no shout: the challenge is a tie.")
    g.tap("A.shout")
    g.wait(1)
    g.shot(
        "ch-answer",
        "The first team answers: **YES** right, **NO** wrong (simultaneous shouts: both, secretly).",
    )

    g.start(
        "A stuck buzzer",
        "A buzzer held down when the window opens can never win; it is "
        "flagged until released, and the other team plays on.",
        game=1,
    )
    g.press("count")
    g.wait(5)
    g.level("B.shout", True)
    g.press("go")
    g.shot("stuck", "Free the buzzer; the alert clears when it is released.")

    g.start(
        "The end of the match",
        "When the clock runs out the game in progress is abandoned "
        "(configurable: `on_time_up`) and the match result shows.",
        round=1,
        minutes=1,
    )
    g.press("go")
    g.wait(70)
    g.shot("match-over", "Report the result; shuffle every deck. **GO**: the next round's match.")
    g.press("go")
    g.shot(
        "match-next",
        "The next round is shown before it starts: **GO** starts it (in the same journal), "
        "**UNDO** goes back. Its clock waits for its own **GO**. On the tournament hub it is "
        "the round the hub paired this table in, with the teams at A and B "
        '("Next: R3 All" / "Rivers v Borders", R190).',
    )

    _level3(g)
    _web_page(g)
    g.flush()
    return INTRO + "\n" + "\n".join(g.sections)


def _level3(g: Guide) -> None:
    """The Combo 3 format and the championship: only what differs from Level 4."""
    g.flush()
    g.sections.append(POWER_CUT)

    g.start(
        "Combo 3: a morning match",
        'With `format = "combo3"` (or `gametable sim --format combo3 --round N`) the table plays '
        "Level 3. Rounds 1-4 are the morning: all five games in order, 20 minutes.",
        format="combo3",
        round=1,
    )
    g.shot("l3-morning", "Shuffle every deck. **GO** starts the clock and Game 1.")
    g.start(
        "Combo 3: an afternoon match",
        "Rounds 5-8: a statehood draw, the draw winner picks a game, the other team another; "
        "the two alternate for 12 minutes. The clock starts only after the picks.",
        format="combo3",
        round=5,
    )
    g.shot("l3-draw", "Each team draws a card: **NEXT**/**YES** the team closer to statehood 1.")
    g.press("yes")
    g.shot("l3-pick", "The draw winner names its game: **NEXT** to it, **YES**.")
    g.press("next", "yes")
    g.shot("l3-pick-other", "The other team names a different game: **NEXT**, **YES**.")
    g.press("yes")
    g.shot("l3-afternoon", "**GO** starts the 12-minute clock and the first game picked.")

    g.start(
        "Level 3: State IQ",
        "Each team holds one card for the whole game: a right guess deals nothing and ends "
        "that team's turn (R63).",
        format="combo3",
        game=2,
    )
    g.press("yes", "count")
    g.wait(5)
    g.press("yes")
    g.shot("l3-iq-guess", "After each guess: **YES** right (the turn ends), **NO** wrong.")

    g.start(
        "Level 3: Play the Ranks",
        "Two Power cards set the bases, in order (equal numbers allowed); no Cards or Call, "
        "BUR, Pull the Power or GeoStar. The game ends once a team has won 6 tricks, as at "
        "Level 4 (R68; `ptr_early_end = false` plays all 8).",
        format="combo3",
        game=4,
    )
    g.press("yes", "yes")
    g.shot("l3-g4-power", "Turn a Power card: **NEXT** to its left number, **YES**; then the 2nd.")

    g.start(
        "Level 3: Chummy Challenge",
        "The question's colour is the Power card's square, red or blue (R73).",
        format="combo3",
        game=5,
    )
    g.press("count")
    g.wait(5)
    g.press("yes")
    g.shot("l3-chummy", "**NEXT** to the square's colour, **YES**; then read the question.")

    g.start(
        "The championship",
        'With `format = "championship"`: the Combo 3 final. Games won count, not points; no '
        "clock; the match ends once a team cannot be caught, and a tie goes to a Border-Up "
        "tie-breaker (R79, R154).",
        format="championship",
    )
    g.shot("champ-start", "Shuffle every deck. **GO** starts Game 1 (no clock).")


WEB_PAGE = """\
With `[web] enabled = true` in the table's config (`listen = "0.0.0.0"` to reach it from the
tournament's Wi-Fi; [web.md](web.md) has the security notes), the table serves its own page at
`http://<the Pi's address>:8080/`. Anyone who opens it sees the OLED, the scores, the clock and
the lights, live, and needs nothing. A player who wants to type asks for a seat: the **join
code** shows in the OLED's footer (`JOIN K7Q2XM`) for 3 seconds of every 8 and is new for every
match, but it only *asks*. **You give the seat**: the OLED's footer shows `COUNT: seat B 4821`;
ask the player for the number on their phone and, if it is the same, press **COUNT**. A seat
that already has a phone shows `COUNT:replace B 4821` instead: press only if the seat's player
is the one asking (their phone died, they changed phones); the old phone is told (the Game
Monitor's place: `COUNT:replace GM 4821`). A press confirms the number on show once it has
been there a second, or, pressed while the join code has taken its place, the number just
read; with several phones asking the OLED shows each in turn. A press that gives nothing (too
soon after a number appeared) shows `COUNT: nothing given` for 2 seconds: press again while
the number shows, a second after it is back (a press while the notice shows gives nothing:
R942, R943). On GeoPlunge's count steps COUNT counts: confirm on the next step
([web.md](web.md#taking-a-seat-the-dealers-count)).

What a phone takes, and what you do with it:

| family | the phone | you |
|---|---|---|
| Guesstimation | each player's guess, hidden until all are in | nothing: the reveal comes by itself; **YES** reads the answer, or without a deck you enter the card's answer on the console |
| GeoPlunge, Border-Up | the shouting team's groups, checked by the rules | **YES** agrees with the rules, **NO** overrules and asks why (R478) |
| GeoPlunge, State IQ | the guessing team's state, read by the rules | **YES** right, **NO** wrong, as always; a state the game rules out asks you to agree or overrule (R480) |
| GeoPlunge, Dashing States | a shouting team's 6 cards in the order laid down, checked by the rules | in order: **YES** if the unused card is down and nobody was helped; out of order: agree or overrule (R483) |
| Mathematics Pentathlon | the Game Monitor's numbers (points, stacks) for the move picked on the console | pick the move; the phone types its numbers (R482) |

Every button still works: the console's entry stays for a table without phones, and UNDO takes
back a typed entry as it takes back a button. A phone's mistake (an unknown state, a word where
a number goes) is answered on that phone in one line and changes nothing at the table.
"""

POWER_CUT = """## A power cut

Every decision is in the table's journal before the OLED shows it, so a plug pulled loses
nothing, even with the hub down (FINDINGS-i25-dealer-walk.md walks it).

- **The match goes on**: power the table again. It starts by itself and shows the match where
  it was; a timer that ran out while it was off waits for your **GO**.
- **The director starts the next match instead**: the table is started once with
  `gametable run --new-journal`. It keeps the old journal whole beside the new one
  (`<journal>.old-<time>`) and says `event=journal_carried decisions=N lost=0`: the N decisions
  the hub had not confirmed go on to it from the new journal, later if the hub is down now.
  Move, rename or delete no file of the journal's.
- Anything else the table says as it starts: [durability.md](durability.md), "Every way back".
"""

PHONES = """\
What the phones show (390 pixels wide; `scripts/make_web_screenshots.py` takes them with
chromium):

| a guess (Guesstimation) | Border-Up groups | a State IQ state | the Game Monitor's points |
|---|---|---|---|
| ![a guess](web/guessing.png) | ![Border-Up groups](web/border-up.png) | ![a State IQ state](web/state-iq.png) | ![the monitor's points](web/pentathlon.png) |

On a laptop (a spectator, after the reveal):

![the page on a laptop](web/laptop.png)
"""


def _web_page(g: Guide) -> None:
    g.start("The table's web page", WEB_PAGE, game=1)
    g.press("count")
    g.wait(6)
    g.press("go")
    g.tap("A.shout")
    g.wait(1)
    g.press("no")
    g.enter("A", "groups", "KS,MO,KY,WV,PA / MD,VA,NC")
    g.shot("web-bu-checked", "Team A typed its groups: **YES** agrees, **NO** overrules.")
    g.new_table(game=2)
    g.press("next", "yes", "count")
    g.wait(6)
    g.press("yes")
    g.enter("B", "state", "Texas")
    g.shot("web-iq-named", "Team B typed Texas: **YES** if the card is Texas, **NO** if not.")
    g.press("no")
    g.enter("B", "state", "TX")
    g.shot(
        "web-iq-ruled-out", "Texas again: the rules say wrong. **YES** agrees, **NO** overrules."
    )
    g.flush()
    g.sections.append(PHONES)


if __name__ == "__main__":
    families.install()
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    (out / "dealer-guide.md").write_text(build(out / IMAGES), encoding="utf-8")
    print(f"wrote {out / 'dealer-guide.md'}")
