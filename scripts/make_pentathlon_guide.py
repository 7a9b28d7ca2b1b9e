"""Regenerate docs/pentathlon-guide.md and its OLED screenshots (a test checks both are current):
the Mathematics Pentathlon monitor's screens, each a frame of the real OLED.

The table is driven through its real controller on MockFactory pins, and each screen is the
frame luma.emulator's ``capture`` device writes. Run from the repository root:
``.venv/bin/python scripts/make_pentathlon_guide.py [OUTDIR]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # the dealer's guide's screen-by-screen writer, beside this

from make_dealer_guide import Guide  # noqa: E402

from firmware_py import families  # noqa: E402
from firmware_py.families.pentathlon.options import table_settings  # noqa: E402

ROOT = HERE.parent
IMAGES = "pentathlon-guide"
A_BEGINS = ("yes", "next", "yes")  # A tossed 1, B 2: A begins

INTRO = """# The Pentathlon monitor's guide

The Game Monitor runs one Mathematics Pentathlon game at a time with the six console buttons;
each player has a flag button (pressing it passes the flag card) and a challenge input. What
every screen means and what every button does there:
[pentathlon.md](pentathlon.md#the-monitors-table). Every screen below is a frame of the real
OLED, captured with luma.emulator while `scripts/make_pentathlon_guide.py` plays the buttons.

## Your phone as the monitor's

With the table's web page on, you may type a move's numbers on your phone (R482). On the page,
pick `Game Monitor` and type the join code from the OLED; then, when the OLED's footer shows
`COUNT: monitor` and the same number as your phone, press **COUNT** on the console: only that
press makes the phone yours (R494-R497). COUNT does nothing else on any Pentathlon screen.
"""

CARD = """
## The score cards

"The Score Card is THE ONLY Official Record of a Pentathlete's score ... Pentathletes are to
verify the information on their score card and sign their own score card": once the monitor has
confirmed the result, the table's web page links to the game's cards (`/card`), and
`gametable pentathlon card` makes them from the table's journal or a game's log (R261-R263,
R788). There is one card per Pentathlete: the event, date, division, round, table and game, both
players, the start, the result and how it was decided, the final scores, every declared win and
its fate, every challenge with who ruled, the player's C / I / IA, the infractions and other
events, and lines for the player's and the Game Monitor's signatures.

On the hub, the table's card names the players: the hub sends each table its seat in the
latest Pentathlon round (the game, both players' names and division, the round, the table and
the event's name, from `tournament pentathlon seat` and `tournament pentathlon new --name`),
and the card prints the seat the table held when you confirmed the result, if it is this
game's (R795); a round seated later never renames it, and a restarted table prints the same
card. A table without the hub prints blank lines to write on, or the names you give
`gametable pentathlon card --names` (below).

The table dates the card with the day you confirmed the result, in the table's own time zone,
from its journal: the card printed again later, or after a restart, shows the same date. If the
table's clock was not set when you confirmed (it said a year before 2024: a Pi that has not
reached a time server), the date is a line to write on. Your name is on the monitor's signature
line when the table's config names you (`[pentathlon] monitor = "Mo Reyes"`); otherwise the line
is unnamed (R819). Here the card as a table seated by the hub serves it (A4):

![Ann Lee's card as the table serves it, A4](pentathlon-guide/card/card-table-a4-1.png)

`gametable pentathlon card` dates a journal's card as the table does, by the confirmation's
journal entry (`--date` overrides it, for a table whose clock was wrong; a game's log keeps no
time, R842). What it is not told is a blank line to write on; with `--db` the names and
division are the tournament record's seat. Each card prints on a page of its own (A4 and
Letter, as chromium prints them):

![Ann Lee's card, A4](pentathlon-guide/card/card-pages-a4-1.png)
![Ben Cho's card, A4](pentathlon-guide/card/card-pages-a4-2.png)

or both on one page, to cut in two (`--layout halves`; here on Letter):

![Both cards on one Letter page](pentathlon-guide/card/card-halves-letter-1.png)

However long the game, each card stays on its page (R841): a long name, event or division with
no space in it breaks at the cell's edge, and a card with many challenges is set smaller (7.2
pt), then, past about ten challenges of this game's length, in two columns with each rule's
title once and the officials by their initials (GM, GL, TD), at 6 pt and at the last 5.2 pt.
Every challenge is still on the card. Here 60 challenges, each ruled by all three officials,
with names of 60 letters (A4, first card; Letter alike):

![A card of 60 challenges on one A4 page](pentathlon-guide/card/card-long-a4-1.png)

`--layout halves` for cards too long for half a page each prints them a page each.

```console
$ gametable pentathlon card /var/lib/gametable/journal.db --db tournament.db --round 2 \\
    --table 7 --event "Spring Open" --date 2026-04-18 --monitor "Mo Reyes" -o cards.html
wrote cards.html
```

## A journal from before issue 20

A table whose journal was written by the gametable before issue 20 (its settings name no
`flow`) carries on with that game as it was played: the earlier screens (the start as "who
begins", a win offered only where the record allows it, Stars & Bars' "4 CPA stacks removed?"
asked at every stack entry) and the rulings as they were then (an I on Juggle's waiting
declaration costs the next turn and the game goes on; no "so the game ends" or "declared win
stands" in the rulings' texts; Stars & Bars' stacks and cards out not bounded by the board).
The log says so once at the start (`event=journal_older ... replayed_with=flow-1-and-the-
rulings-before-issue-20(R786,R796)`). The games that follow in the same journal are played
alike; `gametable run --new-journal` begins a journal of today's flow, 4 (R786, R796).

A journal of flow 2 (written by issue 20's gametable before R746-R749) carries on alike with
flow 2's menus and rulings: "Stack points" offered from the first turn, "Deck out" whenever no
strip is shown, no Director's result, and Stars & Bars playing on over 140 without 15 ahead.
The log line says `replayed_with=flow-2-and-the-rulings-before-R746-R749(R796)`.

A journal of flow 3 (before R840-R843) carries on with flow 3's screens: **NEXT** does nothing on
the result or on Juggle's count (no Director's decisions there), and a Correct restore of a
player who has had no turn yet says "restored to before B's turn" as it did. The log line says
`replayed_with=flow-3-and-the-rulings-before-R840-R843(R796)`.
"""


def build(images: Path) -> str:
    images.mkdir(parents=True, exist_ok=True)
    g = Guide(images, settings=table_settings, who="the monitor")

    g.start(
        "The game and who begins",
        "Unless the table is set for one game, the monitor chooses it first.",
    )
    g.shot("p-game", "**NEXT** to the game, **YES**.")
    g.press("yes")
    g.shot(
        "p-begins",
        "The start as the game makes it (R788). Contig 60 and Juggle: A's die toss (**NEXT** +1, "
        "**NO** -1, **YES**), then B's. Equal tosses are recorded and tossed again; the lower "
        "toss begins, and with it the first turn and the game's clock.",
    )
    g.start(
        "The other starts",
        "Fab-a-Diffy: each player's strip, from the deck's strips (**NEXT** through them, "
        "**YES**); the lower strip begins, equal strips are drawn again.",
        game="fab-a-diffy",
    )
    g.shot("p-strip", "**NEXT** to the strip A drew, **YES**; then B's.")
    g.start(
        "Queens & Guards' chip in hand",
        "The monitor hides a chip of each colour, one in each hand; one player names the "
        "starting colour, the other picks a hand.",
        game="queens-guards",
    )
    g.press("yes")
    g.shot(
        "p-colour",
        "After who named the colour: **YES** if the other player's hand held the starting "
        "colour (that player begins), **NO** if not. Stars & Bars asks who drew first, then on "
        "which draw the first card with stars came.",
    )

    g.start(
        "A turn",
        "The player with the flag card is on turn; the minute counts down.",
        game="contig-60",
    )
    g.press(*A_BEGINS)
    g.wait(17)
    g.shot(
        "p-turn",
        "The holder's flag button (or **GO**) passes the flag. **YES**: the "
        "menu; **NO**: a challenge; a player's challenge input opens one for them.",
    )
    g.press("yes")
    g.shot(
        "p-menu", "**NEXT** to what the player did, **YES** to record it; **UNDO** closes the menu."
    )
    g.press("yes", "next", "next", "next", "next", "next", "next", "next")
    g.shot("p-points", "A chip's points: **NEXT** +1, **NO** -1 (hold to run), **YES**.")
    g.tap("A.shout")
    g.shot(
        "p-flag-after",
        "The holder pressed the flag button during the entry: the top row says so, and the "
        "flag passes once the chip is recorded (**UNDO** backs out of both; R260).",
    )

    g.start(
        "Announcing the running score, and the events beside the moves",
        "Once the holder's running score has changed, the turn's screen says what to announce "
        "before the flag passes (R792).",
        game="contig-60",
    )
    g.press(*A_BEGINS, "yes", "yes", "next", "next", "next", "next", "next", "next", "yes")
    g.shot("p-announce", "A scored 6: A announces the new running score, 54.")
    g.press("yes", "next", "next", "next", "yes")
    g.shot(
        "p-infraction",
        "The menu's `Infraction: A` (or B): the Tournament Director's decision, 0 points "
        "(**YES**/**NO**), then whether the player must leave the site (R789). The result "
        "the table reports carries it: with the hub, that player's game scores 0 in the "
        "standings (R794). Queens & Guards' menu has `Trap penalty` (R790), Stars & Bars' "
        "`Count: A asked` (R791).",
    )
    _director(g)

    g.start(
        "The one-minute turn",
        "At 60 seconds the table reminds the player.",
        game="contig-60",
    )
    g.press(*A_BEGINS)
    g.wait(61)
    g.shot(
        "p-late",
        "The minute is up: the OLED, the holder's LED (blinking) and the "
        "scoreboard remind. **YES** forfeits the turn, **NO** lets it finish.",
    )

    g.start(
        "The capture window",
        "Fab-a-Diffy counts the 10 seconds for a capture first.",
        game="fab-a-diffy",
    )
    g.press("yes", "next", "yes")  # A drew 1/2, B 2/2: A begins
    g.wait(3)
    g.shot("p-capture", "As a turn; when the 10 seconds are out, the minute shows.")

    g.start(
        "A challenge",
        "A player announces a challenge and presses the challenge input.",
        game="contig-60",
    )
    g.press(*A_BEGINS)
    g.tap("B.stand")
    g.shot(
        "p-rule",
        "**NEXT** to the rule challenged, **YES**; then **YES** on Done (or "
        "another rule, in the order announced).",
    )
    g.press("next", "next", "next", "yes", "yes")
    g.shot("p-ruling", "A time out: the clocks stand still. **NEXT** to C, I or IA, **YES**.")
    g.press("next", "yes")
    g.shot(
        "p-ruled",
        "What the ruling did, and the warning after a first or second I/IA. "
        "**NO**: a player asks for an opinion; **YES**: play goes on.",
    )
    g.press("no")
    g.shot(
        "p-opinion", "Who asks, then the Game Leader's (later the Tournament Director's) ruling."
    )

    _refusal_count_and_result(g)
    g.flush()
    return INTRO + "\n" + "\n".join(g.sections) + CARD


def _director(g: Guide) -> None:
    """After an infraction: the Director's result in the turn's menu (R748)."""
    g.press("yes", "no", "yes")  # 0 points, not removed; the menu again
    _showing(g, "Director: A win")
    g.shot(
        "p-director",
        "Once an infraction is recorded, the menu ends with the result the Tournament Director "
        "gives on stopping the game: `Director: A win`, `Director: B win`, `Director: tie` "
        "(R748). **YES** records it.",
    )
    g.press("yes")
    g.shot(
        "p-director-result",
        "The Director's result ends the game: no move, flag or challenge is taken after it, "
        '**YES** confirms it. It is on both cards as "the Tournament Director\'s result" and '
        "goes to the hub with the infraction.",
    )


def _refusal_count_and_result(g: Guide) -> None:
    g.start(
        "Not challengeable",
        "The starting rules, the flag card and time (and a game's own "
        "topics) are on the list, and refused.",
        game="contig-60",
    )
    g.press(*A_BEGINS)
    g.tap("A.stand")
    for _ in range(9):
        g.press("next")
    g.press("yes")
    g.shot("p-refused", "The reason; nothing is recorded. **YES**: back to the list.")

    g.start(
        "Juggle at the time limit",
        "After the round the monitor counts the empty spaces.",
        game="juggle",
        minutes={"juggle": 1},
    )
    g.press(*A_BEGINS)
    g.tap("A.shout")
    g.wait(60)
    g.tap("B.shout")
    g.shot(
        "p-count",
        "**YES**, then each board's empty spaces (touching pieces removed); "
        "**NO**: a challenge first; **NEXT**: the Director's decisions (below, R840).",
    )

    _bounds(g)

    g.start(
        "The result",
        "The game has ended: a goal, an award, the time limit, or a third I/IA.",
        game="queens-guards",
    )
    g.press("yes", "no", "yes", "next", "yes")  # A named the colour, B's hand did not hold it
    g.shot(
        "p-result",
        "**YES** confirms it; **NO** (or a challenge input): a challenge; **NEXT**: the "
        "Tournament Director's decision (TD).",
    )
    g.press("next")
    g.shot(
        "p-result-td",
        "The Director may rule until you confirm (R840): `Infraction: A` or `B` (0 points? "
        "must leave the site?), and once one is recorded `Director: A win`, `B win` or `tie`, "
        "which replaces the result waiting. **UNDO** closes the menu. Juggle's count takes "
        "**NEXT** alike. Once nothing is left for the Director (both players removed, their "
        "result given) NEXT does nothing (R845).",
    )
    g.press("undo", "yes")
    g.shot(
        "p-over",
        "The score cards are signed: the table's web page links to this game's card, ready to "
        "print ([below](#the-score-cards)). **NEXT**: the next game at this table.",
    )

    g.start(
        "Time called during the Director's decision",
        "The match clock runs on while a result waits. Time called while the Director's menu "
        "or one of its questions is open keeps it open where it was (R846): the Director's "
        "decisions are not play. Time called is journaled at once and the top row says so.",
        game="queens-guards",
        minutes={"queens-guards": 1},
    )
    g.press("yes", "no", "yes", "next", "yes")  # the start, then "Tie: agreed"
    g.press("next", "yes", "yes")  # the Director's menu: Infraction: A, 0 points: yes
    g.wait(55)
    g.shot(
        "p-time-td",
        "The question is still yours to answer: **YES** or **NO** as the Director rules. A "
        "press within a second of time called replacing what you were reading does nothing "
        "(it was meant for that screen): press again.",
    )


def _bounds(g: Guide) -> None:
    """The screens R746, R747 and R749 changed: what the pieces allow now."""
    g.start(
        "What the pieces allow",
        "The menu offers a move only when the pieces make it possible (R746, R749); Stars & "
        "Bars ends at the end of a round with a player over 140 (R747).",
        game="stars-bars",
        turn_seconds=600,
    )
    g.press("yes", "yes")  # A draws first; the first stars on draw 1: A begins
    for seat in ("A", "B", "A"):  # a card each for 0 points: 3 placed, B begins a turn
        g.press("yes")
        _showing(g, "Card placed")
        g.press("yes", "yes")
        g.tap(f"{seat}.shout")
    g.press("yes")
    _showing(g, "Stack points")
    g.shot(
        "p-stacks",
        "Stars & Bars: `Stack points`, at the beginning of a turn, once the board's cards "
        "make a stack to score: here 3 cards placed beside the CPA's 4 (R749); its entries "
        "stop at the stacks the board can hold (R783).",
    )
    g.new_table(game="fab-a-diffy")
    g.press("yes", "next", "yes")  # A drew 1/2, B 2/2: A begins
    seat = "A"
    while True:
        g.press("yes")
        if "Deck out" in _labels(g):
            break
        _showing(g, "Strip shown")
        g.press("yes", "yes")
        _showing(g, "Trick taken")
        g.press("yes")
        g.tap(f"{seat}.shout")
        seat = "B" if seat == "A" else "A"
    _showing(g, "Deck out")
    g.shot(
        "p-deck-out",
        "Fab-a-Diffy: `Deck out` only once the deck holds fewer strips than a show needs "
        "(R746: 27 strips; here after 8 tricks), and then no `Strip shown`.",
    )
    g.new_table(game="stars-bars", turn_seconds=600)
    g.press("yes", "yes")
    for seat, points in (("A", 141), ("B", 127)):
        g.press("yes")
        _showing(g, "Card placed")
        g.press("yes", *["next"] * points, "yes")
        g.tap(f"{seat}.shout")
    g.shot(
        "p-over-140",
        "Stars & Bars at the end of a round: A is over 140 and less than 15 ahead, so the "
        "game ends in a tie (R747). **YES** confirms it. The OLED shows the detail's first "
        "two lines; the card prints it whole.",
    )


def _labels(g: Guide) -> list[str]:
    assert g.table is not None
    return [option.label for option in g.table.controller.prompt.options]


def _showing(g: Guide, label: str) -> None:
    """NEXT until the menu shows ``label`` (the script fails if the menu does not hold it)."""
    assert g.table is not None
    controller = g.table.controller
    assert label in _labels(g), f"{label!r} is not among {_labels(g)}"
    while controller.prompt.options[controller.cursor].label != label:
        g.press("next")


if __name__ == "__main__":
    families.install()
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    (out / "pentathlon-guide.md").write_text(build(out / IMAGES), encoding="utf-8")
    print(f"wrote {out / 'pentathlon-guide.md'}")
