"""The kernel's timer spans, time outs and flow alerts, with a toy family of its own: a timer
that counts from its span's start over several steps, a time out that stops the match clock
and the span and lets them go on with the time they had, a span's timer held across a restart,
and a set-up session that is replaced, not kept."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from drivers.leds import SeatLight
from firmware_py.table.controller import TableController, TableSettings
from firmware_py.table.family import Options, Report, TableFacts, TableFamily, register
from firmware_py.table.prompts import Kind, LogAction, Outcome, Prompt, confirm, notice
from rules.actions import Action
from rules.actions import register as register_action
from rules.errors import IllegalAction

SECONDS = 30.0


@register_action("spantoy.start")
@dataclass(frozen=True, slots=True)
class SpanStart(Action):
    label: str = "first"


@register_action("spantoy.do")
@dataclass(frozen=True, slots=True)
class SpanDo(Action):
    what: str  # "next" (a new turn), "late", "halt", "resume", "mark"


@dataclass(frozen=True, slots=True)
class SpanSession:
    name: str
    turn: int = 1
    late: int = 0
    halted: bool = False
    marks: int = 0


@dataclass(frozen=True, slots=True)
class SpanTable:
    """A turn with a 30-second timer: YES opens a menu (same span, no timer), GO starts the next
    turn, NO halts (a time out) and YES resumes; at 30 s the turn is late."""

    def first_action(self) -> Action:
        return SpanStart()

    def start(self, first: Action) -> SpanSession:
        assert isinstance(first, SpanStart)
        return SpanSession(first.label)

    def apply(self, session: SpanSession, action: Action) -> SpanSession:
        if not isinstance(action, SpanDo):
            raise IllegalAction("spantoy.do only")
        if action.what == "next":
            return replace(session, turn=session.turn + 1)
        if action.what == "late":
            return replace(session, late=session.late + 1)
        if action.what == "mark":
            return replace(session, marks=session.marks + 1)
        return replace(session, halted=action.what == "halt")

    def prompt(self, session: SpanSession, scratch: Mapping[str, Any], table: TableFacts) -> Prompt:
        span = f"turn{session.turn}"
        if session.halted:
            prompt = confirm("toy/halted", "Time out", Outcome("on", do("resume")))
            return replace(prompt, time_out=True)
        if scratch.get("menu"):
            prompt = confirm("toy/menu", "Menu", Outcome("mark", do("mark")))
            return replace(prompt, timer_span=span, go=Outcome("set up", new_session=START))
        late = session.late >= session.turn
        return Prompt(
            key=f"toy/turn{session.turn}",
            kind=Kind.YES_NO,
            text="Turn",
            options=(Outcome("menu", scratch={"menu": True}), Outcome("halt", do("halt"))),
            go=Outcome("next", do("next")),
            timer=None if late else ("turn", SECONDS, Outcome("late", do("late"))),
            timer_span=span,
            alert="LATE" if late else None,
        )

    def report(self, before: SpanSession, after: SpanSession) -> Report:
        return Report()

    def summary(self, session: SpanSession) -> dict[str, Any]:
        return {}

    def scores(self, session: SpanSession) -> dict[str, int]:
        return {}

    def title(self, session: SpanSession) -> str:
        return "SPAN"

    def in_play(self, session: SpanSession) -> bool:
        return True

    def clock_runs(self, session: SpanSession) -> bool:
        return True

    def time_up(self) -> LogAction:
        return do("mark")

    def light(self, session: SpanSession, seat: str, level: Callable[[str], bool]) -> SeatLight:
        return SeatLight.OFF


def do(what: str) -> LogAction:
    return {"action": "spantoy.do", "what": what}


START = {"action": "spantoy.start", "label": "second"}


def _spantoy(options: Options, seats: tuple[str, ...]) -> SpanTable:
    return SpanTable()


register(TableFamily(name="spantoy", roles={}, game=_spantoy))


class Toy:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        settings = TableSettings(family="spantoy", settle=0.0)
        self.c = TableController(
            settings=settings, emit=self.events.append, now=0.0, read_pin=lambda name: False
        )

    def at(self, t: float) -> Toy:
        self.c.advance(t)
        return self

    def tap(self, button: str, t: float) -> Toy:
        self.c.on_edge(f"console.{button}", t, True, now=t)
        self.c.on_edge(f"console.{button}", t + 0.05, False, now=t + 0.05)
        return self

    def whats(self) -> list[str]:
        return [e["what"] for e in self.events if e["event"] == "action"]


def test_a_span_s_timer_counts_from_the_span_s_start_not_the_step_s() -> None:
    toy = Toy().tap("yes", 10.0).tap("undo", 20.0)  # the menu and back: the same span
    assert toy.c.view().screen.big == "10"
    toy.at(30.0)
    assert toy.whats() == ["late"]


def test_a_step_of_the_span_without_the_timer_holds_it_off_until_it_shows_again() -> None:
    toy = Toy().tap("yes", 10.0).at(45.0)
    assert toy.whats() == []
    toy.tap("yes", 46.0)  # the menu's outcome: back on the turn, long due
    assert toy.whats() == ["mark", "late"]


def test_a_new_span_starts_its_timer_afresh() -> None:
    toy = Toy().tap("go", 20.0)
    assert toy.c.view().screen.big == "30"
    toy.at(49.0)
    assert toy.whats() == ["next"]


def test_a_time_out_stops_the_span_and_the_match_clock_and_they_go_on() -> None:
    toy = Toy()
    toy.c.clock_deadline = 100.0  # as a GO with clock_minutes would have set it
    toy.tap("no", 10.0).at(500.0)  # a time out for 490 seconds
    assert toy.whats() == ["halt"]
    assert toy.c.view().scoreboard.clock == pytest.approx(90.0)
    toy.tap("yes", 500.0)
    assert toy.c.clock_deadline == pytest.approx(590.0)
    assert toy.c.view().screen.big == "20"  # the 10 seconds it had run are kept
    assert [e.get("paused") or e.get("resumed") for e in toy.events if e["event"] == "clock"] == [
        True,
        True,
    ]


def test_undo_on_the_same_step_does_not_lose_the_span_s_timer() -> None:
    toy = Toy().tap("undo", 5.0).at(31.0)  # nothing to take back: the step stays
    assert toy.whats() == ["late"]


def test_a_span_s_timer_runs_out_once_and_undo_can_reach_past_what_it_decided() -> None:
    toy = Toy().tap("yes", 1.0).tap("yes", 2.0).at(31.0)  # a mark, then late
    assert toy.whats() == ["mark", "late"]
    toy.tap("undo", 32.0).at(40.0)
    assert toy.whats() == ["mark", "late"]  # taken back, and it does not run out again
    assert toy.c.session.late == 0
    toy.tap("undo", 41.0)
    assert toy.c.session.marks == 0


def test_the_flow_s_alert_shows_in_the_oled_s_top_row() -> None:
    toy = Toy().at(31.0)
    assert toy.c.view().screen.alert == "LATE"


def test_a_span_s_timer_that_ran_out_while_off_on_a_step_without_it_is_held() -> None:
    toy = Toy().tap("yes", 10.0)  # the menu shows when the table stops
    toy.c.resume(100.0, stopped_at=12.0, elapsed_known=True)
    assert toy.c.prompt.key == "recover/turn"
    toy.tap("no", 101.0)  # restart: the span starts again with it
    assert toy.c.prompt.key == "toy/menu"
    toy.tap("undo", 102.0)
    assert toy.c.view().screen.big == "29"
    assert toy.whats() == []


def test_a_span_s_timer_held_and_confirmed_runs_out() -> None:
    toy = Toy().tap("yes", 10.0)
    toy.c.resume(100.0, stopped_at=12.0, elapsed_known=True)
    toy.tap("yes", 101.0)
    assert toy.whats() == ["late"]


def test_a_span_s_timer_that_has_run_out_is_not_held_again() -> None:
    toy = Toy().at(31.0)  # late: the turn's step has no timer any more
    toy.c.resume(100.0, stopped_at=31.0, elapsed_known=False)
    assert toy.c.prompt.key == "toy/turn1"


def test_a_set_up_session_with_nothing_decided_is_replaced_not_kept() -> None:
    toy = Toy().tap("yes", 1.0).tap("go", 2.0)
    assert toy.c.finished == []
    assert toy.c.log[0] == SpanStart("second")
    toy.tap("yes", 3.0).tap("yes", 4.0).tap("yes", 5.0).tap("go", 6.0)  # a mark decided
    assert [action.kind for action in toy.c.finished[0]] == ["spantoy.start", "spantoy.do"]


def test_a_time_out_step_may_not_run_a_timer() -> None:
    with pytest.raises(ValueError, match="a time out runs no timer"):
        replace(notice("x", "y"), time_out=True, timer=("t", 1.0, Outcome("z")))
