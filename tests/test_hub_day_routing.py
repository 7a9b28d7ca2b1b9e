"""A hub serving a day of several events (issue 27, R1120-R1123): which event's record each
table's decision goes to, read without a broker (the hub's own handling of a decision)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.hub.wire.service import Hub, HubBroker
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import Confirmation, parse_decision
from tests.hub_day_helpers import (
    JUNIOR_TEAMS,
    NOW,
    make_day,
    make_event,
    move_table,
    recorded,
    result,
    table_events,
)

JOURNAL = "a" * 32


def day_hub(day_path: Path) -> Hub:
    """A hub on the day, not connected: its decisions handed to it as the broker would."""
    day = DayRecord.open(day_path)
    hub = Hub(day, HubBroker("127.0.0.1", 1, "hub", "unused"))
    for record in hub.events.values():
        record.upgrade_for_hub()
    return hub


@pytest.fixture
def day_path(tmp_path: Path) -> Path:
    return make_day(tmp_path)


@pytest.fixture
def hub(day_path: Path) -> Iterator[Hub]:
    made = day_hub(day_path)
    yield made
    made.router.close()
    assert made.day is not None
    made.day.close()


def test_a_table_s_result_lands_in_its_own_event_s_record_only(hub: Hub, tmp_path: Path) -> None:
    hub._decision(3, result(JOURNAL, 1, 1, (40, 20)))
    hub._flush()
    assert recorded(tmp_path / "senior.db", 1, 3) == [(40, 20, "table 3")]
    assert table_events(tmp_path / "junior.db", 3) == []


def test_the_day_s_hub_confirms_with_the_day_s_identity(hub: Hub) -> None:
    assert hub.day is not None
    hub._decision(1, result(JOURNAL, 1, 1, (40, 20)))
    hub._flush()
    assert hub.confirmation_of(1) == (Confirmation(hub.day.identity(), JOURNAL, 1),)


def test_the_ledger_of_a_day_lives_in_the_day_record_not_in_an_event_s(
    hub: Hub, day_path: Path, tmp_path: Path
) -> None:
    hub._decision(1, result(JOURNAL, 1, 1, (40, 20)))
    hub._flush()
    with DayRecord.open(day_path) as day:
        held = day.connection.execute("SELECT table_number, through FROM hub_deliveries")
        assert [tuple(row) for row in held] == [(1, 1)]
    with TournamentDB.open(tmp_path / "junior.db") as junior:
        found = junior.connection.execute(
            "SELECT 1 FROM sqlite_master WHERE name = 'hub_deliveries'"
        ).fetchone()
        assert found is None


def test_a_late_result_of_a_table_moved_since_goes_to_the_event_it_was_played_in(
    hub: Hub, day_path: Path, tmp_path: Path
) -> None:
    """R1121: table 2 played round 1 for the junior event, then was moved to the senior one;
    its round 1 result comes after the move."""
    move_table(day_path, 2, "senior")
    hub._follow_the_day()
    hub._decision(2, result(JOURNAL, 1, 1, (30, 50)))
    hub._flush()
    assert recorded(tmp_path / "junior.db", 1, 2) == [(30, 50, "table 2")]
    assert table_events(tmp_path / "senior.db", 2) == []


def test_a_result_no_event_s_round_names_goes_to_the_table_s_current_event(
    hub: Hub, tmp_path: Path
) -> None:
    """Round 2 is paired nowhere: the table's own event says why it refuses it."""
    hub._decision(7, result(JOURNAL, 1, 2, (40, 20)))
    hub._flush()
    assert table_events(tmp_path / "senior.db", 7) == [(JOURNAL, 1)]
    assert table_events(tmp_path / "junior.db", 7) == []


def test_a_table_with_no_event_has_its_result_held_back_and_said_in_the_queue(
    hub: Hub, tmp_path: Path
) -> None:
    """R1120: table 8 plays for no event in a day of two: its result is not taken (the table
    keeps it and sends it again) and the director's queue says what to do."""
    hub._decision(8, result(JOURNAL, 1, 1, (40, 20)))
    hub._flush()
    assert hub.ledger.through(8, JOURNAL) == 0
    assert hub.confirmation_of(8) == ()
    said = [p.error for p in hub.refusals.pending() if p.table == 8]
    assert said == ["table 8 plays for no event: assign it on the day page"]
    assert table_events(tmp_path / "junior.db", 8) == []
    assert table_events(tmp_path / "senior.db", 8) == []


