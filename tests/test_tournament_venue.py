"""The tournament's name and the venue's time zone (R962): set from the command line (``new``
or ``settings``), checked, kept with who and when; a time of the record shown as a person at
the venue reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.record.venue import Venue
from tests.test_tournament_cli import (
    TEAMS_CSV,
    Capture,
    assert_bad_input,
    new,
    ok_json,
    run,
    snapshot,
)

PRINTED = "2026-11-29T05:34:07+00:00"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    (tmp_path / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    return tmp_path / "t.db"


def test_a_new_tournament_is_named_and_given_its_time_zone(capsys: Capture, db: Path) -> None:
    made = new(capsys, db, "--name", "Spring  Invitational", "--time-zone", "America/Chicago")
    assert (made["name"], made["time_zone"]) == ("Spring Invitational", "America/Chicago")
    assert ok_json(capsys, "settings", "--db", str(db)) == {
        "name": "Spring Invitational",
        "time_zone": "America/Chicago",
    }


def test_a_record_without_settings_has_no_name_and_keeps_utc(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    code, out, _ = run(capsys, "settings", "--db", str(db))
    assert (code, out) == (0, "name: none (set it with --name TEXT)\ntime zone: UTC\n")


def test_each_setting_is_kept_with_who_and_when_the_latest_standing(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db, "--time-zone", "America/Chicago")
    ok_json(capsys, "settings", "--db", str(db), "--time-zone", "Europe/Berlin", "--by", "ann")
    assert ok_json(capsys, "settings", "--db", str(db))["time_zone"] == "Europe/Berlin"
    assert [(s["value"], s["set_by"]) for s in snapshot(db)["settings"]] == [
        ("America/Chicago", "director"),
        ("Europe/Berlin", "ann"),
    ]


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--time-zone", "Mars/Base", "unknown time zone 'Mars/Base': expected an IANA name such "
         "as America/Chicago, Europe/Berlin or UTC"),
        ("--time-zone", "america/chicago", "(did you mean America/Chicago?)"),
        ("--time-zone", "../../etc/passwd", "unknown time zone '../../etc/passwd'"),
        ("--name", "Spring\nInvitational", "the tournament's name: expected one line of at most "
         "80 printable characters, got more than one line"),
        ("--name", "   ", "the tournament's name is empty"),
        ("--name", "x" * 81, "got 81 characters"),
        ("--name", "bell\a", "holds a control character"),
    ],
    ids=["unknown-zone", "zone-case", "zone-path", "two-lines", "empty", "long", "control"],
)  # fmt: skip
def test_a_bad_setting_is_refused_in_one_line_and_changes_nothing(
    capsys: Capture, db: Path, option: str, value: str, said: str
) -> None:
    new(capsys, db, "--name", "Spring Invitational")
    before = snapshot(db)
    assert_bad_input(capsys, "settings", "--db", str(db), option, value, names=said)
    assert snapshot(db) == before


@pytest.mark.parametrize("zone", ["Factory", "localtime"])
def test_a_zone_that_is_no_venues_is_refused_though_the_database_holds_it(
    capsys: Capture, db: Path, zone: str
) -> None:
    """R966: "localtime" follows this machine's own setting, "Factory" shows "-00"."""
    new(capsys, db, "--time-zone", "America/Chicago")
    before = snapshot(db)
    said = f"unknown time zone {zone!r}: expected an IANA name such as America/Chicago"
    assert_bad_input(capsys, "settings", "--db", str(db), "--time-zone", zone, names=said)
    assert snapshot(db) == before


def test_new_with_a_bad_time_zone_makes_no_record(capsys: Capture, db: Path) -> None:
    teams = str(db.parent / "teams.csv")
    argv = ("new", "--format", "combo4", "--teams", teams, "--db", str(db))
    assert_bad_input(capsys, *argv, "--time-zone", "Nowhere", names="unknown time zone")
    assert not db.exists()


def test_a_time_is_shown_in_the_venues_zone_as_a_person_reads_it() -> None:
    assert Venue(time_zone="America/Chicago").when(PRINTED) == "Sat 28 Nov 2026, 23:34 CST"
    assert Venue(time_zone="Europe/Berlin").when(PRINTED) == "Sun 29 Nov 2026, 06:34 CET"
    assert Venue().when(PRINTED) == "Sun 29 Nov 2026, 05:34 UTC"


def test_text_that_is_no_time_is_shown_as_it_is() -> None:
    assert Venue(time_zone="Europe/Berlin").when("yesterday") == "yesterday"


def test_a_tournament_without_a_name_is_titled_tournament() -> None:
    assert (Venue().title, Venue("Spring Invitational").title) == (
        "Tournament",
        "Spring Invitational",
    )
