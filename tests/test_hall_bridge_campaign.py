"""Halls bridged, nothing lost (issue 27; docs/hub.md "Beyond one hall"): the fault campaign
(tests/hall_campaign.py) with two halls, each table on its hall's broker (the shipped
gametable.conf with the shipped gametable-hall.conf's bridge, rendered to temporary files on
free 127.0.0.1 ports), the hub on the central broker. Beside the single hall's faults, a hall's
broker is killed and started again without its persistence, or stopped; the campaign opens with
each bridge cut (R1002): a hall's broker killed, the central broker stopped under its bridges.
``make test`` runs it for 30 s, ``make soak`` for 25 minutes (tests/soak.py)."""

from __future__ import annotations

from pathlib import Path

from tests.hall_campaign import HALL_OPENING, Plan, run_campaign
from tests.soak import sized


def test_bridged_halls_under_faults_lose_nothing_and_double_nothing(tmp_path: Path) -> None:
    plan = Plan(
        tables=sized(8, 12),
        halls=sized(2, 3),
        faults=sized(12, 1000),
        seconds=float(sized(30, 1500)),
    )
    report = run_campaign(plan, tmp_path)
    figures = "\n".join(report.lines())
    print(figures)  # the catch-up time among them
    assert all(report.faults[kind] >= 1 for kind in HALL_OPENING), figures
    assert sum(report.faults.values()) >= plan.faults, figures
    assert report.verdict.checked > 0, figures
    assert (report.verdict.lost, report.verdict.doubled) == (0, 0), figures
    assert report.verdict.waiting == 0 and report.drained, figures
    assert report.verdict.amendments == report.entries_made, figures
    assert report.verdict.amendments_overridden == 0, figures
    assert not report.verdict.unreadable, figures
