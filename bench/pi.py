"""The hot paths' CPU time here, projected onto each supported Raspberry Pi (issue 28).

Every other figure is measured on this machine (a 2-core x86 VM); a Pi runs CPython several
times slower. Each hot path is timed in CPU time (``time.thread_time``: this thread's own
work, not the time other engineers' processes take from it) on the real controller and
renderer, and multiplied by a stated factor per Pi model: how many times slower one Pi core
runs it. The factors are approximate, from published single-core scores (docs/service.md,
"Figures for the slowest Pi", R1080); ``python -m bench.pi reference`` prints the reference
workload's CPU time, which run here and on a Pi gives a measured factor in their place.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bench.figures import Figure, Section, ms, percentile
from bench.latency import ShoutLoop, frame, timed
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import Event
from firmware_py.table.headless import VirtualTable
from firmware_py.table.journal import Journal
from firmware_py.table.web.snapshot import snapshot

RACES = 300
WARMUP = 30
COUNTS = 20  # 5-counts timed, each on a fresh table
CPU_CLOCK = time.thread_time

# Geekbench 5 single-core, approximate: the middle of the Geekbench Browser's results for each
# board on a 64-bit OS (Pi OS bookworm), and for this machine's CPU (AMD EPYC cloud vCPUs score
# 900-1,300 there). Only their ratio is used.
THIS_MACHINE_SCORE = 1000


@dataclass(frozen=True, slots=True)
class PiModel:
    name: str
    cpu: str
    single_core_score: int  # Geekbench 5 single-core, approximate

    @property
    def factor(self) -> float:
        """How many times longer one of its cores takes than one of this machine's."""
        return slowdown(THIS_MACHINE_SCORE, self.single_core_score)


PI_MODELS = (
    PiModel("Pi Zero 2 W", "Cortex-A53 1.0 GHz", 90),
    PiModel("Pi 3 B", "Cortex-A53 1.2 GHz", 110),
    PiModel("Pi 4 B", "Cortex-A72 1.5 GHz", 250),
    PiModel("Pi 5", "Cortex-A76 2.4 GHz", 850),
)


def slowdown(here_score: float, pi_score: float) -> float:
    """Single-core scores are work per second, so time scales with their inverse ratio."""
    if here_score <= 0 or pi_score <= 0:
        raise ValueError(f"single-core scores must be positive, got {here_score}, {pi_score}")
    return here_score / pi_score


def slowest(models: Sequence[PiModel] = PI_MODELS) -> PiModel:
    return max(models, key=lambda model: model.factor)


@dataclass(frozen=True, slots=True)
class HotPath:
    name: str
    samples: list[float]  # CPU seconds per pass, here
    target: float | None  # seconds on the Pi; None: informational

    @property
    def p99(self) -> float:
        return percentile(self.samples, 0.99)


def projection_figures(path: HotPath, models: Sequence[PiModel] = PI_MODELS) -> list[Figure]:
    """The path's CPU p99 here, then one row per Pi: p99 x the Pi's factor, against the target."""
    here = Figure(f"{path.name}, CPU p99 here", ms(path.p99), "-", None)
    rows = [here]
    for model in models:
        projected = path.p99 * model.factor
        target = "-" if path.target is None else f"<= {ms(path.target, 0)}"
        met = None if path.target is None else projected <= path.target
        name = f"  projected on {model.name} (x{model.factor:.1f})"
        rows.append(Figure(name, ms(projected), target, met))
    return rows


def light_paths(races: int = RACES, warmup: int = WARMUP) -> tuple[HotPath, HotPath, HotPath]:
    """Edge -> decision -> frame without and with the journal, and the page's update."""
    bare = ShoutLoop.start(clock=CPU_CLOCK)
    try:
        light = [sum(bare.race()) for _ in range(warmup + races)][warmup:]
    finally:
        bare.close()
    with tempfile.TemporaryDirectory(prefix="gametable-pi-") as tmp:
        journal = Journal.open(Path(tmp) / "pi.db")
        loop = ShoutLoop.start(clock=CPU_CLOCK, journal=journal)
        committed: list[float] = []
        page: list[float] = []
        try:
            for _ in range(warmup + races):
                committed.append(loop.race()[1])  # the decision step: committed, then drawn
                page.append(timed(partial(page_update, loop), CPU_CLOCK))
        finally:
            loop.close()
            journal.close()
    return (
        HotPath("shout edge -> decision -> frame (the light's path)", light, LIGHT_TARGET),
        HotPath("decision committed to the journal + frame", committed[warmup:], LIGHT_TARGET),
        HotPath("page update (snapshot + JSON)", page[warmup:], PAGE_TARGET),
    )


