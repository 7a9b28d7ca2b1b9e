"""``gametable guesstimation``: verdicts exit 0, a tied duel 1, bad input 2 in one line."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.cli_helpers import assert_bad_input, run, run_json

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs/guesstimation.md"
EXAMPLE = "firmware_py/judge/examples/guesstimation-game.jsonl"


def _documented_commands() -> list[tuple[str, str]]:
    """Each ``$ gametable guesstimation ...`` line in the doc and the lines printed after it."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        for command, output in re.findall(r"^\$ (.*)\n((?:[^$].*\n)*)", block, re.M):
            examples.append((command, output))
    return examples


@pytest.mark.parametrize(("command", "output"), _documented_commands())
def test_the_documented_examples_print_what_the_doc_says(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, output: str
) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[:2] == ["gametable", "guesstimation"]
    _, out, err = run(capsys, *argv[1:])
    assert out + err == output


def test_the_doc_has_examples_of_every_command() -> None:
    used = {shlex.split(command)[2] for command, _ in _documented_commands()}
    assert used == {"closest", "duel", "replay", "deck"}


# closest


def test_closest_rulebook_tie_moves_both(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys, "guesstimation", "closest", "--answer", "5", "--guesses", "A=4,B=6,C=9"
    )
    assert code == 0
    assert (data["winners"], data["moves"], data["exact"]) == (["A", "B"], {"A": 2, "B": 2}, [])


def test_closest_exact_decimal_moves_three(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys, "guesstimation", "closest", "--answer", "0.3", "--guesses", "A=0.30,B=0.1"
    )
    assert (code, data["exact"], data["moves"]) == (0, ["A"], {"A": 3})


def test_closest_negative_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys, "guesstimation", "closest", "--answer", "-89.2", "--guesses", "A=-90,B=-80"
    )
    assert (code, data["winners"], data["distance"]) == (0, ["A"], "0.8")


@pytest.mark.parametrize(
    ("guesses", "names"),
    [
        ("A=4,B=x", "guess for B 'x' is not a number"),
        ("A=4,B=NaN", "not NaN or Infinity"),
        ("A=4,B=Infinity", "not NaN or Infinity"),
        ("A=4,a=6", "player a is named twice"),
        ("A=4,B", "expected NAME=NUMBER"),
        ("A=4", "1 guess(es): expected 2 to 6"),
        ("A=1,B=2,C=3,D=4,E=5,F=6,G=7", "7 guess(es)"),
        ("A=29,029", "expected NAME=NUMBER"),
    ],
)
def test_closest_bad_guesses_are_one_line(
    capsys: pytest.CaptureFixture[str], guesses: str, names: str
) -> None:
    assert_bad_input(
        capsys, "guesstimation", "closest", "--answer", "5", "--guesses", guesses, names=names
    )


def test_closest_bad_answer_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(
        capsys,
        "guesstimation",
        "closest",
        "--answer",
        "5e3",
        "--guesses",
        "A=1,B=2",
        names="--answer",
    )


# duel

DUEL = ("guesstimation", "duel", "--answer", "29029", "--dueler", "A=29000")


def test_duel_rulebook_wager_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys, *DUEL, "--opponent", "C=30000", "--wager", "3", "--others", "B=29029"
    )
    assert code == 0
    assert (data["winner"], data["loser"], data["wager"]) == ("A", "C", 3)
    assert data["moves"] == {"A": 3, "C": -3, "B": 3}
    assert data["exact"] == ["B"]


def test_duel_wager_defaults_to_two(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, *DUEL, "--opponent", "C=30000")
    assert (code, data["wager"], data["moves"]) == (0, 2, {"A": 2, "C": -2})


def test_duel_tie_without_rolls_has_no_verdict_yet(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, *DUEL, "--opponent", "C=29058")
    assert (code, data["tied"], data["winner"], data["moves"]) == (1, True, None, {})


def test_duel_tie_goes_to_the_higher_roll(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, *DUEL, "--opponent", "C=29058", "--rolls", "A=1,C=6")
    assert (code, data["winner"], data["moves"]) == (0, "C", {"A": -2, "C": 2})


def test_duel_tied_rolls_roll_again(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *DUEL, "--opponent", "C=29058", "--rolls", "A=4,C=4")
    assert code == 1
    assert "the rolls tied at 4, roll again" in out


@pytest.mark.parametrize(
    ("extra", "names"),
    [
        (("--opponent", "C=1", "--wager", "4"), "wager 4: expected 1, 2 or 3"),
        (("--opponent", "C=1", "--wager", "0"), "wager 0"),
        (("--opponent", "C=1", "--wager", "two"), "--wager: expected a whole number like 3"),
        (("--opponent", "A=1"), "player A is already named by --dueler"),
        (("--opponent", "C=1", "--others", "C=2"), "player C is already named by --opponent"),
        (("--opponent", "C=1,D=2"), "--opponent 'C=1,D=2': expected one NAME=NUMBER"),
        (("--opponent", "C=nan"), "guess for C"),
        (("--opponent", "C=1", "--rolls", "A=3,C=3"), "the duel is not tied"),
        (("--opponent", "C=29058", "--rolls", "A=7,C=3"), "die roll 7: expected 1 to 6"),
        (("--opponent", "C=29058", "--rolls", "A=3"), "expected one roll for each of A and C"),
        (("--opponent", "C=1", "--others", "B=1,D=1,E=1,F=1,G=1"), "7 players"),
    ],
)
def test_duel_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], names: str
) -> None:
    assert_bad_input(capsys, *DUEL, *extra, names=names)


# replay and deck


def test_replay_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "guesstimation", "replay", str(ROOT / EXAMPLE))
    assert (code, data["champion"], data["family"]) == (0, "Cy", "guesstimation")


def test_replay_mid_game_says_what_comes_next(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join((ROOT / EXAMPLE).read_text().splitlines()[:16]) + "\n")
    code, out, _ = run(capsys, "guesstimation", "replay", str(log))
    assert code == 0
    assert "round 2: leader Cy, question 5 (standard), us units, duel Ann v Bo for 3" in out
    assert out.endswith("next: a guess from Ann, Bo, Cy\n")


def test_replay_bad_log_names_the_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    lines = (ROOT / EXAMPLE).read_text().splitlines()[:6]
    log.write_text("\n".join([*lines, '{"action": "guesstimation.answer", "value": "5"}']) + "\n")
    assert_bad_input(
        capsys, "guesstimation", "replay", str(log), names="action 7 (guesstimation.answer)"
    )


def test_replay_missing_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert_bad_input(
        capsys, "guesstimation", "replay", str(tmp_path / "nope.jsonl"), names="cannot read"
    )


def test_deck_counts_the_sample_deck(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys, "guesstimation", "deck", str(ROOT / "config/guesstimation-sample-deck.toml")
    )
    assert (code, data["cards"], data["questions"], data["chip_questions"]) == (0, 3, 18, 4)


def test_deck_fault_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text("[[card]]\nname = 'x'\n")
    assert_bad_input(
        capsys, "guesstimation", "deck", str(deck), names="card[1].question: 0 question(s)"
    )


def test_a_missing_command_names_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert_bad_input(capsys, "guesstimation", names="{closest,duel,replay,deck}")
