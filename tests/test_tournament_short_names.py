"""Teams' short names (R830-R832): given at registration or derived, each unique within the
tournament, each one the OLED shows whole; kept in the record with the teams."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.oled import fits_small
from firmware_py.director.record.tournament_db import TournamentDB
from rules.errors import InvalidInput
from rules.tournament import Entrant, TournamentFormat, new_config, parse_teams_csv
from rules.tournament.short_names import MAX_SHORT, check_short, derive_short, short_names

NOW = "2026-05-09T09:00:00+00:00"


def _derived(*names: str) -> tuple[str, ...]:
    return short_names(names, [""] * len(names))


# --- deriving one (R830) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "short"),
    [
        ("Eagles", "Eagles"),  # fits: the name itself
        ("Team 7", "Team 7"),
        ("Red Hawks", "Red Hawks"),
        ("Adams Owls", "AdamsOwls"),  # the words run together fit
        ("Lincoln High", "LincolnH"),  # the first word, then each further word's initial
        ("Lincoln High School", "LincolnHS"),
        ("Lincoln High School 12", "LincoHS12"),  # a number kept whole
        ("Academy of Science", "AcademyS"),  # "of" gives no initial
        ("Académie de Québec", "AcademieQ"),  # accents dropped, "de" left out
        ("Saint Mary's Academy", "SaintMA"),
    ],
)
def test_a_short_name_is_derived_from_the_teams_name(name: str, short: str) -> None:
    assert derive_short(name, 1) == short


def test_a_name_with_no_plain_letter_is_its_place_in_the_entry_list() -> None:
    assert derive_short("北京队", 17) == "Team17"


def test_teams_sharing_a_long_prefix_get_short_names_that_differ() -> None:
    assert _derived("Lincoln High", "Lincoln Middle") == ("LincolnH", "LincolnM")


def test_short_names_alike_are_numbered_in_entry_order() -> None:
    assert _derived("Lincoln High Blue", "Eagles", "Lincoln High Bears") == (
        "LincolnH1",
        "Eagles",
        "LincolnH2",
    )


def test_numbered_teams_keep_their_numbers() -> None:
    assert _derived("Team00", "Team001", "Team002") == ("Team00", "Team001", "Team002")


def test_a_derived_name_alike_a_given_one_is_numbered() -> None:
    assert short_names(("Lincoln High", "Lincoln Heights"), ("LincolnH", "")) == (
        "LincolnH",
        "LincolnH1",
    )


def test_a_number_never_takes_a_short_name_another_team_has() -> None:
    names = ("Lincoln High Blue", "Lincoln High Bears", "LincolnH1")
    assert _derived(*names) == ("LincolnH2", "LincolnH3", "LincolnH1")


@given(st.lists(st.text(min_size=1, max_size=40), min_size=2, max_size=40, unique=True))
def test_every_short_name_is_unique_and_shows_whole_on_the_oled(names: list[str]) -> None:
    shorts = _derived(*names)
    assert len({short.casefold() for short in shorts}) == len(shorts)
    for short in shorts:
        assert 1 <= len(short) <= MAX_SHORT and fits_small(f"{short} v {short}")
        assert all(" " <= char <= "~" for char in short)


# --- given at registration (R831) ----------------------------------------------------------------


def test_two_teams_given_one_short_name_are_refused_naming_both() -> None:
    with pytest.raises(InvalidInput, match=r"short name 'lhs' is given to 'A' and 'B'"):
        short_names(("A", "B"), ("LHS", "lhs"))


@pytest.mark.parametrize("short", ["Lincolnhigh", "Lycée", "L\tH"])
def test_a_given_short_name_the_oled_cannot_show_is_refused(short: str) -> None:
    with pytest.raises(InvalidInput, match=r"^line 2: short name .*expected 1 to 9"):
        check_short(short, "line 2")


def test_the_teams_csv_may_give_each_team_a_short_name() -> None:
    teams = parse_teams_csv("name,school,players,short\nLincoln High,Lincoln,Ann,LHS\nOwls,,Bo,\n")
    assert [(team.name, team.short) for team in teams] == [("Lincoln High", "LHS"), ("Owls", "")]


def test_the_teams_csv_without_short_names_reads_as_before() -> None:
    teams = parse_teams_csv("name,school,players\nLincoln High,Lincoln,Ann\nOwls,,Bo\n")
    assert [team.short for team in teams] == ["", ""]


def test_a_short_name_twice_in_the_csv_names_both_lines() -> None:
    text = "name,school,players,short\nA,,,LHS\nB,,,X\nC,,,lhs\n"
    with pytest.raises(InvalidInput, match=r"line 4: short name 'lhs' is also on line 2"):
        parse_teams_csv(text)


def test_a_short_name_too_long_in_the_csv_names_its_line() -> None:
    with pytest.raises(InvalidInput, match=r"^teams.csv line 3: short name 'LincolnHigh' has 11"):
        parse_teams_csv("name,school,players,short\nA,,,LHS\nB,,,LincolnHigh\n")


# --- kept in the record (R832) -------------------------------------------------------------------


def _record(path: Path, teams: tuple[Entrant, ...]) -> TournamentDB:
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    return TournamentDB.create(path, config, teams, now=NOW, by="director")


TEAMS = (
    Entrant("Lincoln High School", "Lincoln", (), short="LHS"),
    Entrant("Lincoln Middle School", "Lincoln", ()),
    Entrant("Lincoln Middle School Blue", "Lincoln", ()),
    Entrant("Owls", "", ()),
)


def test_the_record_keeps_each_teams_short_name_given_or_derived(tmp_path: Path) -> None:
    with _record(tmp_path / "t.db", TEAMS) as record:
        assert record.short_names() == {
            "Lincoln High School": "LHS",
            "Lincoln Middle School": "LincolnMS",
            "Lincoln Middle School Blue": "LincolMSB",
            "Owls": "Owls",
        }
        assert [team.short for team in record.entrants()] == ["LHS", "", "", ""]


def test_a_record_with_two_teams_given_one_short_name_is_not_made(tmp_path: Path) -> None:
    teams = (Entrant("A", short="X"), Entrant("B", short="x"))
    with pytest.raises(InvalidInput, match="short name 'x' is given to 'A' and 'B'"):
        _record(tmp_path / "t.db", teams)
    assert not (tmp_path / "t.db").exists()


def test_a_short_name_kept_is_never_changed(tmp_path: Path) -> None:
    with _record(tmp_path / "t.db", TEAMS) as record:
        for statement in (
            "UPDATE team_short_names SET short = 'X'",
            "DELETE FROM team_short_names",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                record.connection.execute(statement)


def test_a_record_made_before_short_names_is_given_them_derived_once(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    _record(path, tuple(Entrant(team.name) for team in TEAMS)).close()
    with sqlite3.connect(path) as connection:  # as a record made before R832
        connection.execute("DROP TABLE team_short_names")
    connection.close()
    with TournamentDB.open(path) as record:
        derived = record.short_names()  # read as they would be derived
        assert record.keep_short_names(now=NOW, by="hub")
        assert not record.keep_short_names(now=NOW, by="hub")  # once
        assert record.short_names() == derived
        assert derived["Lincoln High School"] == "LincolnHS"
        kept = record.connection.execute("SELECT DISTINCT kept_by FROM team_short_names")
        assert [row[0] for row in kept] == ["hub"]
