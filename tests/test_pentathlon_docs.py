"""docs/pentathlon.md: its command examples print what it says; its logs replay to the end."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from rules.actions import encode
from rules.log import parse_log
from rules.pentathlon.log import replay_log
from tests.cli_helpers import run
from tests.pentathlon_card_helpers import write_log

DOC = Path(__file__).resolve().parents[1] / "docs" / "pentathlon.md"
TEXT = DOC.read_text(encoding="utf-8")


def _blocks(fence: str) -> list[str]:
    return re.findall(f"```{re.escape(fence)}\n(.*?)```", TEXT, re.S)


def _examples() -> list[tuple[str, str]]:
    """(command, first line it prints) for every ``$ gametable`` line with a full answer."""
    examples = []
    for block in _blocks("console"):
        lines = block.splitlines()
        for index, line in enumerate(lines):
            if line.startswith("$ gametable ") and "..." not in lines[index + 1]:
                examples.append((line[2:], lines[index + 1]))
    return examples


@pytest.mark.parametrize(("command", "answer"), _examples())
def test_every_command_example_prints_what_the_page_says(
    command: str,
    answer: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "board.txt").write_text(_blocks("text")[0], encoding="utf-8")
    write_log(tmp_path / "game.jsonl")  # a Contig 60 game, for the score card's examples
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *shlex.split(command)[1:])
    printed = out or err
    assert printed.splitlines()[0] == answer
    assert code == _exit_code(answer)


FAILS = ("incorrect:", "no trick:", "not yet:", "not the goal:")


def _exit_code(answer: str) -> int:
    """2 for bad input, 1 for a claim that fails, else 0 (docs: The judge's commands)."""
    if answer.startswith("gametable: error:"):
        return 2
    return 1 if answer.startswith(FAILS) or " cannot make " in answer else 0


def test_the_page_shows_an_example_of_every_judges_command() -> None:
    commands = {shlex.split(command)[2] for command, _ in _examples()}
    assert commands == {"sentence", "reach", "trick", "juggle-board", "adjudicate", "card"}


@pytest.mark.parametrize("block", _blocks("jsonl pentathlon"))
def test_every_example_log_replays_to_a_confirmed_result(block: str) -> None:
    lines = block.strip().splitlines()
    assert [json.dumps(encode(action), ensure_ascii=False) for action in parse_log(lines)] == lines
    state = replay_log(lines)
    assert state.phase == "over"
