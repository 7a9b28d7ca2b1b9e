"""Addresses of the day's page a confused director or a phone may type (issue 27, R1140): an
event the day does not have is named as such wherever in its address, with the day's events."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from tests.day_page_helpers import make_day, opened_day, serve_day
from tests.hub_page_helpers import error_line, log_in, origin
from tests.test_hub_page_day_events_browser import day_with_rooms

UNKNOWN = "no event &#x27;combo5&#x27; this day: its events are combo4-junior, combo4-senior"


@pytest.mark.parametrize("path", ["/events/combo5/", "/events/combo5/teams", "/events/combo5/x/y"])
def test_a_page_of_an_event_the_day_lacks_names_the_days_events(tmp_path: Path, path: str) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        await log_in(client)
        answer = await client.get(path)
        return answer.status, await error_line(answer)

    with opened_day(make_day(tmp_path)) as pages:
        assert serve_day(pages, scenario) == (404, UNKNOWN)


def test_a_change_sent_to_an_event_the_day_lacks_names_the_days_events(tmp_path: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        csrf = await log_in(client)
        form = {"csrf": csrf, "round": "1", "table": "1", "a_points": "40", "b_points": "30"}
        answer = await client.post("/events/combo5/result", data=form, headers=origin(client))
        return answer.status, await error_line(answer)

    with opened_day(make_day(tmp_path)) as pages:
        assert serve_day(pages, scenario) == (404, UNKNOWN)


def test_every_projector_the_days_projectors_page_lists_answers(tmp_path: Path) -> None:
    """A room in a building ("East Hall, Ballroom B") too: its projector is asked by its name."""

    async def scenario(client: TestClient[Any, Any]) -> dict[str, int]:
        listed = re.findall(
            r'href="(/events/[^"]+)"', await (await client.get("/projector")).text()
        )
        return {link: (await client.get(unescape(link))).status for link in listed}

    with opened_day(day_with_rooms(tmp_path)) as pages:
        answers = serve_day(pages, scenario)
    assert len(answers) == 4
    assert set(answers.values()) == {200}
