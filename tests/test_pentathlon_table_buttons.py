"""Every button on every screen of the Pentathlon table: the six console buttons and each
player's flag button and challenge input, on each screen the monitor can see. What a button
means there it does; a button that means nothing there does nothing at all (R111): no
decision, no event, the same screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.pentathlon_table_helpers import PTable, challenge, deal_cards, playing

INPUTS = (
    "console.count",
    "console.go",
    "console.yes",
    "console.no",
    "console.undo",
    "console.next",
    "A.shout",
    "B.shout",
    "A.stand",
    "B.stand",
)
NOTHING = "-"


def _ruled() -> PTable:
    return challenge(playing(), "B", "scoring").choose("I: incorrect")


def _final() -> PTable:
    table = _ruled().buttons("no").choose("A asks").choose("C: correct")
    return table.buttons("no").choose("B asks").choose("IA: inapprop.")


def _result() -> PTable:
    return playing("queens-guards").buttons("yes").choose("Tie: agreed")


# Each screen: how to reach it, and what each input does there: "-" nothing, "key=K" the screen
# K shows, "act=A" the rules take action A, "cursor" the next or previous option shows,
# "num=N" the number entry shows N, "flag=S" S's flag press is remembered for after the entry.
SCREENS: dict[str, tuple[Callable[[], PTable], dict[str, str]]] = {
    "game": (
        PTable,
        {"yes": "key=p/start/contig-60/1/a", "no": "cursor", "next": "cursor"},
    ),
    "A's die toss": (
        lambda: PTable().buttons("yes"),
        {"yes": "key=p/start/contig-60/1/b", "next": "num=2", "undo": "key=p/game/contig-60"},
    ),
    "A's die toss, the game set": (
        lambda: PTable(game="juggle"),
        {"yes": "key=p/start/juggle/1/b", "next": "num=2"},
    ),
    "B's die toss": (
        lambda: PTable(game="juggle").buttons("yes", "next"),
        {"yes": "act=die_toss", "no": "num=1", "next": "num=3", "undo": "key=p/start/juggle/1/a"},
    ),
    "who names the colour": (
        lambda: PTable(game="queens-guards"),
        {"yes": "key=p/start/queens-guards/1/hand", "no": "cursor", "next": "cursor"},
    ),
    "whose hand held the colour": (
        lambda: PTable(game="queens-guards").buttons("yes"),
        {
            "yes": "act=chip_in_hand",
            "no": "act=chip_in_hand",
            "undo": "key=p/start/queens-guards/1/colour",
        },
    ),
    "turn": (
        playing,
        {
            "go": "act=pass_flag",
            "yes": "key=p/menu1",
            "no": "key=p/challenge1/who",
            "undo": "key=p/start/contig-60/1/a",
            "A.shout": "act=pass_flag",
            "A.stand": "key=p/challenge1/rule1",
            "B.stand": "key=p/challenge1/rule1",
        },
    ),
    "turn, the capture window": (
        lambda: playing("fab-a-diffy"),
        {
            "go": "act=pass_flag",
            "yes": "key=p/menu1",
            "no": "key=p/challenge1/who",
            "undo": "key=p/start/fab-a-diffy/1/a",
            "A.shout": "act=pass_flag",
            "A.stand": "key=p/challenge1/rule1",
            "B.stand": "key=p/challenge1/rule1",
        },
    ),
    "the minute is up": (
        lambda: playing().wait(61),
        {
            "go": "act=pass_flag",
            "yes": "act=forfeit_turn",
            "no": "key=p/turn1/late-on",
            "undo": "key=p/turn1",
            "A.shout": "act=pass_flag",
            "A.stand": "key=p/challenge1/rule1",
            "B.stand": "key=p/challenge1/rule1",
        },
    ),
    "the late turn finishes": (
        lambda: playing().wait(61).buttons("no"),
        {
            "go": "act=pass_flag",
            "yes": "key=p/menu1",
            "no": "key=p/challenge1/who",
            "undo": "key=p/turn1/late",
            "A.shout": "act=pass_flag",
            "A.stand": "key=p/challenge1/rule1",
            "B.stand": "key=p/challenge1/rule1",
        },
    ),
    "menu": (
        lambda: playing().buttons("yes"),
        {
            "yes": "key=p/entry1/contig.play/0",
            "no": "cursor",
            "next": "cursor",
            "undo": "key=p/turn1",
            "A.shout": "flag=A",
        },
    ),
    "number entry": (
        lambda: playing().buttons("yes", "yes", "next", "next"),
        {
            "yes": "act=contig.play",
            "no": "num=1",
            "next": "num=3",
            "undo": "key=p/turn1",
            "A.shout": "flag=A",
        },
    ),
    "yes-or-no entry": (
        lambda: (
            deal_cards(playing("stars-bars"), 10).buttons("yes").choose("Stack points").enter(4)
        ),
        {
            "yes": "key=p/entry21/sb.stacks/2",
            "no": "key=p/entry21/sb.stacks/2",
            "undo": "key=p/turn21",
            "A.shout": "flag=A",
        },
    ),
    "who challenges": (
        lambda: playing().buttons("no"),
        {
            "yes": "key=p/challenge1/rule1",
            "no": "cursor",
            "next": "cursor",
            "undo": "key=p/turn1",
        },
    ),
    "the rule challenged": (
        lambda: playing().challenge_input("B"),
        {
            "yes": "key=p/challenge1/rule2",
            "no": "cursor",
            "next": "cursor",
            "undo": "key=p/turn1",
        },
    ),
    "not challengeable": (
        lambda: playing().challenge_input("B").choose("time"),
        {"yes": "key=p/challenge1/rule1", "undo": "key=p/turn1"},
    ),
    "the monitor's ruling": (
        lambda: challenge(playing(), "B", "scoring"),
        {"yes": "act=rule", "no": "cursor", "next": "cursor", "undo": "key=p/turn1"},
    ),
    "what the ruling did": (
        _ruled,
        {
            "yes": "key=p/turn1",
            "no": "key=p/opinion1/game-leader/who",
            "undo": "key=p/rule1",
            "A.shout": "act=pass_flag",
            "A.stand": "key=p/challenge2/rule1",
            "B.stand": "key=p/challenge2/rule1",
        },
    ),
    "the final ruling": (
        _final,
        {
            "yes": "key=p/turn1",  # IA in the end: A's turn goes on
            "undo": "key=p/ruled1/2",
            "A.shout": "act=pass_flag",
            "A.stand": "key=p/challenge2/rule1",
            "B.stand": "key=p/challenge2/rule1",
        },
    ),
    "who asks for an opinion": (
        lambda: _ruled().buttons("no"),
        {
            "yes": "key=p/opinion1/game-leader",
            "no": "cursor",
            "next": "cursor",
            "undo": "key=p/ruled1/1",
        },
    ),
    "the opinion": (
        lambda: _ruled().buttons("no", "yes"),
        {"yes": "act=opinion", "no": "cursor", "next": "cursor", "undo": "key=p/ruled1/1"},
    ),
    "the result": (
        _result,
        {
            "yes": "act=confirm",
            "no": "key=p/challenge1/who",
            "next": "key=p/result/director",  # the Director's decisions (R840)
            "undo": "key=p/turn1",
            "A.stand": "key=p/challenge1/rule1",
            "B.stand": "key=p/challenge1/rule1",
        },
    ),
    "the Director's decisions at the result": (
        lambda: _result().buttons("next"),
        {
            "yes": "key=p/result/infraction/A/0",
            "no": "cursor",
            "next": "cursor",
            "undo": "key=p/result",
            "A.stand": "key=p/challenge1/rule1",
            "B.stand": "key=p/challenge1/rule1",
        },
    ),
    "an infraction at the result": (
        lambda: _result().buttons("next", "yes"),
        {
            "yes": "key=p/result/infraction/A/1",
            "no": "key=p/result/infraction/A/1",
            "undo": "key=p/result",
            "A.stand": "key=p/challenge1/rule1",
            "B.stand": "key=p/challenge1/rule1",
        },
    ),
    "juggle's count": (
        lambda: playing("juggle", minutes={"juggle": 1}).flag("A").wait(58).flag("B"),
        {
            "yes": "key=p/count/a",
            "no": "key=p/challenge1/who",
            "next": "key=p/count/director",  # the Director's decisions (R840)
            "undo": "key=p/turn2",
            "A.stand": "key=p/challenge1/rule1",
            "B.stand": "key=p/challenge1/rule1",
        },
    ),
    "empty spaces": (
        lambda: (
            playing("juggle", minutes={"juggle": 1})
            .flag("A")
            .wait(58)
            .flag("B")
            .buttons("yes", "next")
        ),
        {"yes": "key=p/count/b", "no": "num=0", "next": "num=2", "undo": "key=p/count"},
    ),
    "game over": (
        lambda: _result().buttons("yes"),
        {"next": "key=p/start/queens-guards/1/colour", "undo": "key=p/result"},
    ),
}
CASES = [
    pytest.param(screen, name, SCREENS[screen][1].get(name.removeprefix("console."), NOTHING))
    for screen in SCREENS
    for name in INPUTS
]


@pytest.mark.parametrize(("screen", "name", "does"), CASES)
def test_every_input_on_every_screen(screen: str, name: str, does: str) -> None:
    table = SCREENS[screen][0]()
    before_key, before_events = table.key, len(table.events)
    before_session, before_scratch = table.controller.session, dict(table.controller.scratch)
    before_cursor, before_number = table.controller.cursor, table.controller.number
    table.press(name)
    new = table.events[before_events:]
    if does == NOTHING:
        assert new == [], f"{name} on {screen}: {new}"
        assert (table.key, table.controller.session) == (before_key, before_session)
        assert (table.controller.scratch, table.controller.cursor) == (
            before_scratch,
            before_cursor,
        )
        assert table.controller.number == before_number
        return
    what, _, value = does.partition("=")
    if what == "key":
        assert table.key == value, f"{name} on {screen}"
    elif what == "act":
        made = [e for e in new if e["event"] == "action"]
        assert made and made[0]["action"] == f"pentathlon.{value}", f"{name} on {screen}: {new}"
    elif what == "flag":
        assert table.key == before_key and table.controller.session == before_session
        assert table.controller.scratch["flag_pressed"] == value
        assert [e["event"] for e in new] == ["remembered"]
    elif what == "cursor":
        assert table.controller.cursor != before_cursor
        assert [e["event"] for e in new] == ["option"]
    else:
        assert table.controller.number == int(value)
