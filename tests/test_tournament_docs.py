"""docs/tournament.md's example session, replayed: every command's output is as printed."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from tests.test_tournament_cli import main

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "tournament.md"


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)


def _session() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every ``$`` line of the console blocks."""
    steps: list[tuple[str, list[str]]] = []
    for block in _blocks("console"):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
    return steps


def test_guide_session_replays_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (teams,) = _blocks("csv")
    (tmp_path / "teams.csv").write_text(teams, encoding="utf-8")
    (players,) = _blocks("csv pentathlon")
    (tmp_path / "players.csv").write_text(players, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    steps = _session()
    assert len(steps) > 15
    for command, expected in steps:
        argv = shlex.split(command)
        assert argv[:2] == ["gametable", "tournament"]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv[1:])
        assert (out.getvalue() + err.getvalue()).splitlines() == expected, command
        assert code == (2 if err.getvalue() else 0), command
