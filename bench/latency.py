"""Edge -> decision -> frame ready, in wall-clock time, on the real controller and renderer.

A practice Chummy Challenge is brought to its reading (the shout window opens by itself).
Each iteration, on the controller's virtual clock: team A's shout edge is handed over (a lone
shout: with both teams in, R161 decides at the last press, which the lockout section measures),
the deadlines before the decision fire, then the decision's own deadline is processed; UNDO
takes the shout back so the window opens again. Only two steps are
timed with time.perf_counter, each ending with ``view()`` + ``render(screen)`` (the frame the
daemon hands to its OLED thread): handing over the first edge, and processing the decision
deadline. The time the arbiter waits on purpose (tie window + settle) is not in them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bench.figures import Figure, Section, ms, percentile
from drivers.oled import render
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import Event, TableController, TableSettings
from firmware_py.table.headless import VirtualTable
from firmware_py.table.journal import Journal

ITERATIONS = 2000
WARMUP = 100


def frame(controller: TableController) -> None:
    """What the daemon does after every wake: take the view and draw it."""
    render(controller.view().screen)


def timed(step: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    started = clock()
    step()
    return clock() - started


@dataclass(slots=True)
class ShoutLoop:
    """A Chummy Challenge reading with its shout window open, replayed by UNDO."""

    settings: TableSettings
    table: VirtualTable
    events: list[Event]
    t: float = 0.0
    # wall time here; the Pi projection (bench/pi.py) times the same steps in CPU time
    clock: Callable[[], float] = time.perf_counter

    @classmethod
    def start(
        cls, clock: Callable[[], float] = time.perf_counter, journal: Journal | None = None
    ) -> ShoutLoop:
        """With a ``journal``, every decision is committed to it before it is shown."""
        events: list[Event] = []
        settings = table_settings(game=5)
        table = VirtualTable(settings, events.append, journal=journal)
        loop = cls(settings, table, events, clock=clock)
        loop.button("count")
        loop.run_to(loop.t + 6.0)  # the 5-count and the plunge
        loop.button("yes")  # new GeoPlungers seated
        loop.button("yes")  # the question's colour: the reading starts, the window opens
        return loop

    @property
    def controller(self) -> TableController:
        return self.table.controller

    def run_to(self, t: float) -> None:
        self.t = t
        self.table.advance(t)  # through the journal, when there is one

    def edge(self, name: str, active: bool, ticks: float) -> None:
        """Through the MockFactory pin, so the controller's settle checks read the same level."""
        self.table.drive(name, active, ticks)

    def button(self, name: str) -> None:
        self.run_to(self.t + 1.0)
        self.edge(f"console.{name}", True, self.t)
        self.run_to(self.t + 0.1)
        self.edge(f"console.{name}", False, self.t)

    def shouts_made(self) -> int:
        return sum(event["event"] == "shout" for event in self.events)

    def race(self) -> tuple[float, float]:
        """One lone shout; (its edge -> frame, decision deadline -> frame) in seconds."""
        self.run_to(self.t + 1.0)
        start = self.t

        def first_edge() -> None:
            self.edge("A.shout", True, start)
            frame(self.controller)

        edge_time = timed(first_edge, self.clock)
        wait = self.settings.tie_window + self.settings.settle
        # the debounce settles before the decision fire in wakes of their own, untimed
        due = self.controller.next_deadline()
        while due is not None and due < start + wait - 1e-6:
            self.run_to(due)
            due = self.controller.next_deadline()
        decided_before = self.shouts_made()
        if due is None:
            raise RuntimeError("no decision deadline: the shout window is not open")

        def decision() -> None:
            self.run_to(due)
            frame(self.controller)

        decision_time = timed(decision, self.clock)
        if self.shouts_made() != decided_before + 1:
            raise RuntimeError("the timed step was not the shout decision")
        self.edge("A.shout", False, self.t + 0.2)
        self.run_to(self.t + 0.5)
        self.button("undo")  # back to the reading: the window opens again
        return edge_time, decision_time

    def close(self) -> None:
        self.table.close()


def decision_latency() -> Section:
    loop = ShoutLoop.start()
    settings = loop.settings
    try:
        samples = [loop.race() for _ in range(WARMUP + ITERATIONS)]
    finally:
        loop.close()
    edges = [edge for edge, _ in samples[WARMUP:]]
    decisions = [decision for _, decision in samples[WARMUP:]]
    totals = [edge + decision for edge, decision in samples[WARMUP:]]
    p99 = percentile(totals, 0.99)
    wait = settings.tie_window + settings.settle
    figures = [
        Figure(
            "shout edge -> frame ready (edge+view+render) p99",
            ms(percentile(edges, 0.99)),
            "-",
            None,
        ),
        Figure(
            "decision deadline -> frame ready (advance+view+render) p99",
            ms(percentile(decisions, 0.99)),
            "-",
            None,
        ),
        Figure(
            "edge -> decision -> frame ready, excl. wait, p50",
            ms(percentile(totals, 0.5)),
            "-",
            None,
        ),
        Figure(
            "edge -> decision -> frame ready, excl. wait, p99", ms(p99), "<= 2 ms", p99 <= 0.002
        ),
        Figure("decision wait = tie window + settle (deliberate)", ms(wait, 0), "-", None),
    ]
    how = (
        f"{ITERATIONS} lone shouts (after {WARMUP} warm-up) on a practice Chummy Challenge "
        "reading, edges driven through the MockFactory pins (VirtualTable.drive: gpiozero's "
        "callback -> InputBank -> on_edge) with virtual edge times; a lone shout is the one "
        "the arbiter decides at its deadline (R161). Wall time by time.perf_counter, GC on, "
        "no extra CPU load: (a) A's shout edge "
        "(pin callback + on_edge) + view() + render(); (b) advance() to the arbiter's "
        "deadline, which decides and moves the prompt, + view() + render(). The total is "
        "(a)+(b) per race: the loop's work on the path from edge to frame, the deliberate wait "
        "excluded (reported on its own; how late the loop wakes at the deadline is the timer "
        "section's figure). Sending the frame to the panel happens on the OLED thread and is "
        "not included."
    )
    return Section("edge -> decision -> frame (simulator, wall clock)", how, figures)
