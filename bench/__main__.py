"""``make bench``: figures against their targets, printed as a table.

Timings are measured here and never asserted in unit tests: the machines are shared and noisy,
so every section says under the table what it measured and how. Exits non-zero when a target
is missed (or a section could not run).
"""

from __future__ import annotations

import os
import platform
import sys
import time
import traceback
from collections.abc import Callable

from bench.daemon import daemon_figures
from bench.day import day_figures
from bench.day_scale import day_scale
from bench.durability import durability
from bench.figures import Figure, Section, print_methods, print_table
from bench.hub_page import hub_page_load
from bench.hub_results import hub_results
from bench.latency import decision_latency
from bench.lockout import lockout
from bench.matching import matching_figures
from bench.oled_bytes import oled_bytes
from bench.pentathlon import reach_solver
from bench.pi import pi_figures
from bench.shouts import shout_ordering
from bench.slow_pi import slow_pi_figures
from bench.solver import border_up_solver
from bench.timers import timer_error
from bench.tournament import tournament_figures
from bench.web import page_latency
from firmware_py import families

# The daemon is measured before the CPU-load section, so no leftover load can touch it.
SECTIONS: tuple[Callable[[], Section], ...] = (
    border_up_solver,
    reach_solver,
    shout_ordering,
    decision_latency,
    pi_figures,
    lockout,
    oled_bytes,
    daemon_figures,
    day_figures,
    page_latency,
    durability,
    tournament_figures,
    matching_figures,
    hub_page_load,
    hub_results,
    day_scale,
    timer_error,
    slow_pi_figures,  # last: its busy loops are bound to one core while it runs
)


def run_section(section: Callable[[], Section]) -> Section:
    """A section that raises is one failed row (its traceback on stderr), not a lost table."""
    try:
        return section()
    except Exception as error:
        traceback.print_exc()
        failed = Figure(f"{section.__name__} could not run", type(error).__name__, "runs", False)
        return Section(section.__name__, f"failed: {error}", [failed])


def print_machine() -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"machine: {os.cpu_count()} CPUs, {platform.machine()}, Python "
        f"{platform.python_version()}, load average {load} at the start",
        flush=True,
    )


def main() -> int:
    families.install()
    started = time.monotonic()
    print_machine()
    sections = [run_section(section) for section in SECTIONS]
    print_table(sections)
    print_methods(sections)
    print(f"\nbench took {time.monotonic() - started:.1f} s")
    figures = [figure for section in sections for figure in section.figures]
    return 0 if all(figure.met is not False for figure in figures) else 1


if __name__ == "__main__":
    sys.exit(main())
