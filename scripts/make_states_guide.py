"""Regenerate docs/states-guide.md and its OLED screenshots (a test checks both are current):
the STATES dealer's screens, each a frame of the real OLED.

The table is driven through its real controller on MockFactory pins, with the example deck (a
made-up deck: docs/states.md); each screen is the frame luma.emulator's ``capture`` device
writes. Run from the repository root: ``.venv/bin/python scripts/make_states_guide.py [OUTDIR]``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # the dealer's guide's screen-by-screen writer, beside this

from make_dealer_guide import Guide  # noqa: E402

from firmware_py import families  # noqa: E402
from firmware_py.table.controller import TableSettings  # noqa: E402

ROOT = HERE.parent
IMAGES = "states-guide"
EXAMPLE_DECK = ROOT / "docs/states/example-deck.toml"

INTRO = """# The STATES dealer's guide

A STATES table keeps the game while the players deal and play real cards
([states.md](states.md#at-the-table)): each seat's buzzer is "STATES!", its second input the
knock. A claimant types the four states on the table's web page, or the dealer judges YES/NO;
a knock's cards come from the page, or their total from the console. Every screen below is a
frame of the real OLED, captured with luma.emulator while `scripts/make_states_guide.py` plays
the buttons (Ann at seat A, Bo at seat B, the made-up example deck).
"""


def settings(**options: Any) -> TableSettings:
    given = {"players": ["Ann", "Bo"], "deck": str(EXAMPLE_DECK), **options}
    return TableSettings(seats=("A", "B"), family="states", options=given)


def build(images: Path) -> str:
    images.mkdir(parents=True, exist_ok=True)
    g = Guide(images, settings=settings)

    g.start("A hand", "The cards are shuffled and dealt by hand; the table asks who plays first.")
    g.shot(
        "s-first",
        "**NEXT** to the youngest player (later: a player with the lowest score), **YES**.",
    )
    g.press("yes")
    g.shot(
        "s-play",
        'The hand is played at the table. A buzzer is "STATES!" (the first by edge time claims), '
        "a knock input knocks. **NEXT**: the dealer's menu, for a seat without buttons.",
    )

    g.start("A claim", 'Ann shouts "STATES!".')
    g.press("yes")
    g.tap("A.shout")
    g.wait(1)
    g.shot(
        "s-claim",
        "Ann types her four states on her phone, or the dealer looks at the map: **YES** they "
        "connect, **NO** they do not (play goes on, nothing scored).",
    )
    g.enter("A", "claim", "UT,CO,KS,OK")
    g.shot(
        "s-checked",
        "The rules core has checked what Ann typed. **YES** agrees; **NO** overrules, then the "
        "reason (recorded).",
    )
    g.press("yes")
    g.shot(
        "s-bonus", "Who has AK face up in front of them: **NEXT** to the player, **YES**; then HI."
    )
    g.press("yes", "yes")
    g.shot("s-next-hand", "The hand is scored. The lowest score plays first next.")

    g.start("A knock", "Bo knocks with his knock input at the start of his turn.")
    g.press("yes")
    g.tap("B.stand")
    g.wait(1)
    g.shot(
        "s-knock",
        "Bo types his four cards on his phone (the rules core finds the colour and its total), "
        "or **NEXT**/**NO** set the knocking cards' total and **YES** takes it.",
    )
    g.press(
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "next",
        "yes",
    )
    g.shot("s-four", "A 4-card knock wins 4 points: **YES** 4 cards, **NO** 3.")
    g.press("no")
    g.shot(
        "s-last-round",
        'Every other player takes one more turn; a "STATES!" may still win. **GO** once '
        "nobody has connected.",
    )
    g.press("go")
    g.shot(
        "s-total",
        "Each other player types their cards on their phone, or the dealer enters their best "
        "total in one colour. Then the bonus states, and the hand is scored.",
    )

    g.start(
        "A knock with the shipped deck",
        "The shipped deck file has only the rulebook's six values (DE, OR, NM, PA, MD, WV): the "
        "table starts with it and plays claims as above, and a knock is still made (R329).",
        deck=None,
    )
    g.press("yes")
    g.tap("B.stand")
    g.wait(1)
    g.shot(
        "s-knock-shipped",
        "The OLED says how many cards the deck file lacks; the page lists them. A hand typed "
        "on a phone with one of them is refused in one line naming them (DE, OR, NM, water is "
        "judged: 19); the dealer enters the total on the console, which needs no deck.",
    )

    g.start(
        "The end of the game",
        "The first side to reach the target, alone at the top, wins.",
        target=4,
    )
    g.press("yes")
    g.tap("A.shout")
    g.wait(1)
    g.press("yes", "yes", "yes")
    g.shot("s-over", "**GO**: a new game with the same players.")
    g.flush()
    return INTRO + "\n" + "\n".join(g.sections)


if __name__ == "__main__":
    families.install()
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    (out / "states-guide.md").write_text(build(out / IMAGES), encoding="utf-8")
    print(f"wrote {out / 'states-guide.md'}")
