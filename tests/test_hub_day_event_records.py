"""An event's record deleted, replaced or locked while a day's hub runs (issue 27, R1170,
R1171): what would be written to it is held, never written into a file no one reads and
confirmed to the table, and the other events go on."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from firmware_py.director.hub.wire.service import BUSY_RETRY_SECONDS, Hub
from firmware_py.director.record.tournament_db import RecordGone, TournamentDB
from tests.day_page_helpers import EVENTS, opened_day, serve_day
from tests.day_page_helpers import make_day as make_page_day
from tests.hub_day_helpers import JUNIOR_TEAMS, make_day, make_event, recorded, result
from tests.hub_page_helpers import log_in, origin
from tests.test_hub_day_routing import day_hub

JOURNAL = "b" * 32
GONE = (
    "junior.db was deleted or replaced since it was opened: nothing was written to it; put "
    "the record back there, or start again to open the one there now"
)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    made = day_hub(make_day(tmp_path))
    made._loop = asyncio.new_event_loop()  # where a held decision's retry is put
    yield made
    made._loop.close()
    made.router.close()
    assert made.day is not None
    made.day.close()


def _send(hub: Hub, table: int) -> None:
    """Table ``table``'s round 1 result, as the broker hands it to the hub."""
    hub._attempt(f"tables/{table}/events", result(JOURNAL, 1, 1, (40, 20)))
    hub._flush()


def _move_away(path: Path, to: Path) -> None:
    for side in ("", "-wal", "-shm"):
        if Path(f"{path}{side}").exists():
            os.rename(f"{path}{side}", f"{to}{side}")


def test_a_result_for_an_event_whose_record_was_deleted_is_held_not_confirmed(
    hub: Hub, tmp_path: Path
) -> None:
    for side in ("", "-wal", "-shm"):
        Path(f"{tmp_path / 'junior.db'}{side}").unlink(missing_ok=True)
    _send(hub, 1)
    assert hub.ledger.through(1, JOURNAL) == 0
    assert hub.confirmation_of(1) == ()


def test_a_result_for_an_event_whose_record_was_replaced_is_not_written_to_the_old_file(
    hub: Hub, tmp_path: Path
) -> None:
    _move_away(tmp_path / "junior.db", tmp_path / "old.db")
    make_event(tmp_path / "junior.db", JUNIOR_TEAMS, (1, 2))  # a backup put in its place
    _send(hub, 1)
    assert recorded(tmp_path / "old.db", 1, 1) == []
    assert hub.confirmation_of(1) == ()


def test_a_result_held_for_a_record_gone_is_in_the_queue_once_in_words(
    hub: Hub, tmp_path: Path
) -> None:
    _move_away(tmp_path / "junior.db", tmp_path / "elsewhere.db")
    _send(hub, 1)
    _send(hub, 1)  # the table sends it again
    assert [(p.table, p.error) for p in hub.refusals.pending()] == [(1, GONE)]


def test_a_record_put_back_takes_the_held_result(hub: Hub, tmp_path: Path) -> None:
    _move_away(tmp_path / "junior.db", tmp_path / "elsewhere.db")
    _send(hub, 1)
    _move_away(tmp_path / "elsewhere.db", tmp_path / "junior.db")
    _send(hub, 1)  # the table sends it again
    assert recorded(tmp_path / "junior.db", 1, 1) == [(40, 20, "table 1")]
    assert hub.ledger.through(1, JOURNAL) == 1


def test_another_events_results_go_on_while_one_events_record_is_gone(
    hub: Hub, tmp_path: Path
) -> None:
    _move_away(tmp_path / "junior.db", tmp_path / "elsewhere.db")
    _send(hub, 3)
    assert recorded(tmp_path / "senior.db", 1, 3) == [(40, 20, "table 3")]


def test_a_write_to_a_record_deleted_since_it_was_opened_is_refused(tmp_path: Path) -> None:
    path = make_event(tmp_path / "junior.db", JUNIOR_TEAMS, (1, 2))
    with TournamentDB.open(path) as record:
        _move_away(path, tmp_path / "elsewhere.db")
        with pytest.raises(RecordGone), record.writing():
            pass


def test_a_result_entered_on_the_page_of_a_record_gone_is_refused_in_words(
    tmp_path: Path,
) -> None:
    slug = EVENTS[0][0]

    async def scenario(client: TestClient[Any, Any]) -> tuple[int, str]:
        csrf = await log_in(client)
        _move_away(tmp_path / f"{slug}.sqlite", tmp_path / "elsewhere.sqlite")
        form = {"csrf": csrf, "round": "1", "table": "1", "a_points": "40", "b_points": "30"}
        answer = await client.post(f"/events/{slug}/result", data=form, headers=origin(client))
        return answer.status, await answer.text()

    with opened_day(make_page_day(tmp_path)) as pages:
        status, html = serve_day(pages, scenario)
    assert status == 503
    assert f"{slug}.sqlite was deleted or replaced since it was opened" in html
    with TournamentDB.open(tmp_path / "elsewhere.sqlite") as moved:
        assert moved.current_result(1, 1) is None


# --- an event's record locked by a director's long command (R1171) ----------------------------


@pytest.fixture
def junior_locked(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """The junior event's record held by another program's write (a long command)."""
    holder = sqlite3.connect(tmp_path / "junior.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    yield holder
    holder.close()


def test_an_events_record_locked_by_a_command_does_not_stall_the_other_events(
    hub: Hub, tmp_path: Path, junior_locked: sqlite3.Connection
) -> None:
    started = time.monotonic()
    for table in (1, 2, 1, 2):  # the junior tables, and each sending again
        hub._attempt(f"tables/{table}/events", result(f"{table}" * 32, 1, 1, (40, 20)))
    hub._attempt("tables/3/events", result(JOURNAL, 1, 1, (40, 20)))
    hub._flush()
    assert time.monotonic() - started < 2.0  # each waited for the lock: 5 s each, 20 s
    assert recorded(tmp_path / "senior.db", 1, 3) == [(40, 20, "table 3")]


def test_an_events_results_held_while_its_record_is_locked_are_taken_once_it_is_free(
    hub: Hub, tmp_path: Path, junior_locked: sqlite3.Connection
) -> None:
    _send(hub, 1)
    assert hub.confirmation_of(1) == ()
    junior_locked.execute("ROLLBACK")
    time.sleep(BUSY_RETRY_SECONDS)  # the event is tried again after this
    _send(hub, 1)  # the table sends it again
    assert recorded(tmp_path / "junior.db", 1, 1) == [(40, 20, "table 1")]
    assert hub.ledger.through(1, JOURNAL) == 1


def test_a_change_on_the_page_of_an_event_whose_record_is_locked_is_refused_within_a_second(
    tmp_path: Path,
) -> None:
    slug = EVENTS[0][0]

    async def scenario(client: TestClient[Any, Any]) -> tuple[int, float, str]:
        csrf = await log_in(client)
        holder = sqlite3.connect(tmp_path / f"{slug}.sqlite", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # a director's long command
        form = {"csrf": csrf, "round": "1", "table": "1", "a_points": "40", "b_points": "30"}
        started = time.monotonic()
        answer = await client.post(f"/events/{slug}/result", data=form, headers=origin(client))
        waited = time.monotonic() - started
        holder.close()
        return answer.status, waited, await answer.text()

    with opened_day(make_page_day(tmp_path)) as pages:
        status, waited, html = serve_day(pages, scenario)
    assert status == 503
    assert "the record is busy (database is locked): try again" in html
    assert waited < 3.0  # the hub's loop, and every event's results, waited 5 s
