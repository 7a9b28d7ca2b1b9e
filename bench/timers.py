"""Timer lateness on a real asyncio loop under CPU load, the way the daemon waits.

The daemon never accumulates sleeps: it waits on an event with a timeout up to the next
absolute deadline on the loop's monotonic clock, and if it wakes early it waits again. So the
error of any timer is the lateness of the one wake at its deadline, however long the timer.
A 20-minute clock cannot be waited out here; a 10-second countdown with deadlines start + k
shows the same thing (its last wake is as late as any other, nothing adds up), next to a naive
``sleep(1)`` loop over the same seconds, whose drift does add up.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.process import BaseProcess

from bench.figures import Figure, Section, ms, percentile
from bench.procfs import cpu_seconds
from bench.unit import UNIT, Scheduling, scheduled, unit_scheduling
from drivers.oled import Screen, render
from firmware_py.families.geoplunge.flows.common import COUNT_TO
from firmware_py.table.controller import format_clock
from firmware_py.table.daemon import wait_until as daemon_wait_until

COUNTS = 2  # 5-counts in a row
CADENCE = 1.0
COUNTDOWN_SECONDS = 10
MATCH_SECONDS = 20 * 60


def _spin() -> None:
    while True:
        pass


@dataclass(frozen=True, slots=True)
class Load:
    processes: int
    wall: float
    cpu: float  # CPU seconds the load processes used

    @property
    def cores_busy(self) -> float:
        return self.cpu / self.wall if self.wall else 0.0


@contextlib.contextmanager
def cpu_load(processes: int) -> Iterator[list[Load]]:
    """One busy-looping process per core while the block runs; the yielded list holds the
    load actually delivered once the block is done."""
    context = multiprocessing.get_context("spawn")
    spinners: list[BaseProcess] = []
    delivered: list[Load] = []
    try:
        for _ in range(processes):
            spinner = context.Process(target=_spin, daemon=True)
            spinner.start()
            spinners.append(spinner)
        time.sleep(0.5)  # let them start spinning
        started, before = time.monotonic(), _cpu(spinners)
        yield delivered
        delivered.append(Load(processes, time.monotonic() - started, _cpu(spinners) - before))
    finally:
        _stop(spinners)


def _cpu(processes: list[BaseProcess]) -> float:
    return sum(cpu_seconds(p.pid) for p in processes if p.pid is not None)


def _stop(processes: list[BaseProcess]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)


async def wait_until(deadline: float, wake: asyncio.Event) -> float:
    """Wait the daemon's own way (firmware_py.table.daemon.wait_until); returns the lateness."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        await daemon_wait_until(deadline, wake)
    return loop.time() - deadline


def redraw(seconds_left: float) -> None:
    """The work done at each tick: draw the countdown's frame."""
    render(Screen(title=f"G5 CHUMMY {format_clock(seconds_left)}", big=str(round(seconds_left))))


async def five_counts(wake: asyncio.Event, counts: int) -> list[float]:
    """Each count's ticks at start + k * cadence; the lateness of every tick."""
    loop = asyncio.get_running_loop()
    late = []
    for _ in range(counts):
        start = loop.time()
        for k in range(1, COUNT_TO + 1):
            late.append(await wait_until(start + k * CADENCE, wake))
            redraw(COUNT_TO - k)
    return late


async def absolute_countdown(wake: asyncio.Event) -> list[float]:
    """A countdown redrawn every second at deadlines start + k; the lateness of each wake."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    late = []
    for k in range(1, COUNTDOWN_SECONDS + 1):
        late.append(await wait_until(start + k, wake))
        redraw(COUNTDOWN_SECONDS - k)
    return late


async def naive_countdown() -> float:
    """The same countdown with ``sleep(1)`` between redraws; how late its last second is."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    for k in range(1, COUNTDOWN_SECONDS + 1):
        await asyncio.sleep(1.0)
        redraw(COUNTDOWN_SECONDS - k)
    return loop.time() - (start + COUNTDOWN_SECONDS)


@dataclass(frozen=True, slots=True)
class TimerRun:
    count_late: list[float]
    clock_late: list[float]
    naive_drift: float


async def _measure() -> TimerRun:
    wake = asyncio.Event()  # never set: no edges arrive, as in an idle countdown
    return TimerRun(
        await five_counts(wake, COUNTS), await absolute_countdown(wake), await naive_countdown()
    )


