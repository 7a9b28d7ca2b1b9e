"""The Contig 60 reach solver's speed on every roll of the configured dice."""

from __future__ import annotations

import itertools
import statistics
import time

from bench.figures import Figure, Section, ms, percentile
from rules.pentathlon.dice import DEFAULT_SIDES
from rules.pentathlon.reach import reach

P99_TARGET_S = 5e-3


def _reach_time(roll: tuple[int, ...]) -> float:
    started = time.perf_counter()
    reach(roll)
    return time.perf_counter() - started


def reach_solver() -> Section:
    rolls = list(itertools.product(*(range(1, sides + 1) for sides in DEFAULT_SIDES)))
    reach(rolls[0])  # import and first-call costs outside the measurement
    times = [_reach_time(roll) for roll in rolls]
    p99 = percentile(times, 0.99)
    dice = "d" + ",d".join(map(str, DEFAULT_SIDES))
    figures = [
        Figure(f"Contig 60 reach p50 ({dice})", ms(percentile(times, 0.50)), "-", None),
        Figure(f"Contig 60 reach p99 ({dice})", ms(p99), "<= 5 ms", p99 <= P99_TARGET_S),
        Figure("Contig 60 reach max", ms(max(times)), "-", None),
        Figure("Contig 60 reach mean", ms(statistics.mean(times)), "-", None),
    ]
    how = (
        f"reach() (every whole number a roll makes, with a sentence for each) once on each of "
        f"the {len(rolls)} rolls of {dice}, each timed with time.perf_counter."
    )
    return Section("Contig 60 reach solver", how, figures)
