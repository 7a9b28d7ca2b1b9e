"""The table kernel with a family it has never heard of: number entry, seat presses, sessions.

A toy family (a running score per seat, entered on the console) is registered here: the kernel
must run it with no change, which is what lets Pentathlon, STATES and Guesstimation plug in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from drivers.leds import SeatLight
from firmware_py.table.controller import (
    FAST_AFTER,
    FAST_STEP,
    REPEAT_DELAY,
    REPEAT_EVERY,
    TableController,
    TableSettings,
)
from firmware_py.table.family import (
    FamilyOptionsError,
    Options,
    Report,
    TableFacts,
    TableFamily,
    family,
    register,
)
from firmware_py.table.prompts import (
    EntrySpec,
    LogAction,
    NumberSpec,
    Outcome,
    Prompt,
    notice,
    number,
)
from rules.actions import Action
from rules.actions import register as register_action
from rules.errors import IllegalAction


@register_action("toy.start")
@dataclass(frozen=True, slots=True)
class ToyStart(Action):
    target: int = 10


@register_action("toy.score")
@dataclass(frozen=True, slots=True)
class ToyScore(Action):
    seat: str
    points: int


@dataclass(frozen=True, slots=True)
class ToySession:
    target: int
    scores: tuple[tuple[str, int], ...] = ()

    def score(self, seat: str) -> int:
        return dict(self.scores).get(seat, 0)

    @property
    def over(self) -> bool:
        return any(points >= self.target for _, points in self.scores)


@dataclass(frozen=True, slots=True)
class ToyTable:
    """Seat X's flag press asks the monitor for X's points; YES enters them."""

    target: int

    def first_action(self) -> Action:
        return ToyStart(target=self.target)

    def start(self, first: Action) -> ToySession:
        assert isinstance(first, ToyStart)
        return ToySession(first.target)

    def apply(self, session: ToySession, action: Action) -> ToySession:
        if not isinstance(action, ToyScore) or session.over:
            raise IllegalAction("the toy game takes toy.score until it is over")
        scores = dict(session.scores)
        scores[action.seat] = scores.get(action.seat, 0) + action.points
        return replace(session, scores=tuple(sorted(scores.items())))

    def prompt(self, session: ToySession, scratch: Mapping[str, Any], table: TableFacts) -> Prompt:
        if session.over:
            again = Outcome("again", new_session={"action": "toy.start", "target": 5})
            return replace(notice("toy/over", "Game over", hint="GO: again"), go=again)
        seat = scratch.get("seat")
        if seat is None:
            return replace(
                notice("toy/wait", "Press your flag"),
                on_press=lambda s, what: (
                    Outcome(s, scratch={"seat": s}) if what == "shout" else None
                ),
                entry=EntrySpec(  # or type the points on the table's web page
                    name="points",
                    label="Your points",
                    seats=("A", "B"),
                    take=lambda s, text: Outcome(
                        text, {"action": "toy.score", "seat": s, "points": _number(text)}
                    ),
                    done=("C",),
                ),
            )
        return number(
            f"toy/points/{seat}",
            f"Points for {seat}",
            NumberSpec(
                take=lambda n: Outcome(str(n), {"action": "toy.score", "seat": seat, "points": n}),
                start=1,
                low=0,
                high=99,
                back=Outcome("back", scratch={"seat": None}),
            ),
        )

    def report(self, before: ToySession, after: ToySession) -> Report:
        return Report((("score", dict(after.scores)),), "OVER" if after.over else None)

    def summary(self, session: ToySession) -> dict[str, Any]:
        return {"scores": dict(session.scores)}

    def scores(self, session: ToySession) -> dict[str, int]:
        return dict(session.scores)

    def title(self, session: ToySession) -> str:
        return "TOY"

    def in_play(self, session: ToySession) -> bool:
        return not session.over

    def clock_runs(self, session: ToySession) -> bool:
        return not session.over

    def time_up(self) -> LogAction:
        return {"action": "toy.score", "seat": "A", "points": 0}

    def light(self, session: ToySession, seat: str, level: Callable[[str], bool]) -> SeatLight:
        return SeatLight.WON if level(f"{seat}.shout") else SeatLight.OFF


def _number(text: str) -> int | str:
    """The text as a whole number if it is one; anything else goes to the rules codec as is."""
    return int(text) if text.isdecimal() else text


def _toy(options: Options, seats: tuple[str, ...]) -> ToyTable:
    target = options.get("target", 10)
    if not isinstance(target, int):
        raise FamilyOptionsError("target", "expected a whole number")
    return ToyTable(target)


TOY = TableFamily(name="toy", roles={"shout": "flag button"}, game=_toy)
register(TOY)


class Toy:
    def __init__(self, **options: Any) -> None:
        self.events: list[dict[str, Any]] = []
        self.levels: dict[str, bool] = {}
        settings = TableSettings(seats=("A", "B", "C"), family="toy", options=options)
        self.c = TableController(
            settings=settings,
            emit=self.events.append,
            now=0.0,
            read_pin=lambda name: self.levels.get(name, False),
        )
        self.t = 0.0

    def _level(self, name: str) -> bool:
        return self.levels.get(name, False)

    def at(self, t: float) -> Toy:
        self.t = t
        self.c.advance(t)
        return self

    def edge(self, name: str, active: bool) -> Toy:
        self.t += 0.1
        self.levels[name] = active
        self.c.on_edge(name, self.t, active, now=self.t)
        return self

    def tap(self, *names: str) -> Toy:
        for name in names:
            self.edge(name, True).edge(name, False)
        return self

    def named(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == event]


def test_an_unknown_family_is_refused_by_name() -> None:
    with pytest.raises(FamilyOptionsError, match="unknown game family 'chess'"):
        family("chess")


def test_a_family_option_error_names_the_option() -> None:
    with pytest.raises(FamilyOptionsError, match="target: expected a whole number"):
        Toy(target="ten")


def test_a_seat_press_outside_any_window_goes_to_the_flow() -> None:
    toy = Toy().tap("B.shout")
    assert toy.c.prompt.key == "toy/points/B"


def test_an_entry_from_the_page_goes_where_a_button_press_goes() -> None:
    toy = Toy()
    assert toy.c.enter("B", "points", "7", now=1.0) is None
    action, score = toy.named("action")[-1], toy.named("score")[-1]
    assert (action["seat"], action["points"], action["t"]) == ("B", 7, 1.0)
    assert score["B"] == 7


def test_an_entry_the_rules_refuse_is_their_error_and_decides_nothing() -> None:
    toy = Toy()
    events, log = len(toy.events), list(toy.c.log)
    refused = toy.c.enter("A", "points", "seven", now=1.0)
    assert refused is not None and refused.startswith("toy.score.points:")
    assert (len(toy.events), toy.c.log) == (events, log)


@pytest.mark.parametrize(
    ("seat", "name", "refusal"),
    [
        ("A", "colour", "the table takes no colour now: it shows 'Press your flag'"),
        ("C", "points", "seat C has entered its points already"),
        ("D", "points", "seat D has no points to enter now"),
    ],
)
def test_an_entry_the_step_does_not_take_is_refused_in_one_line(
    seat: str, name: str, refusal: str
) -> None:
    toy = Toy()
    events = len(toy.events)
    assert toy.c.enter(seat, name, "5", now=1.0) == refusal
    assert len(toy.events) == events


def test_an_entry_waits_while_a_number_is_being_entered_on_the_console() -> None:
    toy = Toy().tap("A.shout")  # the number entry for A's points: no page entry on it
    assert toy.c.enter("B", "points", "5", now=9.0) == (
        "the table takes no points now: it shows 'Points for A'"
    )


def test_number_entry_next_adds_one_and_no_takes_one_away() -> None:
    toy = Toy().tap("A.shout", "console.next", "console.next", "console.next", "console.no")
    assert toy.c.number == 3  # starts at 1
    assert toy.c.view().screen.big == "3"


def test_number_entry_yes_takes_the_number_as_the_flow_says() -> None:
    toy = Toy().tap("A.shout", "console.next", "console.yes")
    action = toy.named("action")[-1]
    assert (action["action"], action["seat"], action["points"]) == ("toy.score", "A", 2)
    assert toy.c.game.scores(toy.c.session) == {"A": 2}


def test_number_entry_stays_within_its_bounds() -> None:
    toy = Toy().tap("A.shout", "console.no", "console.no", "console.no")
    assert toy.c.number == 0


def test_holding_next_repeats_after_a_delay_then_speeds_up() -> None:
    toy = Toy().tap("A.shout").edge("console.next", True)
    pressed = toy.t
    toy.at(pressed + REPEAT_DELAY - 0.01)
    assert toy.c.number == 2  # the press itself, no repeat yet
    # repeat k comes at REPEAT_DELAY + (k - 1) * REPEAT_EVERY; the first FAST_AFTER add one
    toy.at(pressed + REPEAT_DELAY + (FAST_AFTER - 1) * REPEAT_EVERY + 0.001)
    assert toy.c.number == 2 + FAST_AFTER
    toy.at(pressed + REPEAT_DELAY + FAST_AFTER * REPEAT_EVERY + 0.001)
    assert toy.c.number == 2 + FAST_AFTER + FAST_STEP


def test_letting_go_stops_the_repeat() -> None:
    toy = Toy().tap("A.shout").edge("console.next", True)
    toy.at(toy.t + REPEAT_DELAY + 0.01).edge("console.next", False)
    value = toy.c.number
    toy.at(toy.t + 5.0)
    assert toy.c.number == value


def test_undo_backs_out_of_a_number_entry_without_taking_anything_back() -> None:
    toy = Toy().tap("A.shout", "console.yes", "B.shout", "console.undo")
    assert toy.c.prompt.key == "toy/wait"
    assert toy.c.game.scores(toy.c.session) == {"A": 1}


def test_count_and_go_mean_nothing_on_a_number_entry() -> None:
    toy = Toy().tap("A.shout", "console.count", "console.go")
    assert toy.c.number == 1
    assert toy.c.prompt.key == "toy/points/A"


def test_every_button_on_a_notice_does_nothing() -> None:
    toy = Toy(target=1).tap("A.shout", "console.yes")
    assert toy.c.prompt.key == "toy/over"
    before = list(toy.events)
    toy.tap(*(f"console.{b}" for b in ("count", "yes", "no", "next")))
    assert [e["event"] for e in toy.events[len(before) :]] == []


def test_the_report_message_shows_when_play_stops() -> None:
    toy = Toy(target=1).tap("A.shout", "console.yes")
    assert toy.c.view().screen.big == "OVER"


def test_the_scoreboard_shows_every_seat() -> None:
    toy = Toy().tap("C.shout", "console.next", "console.yes")
    assert toy.c.view().screen.big == "0:0:2"


def test_a_new_session_keeps_the_finished_log_and_undo_stays_inside_the_new_one() -> None:
    toy = Toy(target=1).tap("A.shout", "console.yes", "console.go")
    assert [a.kind for a in toy.c.finished[0]] == ["toy.start", "toy.score"]
    toy.tap("console.undo")
    assert len(toy.c.log) == 1
    assert toy.c.game.scores(toy.c.session) == {}
    assert toy.named("session")[-1]["number"] == 2
