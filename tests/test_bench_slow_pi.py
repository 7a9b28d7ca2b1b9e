"""The CPU-budget stand-in of ``make bench`` (bench/slow_pi.py, issue 28, R1081): how many busy
loops it adds, the unit's limit it reads, and its rows. The timings are the bench's to report,
never asserted here."""

from __future__ import annotations

import pytest

from bench.pi import PiModel
from bench.slow_pi import UNIT, BudgetRun, budget_figures, competitors, unit_seconds

ZERO = PiModel("Pi Zero 2 W", "Cortex-A53 1.0 GHz", 1000 / 90, ())


def test_a_free_core_gets_one_busy_loop_fewer_than_the_factor() -> None:
    assert competitors(11.1, free=1.0) == 10


def test_the_machines_own_load_counts_toward_the_budget() -> None:
    assert competitors(11.1, free=0.5) == 5  # a busy task already gets half the core


def test_a_core_already_busier_than_the_pi_gets_no_loop_added() -> None:
    assert competitors(11.1, free=0.05) == 0


def test_a_factor_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="a slowdown factor is at least 1"):
        competitors(0.5, free=1.0)


@pytest.mark.parametrize("free", [0.0, 1.5])
def test_a_share_outside_a_core_is_refused(free: float) -> None:
    with pytest.raises(ValueError, match=r"a share of a core is in \(0, 1\]"):
        competitors(11.1, free=free)


def test_the_watchdog_limit_is_read_from_the_installed_unit() -> None:
    assert unit_seconds(UNIT.read_text(), "WatchdogSec") == 10.0


@pytest.mark.parametrize(("value", "seconds"), [("10s", 10.0), ("2min", 120.0), ("500ms", 0.5)])
def test_a_units_time_span_is_read_in_its_unit(value: str, seconds: float) -> None:
    assert unit_seconds(f"[Service]\nWatchdogSec={value}\n", "WatchdogSec") == seconds


def test_a_time_span_the_bench_cannot_read_is_named() -> None:
    with pytest.raises(ValueError, match=r"WatchdogSec=10 min 5s: expected seconds such as"):
        unit_seconds("WatchdogSec=10 min 5s\n", "WatchdogSec")


def test_a_unit_without_the_key_is_named() -> None:
    with pytest.raises(LookupError, match="WatchdogSec is not set in the unit"):
        unit_seconds("[Service]\nType=notify\n", "WatchdogSec")


def a_run(**changes: object) -> BudgetRun:
    figures: dict[str, object] = {
        "light_both": [0.010] * 50,
        "light_alone": [0.020] * 50,
        "tick_late": [0.001] * 15,
        "ready": [1.5, 2.0, 1.8],
    }
    return BudgetRun(**{**figures, **changes})  # type: ignore[arg-type]


def test_the_budget_rows_name_the_share_and_meet_their_targets() -> None:
    rows = budget_figures(a_run(), ZERO, loops=10, watchdog=10.0, share=1 / 11)
    assert [(row.name, row.value, row.target, row.met) for row in rows] == [
        ("edge -> winner's light, both press p99 on 1/11 core", "10.000 ms", "<= 25 ms", True),
        ("edge -> winner's light, lone shout p99 on 1/11 core", "20.000 ms", "<= 25 ms", True),
        ("5-count tick lateness, max of 15 on 1/11 core", "1.000 ms", "<= 2 ms", True),
        (
            "daemon start -> READY=1, worst of 3 on 1/11 core",
            "2.000 s",
            "<= WatchdogSec 10 s",
            True,
        ),
        (
            "  stand-in: a busy task's share of the core, 10 busy loops with it",
            "1/11.0 (x11.1 wanted)",
            "-",
            None,
        ),
    ]


def test_a_late_light_and_a_late_tick_are_printed_as_not_met() -> None:
    late = a_run(light_both=[0.030] * 50, tick_late=[0.001] * 14 + [0.003])
    rows = budget_figures(late, ZERO, loops=10, watchdog=10.0, share=1 / 11)
    assert [row.met for row in rows[:4]] == [False, True, False, True]


def test_a_race_never_lit_is_printed_as_no_light() -> None:
    rows = budget_figures(
        a_run(light_alone=[float("inf")] * 50), ZERO, loops=10, watchdog=10.0, share=0.1
    )
    assert (rows[1].value, rows[1].met) == ("no light in 1 s", False)


def test_a_start_past_the_watchdog_or_without_ready_is_not_met() -> None:
    slow = budget_figures(a_run(ready=[2.0, 11.0, 3.0]), ZERO, 10, 10.0, 0.1)[3]
    never = budget_figures(a_run(ready=[2.0, None, 3.0]), ZERO, 10, 10.0, 0.1)[3]
    assert (slow.value, slow.met) == ("11.000 s", False)
    assert (never.value, never.met) == ("no READY=1", False)
