"""What the bench reads from systemd/gametable.service to measure the daemon as systemd runs it
(bench/unit.py, issue 28, R1083): the loop's scheduling policy. The timings themselves are the
bench's to report, never asserted here."""

from __future__ import annotations

import pytest

from bench.unit import UNIT, Scheduling, unit_scheduling, unit_value


def test_the_unit_runs_the_loop_round_robin_at_the_lowest_realtime_priority() -> None:
    assert unit_scheduling(UNIT.read_text()) == Scheduling("rr", 1)


def test_a_policy_is_printed_with_the_kernels_name() -> None:
    assert str(Scheduling("rr", 1)) == "SCHED_RR 1"


def test_the_last_assignment_of_a_key_is_the_one_systemd_uses() -> None:
    assert unit_value("[Service]\nNice=5\nNice=-3\n", "Nice") == "-3"


def test_a_unit_without_a_policy_says_which_key_is_missing() -> None:
    with pytest.raises(LookupError, match="CPUSchedulingPolicy is not set in the unit"):
        unit_scheduling("[Service]\nCPUSchedulingPriority=1\n")


def test_an_unknown_policy_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="CPUSchedulingPolicy=realtime: expected one of batch, "):
        unit_scheduling("CPUSchedulingPolicy=realtime\nCPUSchedulingPriority=1\n")


@pytest.mark.parametrize("priority", ["0", "100", "high", "-1"])
def test_a_realtime_priority_outside_1_to_99_is_refused(priority: str) -> None:
    with pytest.raises(ValueError, match=f"CPUSchedulingPriority={priority}: expected 1-99 for rr"):
        unit_scheduling(f"CPUSchedulingPolicy=rr\nCPUSchedulingPriority={priority}\n")
