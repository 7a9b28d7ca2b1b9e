"""The bench's sections still measure what they say on today's table (``make bench`` is not part
of the suite, so a change to the table could break a section unseen). Each runs a few samples
here; the speed is the bench's to report, never asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import web
from bench.durability import recovery_seconds
from bench.hub_results import Plan, hub_results
from bench.latency import ShoutLoop


def test_the_decision_latency_section_times_the_shout_decision() -> None:
    loop = ShoutLoop.start()
    try:
        for _ in range(3):
            loop.race()  # raises if the timed step was not the decision
    finally:
        loop.close()
    assert loop.shouts_made() == 3


def test_the_recovery_figure_rebuilds_a_recorded_match(tmp_path: Path) -> None:
    assert recovery_seconds(tmp_path) > 0


def test_the_page_latency_section_follows_the_answer_and_the_guesses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web, "SAMPLES", 3)
    section = web.page_latency()
    assert [figure.name for figure in section.figures] == [
        "button -> page (p50)",
        "button -> page (p99)",
        "phone's guess -> every page (max)",
    ]


def test_the_results_section_counts_every_result_into_the_record() -> None:
    """A few tables at a fast pace: each live rate's results all reach the record, and the
    catch-up ends with every result the tables made while the hub was away."""
    quick = Plan(
        team_sizes=(8, 16),
        reporting_tables=4,
        results_per_table=2,
        tables=6,
        decision_period=0.05,  # a result per table every 2 s
        live_seconds=2.0,
        outage_seconds=2.0,
    )
    section = hub_results(quick)
    values = {figure.name: figure.value for figure in section.figures}
    assert values["results missing from the record, a real rate"] == "0"
    assert values["results missing from the record, 10x that"] == "0"
    caught_up = next(f for f in section.figures if f.name.startswith("catching up 6 results"))
    assert caught_up.value.endswith(" s") and " in " not in caught_up.value
    assert values["a result's time, 16 teams / 8 (median)"]
