"""``gametable states ...``: the judge's commands. Exit 0 a verdict (connects, a knock judged,
a complete deck), 1 the other verdict, 2 bad input as one line on stderr."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.cli_helpers import assert_bad_input, run, run_json
from tests.states_helpers import EXAMPLE_DECK_FILE, ROOT

DECK = str(EXAMPLE_DECK_FILE)
DOC = ROOT / "docs/states.md"


def _documented_commands() -> list[tuple[str, str]]:
    """Each ``$ gametable states ...`` line in docs/states.md and the lines printed after it."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        examples += re.findall(r"^\$ (.*)\n((?:[^$].*\n)*)", block, re.M)
    return examples


@pytest.mark.parametrize(("command", "output"), _documented_commands())
def test_the_documented_examples_print_what_the_doc_says(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, output: str
) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[:2] == ["gametable", "states"]
    _, out, err = run(capsys, *argv[1:])
    assert out + err == output


def test_the_doc_has_examples_of_every_command() -> None:
    used = {shlex.split(command)[2] for command, _ in _documented_commands()}
    assert used == {"connect", "knock", "deck"}


def test_connect_answers_the_rulebooks_example_with_exit_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "states", "connect", "UT,CO,KS,OK")
    assert (code, err) == (0, "")
    assert out == "UT, CO, KS and OK connect: UT-CO-KS-OK\n"


def test_connect_answers_a_failed_claim_with_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "states", "connect", "UT,CO,KS,TX")
    assert code == 1
    assert "TX borders none of UT, CO and KS" in out


def test_connect_in_json_gives_the_borders_and_pieces(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "states", "connect", "MO,IA,KY,OK")
    assert code == 0
    assert data["connects"] is True
    assert data["chain"] is None
    assert data["borders"] == [["MO", "IA"], ["MO", "KY"], ["MO", "OK"]]


def test_connect_with_chain_refuses_a_star(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "states", "connect", "MO,IA,KY,OK", "--chain")
    assert code == 1
    assert data["rule"] == "chain"


@pytest.mark.parametrize(
    ("states", "names"),
    [
        ("UT,CO,KS", "3 state(s) shown: expected 4"),
        ("UT,CO,KS,Utah", "UT is shown twice"),
        ("UT,CO,KS,Kansa", "did you mean Kansas?"),
        ("UT,,KS,OK", "expected 4 states separated by commas"),
        ("UT,CO,KS,water", "a water card is not a state"),
    ],
)
def test_connect_refuses_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], states: str, names: str
) -> None:
    assert_bad_input(capsys, "states", "connect", states, names=names)


def test_knock_judges_the_rulebooks_hand_of_19_with_the_shipped_deck(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "states", "knock", "--hand", "Ann=DE,OR,NM,water")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Ann knocked: Ann wins with blue 19: 3 points (before any bonus state)",
        "  Ann: blue 19 (DE, OR, NM)",
    ]


def test_knock_names_the_winner_among_several_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(
        capsys,
        "states",
        "knock",
        "--hand",
        "Ann=DE,NM,MN,CO",
        "--hand",
        "Bo=RI,CT,ID,FL",
        "--deck",
        DECK,
    )
    assert code == 0
    assert data["winners"] == ["Bo"]
    assert data["points"] == {"Bo": 3}


def test_knock_in_the_alternate_scoring_adds_the_winning_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, data = run_json(
        capsys, "states", "knock", "--hand", "Ann=DE,OR,NM,WA", "--deck", DECK, "--alternate"
    )
    assert code == 0
    assert data["four_card_knock"] is True
    assert data["points"] == {"Ann": 5 + 8 + 7 + 4 + 8}


def test_knock_tells_a_tie_above_the_knocker(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "states",
        "knock",
        "--hand",
        "Ann=MO,IA,OK",
        "--hand",
        "Bo=ME,WA",
        "--hand",
        "Cy=RI,CT,PA",
        "--deck",
        DECK,
    )
    assert code == 0
    assert out.startswith("Ann knocked: Bo and Cy tie for the highest total, 17, and win 3")


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--hand", "Ann=DE,OR,PA"], "PA has no colour or value in the shipped deck"),
        (["--hand", "Ann=DE,OR,CO", "--deck", DECK], "Ann cannot knock: expected 3 or 4"),
        (["--hand", "Ann=DE,OR,NM,AK", "--deck", DECK], "AK is a bonus state"),
        (["--hand", "Ann=DE,OR,NM", "--hand", "Bo=DE", "--deck", DECK], "DE is in Ann's hand"),
        (["--hand", "Ann=DE,OR,NM", "--hand", "ann=TX", "--deck", DECK], "two hands"),
        (["--hand", "Ann=DE,OR,NM,MD,WV", "--deck", DECK], "5 cards: expected at most 4"),
        (["--hand", "AnnDE", "--deck", DECK], "expected NAME=CARDS"),
        (["--hand", "Ann=DE,OR,NM", "--knocker", "Cy"], "--knocker Cy: expected one of"),
        (["--hand", "Ann=DE,OR,NM", "--deck", "/nonexistent.toml"], "cannot read"),
        ([], "the following arguments are required: --hand"),
    ],
)
def test_knock_refuses_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], names: str
) -> None:
    assert_bad_input(capsys, "states", "knock", *args, names=names)


def test_deck_lists_the_cards_the_shipped_deck_lacks_with_exit_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, data = run_json(capsys, "states", "deck")
    assert code == 1
    without_colour = data["without_colour"]
    assert isinstance(without_colour, list)
    assert data["complete"] is False
    assert "UT" in without_colour
    assert "DE" not in without_colour
    assert data["without_value"] == sorted(set(without_colour) - {"PA", "MD", "WV"})


def test_deck_accepts_a_complete_deck_file_with_exit_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "states", "deck", DECK)
    assert code == 0
    assert "48 of 48 state cards have a colour and a value, 4 water cards" in out


def test_deck_names_the_key_of_a_fault_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('[cards]\nDE = { colour = "blue", value = 0 }\n', encoding="utf-8")
    assert_bad_input(capsys, "states", "deck", str(path), names="cards.DE.value")


def test_replay_prints_a_states_logs_standing(capsys: pytest.CaptureFixture[str]) -> None:
    log = Path(__file__).resolve().parents[1] / "docs/states/knock-hand.jsonl"
    code, data = run_json(capsys, "replay", str(log))
    assert code == 0
    assert data["family"] == "states"
    assert data["scores"] == {"Ann": 4, "Bo": 0}
