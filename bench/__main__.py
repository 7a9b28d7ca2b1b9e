"""``make bench``: figures against their targets, printed as a table.

Timings are measured here and never asserted in unit tests: the machines are shared and noisy.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from rules.atlas import default_atlas
from rules.games.border_up import solve

HAND_SIZE = 21
SAMPLES = 2000
SEED = 20261122


@dataclass(frozen=True, slots=True)
class Figure:
    name: str
    value: str
    target: str
    met: bool | None  # None: informational


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _solve_time(hand: list[str], three_o: bool) -> float:
    started = time.perf_counter()
    solve(hand, three_o=three_o)
    return time.perf_counter() - started


def border_up_solver() -> list[Figure]:
    codes = list(default_atlas().codes)
    draw = random.Random(SEED)
    hands = [draw.sample(codes, HAND_SIZE) for _ in range(SAMPLES)]
    solve(hands[0])  # warm the atlas cache outside the measurement
    figures = []
    for three_o in (False, True):
        label = "ThreeOPlunge" if three_o else "GeoPlunge"
        times = [_solve_time(hand, three_o) for hand in hands]
        found = sum(solve(hand, three_o=three_o) is not None for hand in hands[:200])
        p50, p99 = _percentile(times, 0.50) * 1e3, _percentile(times, 0.99) * 1e3
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
    return figures


def print_table(figures: list[Figure]) -> None:
    width = max(len(figure.name) for figure in figures)
    print(f"{'figure':<{width}}  {'value':>12}  {'target':>10}  met")
    for figure in figures:
        met = "-" if figure.met is None else ("yes" if figure.met else "NO")
        print(f"{figure.name:<{width}}  {figure.value:>12}  {figure.target:>10}  {met}")


def main() -> int:
    figures = border_up_solver()
    print_table(figures)
    return 0 if all(figure.met is not False for figure in figures) else 1


if __name__ == "__main__":
    raise SystemExit(main())