async def _counts(counts: int) -> list[float]:
    return await five_counts(asyncio.Event(), counts)


def _as_the_unit_runs_it(scheduling: Scheduling) -> tuple[TimerRun, bool]:
    """The timers measured under the unit's policy (R1083), and whether it could be applied
    (a realtime policy needs root, as systemd has; otherwise they run as a plain process)."""
    try:
        with scheduled(scheduling):
            return asyncio.run(_measure()), True
    except PermissionError:
        return asyncio.run(_measure()), False


def timer_error() -> Section:
    cores = os.cpu_count() or 1
    scheduling = unit_scheduling(UNIT.read_text())
    quiet = asyncio.run(_counts(1))
    with cpu_load(cores) as loads:
        plain = asyncio.run(_counts(COUNTS))  # before R1083: an ordinary process, nice 0
        run, applied = _as_the_unit_runs_it(scheduling)
    load = loads[0]
    count_max, clock_max = max(run.count_late), max(run.clock_late)
    extrapolated = run.naive_drift * MATCH_SECONDS / COUNTDOWN_SECONDS
    how_run = f"{scheduling}, the unit's" if applied else f"NOT {scheduling}: not root"
    figures = [
        Figure(
            f"5-count tick lateness, max of {len(run.count_late)} ticks ({how_run})",
            ms(count_max),
            "<= 2 ms",
            count_max <= 0.002 and applied,
        ),
        Figure(
            "  its p99 / mean",
            f"{ms(percentile(run.count_late, 0.99))} / {ms(statistics.mean(run.count_late))}",
            "-",
            None,
        ),
        Figure(
            f"  the same {len(plain)} ticks as a plain process (SCHED_OTHER, nice 0): max",
            ms(max(plain)),
            "-",
            None,
        ),
        Figure(
            f"  reference: one 5-count without the load, max of {len(quiet)}",
            ms(max(quiet)),
            "-",
            None,
        ),
        Figure(
            f"20-min clock error = worst wake of a {COUNTDOWN_SECONDS} s countdown",
            ms(clock_max),
            "<= 5 ms",
            clock_max <= 0.005,
        ),
        Figure(
            f"  its final deadline (start + {COUNTDOWN_SECONDS} s) error",
            ms(run.clock_late[-1]),
            "-",
            None,
        ),
        Figure(
            f"naive sleep(1) loop drift over {COUNTDOWN_SECONDS} s",
            ms(run.naive_drift),
            "-",
            None,
        ),
        Figure("  the same extrapolated to 20 min", ms(extrapolated, 0), "-", None),
        Figure(
            f"CPU load delivered ({load.processes} busy processes)",
            f"{load.cores_busy:.2f} cores",
            "-",
            None,
        ),
    ]
    how = (
        f"{cores} busy-loop processes (multiprocessing, spawn; terminated afterwards) load "
        "every core at nice 0; their CPU use is read from /proc/PID/stat. A reference 5-count "
        f"runs before the load starts. Under the load, first {COUNTS} 5-counts as a plain "
        "process (SCHED_OTHER, nice 0: the figure before R1083), then the rest with the bench's "
        f"thread under the unit's {scheduling} (CPUSchedulingPolicy/CPUSchedulingPriority of "
        "systemd/gametable.service, applied with sched_setscheduler: root here, as systemd "
        "is), on one asyncio loop, one after another: "
        f"{COUNTS} 5-counts at {CADENCE:g} s cadence and a {COUNTDOWN_SECONDS} s countdown, "
        "both on absolute deadlines start + k of loop.time(), waited for the daemon's way "
        "(firmware_py.table.daemon.wait_until: a coarse wait_for ending 2 ms early, then a precise "
        "sleep to the deadline), then a naive loop "
        "of asyncio.sleep(1). Every tick renders an OLED frame after the wake. Lateness = "
        "loop.time() at wake - deadline (epoll alone rounds a timeout up to a whole ms; the "
        "precise final sleep takes that away). The 20-min clock's error is that of its last wake "
        "alone, so its figure is the worst wake seen; the naive loop's drift (last wake - "
        f"(start + {COUNTDOWN_SECONDS} s)) is scaled by {MATCH_SECONDS // COUNTDOWN_SECONDS}."
    )
    return Section("timers under CPU load (real asyncio loop)", how, figures)
