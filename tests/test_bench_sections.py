"""The bench's sections still measure what they say on today's table (``make bench`` is not part
of the suite, so a change to the table could break a section unseen). Each runs a few samples
here; the speed is the bench's to report, never asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import web
from bench.durability import recovery_seconds
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
