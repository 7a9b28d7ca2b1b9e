"""A day's staff accounts from the command line (issue 27, R1141, R1142): ``gametable hub
staff add --db DAY`` adds them to the day, ``--event SLUG`` limits one to an event."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.hub.staff import StaffRecord
from firmware_py.director.hub.staff_events import StaffEvents
from firmware_py.director.record.day import DayRecord
from tests.hub_day_helpers import make_day
from tests.journal_helpers import assert_one_line_refusal, fingerprint
from tests.test_hub_cli import hub

PASSWORD = "a long enough password\n"


@pytest.fixture
def day(tmp_path: Path) -> Path:
    return make_day(tmp_path)


def test_a_staff_account_added_with_an_event_is_that_events_alone(day: Path) -> None:
    done = hub("staff", "add", "rita", "--role", "results", "--event", "junior",
               "--db", str(day), "--stdin", stdin=PASSWORD)  # fmt: skip
    assert done.code == 0, done.stderr
    assert done.stdout == f"rita added to {day} (results staff, of the event 'junior' alone)\n"
    with DayRecord.open(day) as opened:
        assert StaffEvents(opened).event_of("rita") == "junior"


def test_a_staff_account_added_without_an_event_is_every_events(day: Path) -> None:
    assert hub("staff", "add", "vic", "--role", "viewer", "--db", str(day), "--stdin",
               stdin=PASSWORD).code == 0  # fmt: skip
    listed = hub("staff", "list", "--db", str(day)).stdout
    assert listed.startswith("vic\tviewer\tevery event\tsince ")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("--role", "director", "--event", "junior"), "a director is every event's director"),
        (("--role", "viewer", "--event", "nope"), "no event 'nope' in day.sqlite: its events"),
    ],
)
def test_a_bad_event_for_a_day_account_is_refused_and_nothing_added(
    day: Path, argv: tuple[str, ...], says: str
) -> None:
    before = fingerprint(day.parent)
    done = hub("staff", "add", "sam", *argv, "--db", str(day), "--stdin", stdin=PASSWORD)
    assert_one_line_refusal(done, names=says)
    assert fingerprint(day.parent) == before


def test_an_event_for_one_records_account_is_refused_naming_the_day(day: Path) -> None:
    record = day.parent / "junior.db"
    before = fingerprint(day.parent)
    done = hub("staff", "add", "sam", "--role", "viewer", "--event", "junior",
               "--db", str(record), "--stdin", stdin=PASSWORD)  # fmt: skip
    assert_one_line_refusal(done, names="give --event with a day (--db DAY)")
    assert fingerprint(day.parent) == before
    with DayRecord.open(day) as opened:
        assert StaffRecord(opened).accounts() == ()
