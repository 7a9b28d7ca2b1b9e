"""gametable pentathlon: exit 0 the claim holds, 1 it fails, 2 bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import assert_bad_input, run, run_json

BOARD = "R1 R1 B1\nG1 G1 B1\n\nR1 red\nB1 blue\nG1 green\n"
LOG = [
    '{"action": "pentathlon.start", "game": "queens-guards", "minutes": 20}',
    '{"action": "pentathlon.begins", "player": "B"}',
    '{"action": "pentathlon.qg.move"}',
    '{"action": "pentathlon.declare_win", "player": "B", "goal": "queen-surrounded"}',
    '{"action": "pentathlon.confirm"}',
]


def test_sentence_json_gives_the_value_steps_and_problems(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, data = run_json(capsys, "pentathlon", "sentence", "--dice", "3,5,4", "3 + 5 x 4 = 32")
    assert code == 1
    assert (data["correct"], data["value"]) == (False, "23")
    assert data["steps"] == [{"step": "3 + 5 × 4", "value": "23", "stated": 32}]


def test_sentence_with_other_dice_is_checked_against_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, _ = run(
        capsys, "pentathlon", "sentence", "--dice", "3,9,4", "--sides", "6,10,6", "9 - 4 - 3"
    )
    assert code == 0


def test_sentence_with_fractions_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pentathlon", "sentence", "--dice", "5,2,4", "5 / 2 x 4 = 10"]
    assert run(capsys, *argv)[0] == 1
    assert run(capsys, *argv, "--fractions")[0] == 0


def test_reach_json_lists_the_numbers_and_a_sentence_for_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, data = run_json(capsys, "pentathlon", "reach", "--dice", "3,5,4")
    assert code == 0
    numbers = data["numbers"]
    sentences = data["sentences"]
    assert isinstance(numbers, list) and isinstance(sentences, dict)
    assert 32 in numbers and sentences["32"] == "5 + 3 = 8 and 4 × 8 = 32"


def test_trick_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "pentathlon", "trick", "--show", "1/2", "1/3", "1/6")
    assert (code, data["trick"], data["sentence"]) == (0, True, "1/3 + 1/6 = 1/2")


def test_juggle_board_goal_holds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(BOARD, encoding="utf-8")
    code, data = run_json(capsys, "pentathlon", "juggle-board", str(board))
    assert (code, data["goal"], data["rows"], data["columns"]) == (0, True, 2, 3)


def test_adjudicate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys, "pentathlon", "adjudicate", "--game", "juggle", "--empty", "4,6", "--round-complete"
    )
    assert (code, data["decided"]) == (0, True)
    assert data["result"] == {
        "winner": None,
        "how": "time-limit",
        "detail": "time limit: empty spaces: A 4, B 6, a difference of 2 or less",
    }


def test_replay_prints_the_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(LOG) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "pentathlon", "replay", str(log))
    data = json.loads(out)
    assert (code, err) == (0, "")
    assert (data["game"], data["phase"], data["result"]["winner"]) == ("queens-guards", "over", "B")


# -- bad input: one line, exit 2, nothing written -------------------------------------------


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["sentence", "--dice", "3,5,4", "3 + * 4"], "sentence: expected a number"),
        (["sentence", "--dice", "3,5,7", "3 + 5 + 7"], "7 is not on a 6-sided die"),
        (["sentence", "--dice", "3,5", "3 + 5"], "expected 3 values"),
        (["sentence", "--dice", "3,5,4", "--sides", "6,1,6", "3 + 5 + 4"], "dice sides"),
        (["reach", "--dice", "three"], "--dice 'three'"),
        (["trick", "--show", "1/2", "1/3", "x"], "strip 'x'"),
        (["trick", "--show", "1/2", "1/3", "1/6", "--partitions", "0"], "partitions [0]"),
        (["adjudicate", "--game", "chess"], "unknown game 'chess'"),
        (["adjudicate", "--game", "contig-60"], "--scores is needed"),
        (["adjudicate", "--game", "contig-60", "--scores", "1,2,3"], "expected two numbers"),
        (["adjudicate", "--game", "juggle", "--empty=-1,2", "--round-complete"], "0 or more"),
        (["adjudicate", "--game", "queens-guards", "--scores", "1,2"], "--scores does not apply"),
        (["adjudicate", "--game", "fab-a-diffy", "--games", "A,X"], "'X': expected A, B or tie"),
        (["adjudicate", "--game", "fab-a-diffy", "--games", "A,B,A,B"], "at most 3 games"),
        # "BEST 2 OUT OF 3 GAMES": no third game after A's second win (R211, R785)
        (
            ["adjudicate", "--game", "fab-a-diffy", "--games=A,A,A"],
            "--games A,A,A: the match was decided after game 2 (R211): no game 3 is played",
        ),
        # "Running Score 60" on the Scoring Flag Card, and every change subtracts: none is above
        (
            ["adjudicate", "--game", "contig-60", "--scores", "61,0"],
            "--scores 61,0: a Contig 60 running score starts at 60 and only goes down",
        ),
        (["sentence", "3 + 5"], "the following arguments are required: --dice"),
    ],
)
def test_bad_input_is_one_line_naming_the_problem(
    capsys: pytest.CaptureFixture[str], argv: list[str], names: str
) -> None:
    assert_bad_input(capsys, "pentathlon", *argv, names=names)


def test_a_board_file_with_a_ragged_row_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = tmp_path / "board.txt"
    board.write_text("R1 R1\nR1\n\nR1 red\n", encoding="utf-8")
    assert_bad_input(capsys, "pentathlon", "juggle-board", str(board), names="line 2: row 2 has 1")
    assert [path.name for path in tmp_path.iterdir()] == ["board.txt"]


def test_a_missing_or_unreadable_file_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert_bad_input(
        capsys, "pentathlon", "juggle-board", str(tmp_path / "none.txt"), names="cannot read"
    )
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    assert_bad_input(capsys, "pentathlon", "replay", str(binary), names="expected UTF-8 text")


def test_a_log_that_does_not_replay_names_the_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join([*LOG[:2], '{"action": "pentathlon.pass_flag", "player": "A"}']))
    assert_bad_input(
        capsys,
        "pentathlon",
        "replay",
        str(log),
        names="action 3 (pentathlon.pass_flag): A does not hold",
    )


def test_a_log_of_another_family_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text('{"action": "pentathlon.begins", "player": "A"}\n')
    assert_bad_input(capsys, "pentathlon", "replay", str(log), names="starts with pentathlon.start")


def test_a_log_line_that_is_not_json_names_the_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(LOG[0] + "\n{oops\n")
    assert_bad_input(capsys, "pentathlon", "replay", str(log), names="line 2: not JSON")
