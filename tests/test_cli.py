"""The judge's CLI: exit 0 the claim holds, 1 it fails, 2 bad input in one line on stderr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rules.atlas import default_atlas
from rules.geoplunge.games.border_up import check_showing
from tests.cli_helpers import assert_bad_input, run, run_json

# check border-up


def test_check_border_up_rulebook_example_holds(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys, "check", "border-up", "--level", "4", "KS,MO,KY,WV,PA", "MD,VA,NC"
    )
    assert code == 0
    assert data["valid"] is True


def test_check_border_up_names_the_pair_that_does_not_border(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "check", "border-up", "CO,NE,KS,TX", "WA,ID,MT,ND")
    assert code == 1
    assert "KS does not border TX" in out


def test_check_border_up_invalid_json_lists_the_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "check", "border-up", "KS,IA,MO,AR", "WA,ID,MT,ND")
    assert code == 1
    assert data["valid"] is False
    assert ["KS", "IA"] in data["not_bordering"]  # type: ignore[operator]


def test_check_border_up_three_groups_is_a_threeoplunge(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "check", "border-up", "KS,MO,KY,WV,PA", "MD,VA,NC", "GA,AL,MS")
    assert (code, data["valid"], data["call"]) == (0, True, "ThreeOPlunge")


def test_check_border_up_wrong_group_sizes_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "check", "border-up", "KS,MO,KY,WV", "MD,VA,NC", names="group sizes")


def test_check_border_up_repeated_card_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys, "check", "border-up", "KS,MO,KY,WV,PA", "PA,VA,NC", names="PA is used more"
    )


def test_check_border_up_unknown_state_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys, "check", "border-up", "KS,MO,Kentuky,WV,PA", "MD,VA,NC", names="Kentucky"
    )


def test_check_border_up_other_levels_are_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys, "check", "border-up", "--level", "5", "KS,MO,KY,WV,PA", "MD,VA,NC", names="--level"
    )


# solve border-up


def test_solve_border_up_finds_a_showing(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "NC,PA,AK,VA,HI,KY,MD,ME,WV,MO,KS"
    code, data = run_json(capsys, "solve", "border-up", "--level", "4", hand)
    assert code == 0
    groups = data["groups"]
    assert isinstance(groups, list)
    showing = tuple(tuple(group) for group in groups)
    assert check_showing(showing, three_o=False, hand=hand.split(",")).valid


def test_solve_border_up_says_none(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "border-up", "AK,HI,ME,FL")
    assert code == 1
    assert out.startswith("none")


def test_solve_border_up_none_is_null_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "solve", "border-up", "AK,HI,ME,FL")
    assert (code, data["groups"]) == (1, None)


# score


def test_score_rulebook_example_forty_points(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "score", "--result", "A", "--bonus", "--plunging", "A,B")
    assert (code, data["A"], data["B"]) == (0, 40, 0)


def test_score_tie_is_five_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "score", "--result", "tie", "--plunging", "A")
    assert (code, data["A"], data["B"]) == (0, 5, 5)


def test_score_tie_with_bonus_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "score", "--result", "tie", "--bonus", names="tie")


def test_score_unknown_team_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "score", "--result", "C", names="expected A or B")


# rotation


def test_rotation_all_match(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "rotation", "--round", "3")
    assert (code, data["games"], data["kind"]) == (0, [1, 2, 3, 4, 5], "all")


def test_rotation_rulebook_call_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "rotation", "--round", "2", "--picks", "3,5", "--picks", "2,3")
    assert (code, data["games"]) == (0, [2, 3, 5])


def test_rotation_call_match_needs_picks(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "rotation", "--round", "2", names="--picks")


def test_rotation_bad_pick_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys, "rotation", "--round", "4", "--picks", "3,x", "--picks", "1,2", names="3,x"
    )


# usage errors


def test_unknown_command_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "dance", names="invalid choice")


def test_missing_argument_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "score", names="--result")


def test_replay_of_a_missing_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert_bad_input(capsys, "replay", str(tmp_path / "nope.jsonl"), names="nope.jsonl")


def test_console_script_never_prints_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware_py.cli", "check", "zap", "UT", "Nowhere"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("gametable: error: unknown state 'Nowhere'")


# check zap and check trick


def test_check_zap_rulebook_example_texas_zaps_utah(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "check", "zap", "UT", "TX")
    assert (code, data["winner"]) == (0, "other")
    assert "New Mexico" in str(data["reason"])


def test_check_zap_no_zap_lead_wins(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "check", "zap", "Maine", "Florida")
    assert (code, data["winner"], data["zaps"]) == (0, "lead", [])


def test_check_zap_same_card_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "check", "zap", "UT", "ut", names="UT")


def test_check_trick_rulebook_example_4_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys, "check", "trick", "--version", "ptr1", "--base", "30",
        "--category", "population", "--lead", "UT", "--other", "OK", "--bur", "FL,VA",
    )  # fmt: skip
    assert code == 0
    assert (data["winner"], data["category"], data["base"]) == ("lead", "population", 30)
    assert data["protected"] is True


def test_check_trick_rulebook_example_2_protected_lead(capsys: pytest.CaptureFixture[str]) -> None:
    _code, data = run_json(
        capsys, "check", "trick", "--version", "ptr1", "--base", "30", "--category", "statehood",
        "--lead", "MN", "--other", "TN", "--other-power", "size", "--bur", "FL,VA",
    )  # fmt: skip
    assert (data["winner"], data["category"], data["protected"]) == ("lead", "statehood", True)


def test_check_trick_rulebook_example_3_power_changes_category(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _code, data = run_json(
        capsys, "check", "trick", "--version", "ptr1", "--base", "1", "--category", "size",
        "--lead", "CO", "--other", "TN", "--other-power", "statehood", "--bur", "FL,VA",
    )  # fmt: skip
    assert (data["winner"], data["category"], data["protected"]) == ("other", "statehood", False)


def test_check_trick_ptr2_change_the_base(capsys: pytest.CaptureFixture[str]) -> None:
    _code, data = run_json(
        capsys, "check", "trick", "--version", "ptr2", "--base", "10", "--category", "size",
        "--lead", "TX", "--other", "RI", "--other-power", "statehood",
        "--other-power-base", "50", "--change-base", "--bur", "FL,VA",
    )  # fmt: skip
    assert (data["winner"], data["category"], data["base"]) == ("other", "size", 50)


@pytest.mark.parametrize(
    ("flag", "value", "names"),
    [
        ("--version", "ptr3", "ptr3"),
        ("--base", "15", "base 15"),
        ("--category", "area", "area"),
        ("--lead", "Atlantis", "Atlantis"),
    ],
)
def test_check_trick_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], flag: str, value: str, names: str
) -> None:
    args = {"--version": "ptr1", "--base": "1", "--category": "size", "--lead": "UT"}
    args[flag] = value
    argv = [part for pair in args.items() for part in pair]
    assert_bad_input(capsys, "check", "trick", *argv, "--other", "OK", names=names)


def test_check_trick_other_power_without_bur_is_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_bad_input(
        capsys, "check", "trick", "--version", "ptr1", "--base", "30", "--category", "statehood",
        "--lead", "MN", "--other", "TN", "--other-power", "size", names="--bur",
    )  # fmt: skip


# input hygiene


def test_an_empty_item_in_a_card_list_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "check", "border-up", "KS,,MO,KY,WV", "MD,VA,NC", names="empty")


def test_solve_an_empty_hand_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "solve", "border-up", "", names="empty")


def test_solve_more_than_21_cards_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ",".join(default_atlas().codes[:22])
    assert_bad_input(capsys, "solve", "border-up", hand, names="21")


def test_score_a_team_plunging_twice_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "score", "--result", "A", "--plunging", "A,A", names="once")


def test_replay_unknown_state_in_a_later_line_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "typo.jsonl"
    log.write_text(
        '{"action":"game.start","game":2}\n{"action":"statehood_draw","a":"Texs","b":"VA"}\n'
    )
    assert_bad_input(capsys, "replay", str(log), names="did you mean Texas")


def test_replay_of_deeply_nested_json_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_text("[" * 100000 + "]" * 100000 + "\n")
    assert_bad_input(capsys, "replay", str(log), names="line 1")


def test_demo_of_an_empty_log_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_text("")
    assert_bad_input(capsys, "demo", "--log", str(log), names="empty")


def test_replay_accepts_json_flag(capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).resolve().parents[1] / "firmware_py/judge/examples/combo4-match.jsonl"
    code, data = run_json(capsys, "replay", str(example))
    assert (code, data["winner"]) == (0, "B")


def test_usage_errors_name_the_command_once(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "check", "border-up", "--level", "x", "KS")
    assert (
        err.count("gametable") == 2
    )  # "gametable: error: ... (see 'gametable check border-up --help')"


@pytest.mark.parametrize("bur", ["FL", "FL,GA,TX,CA,NY,IL,OH"], ids=["1 card", "7 cards"])
def test_check_trick_takes_2_bur_cards_or_3_to_5_after_up_the_bur(
    bur: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware_py.cli import main

    argv = ["check", "trick", "--version", "ptr1", "--base", "30", "--category", "population"]
    assert main([*argv, "--lead", "UT", "--other", "OK", "--bur", bur]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "expected 2 BUR cards, or 3 to 5 after Up the BUR" in err
