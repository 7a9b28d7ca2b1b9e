"""The table kernel: edges and deadlines in, rules actions, events and a view out.

Deterministic and free of I/O: the asyncio daemon feeds it real edges (with their pin-factory
timestamps) and the loop's monotonic time; the headless simulator feeds it a script on virtual
time. Timers are absolute deadlines, never sleeps, so nothing drifts (Klipper's reactor: the
core states its next wake time, the shell schedules it).

It knows no game: the game family named in the settings (``firmware_py/table/family.py``)
supplies the rules session, the prompts, what the seat inputs mean and the game's part of the
view. The kernel keeps what every family shares: leading-edge debounce, the shout arbiter, the
count, flow timers, the match clock, held timers after a restart, number entry and UNDO.

A flow timer belongs to its step, unless the step names a span (``Prompt.timer_span``): steps
of one span share its start, so a timer counts from when the span began (a player's turn while
the dealer enters its moves), and runs out once in the span (UNDO may take back what it
decided, and the dealer's entries before it). A time-out step (``Prompt.time_out``) stops the
match clock and the span; both go on with the time they had.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from drivers.display import Screen
from drivers.leds import SeatLight
from firmware_py.table.arbiter import ShoutArbiter, ShoutDecision
from firmware_py.table.debounce import Edge, LeadingEdgeDebouncer
from firmware_py.table.family import PairedMatch, TableFacts, TableGame, family
from firmware_py.table.prompts import CountSpec, Kind, LogAction, Outcome, Prompt, decimal_text
from rules.actions import Action, decode, encode
from rules.errors import RuleError

CONSOLE = ("count", "go", "yes", "no", "undo", "next")
IDLE_TIMES_KEPT = 8  # per button: more presses than this between two views are not judged
OLED_LINE_CHARS = 21  # the small font on a 128-pixel-wide panel
OLED_QUESTION_LINES = 2  # between the big text and the footer
# A reaction time: a YES or NO this soon after the match clock replaced the step on show was
# meant for that step (``Prompt.late_press_guard``, R846; the page's join code: R759).
LATE_PRESS = 1.0


def question_lines(text: str) -> list[str]:
    """A prompt's text as the OLED's lines: wrapped at the panel's width, a newline starting a
    line of its own. Every prompt fits in OLED_QUESTION_LINES (the property tests check)."""
    return [line for part in text.split("\n") for line in textwrap.wrap(part, OLED_LINE_CHARS)]


# Number entry: a held NEXT or NO repeats after REPEAT_DELAY, every REPEAT_EVERY, and after
# FAST_AFTER repeats in steps of FAST_STEP, so a score of 140 is a couple of seconds away.
REPEAT_DELAY = 0.5
REPEAT_EVERY = 0.15
FAST_AFTER = 10
FAST_STEP = 10

Event = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableSettings:
    seats: tuple[str, ...] = ("A", "B")
    tie_window: float = 0.015
    settle: float = 0.006  # lgpio's (drivers.pins.SETTLE_MS); the config sets the real one
    debounce: float = 0.020
    count_cadence: float = 1.0
    family: str = "geoplunge"
    options: Mapping[str, Any] = field(default_factory=dict)  # the family's, plain JSON


def fresh_settings(settings: TableSettings) -> TableSettings:
    """The settings of a table starting afresh, with what its family fixes once drawn (the
    dice's seed): whoever starts a new table calls this, and the journal keeps the result."""
    return replace(settings, options=family(settings.family).fresh(settings.options))


@dataclass(frozen=True, slots=True)
class ScoreboardView:
    scores: Mapping[str, int]
    clock: float | None  # seconds left on the match clock
    count: int | None
    message: str


@dataclass(frozen=True, slots=True)
class TableView:
    screen: Screen
    lights: Mapping[str, SeatLight]
    scoreboard: ScoreboardView


@dataclass(slots=True)
class _Count:
    started: float
    spec: CountSpec
    shown: int = 1


@dataclass(slots=True)
class _Repeat:
    """A held NEXT or NO on a number entry."""

    button: str
    at: float
    repeats: int = 0


@dataclass(slots=True)
class _Span:
    """Steps that share a timer's start (``Prompt.timer_span``)."""

    key: str
    started: float
    paused: float | None = None  # a time out began then
    timer: tuple[str, float, Outcome] | None = None  # the span's timer, as a step last showed it
    spent: set[str] = field(default_factory=set)  # its timers that ran out: each runs out once

    def run_out(self, name: str) -> None:
        """A timer of the span ran out: once, even if UNDO takes back what it decided."""
        if self.timer is not None and self.timer[0] == name:
            self.timer = None
            self.spent.add(name)


@dataclass(frozen=True, slots=True)
class _HeldTimer:
    """A timer that ran out while the table was off: the dealer decides, never silence."""

    name: str  # "match" or the flow timer's name ("chummy")
    left: float  # seconds it had left when the table stopped
    outcome: Outcome | None  # a flow timer's outcome when confirmed as run out


@dataclass(slots=True)
class TableController:
    settings: TableSettings
    emit: Callable[[Event], None]
    now: float
    read_pin: Callable[[str], bool]  # an input's real (debounced-free) level, for settle checks
    game: TableGame = field(init=False)
    session: Any = field(init=False)
    log: list[Action] = field(init=False)
    finished: list[list[Action]] = field(default_factory=list)  # earlier sessions' logs
    scratch: dict[str, Any] = field(default_factory=dict)
    prompt: Prompt = field(init=False)
    cursor: int = 0
    number: int = 0  # the value on show in a number entry, in units of its last place
    places: int = 0  # decimal places open in it (GO opens one on a decimal entry: R774)
    clock_deadline: float | None = None
    message: str = ""
    _debouncer: LeadingEdgeDebouncer = field(init=False)
    _arbiter: ShoutArbiter = field(init=False)
    _window: str | None = None
    _count: _Count | None = None
    _repeat: _Repeat | None = None
    _timer: tuple[str, float, Outcome] | None = None
    _settles: dict[str, float] = field(default_factory=dict)
    _stuck: set[str] = field(default_factory=set)
    _shout_lights: dict[str, SeatLight] = field(default_factory=dict)
    _held: list[_HeldTimer] = field(default_factory=list)
    presses: Counter[str] = field(default_factory=Counter)  # debounced presses per input
    # console presses that meant nothing on the step on show, per button: the page's COUNT
    # confirms a phone only with a press that did nothing else (R496, R761)
    idle_presses: Counter[str] = field(default_factory=Counter)
    # and their own times (the edges', controller time), the latest IDLE_TIMES_KEPT of each: a
    # press is judged by what the OLED showed when it was made, not when it is handled (R799)
    idle_press_times: dict[str, deque[float]] = field(default_factory=dict)
    _shout_text: str = ""  # who won the last shout and by how much, while its lights are on
    _undo_floor: int = 1  # UNDO never takes the log below this: its start, or the clock's time-up
    _span: _Span | None = None
    _time_replaced: float | None = None  # when the match clock last replaced a guarded step
    _time_kept: str | None = None  # the step time called kept open (R846), while it shows
    _clock_paused: float | None = None  # seconds the match clock had when a time out stopped it
    paired: PairedMatch | None = None  # the hub's pairing for this table (a journaled input)
    # the pairing in force when the session's latest action was taken: the seat its result was
    # confirmed under, which its card names however the hub's seating moves on after (R795)
    decided_under: PairedMatch | None = None

    def __post_init__(self) -> None:
        s = self.settings
        self._debouncer = LeadingEdgeDebouncer(window=s.debounce)
        self._arbiter = ShoutArbiter(
            tie_window=s.tie_window, settle=s.settle, seats=frozenset(s.seats)
        )
        self.game = family(s.family).game(s.options, s.seats)
        first = self.game.first_action()
        self.session = self.game.start(first)
        self.log = [first]
        self.prompt = self._compute_prompt()
        self._enter(self.prompt)

    # --- inputs ---------------------------------------------------------------------------

    def prime(self, levels: Mapping[str, bool]) -> None:
        """The inputs' levels when the hardware came up. After a restart, a level that differs
        from the one replayed changed while the table was off: it is an edge, now."""
        for name, active in levels.items():
            if not self._debouncer.known(name):
                self._debouncer.prime(name, active)
            elif self._debouncer.level(name) != active:
                self.on_edge(name, self.now, active, now=self.now)

    def on_edge(self, name: str, ticks: float, active: bool, now: float | None = None) -> None:
        """An electrical edge with its own timestamp; ``now`` is when it was handed over."""
        self.advance(max(ticks, self.now) if now is None else now)
        edge = self._debouncer.edge(name, ticks, active)
        if edge is not None:
            self._settles[name] = ticks + self.settings.debounce
            self._handle(edge)

    def enter(self, seat: str, name: str, value: str, now: float) -> str | None:
        """An entry from the table's web page (a player's typed guess), handed over at ``now``:
        it goes where a button press goes (the step's outcome, the rules core, the events).
        Refused, it is the one line to show on the page, and nothing is decided or emitted:
        the step does not take it, or the rules core refuses its action (its own error)."""
        self.advance(now)
        spec = self.prompt.entry
        if self._held:
            return "the table is waiting for the dealer to settle a timer: try again after"
        if self._count is not None:
            return "the table is counting: try again after the count"
        if spec is None or spec.name != name:
            shown = " ".join(self.prompt.text.split())
            return f"the table takes no {name} now: it shows {shown!r}"
        if seat not in spec.seats:
            if seat in spec.done:
                return f"seat {seat} has entered its {name} already"
            return f"seat {seat} has no {name} to enter now"
        try:
            outcome = spec.take(seat, value)  # a step may read the text with the rules core
            if outcome.action is not None:
                self.game.apply(self.session, decode(outcome.action))
        except RuleError as error:
            return str(error)
        self._shout_lights.clear()
        self._take(outcome)
        return None

    def pair(self, paired: PairedMatch | None, now: float) -> None:
        """The hub's pairing for this table, handed over at ``now`` (None: it has none). A
        flow may offer its round as the next match (R190); nothing is decided by it."""
        self.advance(now)
        self.paired = paired
        self._refresh()

    def level(self, name: str) -> bool:
        """An input's debounced level."""
        return self._debouncer.level(name)

    def next_deadline(self) -> float | None:
        deadlines = self._deadlines().values()
        return min(deadlines) if deadlines else None

    def advance(self, now: float) -> None:
        """Move time forward, firing every deadline up to ``now`` in order."""
        while True:
            due = [(at, key) for key, at in self._deadlines().items() if at <= now]
            if not due:
                break
            at, key = min(due)
            self.now = max(self.now, at)
            self._fire(key)
        self.now = max(self.now, now)

    def resume(self, now: float, *, stopped_at: float, elapsed_known: bool) -> None:
        """After a restart: timers whose deadline passed while the table was off (or all of
        them, when the time off is unknown) wait for the dealer instead of firing."""
        if self._count is not None:
            self._count = None  # the sensors cannot be read in the past: count again
            self.emit(self._event("count_interrupted"))
        self._repeat = None  # nobody is holding a button across a restart
        if self._timer is not None and (not elapsed_known or self._timer[1] <= now):
            name, deadline, outcome = self._timer
            self._timer = None
            self._held.append(_HeldTimer(name, max(0.0, deadline - stopped_at), outcome))
        elif self._timer is None and (span_timer := self._running_span_timer()) is not None:
            name, deadline, outcome = span_timer
            if not elapsed_known or deadline <= now:
                self._held.append(_HeldTimer(name, max(0.0, deadline - stopped_at), outcome))
        clock = self.clock_deadline
        if clock is not None and (not elapsed_known or clock <= now):
            self.clock_deadline = None
            self._held.append(_HeldTimer("match", max(0.0, clock - stopped_at), None))
        for held in self._held:
            self.emit(self._event("timer_held", timer=held.name, left=round(held.left, 3)))
        self.now = max(self.now, now)
        self._refresh()

    def _settle_held(self, run_out: bool) -> None:
        held = self._held.pop(0)
        self.emit(self._event("timer_confirmed" if run_out else "timer_restarted", timer=held.name))
        if held.name == "match":
            if run_out:
                self.emit(self._event("timeout", timer="match"))
                self._time_up()
            else:
                self.clock_deadline = self.now + held.left
        elif run_out:
            assert held.outcome is not None
            if self._span is not None:
                self._span.run_out(held.name)
            self.emit(self._event("timeout", timer=held.name))
            self._take(held.outcome)
        elif self._span is not None:
            self._span.started = self.now  # its span starts again with it
        # a restarted flow timer starts afresh when its prompt is entered again
        self._refresh()

    def _running_span_timer(self) -> tuple[str, float, Outcome] | None:
        """The span's timer while a step of the span without it shows: (name, deadline, outcome)."""
        span = self._span
        if span is None or span.timer is None or span.paused is not None:
            return None
        name, seconds, outcome = span.timer
        return name, span.started + seconds, outcome

    # --- deadlines --------------------------------------------------------------------------

    def _deadlines(self) -> dict[str, float]:
        deadlines: dict[str, float] = {}
        if self._count is not None:
            cadence = self.settings.count_cadence
            if self._count.shown < self._count.spec.to:
                deadlines["count"] = self._count.started + self._count.shown * cadence
            else:
                deadlines["count_read"] = self._reading_time() + self.settings.settle
        shout = self._arbiter.deadline
        if shout is not None:
            deadlines["shout"] = shout
        if self._timer is not None and shout is None:
            # Decided ``settle`` after it runs out, and never while a shout is being decided:
            # a press whose edge is inside the window counts, however late its callback (R110).
            deadlines["timer"] = self._timer[1] + self.settings.settle
        if self._repeat is not None:
            deadlines["repeat"] = self._repeat.at
        if self.clock_deadline is not None and self.game.clock_runs(self.session):
            deadlines["match"] = self.clock_deadline
        for name, at in self._settles.items():
            deadlines[f"settle:{name}"] = at
        return deadlines

    def _fire(self, key: str) -> None:
        if key.startswith("settle:"):
            name = key.partition(":")[2]
            del self._settles[name]
            edge = self._debouncer.settle(name, self.now, self.read_pin(name))
            if edge is not None:
                self._settles[name] = self.now + self.settings.debounce
                self._handle(edge)
        elif key == "count":
            assert self._count is not None
            self._count.shown += 1
            self.emit(self._event("count", n=self._count.shown))
        elif key == "count_read":
            self._finish_count()
        elif key == "shout":
            decision = self._arbiter.decide(self.now)
            assert decision is not None
            self._shout_decided(decision)
        elif key == "timer":
            assert self._timer is not None
            name, _, outcome = self._timer
            self._timer = None
            if self._span is not None:
                self._span.run_out(name)
            self.emit(self._event("timeout", timer=name))
            self._take(outcome)
        elif key == "repeat":
            self._repeat_number()
        elif key == "match":
            self.clock_deadline = None
            self.emit(self._event("timeout", timer="match"))
            shown = self.prompt
            self._time_up()
            self._refresh()
            if shown.late_press_guard and self.prompt.key != shown.key:
                self._time_replaced = self.now

    def _reading_time(self) -> float:
        assert self._count is not None
        return self._count.started + (self._count.spec.to - 1) * self.settings.count_cadence

    # --- what edges do ----------------------------------------------------------------------

    def _handle(self, edge: Edge) -> None:
        if edge.active:
            self.presses[edge.name] += 1
        group, _, what = edge.name.partition(".")
        if group == "console":
            if edge.active:
                if not self._console(what, edge.ticks):
                    self.idle_presses[what] += 1
                    times = self.idle_press_times.setdefault(what, deque(maxlen=IDLE_TIMES_KEPT))
                    times.append(edge.ticks)
            elif self._repeat is not None and self._repeat.button == what:
                self._repeat = None  # a held NEXT or NO let go
        elif what == "shout" and self._window is not None:
            self._shout_edge(group, edge)
        elif what == "shout" and not edge.active and self._arbiter.release(group):
            self._stuck.discard(edge.name)
            self.emit(self._event("released", input=edge.name))
        elif self._count is None:
            on_press = self.prompt.on_press
            outcome = on_press(group, what) if edge.active and on_press is not None else None
            if outcome is not None:
                key = self.prompt.key
                self._take(outcome)
                if outcome.action is None and self.prompt.key == key:
                    # remembered for later on the same step (a flag pressed during an entry,
                    # R260): a decision all the same, which the journal keeps across a restart
                    self.emit(self._event("remembered", input=edge.name, what=outcome.label))
            elif what != "shout":
                self._refresh()  # a seat LED may follow the input (GeoPlunge: the stand-up sensor)

    def _shout_edge(self, seat: str, edge: Edge) -> None:
        if edge.active:
            if self._arbiter.press(seat, edge.ticks):
                self.emit(self._event("press", input=edge.name, ticks=round(edge.ticks, 6)))
                self.advance(self.now)  # the last seat to press: the decision is due now
        elif self._arbiter.release(seat):
            self._stuck.discard(edge.name)
            self.emit(self._event("released", input=edge.name))

    def _console(self, button: str, ticks: float) -> bool:
        """A console button pressed at ``ticks``. What it means depends on the step; where it
        means nothing it does nothing (the OLED footer says what the buttons do): False."""
        prompt = self.prompt
        if self._held:  # a timer ran out while the table was off: settled first (R83, R111)
            if button in ("yes", "no"):
                self._settle_held(run_out=button == "yes")
                return True
            return False
        replaced = self._time_replaced
        if button in ("yes", "no") and replaced is not None and ticks < replaced + LATE_PRESS:
            return False  # meant for the step time called replaced, not for this one (R846)
        if button == "undo":
            self._undo()
            return True
        if self._count is not None:
            return True  # the count runs to its end (only UNDO stops it): a press is the count's
        if button == "count" and prompt.kind is Kind.COUNT and prompt.count is not None:
            self._count = _Count(started=self.now, spec=prompt.count)
            self.emit(self._event("count", n=1))
        elif prompt.kind is Kind.NUMBER and button != "count":
            if not self._number_button(button, prompt):
                return False
            self._shout_lights.clear()
        elif button in ("next", "no") and prompt.kind is Kind.CHOICE:
            step = 1 if button == "next" else -1
            self.cursor = (self.cursor + step) % len(prompt.options)
            self._shout_lights.clear()
            # a decision like any other: the journal keeps the option on show across a restart
            shown = prompt.options[self.cursor].label
            self.emit(self._event("option", key=prompt.key, shown=shown))
        elif button == "go" and prompt.kind is Kind.SHOUT and prompt.opens_on_go:
            if self._window == prompt.window:
                return True  # the race is on: a second GO must not wipe the shouts it holds
            self._open_window(prompt)
            self._shout_lights.clear()
        else:
            outcome = prompt.answer(button, self.cursor)
            if outcome is None:
                return False  # a button that means nothing now does nothing
            self._shout_lights.clear()
            self._take(outcome)
        self._refresh()
        return True

    def _number_button(self, button: str, prompt: Prompt) -> bool:
        spec = prompt.number
        assert spec is not None
        if button in ("next", "no"):
            self._step_number(1 if button == "next" else -1)
            self._repeat = _Repeat(button, self.now + REPEAT_DELAY)
        elif button == "yes" and self.places and spec.take_decimal is not None:
            self._take(spec.take_decimal(decimal_text(self.number, self.places)))
        elif button == "yes":
            self._take(spec.take(self.number))
        elif button == "go" and self.places < spec.places:
            self._set_number(self.number * 10, self.places + 1)  # the next place, at 0
        elif button == "go" and prompt.go is not None:
            self._take(prompt.go)
        else:
            return False
        return True

    def _step_number(self, step: int) -> None:
        spec = self.prompt.number
        assert spec is not None
        value = spec.clamp(self.number + step, self.places)
        if value != self.number:
            self._set_number(value, self.places)

    def _set_number(self, value: int, places: int) -> None:
        self.number, self.places = value, places
        shown: int | str = value if places == 0 else decimal_text(value, places)
        self.emit(self._event("number", value=shown))

    def _close_place(self) -> None:
        """UNDO on a decimal entry: the last place opened is closed, its digit dropped."""
        whole = abs(self.number) // 10
        self._set_number(-whole if self.number < 0 else whole, self.places - 1)

    def _repeat_number(self) -> None:
        repeat = self._repeat
        assert repeat is not None
        if self.prompt.kind is not Kind.NUMBER:
            self._repeat = None
            return
        repeat.repeats += 1
        size = FAST_STEP if repeat.repeats > FAST_AFTER else 1
        self._step_number(size if repeat.button == "next" else -size)
        repeat.at = self.now + REPEAT_EVERY

    def _finish_count(self) -> None:
        assert self._count is not None
        reading = self._reading_time()
        spec = self._count.spec
        seats = [
            seat
            for seat in self.settings.seats
            if self._debouncer.level_at(f"{seat}.{spec.role}", reading)
        ]
        self._count = None
        self.emit(self._event(spec.event, **{spec.field: seats}))
        self._take(spec.outcome(seats))

    def _shout_decided(self, decision: ShoutDecision) -> None:
        self._window = None
        margin = None if decision.margin_ms is None else round(decision.margin_ms, 1)
        self.emit(
            self._event("shout", first=decision.first, margin_ms=margin, result=decision.result)
        )
        for seat in self.settings.seats:
            won = seat in decision.shouters
            self._shout_lights[seat] = SeatLight.WON if won else SeatLight.LOCKED
        if decision.result == "tie":
            self._shout_text = f"TIE {margin:g}ms"
        elif margin is None:
            self._shout_text = f"{decision.first} FIRST"
        else:
            self._shout_text = f"{decision.first} +{margin:g}ms"
        on_shout = self.prompt.on_shout
        if on_shout is not None:
            self._take(on_shout(decision))
        self._refresh()

    def _open_window(self, prompt: Prompt) -> None:
        self._window = prompt.window
        self._shout_lights.clear()
        held = {seat for seat in self.settings.seats if self._debouncer.level(f"{seat}.shout")}
        for seat in sorted(self._arbiter.open(held)):
            name = f"{seat}.shout"
            self._stuck.add(name)
            self.emit(self._event("stuck", input=name))
        self.emit(self._event("window", open=True, window=prompt.window))

    # --- applying outcomes ------------------------------------------------------------------

    def _take(self, outcome: Outcome) -> None:
        if outcome.clock_minutes is not None:
            self.clock_deadline = self.now + outcome.clock_minutes * 60
            self._clock_paused = None
            self.emit(self._event("clock", started=True, minutes=outcome.clock_minutes))
        if outcome.new_session is not None:
            # the answer that chose the new session may also be remembered in it (a game
            # chosen at the start is the game to play: the flow asks no more, R491)
            if self._new_session(outcome.new_session):
                self.scratch.update(outcome.scratch)
        elif outcome.action is not None:
            if self._apply(outcome.action) and outcome.then is not None:
                self._apply(outcome.then)
        else:
            self.scratch.update(outcome.scratch)
        self._refresh()

    def _apply(self, log_action: LogAction) -> bool:
        try:
            action = decode(log_action)
            session = self.game.apply(self.session, action)
        except RuleError as error:
            self.emit(self._event("refused", action=log_action.get("action"), reason=str(error)))
            return False
        before = self.session
        self.session = session
        self.log.append(action)
        self.decided_under = self.paired
        self.scratch = {}
        self.emit(self._event("action", **encode(action)))
        report = self.game.report(before, session)
        for name, fields in report.events:
            self.emit(self._event(name, **fields))
        if report.message is not None:
            self.message = report.message
        return True

    def _time_up(self) -> None:
        """The match clock ran out: the time-up is the clock's decision, not the dealer's, so
        UNDO cannot take it (or anything before it) back. It drops the entry in progress
        (R259), unless the step on show is not play and the game after the call still asks
        it: then the entry stays open where it was (R846)."""
        shown, scratch = self.prompt, dict(self.scratch)
        if not self._apply(self.game.time_up()):
            return
        self._undo_floor = len(self.log)
        if shown.open_at_time_up is not None and scratch:
            kept = self.game.prompt(self.session, scratch, self._facts())
            if kept.key == shown.key:
                self.scratch = scratch
                self._time_kept = shown.key
                self.emit(self._event("kept_open", key=shown.key, reason="time called (R846)"))

    def _new_session(self, log_action: LogAction) -> bool:
        """The next session (a new round's match) in the same journal; the finished one's log
        is kept whole (exportable), and UNDO never reaches back into it. A session in which
        nothing was decided (its start alone) is replaced, not kept: the set-up changed."""
        try:
            action = decode(log_action)
            session = self.game.start(action)
        except RuleError as error:
            self.emit(self._event("refused", action=log_action.get("action"), reason=str(error)))
            return False
        if len(self.log) > 1:
            self.finished.append(self.log)
        self.session = session
        self.log = [action]
        self.decided_under = self.paired
        self._undo_floor = 1
        self.scratch = {}
        self._time_replaced = self._time_kept = None
        self.message = ""
        self.clock_deadline = None
        self._clock_paused = None
        self._span = None
        self.emit(self._event("session", number=len(self.finished) + 1, **encode(action)))
        return True

    def _undo(self) -> None:
        """Take back the last rules action (the log is replayed without it); on a decimal
        entry with a place open, that place first."""
        self._repeat = None
        if self._count is None and self.prompt.kind is Kind.NUMBER and self.places:
            self._close_place()
            self._refresh()
            return
        back = self.prompt.number.back if self.prompt.number is not None else None
        if self._count is not None:
            self._count = None
            self.emit(self._event("undo", what="count", reason="dealer pressed UNDO"))
        elif back is not None and self._count is None:
            self.scratch.update(back.scratch)
            self.emit(self._event("undo", what="number", reason="dealer pressed UNDO"))
        elif self.scratch:
            # answers given but not yet a rules action (a shout, a first pick): the last
            # decision is theirs, so only they are taken back, not the action before them
            self.emit(
                self._event(
                    "undo", what="answer", undone=dict(self.scratch), reason="dealer pressed UNDO"
                )
            )
        elif len(self.log) > self._undo_floor:
            undone = self.log.pop()
            session = self.game.start(self.log[0])
            message = ""  # what the table said last, without the action taken back
            for action in self.log[1:]:
                before, session = session, self.game.apply(session, action)
                said = self.game.report(before, session).message
                message = message if said is None else said
            self.session, self.message = session, message
            self.emit(
                self._event(
                    "undo", what=undone.kind, undone=encode(undone), reason="dealer pressed UNDO"
                )
            )
        if back is None:
            self.scratch = {}
        self._arbiter.close()
        self._window = None
        self._timer = None
        self._shout_lights.clear()
        self._refresh()

    # --- prompts ----------------------------------------------------------------------------

    def _facts(self) -> TableFacts:
        return TableFacts(
            self.settings.seats,
            clock_running=self.clock_deadline is not None,
            session=len(self.finished) + 1,
            paired=self.paired,
            decided_under=self.decided_under,
        )

    def _compute_prompt(self) -> Prompt:
        if self._held:
            held = self._held[0]
            what = "match clock" if held.name == "match" else f"{held.name} timer"
            # YES and NO settle the held timer (``_settle_held``), not through these outcomes
            return Prompt(
                key=f"recover/{held.name}",
                kind=Kind.YES_NO,
                text=f"The {what} ran out while off: over?",
                options=(Outcome("ran out"), Outcome("restart")),
                hint="YES: over NO: restart",
            )
        return self.game.prompt(self.session, self.scratch, self._facts())

    def _refresh(self) -> None:
        prompt = self._compute_prompt()
        if prompt.key != self.prompt.key:
            self._leave(self.prompt, prompt)
            self.prompt = prompt
            self._enter(prompt)
        else:
            self.prompt = prompt
            if prompt.kind is Kind.CHOICE and prompt.options:
                self.cursor %= len(prompt.options)  # the same step with fewer options
            if prompt.kind is Kind.CHOICE:
                self.cursor %= len(prompt.options)  # the same step with fewer options
            if self._timer is None and prompt.timer_span is not None and not self._held:
                self._arm(prompt, again=True)  # UNDO stopped it on the same step

    def _leave(self, old: Prompt, new: Prompt) -> None:
        self.cursor = 0
        self._time_kept = None  # the entry time called kept open is done or closed
        self._timer = None
        self._repeat = None
        if self._window is not None and new.window != self._window:
            self._arbiter.close()
            self._window = None

    def _enter(self, prompt: Prompt) -> None:
        self.emit(self._event("prompt", key=prompt.key, text=prompt.text))
        if not self._held:  # the held-timer question belongs to no span and is no time out
            self._follow_time_out(prompt)
            self._follow_span(prompt)
        if prompt.kind is Kind.SHOUT and not prompt.opens_on_go and self._window != prompt.window:
            self._open_window(prompt)
        self._arm(prompt)
        if prompt.number is not None:
            self.number, self.places = prompt.number.clamp(prompt.number.start), 0

    def _arm(self, prompt: Prompt, *, again: bool = False) -> None:
        """Start the step's timer: from now, or from its span's start. ``again``: a span's
        timer stopped on the step that shows it starts again, unless it is already due."""
        if prompt.timer is None:
            return
        name, seconds, outcome = prompt.timer
        start = self.now
        if prompt.timer_span is not None and self._span is not None:
            if name in self._span.spent:
                return  # UNDO took back what it decided: it does not run out again
            start = self._span.started
            self._span.timer = prompt.timer
        if again and start + seconds <= self.now:
            return  # it ran out on this step and its outcome was taken (or refused)
        self._timer = (name, start + seconds, outcome)
        if prompt.kind is Kind.SHOUT:
            self._arbiter.close_at(start + seconds)

    def _follow_time_out(self, prompt: Prompt) -> None:
        """A time out stops the match clock and the span; the next other step goes on."""
        if prompt.time_out:
            if self._span is not None and self._span.paused is None:
                self._span.paused = self.now
            if self.clock_deadline is not None:
                self._clock_paused = max(0.0, self.clock_deadline - self.now)
                self.clock_deadline = None
                self.emit(self._event("clock", paused=True, left=round(self._clock_paused, 3)))
        elif self._clock_paused is not None:
            self.clock_deadline = self.now + self._clock_paused
            self.emit(self._event("clock", resumed=True, left=round(self._clock_paused, 3)))
            self._clock_paused = None

    def _follow_span(self, prompt: Prompt) -> None:
        if prompt.time_out:
            return  # the span waits for the step after the time out
        key = prompt.timer_span
        span = self._span
        if key is None:
            self._span = None
        elif span is None or span.key != key:
            self._span = _Span(key, self.now)
        elif span.paused is not None:
            span.started += self.now - span.paused  # the time out does not count
            span.paused = None

    def _event(self, name: str, **fields: Any) -> Event:
        return {"t": round(self.now, 4), "event": name, **fields}

    # --- the view ---------------------------------------------------------------------------

    def view(self) -> TableView:
        return TableView(self._screen(), self._lights(), self._scoreboard())

    def next_view_change(self) -> float | None:
        """When a countdown on show next changes its whole second (for redraw scheduling)."""
        candidates = []
        for deadline in (self.clock_deadline, self._timer[1] if self._timer else None):
            if deadline is not None and deadline > self.now:
                left = deadline - self.now
                candidates.append(
                    self.now + (left - math.floor(left - 1e-9)) if left > 1 else deadline
                )
        return min(candidates) if candidates else None

    def _clock_left(self) -> float | None:
        if self.clock_deadline is None:
            return self._clock_paused  # None, or the time a time out holds
        return max(0.0, self.clock_deadline - self.now)

    def _screen(self) -> Screen:
        """Title: the game (or the match score) and the clock; big: the count, a countdown,
        the choice or number shown, a result or the score; then the question on two lines."""
        scores = self.game.scores(self.session)
        where = self.game.title(self.session)
        clock = self._clock_left()
        title = f"{where} {format_clock(clock)}" if clock is not None else where
        prompt = self.prompt
        if self._count is not None:
            big = str(self._count.shown)
        elif self._timer is not None:
            big = str(math.ceil(max(0.0, self._timer[1] - self.now)))
        elif prompt.kind is Kind.CHOICE and prompt.options:
            big = prompt.options[self.cursor].label
        elif prompt.kind is Kind.NUMBER:
            big = decimal_text(self.number, self.places)
        elif self._shout_lights and self._shout_text:
            big = self._shout_text  # "B +31ms", "TIE 4.2ms": until the dealer answers
        elif self.message and not self.game.in_play(self.session):
            big = self.message
        else:
            big = ":".join(str(scores.get(seat, 0)) for seat in self.settings.seats)
        lines = tuple(question_lines(prompt.text)[:2])
        stuck = " ".join(sorted(self._stuck))
        alert = f"STUCK {stuck}" if stuck else prompt.alert
        if not stuck and self._time_kept == prompt.key and prompt.open_at_time_up is not None:
            alert = prompt.open_at_time_up  # time was called: the entry waits for its answer
        return Screen(title=title, big=big, lines=lines, footer=prompt.hint, alert=alert)

    def _lights(self) -> dict[str, SeatLight]:
        lights = {}
        for seat in self.settings.seats:
            if seat in self._shout_lights:
                lights[seat] = self._shout_lights[seat]
            else:
                lights[seat] = self.game.light(self.session, seat, self._debouncer.level)
        return lights

    def _scoreboard(self) -> ScoreboardView:
        count = self._count.shown if self._count is not None else None
        return ScoreboardView(
            self.game.scores(self.session),
            self._clock_left(),
            count,
            self.message or self.prompt.text,
        )


def format_clock(seconds: float) -> str:
    """A countdown shows the ceiling: 0:00 only when time is really up."""
    whole = math.ceil(seconds - 1e-9)
    return f"{whole // 60}:{whole % 60:02d}"
