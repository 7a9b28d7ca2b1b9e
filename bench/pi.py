"""The hot paths' CPU time here, projected onto each supported Raspberry Pi (issue 28).

Every other figure is measured on this machine (a 2-core x86 VM); a Pi runs CPython several
times slower. Each hot path is timed in CPU time (``time.thread_time``: this thread's own
work, not the time other engineers' processes take from it) on the real controller and
renderer, and multiplied by a stated factor per Pi model: how many times slower one Pi core
runs it. Each factor comes from published figures, named with their sources in ``PI_MODELS``
(docs/service.md, "Figures for the slowest Pi", R1080, R1082); the one no figure stands behind
is marked an estimate. ``python -m bench.pi reference`` prints the reference workload's CPU
time, which run here and on a Pi gives a measured factor in their place.
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

# The factors (R1080, R1082), each from published figures; docs/service.md gives them in a table.
# A pure-Python workload published for a Pi and timed here anchors the chain: the single-core loop
# of alexdedyura/cpu-benchmark (float divisions and powers of two in CPython loops, the average of
# 10 runs; unchanged since 2021), whose README lists a Raspberry Pi 4 at 79.216 s (Ubuntu 22.04.3,
# its Python 3.10; added in commit dc312ef, 2024-01-12). Here the same loop took 14.85 s of CPU
# (the fastest of 3, Python 3.11.7, 2026-11-29; CPython 3.11 runs such loops faster than the
# Pi's 3.10 did, so the Pi 4's factor is, if anything, too large: the harsher side for a budget).
# The other Pis are scaled from the Pi 4 by Geekbench single-core scores of one version, all from
# Jeff Geerling's sbc-reviews (web/data/results.yml, read at commit 1240f4e).
PI4_PURE_PYTHON_SECONDS = 79.216
HERE_PURE_PYTHON_SECONDS = 14.85
CPU_BENCHMARK = "https://github.com/alexdedyura/cpu-benchmark (README, single core)"
SBC_REVIEWS = "https://github.com/geerlingguy/sbc-reviews/issues/"


@dataclass(frozen=True, slots=True)
class Source:
    figure: str  # what was published, and what it measured
    url: str


@dataclass(frozen=True, slots=True)
class PiModel:
    name: str
    cpu: str
    factor: float  # how many times longer one of its cores takes than one of this machine's
    sources: tuple[Source, ...]
    estimate: str | None = None  # why no published figure stands behind it, if none does


def slowdown(seconds_there: float, seconds_here: float) -> float:
    """One workload's time on the Pi over its time here: how many times slower the Pi runs it."""
    if seconds_there <= 0 or seconds_here <= 0:
        raise ValueError(f"times must be positive, got {seconds_there}, {seconds_here}")
    return seconds_there / seconds_here


def scaled(factor: float, score_from: float, score_to: float) -> float:
    """A factor carried from one board to another by their single-core scores (of one
    benchmark version): scores are work per second, so time scales with their inverse."""
    if score_from <= 0 or score_to <= 0:
        raise ValueError(f"single-core scores must be positive, got {score_from}, {score_to}")
    return factor * score_from / score_to


PI4_FACTOR = slowdown(PI4_PURE_PYTHON_SECONDS, HERE_PURE_PYTHON_SECONDS)
PI3_FACTOR = scaled(PI4_FACTOR, 271, 108)  # Geekbench 5 single-core: Pi 4 B 271, Pi 3 B+ 108
PI_MODELS = (
    PiModel(
        "Pi Zero 2 W",
        "Cortex-A53 1.0 GHz",
        PI3_FACTOR * 1.2 / 1.0,
        (),
        "no published single-core figure found (sbc-reviews issue 43 lists none): the Pi 3's "
        "factor x 1.2 GHz / 1.0 GHz, the same Cortex-A53 at a lower clock",
    ),
    PiModel(
        "Pi 3 B",
        "Cortex-A53 1.2 GHz",
        PI3_FACTOR,
        (
            Source("Pi 3 B+ Geekbench 5 single-core 108", f"{SBC_REVIEWS}16"),
            Source("Pi 4 B Geekbench 5 single-core 271", f"{SBC_REVIEWS}4"),
        ),
        # the figure is the 3 B+'s (1.4 GHz), which runs at 1.2 GHz under sustained load
        # (issue 16's comments); the 3 B's own is not published there
    ),
    PiModel(
        "Pi 4 B",
        "Cortex-A72 1.5 GHz",
        PI4_FACTOR,
        (Source(f"Pi 4 cpu-benchmark single core {PI4_PURE_PYTHON_SECONDS} s", CPU_BENCHMARK),),
    ),
    PiModel(
        "Pi 5",
        "Cortex-A76 2.4 GHz",
        scaled(PI4_FACTOR, 289, 904),
        (
            Source("Pi 5 Geekbench 6 single-core 904", f"{SBC_REVIEWS}21"),
            Source("Pi 4 B Geekbench 6 single-core 289", f"{SBC_REVIEWS}4"),
        ),
    ),
)


def model_basis(model: PiModel) -> str:
    """The factor and what stands behind it: the published figures, or why it is estimated."""
    behind = ", ".join(f"{source.figure} ({source.url})" for source in model.sources)
    if model.estimate is not None:
        behind = f"ESTIMATE: {model.estimate}"
    return f"{model.name} {model.cpu} x{model.factor:.1f} from {behind}"


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
    factors = "; ".join(model_basis(model) for model in PI_MODELS)
    how = (
        "CPU time (time.thread_time of the bench's thread: its own work, however busy the "
        f"machine) of each hot path on the real controller and renderer: {RACES} lone shouts "
        f"(after {WARMUP} warm-up) as in the edge -> decision section, without a journal (edge "
        "+ decision + view + render) and with one (the decision step: committed to SQLite, "
        "then drawn; fsync's wait is not CPU time), the page's update after each (snapshot + "
        f"JSON, not the send), and every wake of {COUNTS} practice 5-counts with its frame. "
        "Each p99 is multiplied by a Pi's factor (R1082): a pure-Python loop published for a "
        f"Pi 4 ({PI4_PURE_PYTHON_SECONDS} s) over its CPU time here "
        f"({HERE_PURE_PYTHON_SECONDS} s), carried to the other Pis by Geekbench single-core "
        f"scores of one version: {factors}. `python -m bench.pi reference` on a Pi, divided "
        "by the reference row here, measures a factor for code like the table's."
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
