"""Who shouted first when callbacks arrive late: the edge-time ShoutArbiter against a
"first callback wins" baseline, on the same simulated races.

Each race: two teams press with a true edge gap of 0-100 ms (whole microseconds, so about 15 %
fall inside the tie window); each callback is delivered after its own random delay. Both
sides see the callbacks in delivery order. The arbiter is run the way the controller runs it:
its decision fires at its deadline, so a callback delivered at or after the deadline is too
late to count.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench.figures import Figure, Section
from firmware_py.table.arbiter import ShoutArbiter
from firmware_py.table.controller import TableSettings

RACES = 20_000
MAX_GAP_US = 100_000
# Callback delivery delays: within the settle time (what the arbiter is built for: R160), and
# up to 50 ms, past it (informational: the design limit).
BEYOND_US = 50_000
SEED = 20260101
SEATS = ("A", "B")
BASE = 1000.0  # seconds on the edge clock; any value works


@dataclass(frozen=True, slots=True)
class Callback:
    seat: str
    ticks: float  # the edge's own time
    delivered: float  # when the callback reached the loop


@dataclass(frozen=True, slots=True)
class Race:
    callbacks: tuple[Callback, ...]
    truth: str  # the first seat, or "tie"
    gap_us: int


def draw_race(draw: random.Random, jitter_us: int, tie_us: int) -> Race:
    first, second = draw.sample(SEATS, 2)
    gap_us = draw.randint(0, MAX_GAP_US)
    callbacks = []
    for seat, edge_us in ((first, 0), (second, gap_us)):
        delay_us = draw.randint(0, jitter_us)
        callbacks.append(Callback(seat, BASE + edge_us * 1e-6, BASE + (edge_us + delay_us) * 1e-6))
    truth = "tie" if gap_us < tie_us else first
    return Race(tuple(callbacks), truth, gap_us)


def in_delivery_order(race: Race) -> list[Callback]:
    return sorted(race.callbacks, key=lambda c: (c.delivered, c.seat))


def arbiter_result(race: Race, settings: TableSettings) -> str:
    arbiter = ShoutArbiter(tie_window=settings.tie_window, settle=settings.settle)
    arbiter.open(set())
    for callback in in_delivery_order(race):
        deadline = arbiter.deadline
        if deadline is not None and deadline <= callback.delivered:
            break  # the loop fires due deadlines before it handles a new edge
        arbiter.press(callback.seat, callback.ticks)
    deadline = arbiter.deadline
    assert deadline is not None
    decision = arbiter.decide(deadline)
    assert decision is not None
    return decision.result


def first_callback_result(race: Race) -> str:
    return in_delivery_order(race)[0].seat


@dataclass(frozen=True, slots=True)
class Tally:
    races: int = 0
    ties: int = 0
    arbiter_right: int = 0
    baseline_right: int = 0
    baseline_clear_right: int = 0  # races with a real winner (gap >= tie window)

    def add(self, race: Race, arbiter: str, baseline: str) -> Tally:
        tie = race.truth == "tie"
        return Tally(
            self.races + 1,
            self.ties + tie,
            self.arbiter_right + (arbiter == race.truth),
            self.baseline_right + (baseline == race.truth),
            self.baseline_clear_right + (not tie and baseline == race.truth),
        )


def run_races(jitter_us: int, settings: TableSettings, races: int = RACES) -> Tally:
    draw = random.Random(SEED)
    tie_us = round(settings.tie_window * 1e6)
    tally = Tally()
    for _ in range(races):
        race = draw_race(draw, jitter_us, tie_us)
        tally = tally.add(race, arbiter_result(race, settings), first_callback_result(race))
    return tally


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


def shout_ordering() -> Section:
    settings = TableSettings()
    within_us = round(settings.settle * 1e6)
    within = f"0-{within_us / 1000:g} ms (within settle)"
    normal = run_races(within_us, settings)
    beyond = run_races(BEYOND_US, settings)
    arbiter = _pct(normal.arbiter_right, normal.races)
    clear = normal.races - normal.ties
    figures = [
        Figure(
            f"shout order, ShoutArbiter, jitter {within} ({normal.races} races)",
            f"{arbiter:.2f} %",
            "100 %",
            normal.arbiter_right == normal.races,
        ),
        Figure(
            f"shout order, first callback wins, jitter {within}",
            f"{_pct(normal.baseline_right, normal.races):.2f} %",
            "-",
            None,
        ),
        Figure(
            f"  same, only the {clear} races with a winner (gap >= tie)",
            f"{_pct(normal.baseline_clear_right, clear):.2f} %",
            "-",
            None,
        ),
        Figure(
            f"  races inside the {settings.tie_window * 1e3:g} ms tie window",
            f"{normal.ties} ({_pct(normal.ties, normal.races):.1f} %)",
            "-",
            None,
        ),
        Figure(
            "shout order, ShoutArbiter, jitter 0-50 ms (past settle)",
            f"{_pct(beyond.arbiter_right, beyond.races):.2f} %",
            "-",
            None,
        ),
    ]
    how = (
        f"{RACES} seeded two-team races (random.Random({SEED})): edge gap uniform 0-100 ms in "
        "whole us, each callback delayed uniformly from 0 to the settle time (the mock factory's "
        "default, R160) on its own; both sides get the "
        "callbacks in delivery order. The real ShoutArbiter gets press(seat, edge ticks) and "
        "decides at its deadline (tie window + settle after the earliest edge it has seen); a "
        "callback delivered at or after that deadline is dropped, as in the controller. Right = "
        "the true first team, or 'tie' when the true gap < tie window (the baseline can never "
        "say tie). The 0-50 ms row (informational) shows the design limit: a callback later "
        "than the settle time can miss the decision (a tie, or the real first edge)."
    )
    return Section("shout ordering under callback jitter", how, figures)
