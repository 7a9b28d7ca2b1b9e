"""Table journals as the gametable of flow 2 (commit 575a6b1, before R746-R749) wrote them: the
presses the monitor made and the decisions that gametable recorded for them, in its words.

The decisions were produced by running 575a6b1's own code on these presses (a ``git archive``
export of that commit, driven press by press as ``_write_journal`` journals them: down at each
whole second, up a tenth later, two pin reads). Each journal went through a menu or a bound
that R746-R749 changed, so today's flow 3 would make other decisions from the same presses.
"""

from __future__ import annotations

from typing import Any

YES, NO, NEXT = "console.yes", "console.no", "console.next"


def _numbers(t: float, first: int, last: int) -> list[dict[str, Any]]:
    """A number entry stepped by NEXT from ``first`` to ``last``, one press a second."""
    return [
        {"t": t + step, "event": "number", "value": value}
        for step, value in enumerate(range(first, last + 1))
    ]


# Stars & Bars: at the first turn the menu offered "Stack points" (R749 came after): the entry
# took 0 CPA stacks and 0 OPA stacks, a scoring of nothing; then A passed the flag.
STACKS_AT_THE_FIRST_TURN = [
    *(YES, YES),  # the start: A drew the first stars card
    *(YES, NEXT, YES, YES, YES),  # A's menu: Stack points, 0 CPA stacks, 0 OPA stacks
    "A.shout",
]
STACKS_DECISIONS: list[dict[str, Any]] = [
    {
        "t": 1.0,
        "event": "prompt",
        "key": "p/start/stars-bars/1/draw",
        "text": "First stars on draw (A drew 1st)",
    },
    {"t": 2.0, "event": "clock", "started": True, "minutes": 30},
    {"t": 2.0, "event": "action", "action": "pentathlon.star_card", "first": "A", "draw": 1},
    {"t": 2.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 3.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {"t": 4.0, "event": "option", "key": "p/menu1", "shown": "Stack points"},
    {"t": 5.0, "event": "prompt", "key": "p/entry1/sb.stacks/0", "text": "CPA stacks turned over"},
    {"t": 6.0, "event": "prompt", "key": "p/entry1/sb.stacks/2", "text": "OPA stacks removed"},
    {
        "t": 7.0,
        "event": "action",
        "action": "pentathlon.sb.stacks",
        "cpa_turned": 0,
        "cpa_removed": False,
        "opa_removed": 0,
    },
    {"t": 7.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 8.0, "event": "action", "action": "pentathlon.pass_flag", "player": "A"},
    {"t": 8.0, "event": "prompt", "key": "p/turn2", "text": "B on turn, round 1"},
]

# Stars & Bars: A places a card for 141, B one for 127; at the end of the round A is over 140
# and 14 ahead: the game played on (R747 came after), A on turn in round 2.
OVER_140_PLAYS_ON = [
    *(YES, YES, YES, YES, *[NEXT] * 141, YES, "A.shout"),  # A: a card for 141, the flag passes
    *(YES, YES, *[NEXT] * 127, YES, "B.shout"),  # B: a card for 127, the flag passes
    YES,  # A's menu in round 2
]
OVER_140_DECISIONS: list[dict[str, Any]] = [
    {
        "t": 1.0,
        "event": "prompt",
        "key": "p/start/stars-bars/1/draw",
        "text": "First stars on draw (A drew 1st)",
    },
    {"t": 2.0, "event": "clock", "started": True, "minutes": 30},
    {"t": 2.0, "event": "action", "action": "pentathlon.star_card", "first": "A", "draw": 1},
    {"t": 2.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 3.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {"t": 4.0, "event": "prompt", "key": "p/entry1/sb.place/0", "text": "Points of the card"},
    *_numbers(5.0, 1, 141),
    {"t": 146.0, "event": "action", "action": "pentathlon.sb.place", "points": 141},
    {"t": 146.0, "event": "prompt", "key": "p/turn1", "text": "A: announce +141, 141, round 1"},
    {"t": 146.0, "event": "timeout", "timer": "turn"},
    {"t": 146.0, "event": "action", "action": "pentathlon.turn_timeout"},
    {"t": 146.0, "event": "reminder", "player": "A"},
    {"t": 146.0, "event": "prompt", "key": "p/turn1/late-on", "text": "A: minute up, round 1"},
    {"t": 147.0, "event": "action", "action": "pentathlon.pass_flag", "player": "A"},
    {"t": 147.0, "event": "prompt", "key": "p/turn2", "text": "B on turn, round 1"},
    {"t": 148.0, "event": "prompt", "key": "p/menu2", "text": "B on turn: record"},
    {"t": 149.0, "event": "prompt", "key": "p/entry2/sb.place/0", "text": "Points of the card"},
    *_numbers(150.0, 1, 127),
    {"t": 277.0, "event": "action", "action": "pentathlon.sb.place", "points": 127},
    {"t": 277.0, "event": "prompt", "key": "p/turn2", "text": "B: announce +127, 127, round 1"},
    {"t": 277.0, "event": "timeout", "timer": "turn"},
    {"t": 277.0, "event": "action", "action": "pentathlon.turn_timeout"},
    {"t": 277.0, "event": "reminder", "player": "B"},
    {"t": 277.0, "event": "prompt", "key": "p/turn2/late-on", "text": "B: minute up, round 1"},
    {"t": 278.0, "event": "action", "action": "pentathlon.pass_flag", "player": "B"},
    {"t": 278.0, "event": "prompt", "key": "p/turn3", "text": "A on turn, round 2"},
    {"t": 279.0, "event": "prompt", "key": "p/menu3", "text": "A on turn: record"},
]

# Stars & Bars: an infraction of A recorded, then NO on the menu's first option wraps to its
# last, "Flag passes" (the Director's results, R748, came after, last in the menu).
FLAG_PASSES_AFTER_AN_INFRACTION = [
    *(YES, YES),  # the start: A drew the first stars card
    *(YES, NO, NO, NO, YES, NO, NO),  # A's menu: Infraction: A, not 0 points, not removed
    *(YES, NO, YES),  # A's menu, NO: its last option
]
FLAG_PASSES_DECISIONS: list[dict[str, Any]] = [
    {
        "t": 1.0,
        "event": "prompt",
        "key": "p/start/stars-bars/1/draw",
        "text": "First stars on draw (A drew 1st)",
    },
    {"t": 2.0, "event": "clock", "started": True, "minutes": 30},
    {"t": 2.0, "event": "action", "action": "pentathlon.star_card", "first": "A", "draw": 1},
    {"t": 2.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 3.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {"t": 4.0, "event": "option", "key": "p/menu1", "shown": "Flag passes"},
    {"t": 5.0, "event": "option", "key": "p/menu1", "shown": "Infraction: B"},
    {"t": 6.0, "event": "option", "key": "p/menu1", "shown": "Infraction: A"},
    {
        "t": 7.0,
        "event": "prompt",
        "key": "p/entry1/infraction/0",
        "text": "0 points (the Director)?",
    },
    {"t": 8.0, "event": "prompt", "key": "p/entry1/infraction/1", "text": "Must leave the site?"},
    {
        "t": 9.0,
        "event": "action",
        "action": "pentathlon.infraction",
        "player": "A",
        "zero_points": False,
        "removal": False,
    },
    {"t": 9.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 10.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {"t": 11.0, "event": "option", "key": "p/menu1", "shown": "Flag passes"},
    {"t": 12.0, "event": "action", "action": "pentathlon.pass_flag", "player": "A"},
    {"t": 12.0, "event": "prompt", "key": "p/turn2", "text": "B on turn, round 1"},
]

# Fab-a-Diffy: A begins and records "Deck out" at the first turn, the deck whole (R746 came
# after): game 1 ends with no trick, and B begins game 2 with a strip shown and a trick.
DECK_OUT_AT_THE_FIRST_TURN = [
    *(YES, YES),  # A's strip 1/2, B's 1/2: drawn again
    *(YES, NEXT, YES),  # A's 1/2, B's 2/2: A begins
    *(YES, NEXT, YES),  # A's menu: Deck out
    *(YES, YES, YES, YES, "B.shout"),  # B: a strip shown, a trick, the flag passes
]
DECK_OUT_DECISIONS: list[dict[str, Any]] = [
    {"t": 1.0, "event": "prompt", "key": "p/start/fab-a-diffy/1/b", "text": "B's strip (A 1/2)"},
    {"t": 2.0, "event": "action", "action": "pentathlon.strip_draw", "a": "1/2", "b": "1/2"},
    {"t": 2.0, "event": "prompt", "key": "p/start/fab-a-diffy/2/a", "text": "A's strip again"},
    {
        "t": 3.0,
        "event": "prompt",
        "key": "p/start/fab-a-diffy/2/b",
        "text": "B's strip again (A 1/2)",
    },
    {"t": 4.0, "event": "option", "key": "p/start/fab-a-diffy/2/b", "shown": "2/2"},
    {"t": 5.0, "event": "clock", "started": True, "minutes": 30},
    {"t": 5.0, "event": "action", "action": "pentathlon.strip_draw", "a": "1/2", "b": "2/2"},
    {"t": 5.0, "event": "prompt", "key": "p/turn1/capture", "text": "A on turn, game 1, round 1"},
    {"t": 6.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {"t": 7.0, "event": "option", "key": "p/menu1", "shown": "Deck out"},
    {"t": 8.0, "event": "action", "action": "pentathlon.fab.deck_out"},
    {"t": 8.0, "event": "prompt", "key": "p/turn2/capture", "text": "B on turn, game 2, round 1"},
    {"t": 9.0, "event": "prompt", "key": "p/menu2", "text": "B on turn: record"},
    {"t": 10.0, "event": "action", "action": "pentathlon.fab.show"},
    {"t": 10.0, "event": "prompt", "key": "p/turn2", "text": "B on turn, game 2, round 1"},
    {"t": 11.0, "event": "prompt", "key": "p/menu2", "text": "B on turn: record"},
    {"t": 12.0, "event": "action", "action": "pentathlon.fab.trick"},
    {"t": 12.0, "event": "prompt", "key": "p/turn2", "text": "B on turn, game 2, round 1"},
    {"t": 13.0, "event": "action", "action": "pentathlon.pass_flag", "player": "B"},
    {"t": 13.0, "event": "prompt", "key": "p/turn3/capture", "text": "A on turn, game 2, round 1"},
]
