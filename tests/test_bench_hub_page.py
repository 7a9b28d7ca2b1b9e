"""The hub's load figure's plumbing (bench/hub_page.py), on a tiny hall: 5 tables for 2 seconds
through a real mosquitto to ``gametable hub run`` in its own process. Its speed is the bench's
to report (``make bench``), never asserted here."""

from __future__ import annotations

import pytest

from bench.hub_load import sent_time, state
from bench.hub_page import RATE, hub_page_load, tables_and_seconds


def test_a_bench_state_carries_when_it_was_sent() -> None:
    game = state(3, 7).decode()
    assert '"table":3' in game
    assert sent_time("bench 7 1700000000.250000") == 1_700_000_000.25
    assert sent_time("G3 Border-Up") is None


def test_the_number_of_tables_and_the_duration_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("GAMETABLE_BENCH_HUB_TABLES", raising=False)
    monkeypatch.delenv("GAMETABLE_BENCH_HUB_SECONDS", raising=False)
    assert tables_and_seconds() == (500, 60.0)
    monkeypatch.setenv("GAMETABLE_BENCH_HUB_TABLES", "5")
    monkeypatch.setenv("GAMETABLE_BENCH_HUB_SECONDS", "2")
    assert tables_and_seconds() == (5, 2.0)
    monkeypatch.setenv("GAMETABLE_BENCH_HUB_TABLES", "999")
    with pytest.raises(ValueError, match="expected 1 to 998 tables"):
        tables_and_seconds()


def test_the_load_figure_runs_end_to_end_on_a_tiny_hall(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMETABLE_BENCH_HUB_TABLES", "5")
    monkeypatch.setenv("GAMETABLE_BENCH_HUB_SECONDS", "2")
    section = hub_page_load()
    figures = {figure.name: figure for figure in section.figures}
    assert section.title == f"the hub under 5 tables x {RATE:g} states/s for 2 s"
    assert f"{5 * 2 * int(RATE)} sent" in section.how  # every state the load processes sent
    lost = int(figures["states lost (sent - taken by the board)"].value)
    assert 0 <= lost <= 5 * 2 * RATE
    for name in ("publish -> hub's board (p99)", "publish -> director's page (p50)"):
        assert figures[name].value.endswith(" ms") and not figures[name].value.startswith("nan")
    assert figures["hub RSS"].value.endswith(" MiB")
