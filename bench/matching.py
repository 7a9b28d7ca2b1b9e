"""One round's matching on 64 and 256 teams: rustworkx (the pairing's) beside networkx (the pure
Python reference it replaced), on the same seeded pairing-like costs, in one run (make bench)."""

from __future__ import annotations

import random
import time

from bench.figures import Figure, Section, ms
from rules.tournament.matching import Edge, min_cost_perfect_matching
from tests.matching_reference import matching_cost, networkx_matching

SEED = 20261123
SIZES = (64, 256)
SPEEDUP_TARGET = 100.0
OUR_REPEATS = 5
REFERENCE_REPEATS = {64: 3, 256: 1}  # networkx takes seconds on 256 teams


def _tiers(teams: int, draw: random.Random) -> dict[Edge, tuple[int, ...]]:
    """Round 5 of a Swiss field: a few pairs have met, same-school pairs, records, the draw."""
    return {
        (i, j): (
            int(draw.random() < 0.05),
            int(i % 16 == j % 16),
            0,
            draw.randrange(5) ** 2,
            draw.randrange(1000),
        )
        for i in range(teams)
        for j in range(i + 1, teams)
    }


def _timed(
    solve: object, teams: int, tiers: dict[Edge, tuple[int, ...]], repeats: int
) -> tuple[float, list[Edge]]:
    """The best of ``repeats`` runs: a shared machine only ever adds time to a run."""
    assert callable(solve)
    best = float("inf")
    matching: list[Edge] = []
    for _ in range(repeats):
        started = time.perf_counter()
        matching = solve(teams, tiers)
        best = min(best, time.perf_counter() - started)
    return best, matching


def matching_figures() -> Section:
    draw = random.Random(SEED)
    warm = _tiers(4, random.Random(SEED))  # both libraries imported before anything is timed
    min_cost_perfect_matching(4, warm)
    networkx_matching(4, warm)
    figures = []
    for teams in SIZES:
        tiers = _tiers(teams, draw)
        ours, ours_matching = _timed(min_cost_perfect_matching, teams, tiers, OUR_REPEATS)
        reference, reference_matching = _timed(
            networkx_matching, teams, tiers, REFERENCE_REPEATS[teams]
        )
        same = matching_cost(tiers, ours_matching) == matching_cost(tiers, reference_matching)
        speedup = reference / ours
        figures += [
            Figure(f"one round's matching, {teams} teams, rustworkx", ms(ours, 1), "-", None),
            Figure(f"one round's matching, {teams} teams, networkx", ms(reference, 1), "-", None),
            Figure(
                f"rustworkx speed-up on {teams} teams",
                f"{speedup:.0f}x",
                f">= {SPEEDUP_TARGET:.0f}x",
                speedup >= SPEEDUP_TARGET,
            ),
            Figure(f"same optimum as networkx, {teams} teams", str(same), "True", same),
        ]
    how = (
        f"seeded pairing-like tiered costs (meetings, same school, record squared, the draw) on "
        f"{' and '.join(map(str, SIZES))} teams; the pairing's matching (rustworkx) and networkx's "
        "min_weight_matching timed with time.perf_counter in the same run, the best of "
        f"{OUR_REPEATS} runs of ours and of {REFERENCE_REPEATS[64]} (64 teams) or "
        f"{REFERENCE_REPEATS[256]} (256) of networkx's, from the dict of tiered costs each "
        "takes; the two optima compared tier by tier."
    )
    return Section("Pairing's matching", how, figures)
