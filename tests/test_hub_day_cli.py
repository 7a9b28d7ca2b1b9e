"""``gametable hub run --day DAY`` refused in words (issue 27, R1125): one line, exit 2, no
file changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.record.day import DayRecord
from tests.hub_day_helpers import NOW, make_day
from tests.journal_helpers import assert_one_line_refusal, fingerprint
from tests.test_hub_cli import hub


@pytest.fixture
def hall(tmp_path: Path) -> Path:
    """A day of two events, a tournament record of its own and the hub's password."""
    make_day(tmp_path)
    (tmp_path / "hub-password").write_text("secret\n")
    return tmp_path


def _refused(hall: Path, *argv: str, names: str) -> None:
    before = fingerprint(hall)
    done = hub("run", *argv, "--password-file", "hub-password", cwd=hall)
    assert_one_line_refusal(done, names=names)
    assert fingerprint(hall) == before


def test_a_day_that_is_not_there_is_refused_naming_how_to_start_one(hall: Path) -> None:
    _refused(
        hall,
        *("--day", "nothing.sqlite", "--page", "off"),
        names="no day at nothing.sqlite: start one with 'gametable day new nothing.sqlite --name",
    )


def test_a_tournament_record_given_as_the_day_is_refused_naming_db(hall: Path) -> None:
    _refused(
        hall,
        *("--day", "junior.db", "--page", "off"),
        names="junior.db is not a day record (a tournament record? name it with --db junior.db)",
    )


def test_a_day_whose_event_s_record_is_missing_is_refused_naming_the_event(hall: Path) -> None:
    (hall / "senior.db").rename(hall / "elsewhere.db")
    _refused(hall, *("--day", "day.sqlite", "--page", "off"), names="event 'senior' of day.sqlite")


def test_a_day_and_a_record_together_are_refused(hall: Path) -> None:
    _refused(
        hall,
        *("--day", "day.sqlite", "--db", "junior.db", "--page", "off"),
        names="--day and --db: expected one",
    )


def test_a_day_with_no_event_yet_is_refused_naming_how_to_add_one(hall: Path) -> None:
    with DayRecord.create(
        hall / "empty-day.sqlite", name="Empty", time_zone="UTC", now=NOW, by="director"
    ):
        pass
    _refused(
        hall,
        *("--day", "empty-day.sqlite", "--page", "off"),
        names="empty-day.sqlite has no event yet: add one with 'gametable day event",
    )
