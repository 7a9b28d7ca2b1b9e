"""The teams CSV (name,school,players) and team names."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.tournament import Entrant, find_entrant, parse_teams_csv
from rules.tournament.teams import MAX_TEAMS, check_entrants, preview_teams_csv

CSV = "name,school,players\nEagles,Lincoln,Ann;Bo;Cy\nOwls,,Gus; Hal\n"


def test_csv_gives_name_school_and_players() -> None:
    assert parse_teams_csv(CSV) == (
        Entrant("Eagles", "Lincoln", ("Ann", "Bo", "Cy")),
        Entrant("Owls", "", ("Gus", "Hal")),
    )


def test_csv_accepts_a_byte_order_mark_and_blank_lines() -> None:
    assert len(parse_teams_csv("\ufeff" + CSV.replace("\nOwls", "\n\nOwls"))) == 2


def test_csv_quoted_name_may_hold_a_comma() -> None:
    teams = parse_teams_csv('name,school,players\n"Smith, Jones",X,A\nOwls,Y,B\n')
    assert teams[0].name == "Smith, Jones"


def test_csv_wrong_header_names_the_expected_one() -> None:
    with pytest.raises(InvalidInput, match="expected name,school,players"):
        parse_teams_csv("team,school,players\nA,B,C\nD,E,F\n")


def test_csv_duplicate_name_names_both_lines() -> None:
    with pytest.raises(
        InvalidInput, match=r"line 4: duplicate team name 'eagles' \(first on line 2\)"
    ):
        parse_teams_csv(CSV + "eagles,Adams,Zed\n")


def test_csv_row_with_wrong_field_count_is_named() -> None:
    with pytest.raises(InvalidInput, match="line 3: 2 field"):
        parse_teams_csv("name,school,players\nA,B,C\nD,E\n")


def test_csv_team_without_a_name_is_refused() -> None:
    with pytest.raises(InvalidInput, match="line 3: the team has no name"):
        parse_teams_csv("name,school,players\nA,B,C\n ,E,F\n")


def test_csv_needs_two_teams() -> None:
    with pytest.raises(InvalidInput, match="1 team"):
        parse_teams_csv("name,school,players\nA,B,C\n")


def test_empty_csv_is_refused() -> None:
    with pytest.raises(InvalidInput, match="is empty"):
        parse_teams_csv("\n\n", "teams.csv")


def test_duplicate_entrants_are_refused() -> None:
    with pytest.raises(InvalidInput, match="duplicate team name"):
        check_entrants([Entrant("A"), Entrant(" a ")])


def test_find_entrant_ignores_case_and_spaces() -> None:
    teams = parse_teams_csv(CSV)
    assert find_entrant(teams, "  OWLS ").name == "Owls"


def test_find_entrant_unknown_lists_the_teams() -> None:
    with pytest.raises(
        InvalidInput, match="unknown team 'Crows': expected one of 'Eagles', 'Owls'"
    ):
        find_entrant(parse_teams_csv(CSV), "Crows")


def test_names_that_differ_only_in_unicode_form_or_invisible_characters_are_one_team() -> None:
    text = "name,school,players\nCafe\u0301,North,a\nCaf\u00e9,South,b\n"
    with pytest.raises(InvalidInput, match="duplicate team name"):
        parse_teams_csv(text)
    text = "name,school,players\nEagles,North,a\nEag\u200bles,South,b\n"
    with pytest.raises(InvalidInput, match="duplicate team name"):
        parse_teams_csv(text)


def test_a_name_with_a_control_character_is_refused_before_it_reaches_a_terminal() -> None:
    text = "name,school,players\nE\x1b[31magles,North,a\nHawks,South,b\n"
    with pytest.raises(InvalidInput, match="holds a control character, U\\+001B"):
        parse_teams_csv(text)


def test_a_field_larger_than_the_maximum_is_refused_up_front() -> None:
    rows = "".join(f"T{i},S{i},a\n" for i in range(MAX_TEAMS + 1))
    with pytest.raises(InvalidInput, match=f"more than {MAX_TEAMS} teams"):
        parse_teams_csv("name,school,players\n" + rows)


# R134: names that fit, and one player on one team


def test_a_team_name_longer_than_40_characters_is_refused_at_entry() -> None:
    long_name = "E" * 41
    with pytest.raises(InvalidInput, match=r"line 2: team name 'E{40}'\.\.\. has 41 characters"):
        parse_teams_csv(f"name,school,players\n{long_name},X,A\nOwls,Y,B\n")
    assert parse_teams_csv(f"name,school,players\n{'E' * 40},X,A\nOwls,Y,B\n")[0].name == "E" * 40


def test_a_player_name_longer_than_40_characters_is_refused_at_entry() -> None:
    with pytest.raises(InvalidInput, match=r"line 3: player 'P{40}'\.\.\. has 41 characters"):
        parse_teams_csv(f"name,school,players\nEagles,X,A\nOwls,Y,{'P' * 41}\n")


def test_a_team_lists_at_most_8_players() -> None:
    roster = ";".join(f"P{n}" for n in range(9))
    with pytest.raises(InvalidInput, match="line 2: 9 players: expected at most 8"):
        parse_teams_csv(f"name,school,players\nEagles,X,{roster}\nOwls,Y,B\n")


def test_a_player_listed_twice_on_a_team_is_refused() -> None:
    with pytest.raises(InvalidInput, match="line 2: player 'ann' is listed twice"):
        parse_teams_csv("name,school,players\nEagles,X,Ann;ann\nOwls,Y,B\n")


def test_a_player_on_two_teams_of_one_school_is_refused_naming_both_lines() -> None:
    with pytest.raises(
        InvalidInput,
        match=r"line 3: player 'Ann' is already on team 'Eagles' \(teams.csv line 2\)",
    ):
        parse_teams_csv("name,school,players\nEagles,Lincoln,Ann;Bo\nOwls,lincoln,Ann;Cy\n")


def test_a_player_on_two_teams_of_no_school_is_refused() -> None:
    with pytest.raises(InvalidInput, match="already on team 'Eagles'"):
        parse_teams_csv("name,school,players\nEagles,,Ann\nOwls,,Ann\n")


def test_one_name_at_two_schools_is_two_children() -> None:
    teams = parse_teams_csv("name,school,players\nEagles,Lincoln,Sam Lee\nOwls,Adams,Sam Lee\n")
    assert [team.players for team in teams] == [("Sam Lee",), ("Sam Lee",)]


def test_a_record_made_before_the_limits_still_opens() -> None:
    entrants = (Entrant("E" * 60, "", ("Ann",)), Entrant("Owls", "", ("Ann",)))
    assert check_entrants(entrants) == entrants


# --- the preview of the page's field (R1062) ---------------------------------------------------


def test_pasted_spreadsheet_rows_separated_by_tabs_read_as_the_csv() -> None:
    pasted = CSV.replace(",", "\t")
    assert parse_teams_csv(pasted) == parse_teams_csv(CSV)


def test_the_preview_names_every_bad_line_not_only_the_first() -> None:
    text = "name,school,players\nA,B,C\nD,E\n ,E,F\nG,H,I\n"
    preview = preview_teams_csv(text)
    assert [e.name for e in preview.entrants] == ["A", "G"]
    assert [problem.split(":")[0] for problem in preview.problems] == [
        "teams.csv line 3",
        "teams.csv line 4",
    ]


def test_the_cli_refuses_with_the_previews_first_bad_line() -> None:
    text = "name,school,players\nA,B,C\n ,E,F\nA,H,I\n"
    with pytest.raises(InvalidInput) as refused:
        parse_teams_csv(text)
    assert str(refused.value) == preview_teams_csv(text).problems[0]


def test_the_preview_refuses_a_name_or_short_name_already_in_the_field() -> None:
    field = (Entrant("Eagles", short="EAG"),)
    text = "name,school,players,short\neagles,,,\nOwls,,,eag\n"
    assert preview_teams_csv(text, "pasted", field).problems == (
        "pasted line 2: duplicate team name 'eagles' (already in the field): "
        "expected every team name once",
        "pasted line 3: short name 'eag' is also in the field: expected every short name once",
    )