def test_a_table_given_an_event_has_its_held_result_taken_and_the_problem_gone(
    hub: Hub, day_path: Path, tmp_path: Path
) -> None:
    hub._decision(8, result(JOURNAL, 1, 1, (40, 20)))
    move_table(day_path, 8, "junior")
    hub._follow_the_day()
    assert [p for p in hub.refusals.pending() if p.table == 8] == []
    hub._decision(8, result(JOURNAL, 1, 1, (40, 20)))  # the table sends it again
    hub._flush()
    assert table_events(tmp_path / "junior.db", 8) == [(JOURNAL, 1)]
    assert hub.ledger.through(8, JOURNAL) == 1


def test_in_a_day_of_one_event_a_table_with_no_event_plays_for_it(tmp_path: Path) -> None:
    junior = make_event(tmp_path / "junior.db", JUNIOR_TEAMS, (1, 2))
    path = tmp_path / "day.sqlite"
    with DayRecord.create(path, name="Day", time_zone="UTC", now=NOW, by="d") as day:
        day.add_event("junior", "Combo 4, Junior", junior, now=NOW, by="d")
    hub = day_hub(path)
    hub._decision(1, result(JOURNAL, 1, 1, (40, 20)))
    hub._flush()
    assert recorded(junior, 1, 1) == [(40, 20, "table 1")]
    hub.router.close()


def test_a_result_applied_to_one_event_is_a_copy_for_every_other(
    hub: Hub, day_path: Path, tmp_path: Path
) -> None:
    """R1122: idempotence by (table, journal, seq) across the day's records: the ledger let
    go of it (a hub that stopped before writing it), the table moved, the result again."""
    hub._decision(2, result(JOURNAL, 1, 1, (30, 50)))
    hub.ledger.forget(2, JOURNAL)
    move_table(day_path, 2, "senior")
    hub._follow_the_day()
    assert hub._apply(2, parse_decision(result(JOURNAL, 1, 2, (30, 50)))) == "duplicate"
    assert table_events(tmp_path / "senior.db", 2) == []


def test_a_day_that_cannot_be_read_for_a_moment_leaves_each_table_s_event_as_it_was(
    hub: Hub, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The hub's poll reads the day every second: a read that fails (its disk) is said once
    and tried again at the next poll, never the end of the hub's loop."""

    def unreadable() -> set[int]:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(hub.router, "refresh", unreadable)
    hub._follow_the_day()
    route = hub.router.for_table(1)
    assert route is not None and route.event == "junior"
    assert "event=day_busy error=disk I/O error" in caplog.text


def test_a_held_back_result_sent_again_is_said_once_since_it_first_came(
    hub: Hub, caplog: pytest.LogCaptureFixture
) -> None:
    hub._decision(8, result(JOURNAL, 1, 1, (40, 20)))
    (first,) = hub.refusals.pending()
    hub._decision(8, result(JOURNAL, 1, 1, (40, 20)))  # the table sends it again
    assert hub.refusals.pending() == [first]
    assert caplog.text.count("event=hub_no_event") == 1


def test_an_event_added_while_the_hub_runs_is_served_from_its_next_read_of_the_day(
    hub: Hub, day_path: Path, tmp_path: Path
) -> None:
    """R1124: the third event's record opened, its tables' results routed to it."""
    third = make_event(tmp_path / "third.db", JUNIOR_TEAMS, (9, 10))
    with DayRecord.open(day_path) as day:
        day.add_event("third", "Combo 4, Third", third, now=NOW, by="director")
    hub._follow_the_day()
    assert list(hub.events) == ["junior", "senior", "third"]
    route = hub.router.for_result(9, parse_decision(result(JOURNAL, 1, 1, (40, 20))))
    assert route is not None and route.event == "third"


def test_the_hub_says_which_event_each_table_plays_for_as_it_last_read_the_day(
    hub: Hub, day_path: Path
) -> None:
    move_table(day_path, 2, "senior")
    assert (hub.event_of(2), hub.event_of(8)) == ("junior", None)
    hub._follow_the_day()
    assert hub.event_of(2) == "senior"
