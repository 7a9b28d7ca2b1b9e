"""The Border-Up solver's speed on random 21-card hands."""

from __future__ import annotations

import random
import statistics
import time

from bench.figures import Figure, Section, percentile
from rules.atlas import default_atlas
from rules.geoplunge.games.border_up import solve

HAND_SIZE = 21
SAMPLES = 2000
SEED = 20261122


def _solve_time(hand: list[str], three_o: bool) -> float:
    started = time.perf_counter()
    solve(hand, three_o=three_o)
    return time.perf_counter() - started


def border_up_solver() -> Section:
    codes = list(default_atlas().codes)
    draw = random.Random(SEED)
    hands = [draw.sample(codes, HAND_SIZE) for _ in range(SAMPLES)]
    solve(hands[0])  # warm the atlas cache outside the measurement
    figures = []
    for three_o in (False, True):
        label = "ThreeOPlunge" if three_o else "GeoPlunge"
        times = [_solve_time(hand, three_o) for hand in hands]
        found = sum(solve(hand, three_o=three_o) is not None for hand in hands[:200])
        p50, p99 = percentile(times, 0.50) * 1e3, percentile(times, 0.99) * 1e3
        figures += [
            Figure(f"Border-Up solver {label} p50 (21 cards)", f"{p50:.3f} ms", "-", None),
            Figure(
                f"Border-Up solver {label} p99 (21 cards)", f"{p99:.3f} ms", "<= 10 ms", p99 <= 10
            ),
            Figure(
                f"Border-Up solver {label} mean",
                f"{statistics.mean(times) * 1e3:.3f} ms",
                "-",
                None,
            ),
            Figure(f"random hands holding a {label}", f"{found / 2:.0f} %", "-", None),
        ]
    how = (
        f"solve() on {SAMPLES} seeded random {HAND_SIZE}-card hands per variant, each timed "
        "with time.perf_counter (atlas cache warmed first); 'holding' checks the first 200."
    )
    return Section("Border-Up solver", how, figures)
