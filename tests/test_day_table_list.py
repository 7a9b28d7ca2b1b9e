"""Tables as a director writes them for a day (``1-12,15``), digits 0-9 only (issue 27, R1173):
a slip read as another table would move a table the director never named."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.record.day import DayRecord, parse_table_list
from rules.errors import InvalidInput
from tests.day_page_helpers import EVENTS, make_day, opened_day, serve_day
from tests.hub_page_helpers import error_line, log_in, origin


@pytest.mark.parametrize("written", ["1_0", "\u0665", "+5", "5-+6", "\uff15"])
def test_a_table_is_written_in_digits_0_to_9_only(written: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape("is not a table or a range")):
        parse_table_list(written)


def test_tables_with_spaces_around_their_parts_are_read(written: str = " 1 - 3 , 15 ") -> None:
    assert parse_table_list(written) == (1, 2, 3, 15)


def test_a_table_written_with_an_underscore_is_refused_on_the_day_page_and_nothing_moves(
    tmp_path: Path,
) -> None:
    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        csrf = await log_in(client)
        form = {"csrf": csrf, "tables": "1_0", "event": EVENTS[1][0], "reason": "a slip"}
        answer = await client.post("/assign", data=form, headers=origin(client))
        return answer.status, await error_line(answer)

    path = make_day(tmp_path)
    with opened_day(path) as pages:
        status, line = serve_day(pages, scenario)
    assert status == 409
    assert "&#x27;1_0&#x27; is not a table or a range: expected like 1-12,15" in line
    with DayRecord.open(path) as day:
        assert day.event_of(10) is None