# R1080: the light's bound (tie window 15 ms + 10 ms, bench/lockout.py) for the loop's work on
# the way to the light, the journal's commit included (a decision is shown once committed); the
# page's bound (bench/web.py) for its update; a tick's frame must be ready within the tick's
# own lateness bound, so the count is seen on time.
LIGHT_TARGET = 0.025
PAGE_TARGET = 0.200
TICK_TARGET = 0.002


def page_update(loop: ShoutLoop) -> None:
    """What the page does with each view before it is sent: its state, as JSON."""
    controller = loop.controller
    json.dumps(snapshot(controller, controller.view(), saved=True), separators=(",", ":"))


def count_ticks(counts: int = COUNTS) -> HotPath:
    """Every wake of a practice 5-count (its ticks, and the debounce's), each with its frame."""
    samples: list[float] = []
    for _ in range(counts):
        events: list[Event] = []
        settings = table_settings(game=5)
        loop = ShoutLoop(settings, VirtualTable(settings, events.append), events, clock=CPU_CLOCK)
        try:
            loop.button("count")
            end = loop.t + 6.0  # five counts of 1 s and the plunge
            due = loop.controller.next_deadline()
            while due is not None and due <= end:
                samples.append(timed(partial(wake_at, loop, due), CPU_CLOCK))
                due = loop.controller.next_deadline()
        finally:
            loop.close()
    return HotPath("5-count tick + its frame", samples, TICK_TARGET)


def wake_at(loop: ShoutLoop, due: float) -> None:
    loop.run_to(due)
    frame(loop.controller)


def reference_workload() -> int:
    """A fixed pure-Python workload like the controller's (dicts, strings, small ints, calls);
    its CPU time here and on a Pi is a measured factor. Returns a checksum so it is not idle."""
    total = 0
    table: dict[str, int] = {}
    for i in range(200_000):
        key = f"seat{i % 97}"
        table[key] = table.get(key, 0) + (i * 7) % 13
        total += len(key) + table[key] % 5
    return total + sum(sorted(table.values()))


def reference_seconds(runs: int = 5) -> float:
    """The fastest of ``runs`` (the least disturbed by other processes), in CPU time."""
    return min(timed(reference_workload, CPU_CLOCK) for _ in range(runs))


def pi_figures() -> Section:
    paths = [*light_paths(), count_ticks()]
    figures = [row for path in paths for row in projection_figures(path)]
    figures.append(
        Figure("reference workload, CPU here (fastest of 5)", ms(reference_seconds()), "-", None)
    )
    factors = ", ".join(
        f"{m.name} {m.cpu} {m.single_core_score} (x{m.factor:.1f})" for m in PI_MODELS
    )
    how = (
        "CPU time (time.thread_time of the bench's thread: its own work, however busy the "
        f"machine) of each hot path on the real controller and renderer: {RACES} lone shouts "
        f"(after {WARMUP} warm-up) as in the edge -> decision section, without a journal (edge "
        "+ decision + view + render) and with one (the decision step: committed to SQLite, "
        "then drawn; fsync's wait is not CPU time), the page's update after each (snapshot + "
        f"JSON, not the send), and every wake of {COUNTS} practice 5-counts with its frame. "
        "Each p99 is multiplied by a Pi's factor = this machine's single-core score / the "
        f"Pi's (Geekbench 5 single-core, approximate; this machine ~{THIS_MACHINE_SCORE}): "
        f"{factors}. The factors are estimates (docs/service.md); `python -m bench.pi "
        "reference` on a Pi, divided by the reference row here, measures one."
    )
    return Section("hot paths' CPU time, projected on each Pi", how, figures)


def main(argv: Sequence[str]) -> int:
    if list(argv) != ["reference"]:
        print("usage: python -m bench.pi reference", file=sys.stderr)
        return 2
    print(f"reference workload: {reference_seconds() * 1e3:.1f} ms CPU (fastest of 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
