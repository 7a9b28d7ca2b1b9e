"""The bench's sections still measure what they say on today's table (``make bench`` is not part
of the suite, so a change to the table could break a section unseen). Each runs a few samples
here; the speed is the bench's to report, never asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import day_scale, web
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


# --- the day of 24 events (bench/day_scale.py) -------------------------------------------------


def test_the_days_tables_are_shared_among_its_events_in_runs() -> None:
    shares = day_scale.event_tables(day_scale.Plan())
    sizes = [len(tables) for tables in shares.values()]
    assert len(shares) == 24 and sizes == [13] * 12 + [12] * 12
    assert [t for tables in shares.values() for t in tables] == list(range(1, 301))
    assert shares["elementary-1"] == tuple(range(1, 14))
    assert list(shares)[-1] == "senior-6"


def test_an_events_rooms_are_the_rooms_its_tables_are_in() -> None:
    assert day_scale.rooms_of((99, 100, 101)) == {"Ballroom A": (99, 100), "Ballroom B": (101,)}


def test_the_count_check_tells_a_result_in_another_event() -> None:
    shares = {"junior-1": (1, 2), "junior-2": (3,)}
    seen = [day_scale.Seen("junior-1", table, 0.1, "recorded") for table in (1, 2, 3)]
    assert day_scale.placed(seen, shares) == day_scale.Placed(right=2, wrong=1, refused=0)


def test_the_count_check_tells_a_result_its_own_event_refused() -> None:
    """The hub keeps a refused result's row too: in the event's table_events, not its record."""
    shares = {"junior-1": (1, 2)}
    seen = [
        day_scale.Seen("junior-1", 1, 0.1, "recorded"),
        day_scale.Seen("junior-1", 2, 0.1, "refused"),
    ]
    assert day_scale.placed(seen, shares) == day_scale.Placed(right=1, wrong=0, refused=1)


def test_an_event_not_paired_is_a_pairing_target_not_met() -> None:
    plan = day_scale.Plan(divisions=("Junior",), games=2)
    answered = {"junior-1": 0.2, "junior-2": 0.2}
    pairing = day_scale.Pairing(2, {"junior-1": 0.3}, answered, {}, [])
    slowest, _, misplaced = day_scale.pairing_figures(pairing, plan)
    assert (slowest.value, slowest.met) == ("1 of 2 paired", False)
    assert (misplaced.value, misplaced.met) == ("0", True)


def test_a_page_answer_over_200_ms_at_the_p99_is_not_met() -> None:
    page = day_scale.PageSampler(port=0, cookie="", slugs=["junior-1"])
    page.answers = {kind: [0.01] * 99 + [0.05] for kind in day_scale.PAGES}
    page.answers["an event's grid"] = [0.01] * 99 + [0.3]  # p99 of 100: the largest
    rows = {figure.name.split(" while")[0]: figure for figure in day_scale.page_figures(page)}
    assert (rows["an event's grid"].value, rows["an event's grid"].met) == ("300 ms", False)
    assert (rows["the day at a glance"].value, rows["the day at a glance"].met) == ("50 ms", True)


def test_the_day_section_pairs_every_event_and_puts_each_result_in_its_own() -> None:
    """Four events on twelve tables, a result from each table within a few seconds."""
    quick = day_scale.Plan(divisions=("Junior", "Senior"), games=2, tables=12, report_seconds=4.0)
    section = day_scale.day_scale(quick)
    values = {figure.name: figure.value for figure in section.figures}
    assert values["round 1: events whose pairings are not at their own tables"] == "0"
    assert values["round 2: events whose pairings are not at their own tables"] == "0"
    assert values["results recorded in their own event's record"] == "12 of 12"
    assert values["results gone to another event's record"] == "0"
    assert values["results their own event refused"] == "0"
    assert values["the page's answers failed"] == "0"
