"""The table controller: edges and deadlines in, rules actions, events and a view out.

Deterministic and free of I/O: the asyncio daemon feeds it real edges (with their pin-factory
timestamps) and the loop's monotonic time; the headless simulator feeds it a script on virtual
time. Timers are absolute deadlines, never sleeps, so nothing drifts (Klipper's reactor: the
core states its next wake time, the shell schedules it).
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from drivers.display import Screen
from drivers.leds import SeatLight
from firmware_py.arbiter import ShoutArbiter, ShoutDecision
from firmware_py.debounce import Edge, LeadingEdgeDebouncer
from firmware_py.flows import flow_for
from firmware_py.flows.prompts import FlowSettings, Kind, LogAction, Outcome, Prompt, choice
from rules.actions import Action, decode, encode
from rules.errors import RuleError
from rules.games.registry import game_rules
from rules.match import GAME_NUMBERS, MatchKind, MatchState, StartMatch, TimeUpRule
from rules.replay import GameSession, Session, StartGame, apply_session, replay, start_session
from rules.scoring import score_game

CONSOLE = ("count", "go", "yes", "no", "undo", "next")
COUNT_TO = 5
OLED_LINE_CHARS = 21  # the small font on a 128-pixel-wide panel
SHORT_TITLES = {1: "BORDER-UP", 2: "STATE IQ", 3: "DASHING", 4: "GAME 4", 5: "CHUMMY"}
PICK_PAIRS = tuple((a, b) for a in GAME_NUMBERS for b in GAME_NUMBERS if a < b)
NEXT_GAME: LogAction = {"action": "match.next_game"}

Event = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableSettings:
    seats: tuple[str, ...] = ("A", "B")
    tie_window: float = 0.015
    settle: float = 0.050
    debounce: float = 0.020
    count_cadence: float = 1.0
    chummy_seconds: float = 15.0
    round: int = 1
    match_minutes: int = 20
    on_time_up: TimeUpRule = TimeUpRule.ABANDON
    game: int | None = None  # practice: one game on its own, no match clock


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
    shown: int = 1


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
    session: Session = field(init=False)
    log: list[Action] = field(init=False)
    scratch: dict[str, Any] = field(default_factory=dict)
    prompt: Prompt = field(init=False)
    cursor: int = 0
    clock_deadline: float | None = None
    message: str = ""
    _debouncer: LeadingEdgeDebouncer = field(init=False)
    _arbiter: ShoutArbiter = field(init=False)
    _window: str | None = None
    _count: _Count | None = None
    _timer: tuple[str, float, Outcome] | None = None
    _settles: dict[str, float] = field(default_factory=dict)
    _stuck: set[str] = field(default_factory=set)
    _shout_lights: dict[str, SeatLight] = field(default_factory=dict)
    _held: list[_HeldTimer] = field(default_factory=list)
    presses: Counter[str] = field(default_factory=Counter)  # debounced presses per input
    _shout_text: str = ""  # who won the last shout and by how much, while its lights are on

    def __post_init__(self) -> None:
        s = self.settings
        self._debouncer = LeadingEdgeDebouncer(window=s.debounce)
        self._arbiter = ShoutArbiter(tie_window=s.tie_window, settle=s.settle)
        first: Action = (
            StartGame(game=s.game)
            if s.game is not None
            else StartMatch(round=s.round, minutes=s.match_minutes, on_time_up=s.on_time_up)
        )
        self.session = start_session(first)
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
        if self._timer is not None and (not elapsed_known or self._timer[1] <= now):
            name, deadline, outcome = self._timer
            self._timer = None
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
                self._apply({"action": "match.time_up"})
            else:
                self.clock_deadline = self.now + held.left
        elif run_out:
            assert held.outcome is not None
            self.emit(self._event("timeout", timer=held.name))
            self._take(held.outcome)
        # a restarted flow timer starts afresh when its prompt is entered again
        self._refresh()

    # --- deadlines --------------------------------------------------------------------------

    def _deadlines(self) -> dict[str, float]:
        deadlines: dict[str, float] = {}
        if self._count is not None:
            cadence = self.settings.count_cadence
            if self._count.shown < COUNT_TO:
                deadlines["count"] = self._count.started + self._count.shown * cadence
            else:
                deadlines["plunge"] = self._reading_time() + self.settings.settle
        shout = self._arbiter.deadline
        if shout is not None:
            deadlines["shout"] = shout
        if self._timer is not None and shout is None:
            # Decided ``settle`` after it runs out, and never while a shout is being decided:
            # a press whose edge is inside the window counts, however late its callback (R110).
            deadlines["timer"] = self._timer[1] + self.settings.settle
        if self.clock_deadline is not None and not self._match_over():
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
        elif key == "plunge":
            self._finish_count()
        elif key == "shout":
            decision = self._arbiter.decide(self.now)
            assert decision is not None
            self._shout_decided(decision)
        elif key == "timer":
            assert self._timer is not None
            name, _, outcome = self._timer
            self._timer = None
            self.emit(self._event("timeout", timer=name))
            self._take(outcome)
        elif key == "match":
            self.clock_deadline = None
            self.emit(self._event("timeout", timer="match"))
            self._apply({"action": "match.time_up"})
            self._refresh()

    def _reading_time(self) -> float:
        assert self._count is not None
        return self._count.started + (COUNT_TO - 1) * self.settings.count_cadence

    # --- what edges do ----------------------------------------------------------------------

    def _handle(self, edge: Edge) -> None:
        if edge.active:
            self.presses[edge.name] += 1
        group, _, what = edge.name.partition(".")
        if group == "console":
            if edge.active:
                self._console(what)
        elif what == "shout":
            self._shout_edge(group, edge)
        elif what == "stand" and self._count is None:
            self._refresh()  # the team LED follows the sensor

    def _shout_edge(self, seat: str, edge: Edge) -> None:
        if edge.active:
            if self._arbiter.press(seat, edge.ticks):
                self.emit(self._event("press", input=edge.name, ticks=round(edge.ticks, 6)))
        elif self._arbiter.release(seat):
            self._stuck.discard(edge.name)
            self.emit(self._event("released", input=edge.name))

    def _console(self, button: str) -> None:
        """A console button. What it means depends on the step; where it means nothing it
        does nothing (the OLED footer says what the buttons do)."""
        prompt = self.prompt
        if button == "undo":
            self._undo()
            return
        if self._count is not None:
            return  # the count runs to 5; only UNDO stops it
        if self._held:
            if button in ("yes", "no"):
                self._settle_held(run_out=button == "yes")
            return
        if button == "count" and prompt.kind is Kind.COUNT:
            self._count = _Count(started=self.now)
            self.emit(self._event("count", n=1))
        elif button in ("next", "no") and prompt.kind is Kind.CHOICE:
            step = 1 if button == "next" else -1
            self.cursor = (self.cursor + step) % len(prompt.options)
            self._shout_lights.clear()
        elif button == "go" and prompt.opens_on_go:
            if self._window == prompt.window:
                return  # the race is on: a second GO must not wipe the shouts it holds
            self._open_window(prompt)
        else:
            outcome = prompt.answer(button, self.cursor)
            if outcome is None:
                return
            self._shout_lights.clear()
            self._take(outcome)
        self._refresh()

    def _finish_count(self) -> None:
        reading = self._reading_time()
        plunging = [
            seat
            for seat in self.settings.seats
            if self._debouncer.level_at(f"{seat}.stand", reading)
        ]
        self._count = None
        self.emit(self._event("plunge", plunging=plunging))
        self._apply({"action": "plunge", "plunging": plunging})
        self._refresh()

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
        if outcome.starts_match_clock:
            self.clock_deadline = self.now + self.settings.match_minutes * 60
            self.emit(self._event("clock", started=True, minutes=self.settings.match_minutes))
        if outcome.action is not None:
            self._apply(outcome.action)
        else:
            self.scratch.update(outcome.scratch)
        self._refresh()

    def _apply(self, log_action: LogAction) -> bool:
        try:
            action = decode(log_action)
            session = apply_session(self.session, action)
        except RuleError as error:
            self.emit(self._event("refused", action=log_action.get("action"), reason=str(error)))
            return False
        before = self.session
        self.session = session
        self.log.append(action)
        self.scratch = {}
        self.emit(self._event("action", **encode(action)))
        self._report_game_end(before, session)
        return True

    def _report_game_end(self, before: Session, after: Session) -> None:
        if isinstance(after, MatchState) and isinstance(before, MatchState):
            if len(after.played) > len(before.played):
                game = after.played[-1]
                self._game_result(game.number, game.result, game.plunging, game.points)
                a, b = after.scores
                self.emit(self._event("score", A=a, B=b))
            if after.over and not before.over:
                result = after.result
                assert result is not None
                winner = result.winner.value if result.winner else None
                self.emit(
                    self._event(
                        "match_result", winner=winner, A=result.scores[0], B=result.scores[1]
                    )
                )
                self.message = f"MATCH: {winner or 'TIE'} {result.scores[0]}-{result.scores[1]}"
        elif isinstance(after, GameSession) and after.state.result is not None:
            result = after.state.result
            plunging = after.state.plunging or frozenset()
            points = score_game(result, plunging)
            pair = (points[min(points)], points[max(points)])
            self._game_result(after.number, result, plunging, pair)
            self.emit(self._event("score", A=pair[0], B=pair[1]))

    def _game_result(
        self, number: int, result: Any, plunging: Any, points: tuple[int, int]
    ) -> None:
        winner = None if result is None or result.winner is None else result.winner.value
        self.emit(
            self._event(
                "game_result",
                game=number,
                title=game_rules(number).title,
                winner=winner,
                bonus=bool(result and result.bonus),
                abandoned=result is None,
                plunging=sorted(team.value for team in plunging),
                points={"A": points[0], "B": points[1]},
                reason=result.reason if result else "time ran out",
            )
        )
        self.message = "ABANDONED" if result is None else (f"{winner} WINS" if winner else "TIE")

    def _undo(self) -> None:
        """Take back the last rules action (the log is replayed without it)."""
        if self._count is not None:
            self._count = None
            self.emit(self._event("undo", what="count", reason="dealer pressed UNDO"))
        elif len(self.log) > 1:
            undone = self.log.pop()
            self.session = replay(self.log)
            self.emit(
                self._event(
                    "undo", what=undone.kind, undone=encode(undone), reason="dealer pressed UNDO"
                )
            )
        self.scratch = {}
        self._arbiter.close()
        self._window = None
        self._timer = None
        self._shout_lights.clear()
        self._refresh()

    # --- prompts ----------------------------------------------------------------------------

    def _current_game(self) -> tuple[int, Any] | None:
        session = self.session
        if isinstance(session, GameSession):
            return (session.number, session.state) if session.state.result is None else None
        if session.current is not None and session.current_number is not None:
            return session.current_number, session.current
        return None

    def _compute_prompt(self) -> Prompt:
        if self._held:
            held = self._held[0]
            what = "match clock" if held.name == "match" else f"{held.name} timer"
            # YES and NO settle the held timer (``_settle_held``), not through these outcomes
            return Prompt(
                key=f"recover/{held.name}",
                kind=Kind.YES_NO,
                text=f"The {what} ran out while the table was off. Run out?",
                options=(Outcome("ran out"), Outcome("restart")),
                hint="YES: it ran out  NO: restart",
            )
        game = self._current_game()
        if game is not None:
            number, state = game
            flow = flow_for(number)
            return flow(
                state, self.scratch, FlowSettings(chummy_seconds=self.settings.chummy_seconds)
            )
        return self._match_prompt()

    def _match_prompt(self) -> Prompt:
        session = self.session
        if isinstance(session, GameSession):
            return Prompt(
                key="game/over", kind=Kind.NOTICE, text="Game over", hint="UNDO: take back"
            )
        if session.over:
            return Prompt(
                key="match/over",
                kind=Kind.NOTICE,
                text="Match over. Shuffle every deck",
                hint="UNDO: take back",
            )
        if not session.cycle:
            team = "A" if "picks_a" not in self.scratch else "B"
            return choice(
                f"match/picks/{team}",
                f"Team {team}'s 2 secret games",
                [self._pick_outcome(team, pair) for pair in PICK_PAIRS],
            )
        if self.clock_deadline is None and not session.played:
            kind = "All" if session.kind is MatchKind.ALL else "Call"
            games = "-".join(map(str, session.cycle))
            return Prompt(
                key="match/start",
                kind=Kind.NOTICE,
                text=f"Round {session.round} {kind} match, games {games}",
                hint="GO: start clock + game 1",
                go=Outcome("start", NEXT_GAME, starts_match_clock=True),
            )
        shuffle = ", ".join(session.shuffle_reminder)
        return Prompt(
            key=f"match/between/{len(session.played)}",
            kind=Kind.NOTICE,
            text=f"Shuffle {shuffle}. Next: game {session.next_game}"
            if shuffle
            else f"Next: game {session.next_game}",
            hint="NEXT: next game",
            next=Outcome("next", NEXT_GAME),
        )

    def _pick_outcome(self, team: str, pair: tuple[int, int]) -> Outcome:
        label = f"games {pair[0]} + {pair[1]}"
        if team == "A":
            return Outcome(label, None, {"picks_a": list(pair)})
        return Outcome(
            label, {"action": "match.picks", "a": self.scratch["picks_a"], "b": list(pair)}
        )

    def _refresh(self) -> None:
        prompt = self._compute_prompt()
        if prompt.key != self.prompt.key:
            self._leave(self.prompt, prompt)
            self.prompt = prompt
            self._enter(prompt)
        else:
            self.prompt = prompt
            if prompt.kind is Kind.CHOICE:
                self.cursor %= len(prompt.options)  # the same step with fewer options

    def _leave(self, old: Prompt, new: Prompt) -> None:
        self.cursor = 0
        self._timer = None
        if self._window is not None and new.window != self._window:
            self._arbiter.close()
            self._window = None

    def _enter(self, prompt: Prompt) -> None:
        self.emit(self._event("prompt", key=prompt.key, text=prompt.text))
        if prompt.kind is Kind.SHOUT and not prompt.opens_on_go and self._window != prompt.window:
            self._open_window(prompt)
        if prompt.timer is not None:
            name, seconds, outcome = prompt.timer
            self._timer = (name, self.now + seconds, outcome)
            if prompt.kind is Kind.SHOUT:
                self._arbiter.close_at(self.now + seconds)

    def _match_over(self) -> bool:
        return isinstance(self.session, MatchState) and self.session.over

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

    def _scores(self) -> tuple[int, int]:
        session = self.session
        if isinstance(session, MatchState):
            return session.scores
        if session.state.result is None:
            return (0, 0)
        points = score_game(session.state.result, session.state.plunging or frozenset())
        return (points[min(points)], points[max(points)])

    def _clock_left(self) -> float | None:
        if self.clock_deadline is None:
            return None
        return max(0.0, self.clock_deadline - self.now)

    def _screen(self) -> Screen:
        """Title: the game (or the match score) and the clock; big: the count, a countdown,
        the choice shown, a result or the score; then the question on two lines."""
        a, b = self._scores()
        game = self._current_game()
        where = f"G{game[0]} {SHORT_TITLES[game[0]]}" if game else f"MATCH A{a} B{b}"
        clock = self._clock_left()
        title = f"{where} {format_clock(clock)}" if clock is not None else where
        prompt = self.prompt
        if self._count is not None:
            big = str(self._count.shown)
        elif self._timer is not None:
            big = str(math.ceil(max(0.0, self._timer[1] - self.now)))
        elif prompt.kind is Kind.CHOICE:
            big = prompt.options[self.cursor].label
        elif self._shout_lights and self._shout_text:
            big = self._shout_text  # "B +31ms", "TIE 4.2ms": until the dealer answers
        elif self.message and game is None:
            big = self.message
        else:
            big = f"{a}:{b}"
        lines = tuple(textwrap.wrap(prompt.text, OLED_LINE_CHARS)[:2])
        stuck = " ".join(sorted(self._stuck))
        alert = f"STUCK {stuck}" if stuck else None
        return Screen(title=title, big=big, lines=lines, footer=prompt.hint, alert=alert)

    def _lights(self) -> dict[str, SeatLight]:
        game = self._current_game()
        plunging = {t.value for t in (game[1].plunging or ())} if game else set()
        lights = {}
        for seat in self.settings.seats:
            if seat in self._shout_lights:
                lights[seat] = self._shout_lights[seat]
            elif seat in plunging:
                lights[seat] = SeatLight.PLUNGING
            elif self._debouncer.level(f"{seat}.stand"):
                lights[seat] = SeatLight.STANDING
            else:
                lights[seat] = SeatLight.OFF
        return lights

    def _scoreboard(self) -> ScoreboardView:
        a, b = self._scores()
        count = self._count.shown if self._count is not None else None
        return ScoreboardView(
            {"A": a, "B": b}, self._clock_left(), count, self.message or self.prompt.text
        )


def format_clock(seconds: float) -> str:
    """A countdown shows the ceiling: 0:00 only when time is really up."""
    whole = math.ceil(seconds - 1e-9)
    return f"{whole // 60}:{whole % 60:02d}"
