"""The daemon's own figures under a CPU budget standing in for the slowest supported Pi.

This machine's cgroups are version 1 (no ``cpu.max``), so the budget is a share of one core:
a worker process (``python -m bench.slow_pi worker CORE``) is bound to one core
(``sched_setaffinity``, taskset's call) together with enough busy loops bound to the same core
that a busy task there gets about 1/factor of it, the slowest Pi's factor (bench/pi.py, R1080),
the machine's other work counted in. There it measures what the table must keep on that Pi:
the winner's light (bench/lockout.py's races on the asyncio daemon), the 5-count's tick
lateness (bench/timers.py's count, the daemon's wait) and ``gametable run``'s start -> READY=1
(bench/daemon.py's start, which inherits the core), against the unit's WatchdogSec
(systemd/gametable.service). A slice of a fast core is not a slow core: a stand-in (R1081)."""

from __future__ import annotations

import asyncio
import json
import math
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TypeVar

from bench import daemon
from bench.figures import Figure, Section, ms, percentile
from bench.lockout import RACES, run_races
from bench.pi import PiModel, slowest
from bench.procfs import cpu_seconds
from bench.timers import five_counts

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "gametable.service"
COUNTS = 3  # 5-counts in a row: 15 ticks
STARTS = 3
LIGHT_TARGET = 0.025  # tie window 15 ms + 10 ms, as bench/lockout.py
TICK_TARGET = 0.002  # as bench/timers.py
WORKER_TIMEOUT = 600.0
PROBE_SECONDS = 1.0
T = TypeVar("T")

_SPAN = re.compile(r"^(\d+(?:\.\d+)?)\s*(ms|s|sec|min)?$")
_SCALE = {"ms": 0.001, "s": 1.0, "sec": 1.0, "min": 60.0, None: 1.0}


def competitors(factor: float, free: float) -> int:
    """Busy loops to share the worker's core with, so that a busy task there gets about
    1/factor of the core: n + 1 equal tasks split the ``free`` share (what a busy loop alone
    gets there now, the machine's other work taken) evenly."""
    if factor < 1:
        raise ValueError(f"a slowdown factor is at least 1, got {factor}")
    if not 0 < free <= 1:
        raise ValueError(f"a share of a core is in (0, 1], got {free}")
    return max(0, round(free * factor) - 1)


def unit_seconds(unit_text: str, key: str) -> float:
    """A time span of the unit's [Service] (``WatchdogSec=10s``), in seconds."""
    for line in unit_text.splitlines():
        name, _, value = line.partition("=")
        if name.strip() == key:
            match = _SPAN.match(value.strip())
            if match is None:
                raise ValueError(f"{key}={value.strip()}: expected seconds such as 10s or 1min")
            return float(match.group(1)) * _SCALE[match.group(2)]
    raise LookupError(f"{key} is not set in the unit")


@dataclass(frozen=True, slots=True)
class BudgetRun:
    light_both: list[float]
    light_alone: list[float]
    tick_late: list[float]
    ready: list[float | None]  # None: no READY=1 within bench/daemon.py's timeout


def budget_figures(
    run: BudgetRun, model: PiModel, loops: int, watchdog: float, share: float
) -> list[Figure]:
    """The budget's rows: the light, the tick and the start, each met or not. ``share``: the
    part of the core a busy task got during the run (a busy loop's delivered CPU)."""
    on = f"on 1/{1 / share:.0f} core"
    both, alone = percentile(run.light_both, 0.99), percentile(run.light_alone, 0.99)
    late = max(run.tick_late)
    started = [ready for ready in run.ready if ready is not None]
    worst = max(started) if len(started) == len(run.ready) else None
    light = f"<= {ms(LIGHT_TARGET, 0)}"
    return [
        Figure(
            f"edge -> winner's light, both press p99 {on}",
            _light(both),
            light,
            both <= LIGHT_TARGET,
        ),
        Figure(
            f"edge -> winner's light, lone shout p99 {on}",
            _light(alone),
            light,
            alone <= LIGHT_TARGET,
        ),
        Figure(
            f"5-count tick lateness, max of {len(run.tick_late)} {on}",
            ms(late),
            f"<= {ms(TICK_TARGET, 0)}",
            late <= TICK_TARGET,
        ),
        Figure(
            f"daemon start -> READY=1, worst of {len(run.ready)} {on}",
            "no READY=1" if worst is None else f"{worst:.3f} s",
            f"<= WatchdogSec {watchdog:g} s",
            worst is not None and worst <= watchdog,
        ),
        Figure(
            f"  stand-in: a busy task's share of the core, {loops} busy loops with it",
            f"1/{1 / share:.1f} (x{model.factor:.1f} wanted)",
            "-",
            None,
        ),
    ]


def _light(seconds: float) -> str:
    """bench/lockout.py gives up on a light after 1 s and counts the race as never lit."""
    return ms(seconds) if math.isfinite(seconds) else "no light in 1 s"


