"""The day at a glance answers within the page's time on a national tournament's day (issue 27,
bench/day_scale.py: 24 events, 300 tables): it reads each event's record once an answer."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.page import day as day_page
from firmware_py.director.hub.page.problems import Hall, read_hall
from firmware_py.director.record.tournament_db import TournamentDB
from tests.day_page_helpers import EVENTS, make_day, opened_day, serve_day
from tests.hub_page_helpers import log_in


def test_the_glance_reads_each_events_record_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: Counter[Path] = Counter()

    def counted(record: TournamentDB) -> Hall:
        reads[record.path] += 1
        return read_hall(record)

    async def scenario(client: TestClient[Any, Any]) -> int:
        await log_in(client)
        reads.clear()
        answer = await client.get("/")
        await answer.read()
        return answer.status

    monkeypatch.setattr(day_page, "read_hall", counted)
    with opened_day(make_day(tmp_path)) as pages:
        status = serve_day(pages, scenario)
    assert status == 200
    assert sorted(reads.values()) == [1] * len(EVENTS)
