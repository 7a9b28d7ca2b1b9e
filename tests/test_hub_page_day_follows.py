"""A table that follows another event than the day gives it (issue 27, R1174): its state says
the event it follows (R1131); on the day's glance a table online that follows another event is
a problem, since it shows that event's match and its teams may play the wrong one."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.wire.board import BoardError, LiveBoard, parse_state
from firmware_py.director.record.day import DayRecord
from firmware_py.table.hub_wire import ONLINE
from tests.day_page_helpers import EVENTS, make_day, opened_day, serve_day
from tests.hub_page_helpers import log_in, state

JUNIOR, SENIOR = (slug for slug, _ in EVENTS)
FOLLOWS_SENIOR = "table 1 follows Combo 4 Senior but plays for Combo 4 Junior"


def _board(follows: str | None, *, online: bool = True) -> LiveBoard:
    """Table 1 (the junior event's) heard, its state saying it follows ``follows``."""
    board = LiveBoard()
    if online:
        board.take_status(1, ONLINE.encode(), heard=0.0)
    fields = {} if follows is None else {"event": follows}
    board.take_state(1, state(1, **fields), heard=0.0)
    return board


async def _glance(client: TestClient[Any, Any]) -> str:
    await log_in(client)
    return await (await client.get("/")).text()


def test_a_table_that_follows_another_event_than_its_own_is_in_the_days_queue(
    tmp_path: Path,
) -> None:
    with opened_day(make_day(tmp_path), _board(SENIOR)) as pages:
        html = serve_day(pages, _glance)
    assert (
        f"<strong>Follows another event</strong> · Combo 4 Junior, table 1: {FOLLOWS_SENIOR}"
        in (html)
    )


def test_a_table_that_follows_its_own_event_is_no_problem(tmp_path: Path) -> None:
    with opened_day(make_day(tmp_path), _board(JUNIOR)) as pages:
        assert "follows" not in serve_day(pages, _glance)


def test_a_table_that_says_no_event_is_not_held_to_one(tmp_path: Path) -> None:
    """A table before issue 27 says nothing of an event."""
    with opened_day(make_day(tmp_path), _board(None)) as pages:
        assert "follows" not in serve_day(pages, _glance)


def test_an_offline_table_is_not_said_to_follow_another_event(tmp_path: Path) -> None:
    """Its state is its last before it went: it is offline, which the queue says."""
    with opened_day(make_day(tmp_path), _board(SENIOR, online=False)) as pages:
        assert FOLLOWS_SENIOR not in serve_day(pages, _glance)


def test_a_table_just_moved_is_given_time_to_hear_its_new_event(tmp_path: Path) -> None:
    path = make_day(tmp_path)
    with DayRecord.open(path) as day:
        just_now = datetime.now(UTC).isoformat(timespec="seconds")
        day.assign([1], SENIOR, now=just_now, by="director", reason="between rounds")
    with opened_day(path, _board(JUNIOR)) as pages:
        assert "follows" not in serve_day(pages, _glance)


@pytest.mark.parametrize("event", ["../x", "Combo4", "", "a" * 30])
def test_a_state_naming_an_event_wrongly_is_refused_in_words(event: str) -> None:
    with pytest.raises(BoardError, match="event: expected an event's short name"):
        parse_state(state(1, event=event))