def _spin(core: int) -> None:
    os.sched_setaffinity(0, {core})
    while True:
        pass


def _measure() -> BudgetRun:
    _, both, alone = run_races()
    tick_late = asyncio.run(five_counts(asyncio.Event(), COUNTS))
    ready: list[float | None] = []
    with tempfile.TemporaryDirectory(prefix="gametable-slow-pi-") as tmp:
        workdir = Path(tmp)
        config = workdir / "table.toml"
        config.write_text(daemon.CONFIG)
        for _ in range(STARTS):
            try:
                ready.append(daemon.start_once(workdir, config, measure_idle=False).ready_after)
            except RuntimeError as error:  # no READY=1 in time: a NO row, not a lost section
                print(f"slow_pi: {error}", file=sys.stderr)
                ready.append(None)
    return BudgetRun(both, alone, tick_late, ready)


def worker(core: int) -> int:
    os.sched_setaffinity(0, {core})  # its threads and the daemon it starts inherit the core
    from firmware_py import families

    families.install()
    run = _measure()
    print(json.dumps(asdict(run)))
    return 0


def _run_worker(core: int) -> BudgetRun:
    done = subprocess.run(
        [sys.executable, "-m", "bench.slow_pi", "worker", str(core)],
        capture_output=True,
        text=True,
        timeout=WORKER_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the budget worker exited {done.returncode}: {done.stderr.strip()}")
    return BudgetRun(**json.loads(done.stdout.strip().splitlines()[-1]))


def _spinners(core: int, count: int) -> list[BaseProcess]:
    context = multiprocessing.get_context("spawn")
    spinners: list[BaseProcess] = []
    for _ in range(count):
        spinner = context.Process(target=_spin, args=(core,), daemon=True)
        spinner.start()
        spinners.append(spinner)
    time.sleep(0.5)  # let them start spinning
    return spinners


def _stop(spinners: Sequence[BaseProcess]) -> None:
    for busy in spinners:
        busy.kill()
        busy.join(timeout=5)


def _busy_share(spinners: Sequence[BaseProcess], during: Callable[[], T]) -> tuple[T, float]:
    """``during()``, and the share of the core each busy loop got meanwhile (their mean)."""
    started, before = time.monotonic(), _cpu(spinners)
    result = during()
    share = (_cpu(spinners) - before) / (time.monotonic() - started) / len(spinners)
    return result, share


def slow_pi_figures() -> Section:
    model = slowest()
    core = max(os.sched_getaffinity(0))
    watchdog = unit_seconds(UNIT.read_text(), "WatchdogSec")
    probe = _spinners(core, 1)
    try:  # what a busy task gets on that core now, the machine's other work taken
        _, free = _busy_share(probe, lambda: time.sleep(PROBE_SECONDS))
    finally:
        _stop(probe)
    loops = competitors(model.factor, min(1.0, max(free, 0.001)))
    spinners = _spinners(core, loops)
    try:
        if spinners:
            run, share = _busy_share(spinners, lambda: _run_worker(core))
        else:  # the machine's own load already leaves no more than the Pi's share
            run, share = _run_worker(core), free
    finally:
        _stop(spinners)
    how = (
        f"Stand-in for the slowest Pi ({model.name}, x{model.factor:.1f}, bench/pi.py): no "
        f"cgroup v2 cpu.max here, so a worker process is bound to core {core} "
        "(sched_setaffinity, taskset's call) with busy-loop processes bound there too. A "
        f"probe loop alone there first got {free:.2f} of the core (the machine's other work "
        f"takes the rest), so {loops} loops were added for a busy task to get about "
        f"1/{model.factor:.0f}; the share they actually got (CPU from /proc over the run) is "
        "the 'on 1/N core' of each row. In the worker, one after another: the lockout "
        f"section's {RACES} + {RACES} races on the asyncio daemon (MockFactory; its driving "
        f"thread shares the core), {COUNTS} 5-counts waited for the daemon's way (timers "
        f"section) and {STARTS} starts of 'gametable run' (daemon section; it inherits the "
        "core) to READY=1, against the unit's WatchdogSec (systemd/gametable.service). A "
        "slice of one fast core is harsher than a slow Pi's four cores for the daemon's "
        "threads, and gentler for its CPU-bound bursts (a woken task is often served at "
        "once): a stand-in (R1081)."
    )
    figures = budget_figures(run, model, loops, watchdog, share)
    return Section(f"the daemon under a CPU budget ({model.name} stand-in)", how, figures)


def _cpu(processes: Sequence[BaseProcess]) -> float:
    return sum(cpu_seconds(p.pid) for p in processes if p.pid is not None)


def main(argv: Sequence[str]) -> int:
    if len(argv) == 2 and argv[0] == "worker" and argv[1].isdigit():
        return worker(int(argv[1]))
    print("usage: python -m bench.slow_pi worker CORE (started by make bench)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
