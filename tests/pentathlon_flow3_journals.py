"""Table journals as the gametable of flow 3 (commit 7a8b21d, before R840-R843) wrote them: the
presses the monitor made and the decisions that gametable recorded for them, in its words.

The decisions were produced by running 7a8b21d's own code on these presses (driven press by
press as ``write_journal`` journals them: down at each whole second, up a tenth later). Each
journal went through a screen or a ruling text flow 4 changed, so today's flow would make other
decisions from the same presses.
"""

from __future__ import annotations

from typing import Any

YES, NO, NEXT = "console.yes", "console.no", "console.next"

# Queens & Guards: A begins, the players agree on a tie; at the result the monitor pressed NEXT,
# which did nothing under flow 3 (flow 4 opens the record menu there, R840), then YES confirmed.
NEXT_AT_THE_RESULT = [
    *(YES, NO),  # the start: A names the colour, B's hand did not hold it: A begins
    *(YES, NEXT, YES),  # A's menu: Tie: agreed
    *(NEXT, YES),  # the result: NEXT (nothing), YES confirms
]
NEXT_AT_THE_RESULT_DECISIONS: list[dict[str, Any]] = [
    {
        "t": 1.0,
        "event": "prompt",
        "key": "p/start/queens-guards/1/hand",
        "text": "B's hand: the starting colour?",
    },
    {"t": 2.0, "event": "clock", "started": True, "minutes": 30},
    {
        "t": 2.0,
        "event": "action",
        "action": "pentathlon.chip_in_hand",
        "named_by": "A",
        "picked_starting": False,
    },
    {"t": 2.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 3.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {"t": 4.0, "event": "option", "key": "p/menu1", "shown": "Tie: agreed"},
    {"t": 5.0, "event": "action", "action": "pentathlon.qg.tie", "reason": "agreed"},
    {
        "t": 5.0,
        "event": "game_result",
        "winner": None,
        "how": "agreement",
        "detail": "both players agree no one can move",
    },
    {
        "t": 5.0,
        "event": "prompt",
        "key": "p/result",
        "text": "Tie: both players agree no one can move",
    },
    {"t": 7.0, "event": "action", "action": "pentathlon.confirm"},
    {
        "t": 7.0,
        "event": "game_over",
        "winner": None,
        "how": "agreement",
        "detail": "both players agree no one can move",
        "scores": None,
        "challenges": {"A": {"C": 0, "I": 0, "IA": 0}, "B": {"C": 0, "I": 0, "IA": 0}},
    },
    {
        "t": 7.0,
        "event": "prompt",
        "key": "p/over",
        "text": "Game over. Tie: both players agree no one can move",
    },
]

# Juggle: A begins and challenges "other" at the first turn, ruled Correct: flow 3's text said
# "the board is restored to before B's turn", a turn B never had (R843 words it right).
RESTORE_AT_THE_FIRST_TURN = [
    *(YES, NEXT, YES),  # the tosses: A 1, B 2: A begins
    "A.stand",  # A's challenge input
    *(NEXT, NEXT, NEXT, NEXT, YES, YES),  # the rule: other; Done: 1 rule
    *(YES, YES),  # C: correct; play on
]
RESTORE_DECISIONS: list[dict[str, Any]] = [
    {"t": 1.0, "event": "prompt", "key": "p/start/juggle/1/b", "text": "B's die toss (A 1)"},
    {"t": 2.0, "event": "number", "value": 2},
    {"t": 3.0, "event": "clock", "started": True, "minutes": 30},
    {"t": 3.0, "event": "action", "action": "pentathlon.die_toss", "a": 1, "b": 2},
    {"t": 3.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 4.0, "event": "prompt", "key": "p/challenge1/rule1", "text": "A challenges: rule?"},
    {"t": 5.0, "event": "option", "key": "p/challenge1/rule1", "shown": "placement"},
    {"t": 6.0, "event": "option", "key": "p/challenge1/rule1", "shown": "board covered"},
    {"t": 7.0, "event": "option", "key": "p/challenge1/rule1", "shown": "piece laid"},
    {"t": 8.0, "event": "option", "key": "p/challenge1/rule1", "shown": "other"},
    {"t": 9.0, "event": "prompt", "key": "p/challenge1/rule2", "text": "A challenges: rule 2?"},
    {
        "t": 10.0,
        "event": "action",
        "action": "pentathlon.challenge",
        "challenger": "A",
        "rules": ["other"],
    },
    {"t": 10.0, "event": "prompt", "key": "p/rule1", "text": "Challenge 1: A on other"},
    {"t": 10.0, "event": "clock", "paused": True, "left": 1793.0},
    {"t": 11.0, "event": "action", "action": "pentathlon.rule", "ruling": "C"},
    {
        "t": 11.0,
        "event": "ruling",
        "challenge": 1,
        "challenger": "A",
        "rule": "other",
        "ruling": "C",
        "by": "monitor",
        "effect": "the board is restored to before B's turn; A begins a turn",
    },
    {
        "t": 11.0,
        "event": "prompt",
        "key": "p/ruled1/1",
        "text": "Ch 1 C: the board is restored to before B's turn; A begins a turn",
    },
    {"t": 12.0, "event": "prompt", "key": "p/turn2", "text": "A on turn, round 1"},
    {"t": 12.0, "event": "clock", "resumed": True, "left": 1793.0},
]
