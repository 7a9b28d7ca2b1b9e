"""The day record (issue 27, R1116-R1119): its events, each a record of its own, and the
event each table plays for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.record.day import DayRecord, parse_table_list
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import IllegalAction, InvalidInput
from tests.hub_page_helpers import make_record

NOW = "2026-11-29T09:00:00Z"


def _record(path: Path) -> Path:
    return make_record(path, password=None)


@pytest.fixture
def day(tmp_path: Path) -> Iterator[DayRecord]:
    made = DayRecord.create(
        tmp_path / "day.sqlite", name="League day", time_zone="America/Chicago", now=NOW, by="d"
    )
    yield made
    made.close()


def test_a_new_day_keeps_its_name_and_time_zone(day: DayRecord) -> None:
    assert (day.name, day.time_zone) == ("League day", "America/Chicago")


def test_a_day_refuses_an_unknown_time_zone(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="time zone 'Mars/Base' is not known"):
        DayRecord.create(tmp_path / "d.sqlite", name="x", time_zone="Mars/Base", now=NOW, by="d")
    assert not (tmp_path / "d.sqlite").exists()


def test_an_event_is_a_record_beside_the_day_kept_by_its_relative_path(
    day: DayRecord, tmp_path: Path
) -> None:
    record = _record(tmp_path / "combo4.sqlite")
    event = day.add_event("combo4-junior", "Combo 4, Junior", record, now=NOW, by="d")
    assert event.record == record.absolute()
    stored = day.connection.execute("SELECT record FROM day_events").fetchone()[0]
    assert stored == "combo4.sqlite"


def test_an_event_name_that_is_not_a_short_name_is_refused(day: DayRecord, tmp_path: Path) -> None:
    record = _record(tmp_path / "c.sqlite")
    with pytest.raises(InvalidInput, match="lower-case letters"):
        day.add_event("Combo 4", "Combo 4", record, now=NOW, by="d")
    assert day.events() == ()


def test_an_event_must_be_a_tournament_record(day: DayRecord, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(InvalidInput, match="not a tournament record"):
        day.add_event("x", "X", tmp_path / "notes.txt", now=NOW, by="d")


def test_one_record_is_one_event_only(day: DayRecord, tmp_path: Path) -> None:
    record = _record(tmp_path / "c.sqlite")
    day.add_event("a", "A", record, now=NOW, by="d")
    with pytest.raises(IllegalAction, match="already an event of this day"):
        day.add_event("b", "B", record, now=NOW, by="d")


def test_a_day_record_is_refused_where_a_tournament_record_is_expected(day: DayRecord) -> None:
    with pytest.raises(InvalidInput, match="is a day record, not one event's"):
        TournamentDB.open(day.path)


def test_a_tournament_record_is_refused_where_a_day_is_expected(tmp_path: Path) -> None:
    record = _record(tmp_path / "c.sqlite")
    with pytest.raises(InvalidInput, match="is not a day record"):
        DayRecord.open(record)


def test_a_table_plays_for_its_newest_assignment(day: DayRecord, tmp_path: Path) -> None:
    day.add_event("a", "A", _record(tmp_path / "a.sqlite"), now=NOW, by="d")
    day.add_event("b", "B", _record(tmp_path / "b.sqlite"), now=NOW, by="d")
    day.assign((1, 2), "a", now=NOW, by="d", reason="morning")
    day.assign((2,), "b", now=NOW, by="d", reason="Combo 3 needs it")
    assert {t: a.event for t, a in day.assignments().items()} == {1: "a", 2: "b"}
    assert [a.reason for a in day.assignment_history(2)] == ["morning", "Combo 3 needs it"]


def test_a_busy_table_refuses_the_whole_move_in_words(day: DayRecord, tmp_path: Path) -> None:
    day.add_event("a", "A", _record(tmp_path / "a.sqlite"), now=NOW, by="d")
    day.add_event("b", "B", _record(tmp_path / "b.sqlite"), now=NOW, by="d")
    with pytest.raises(IllegalAction, match="table 3: round 1 has no result yet"):
        day.assign((2, 3), "b", now=NOW, by="d", reason="x", busy={3: "round 1 has no result yet"})
    assert day.assignments() == {}


def test_assigning_to_an_unknown_event_names_the_events_there_are(
    day: DayRecord, tmp_path: Path
) -> None:
    day.add_event("a", "A", _record(tmp_path / "a.sqlite"), now=NOW, by="d")
    with pytest.raises(InvalidInput, match="its events are a"):
        day.assign((1,), "zz", now=NOW, by="d", reason="x")


def test_a_table_list_reads_ranges_and_numbers() -> None:
    assert parse_table_list("1-3,7") == (1, 2, 3, 7)


@pytest.mark.parametrize("text", ["1-", "3-1", "0", "a", "1000"])
def test_a_bad_table_list_is_refused_naming_the_part(text: str) -> None:
    with pytest.raises(InvalidInput, match="expected"):
        parse_table_list(text)
