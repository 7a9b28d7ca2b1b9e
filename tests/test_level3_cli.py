"""The judge's CLI at Level 3: ``--level 3`` wherever the level matters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.cli import main
from rules.geoplunge.games.level3.border_up import check_showing
from tests.cli_helpers import assert_bad_input, run, run_json

# check border-up --level 3


def test_check_border_up_level_3_rulebook_example_holds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, data = run_json(capsys, "check", "border-up", "--level", "3", "MD,VA,NC", "TX,OK,KS")
    assert (code, data["valid"], data["call"]) == (0, True, "GeoPlunge")


def test_check_border_up_level_3_names_the_middle_state(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "border-up", "--level", "3", "MD,NC,VA", "TX,OK,KS")
    assert code == 1
    assert "expected VA (it borders both others) in the middle" in out


def test_check_border_up_level_3_three_groups_is_a_threeoplunge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, data = run_json(
        capsys, "check", "border-up", "--level", "3", "MD,VA,NC", "TX,OK,KS", "GA,AL,MS"
    )
    assert (code, data["valid"], data["call"]) == (0, True, "ThreeOPlunge")


def test_check_border_up_level_3_groups_of_four_are_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_bad_input(
        capsys, "check", "border-up", "--level", "3", "KS,MO,KY,WV", "MD,VA,NC", names="3+3"
    )


def test_check_border_up_level_4_groups_of_three_are_still_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_bad_input(capsys, "check", "border-up", "MD,VA,NC", "TX,OK,KS", names="4+4 or 5+3")


def test_only_levels_3_and_4_are_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys, "check", "border-up", "--level", "2", "MD,VA,NC", "TX,OK,KS", names="3 or 4"
    )


# solve border-up --level 3


def test_solve_border_up_level_3_finds_groups_of_three(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "AK,NC,TX,HI,VA,KS,ME,MD,OK"
    code, data = run_json(capsys, "solve", "border-up", "--level", "3", hand)
    assert code == 0
    groups = data["groups"]
    assert isinstance(groups, list)
    showing = tuple(tuple(group) for group in groups)
    assert check_showing(showing, three_o=False, hand=hand.split(",")).valid


def test_solve_border_up_level_3_threeoplunge_none(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "solve", "border-up", "--level", "3", "--three-o", "MD,VA,NC,TX,OK,KS,AK"
    )
    assert code == 1
    assert out.startswith("none: no ThreeOPlunge")


def test_solve_border_up_level_3_hand_is_at_most_18_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hand = "AL,AZ,AR,CA,CO,CT,DE,FL,GA,ID,IL,IN,IA,KS,KY,LA,ME,MD,MA"
    assert_bad_input(capsys, "solve", "border-up", "--level", "3", hand, names="at most 18")


# check trick --level 3: no BUR


def test_check_trick_level_3_other_power_needs_no_bur(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys,
        "check",
        "trick",
        "--level",
        "3",
        "--version",
        "ptr1",
        "--base",
        "30",
        "--category",
        "statehood",
        "--lead",
        "MN",
        "--other",
        "NM",
        "--other-power",
        "population",
    )
    assert (code, data["winner"], data["category"], data["protected"]) == (
        0,
        "other",
        "population",
        False,
    )


def test_check_trick_level_3_refuses_bur_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys,
        "check",
        "trick",
        "--level",
        "3",
        "--version",
        "ptr1",
        "--base",
        "30",
        "--category",
        "statehood",
        "--lead",
        "MN",
        "--other",
        "NM",
        "--bur",
        "FL,VA",
        names="no BUR cards",
    )


def test_check_trick_level_3_lead_power_still_protects(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys,
        "check",
        "trick",
        "--level",
        "3",
        "--version",
        "ptr1",
        "--base",
        "1",
        "--category",
        "population",
        "--lead",
        "NY",
        "--other",
        "GA",
        "--lead-power",
        "population",
        "--other-power",
        "size",
    )
    assert (code, data["winner"], data["protected"]) == (0, "lead", True)


# check zap --level 3: the same judge


def test_check_zap_level_3_rulebook_example_texas_zaps_utah(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, data = run_json(capsys, "check", "zap", "--level", "3", "UT", "TX")
    assert (code, data["winner"]) == (0, "other")


def test_check_zap_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "check", "zap", "--level", "5", "UT", "TX", names="--level 5")


# rotation --level 3


def test_rotation_level_3_morning_round_plays_every_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, data = run_json(capsys, "rotation", "--level", "3", "--round", "3")
    assert (code, data["part"], data["games"]) == (0, "morning", [1, 2, 3, 4, 5])


def test_rotation_level_3_afternoon_round_alternates_the_two_picks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "rotation", "--level", "3", "--round", "6", "--picks", "4", "--picks", "2"
    )
    assert code == 0
    assert out.strip() == "afternoon round: games 4, 2, then again from the first"


def test_rotation_level_3_afternoon_needs_two_picks(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys, "rotation", "--level", "3", "--round", "5", "--picks", "4", names="--picks G twice"
    )


def test_rotation_level_3_picks_are_different_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys,
        "rotation",
        "--level",
        "3",
        "--round",
        "5",
        "--picks",
        "4",
        "--picks",
        "4",
        names="different game",
    )


def test_rotation_level_3_morning_takes_no_picks(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys, "rotation", "--level", "3", "--round", "1", "--picks", "4", names="no --picks"
    )


def test_rotation_level_3_has_eight_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "rotation", "--level", "3", "--round", "9", names="1 to 8")


# replay of Combo 3 logs


def test_replay_cli_prints_a_combo_3_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "combo3.jsonl"
    log.write_text(
        '{"action": "match3.start", "round": 5}\n'
        '{"action": "draw_winner", "first": "A"}\n'
        '{"action": "match3.afternoon_picks", "first": 1, "second": 3}\n'
        '{"action": "match.time_up"}\n'
    )
    assert main(["replay", str(log)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["combo"], result["chooser"], result["cycle"], result["over"]) == (
        3,
        "A",
        [1, 3],
        True,
    )
