"""docs/day.md's session, replayed: every ``gametable day`` and ``gametable tournament`` line
prints as the guide shows it (its CSVs are docs/tournament.md's)."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from firmware_py.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _blocks(guide: str, kind: str) -> list[str]:
    text = (DOCS / guide).read_text(encoding="utf-8")
    return re.findall(rf"```{kind}\n(.*?)```", text, re.S)


def _session() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every ``$`` line of day.md's console blocks."""
    steps: list[tuple[str, list[str]]] = []
    for block in _blocks("day.md", "console"):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
    return steps


def test_the_day_guide_replays_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (teams,) = _blocks("tournament.md", "csv")
    (tmp_path / "teams.csv").write_text(teams, encoding="utf-8")
    (players,) = _blocks("tournament.md", "csv pentathlon")
    (tmp_path / "pentathletes.csv").write_text(players, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    steps = _session()
    assert len(steps) > 15
    for command, expected in steps:
        argv = shlex.split(command)
        assert argv[0] == "gametable" and argv[1] in ("day", "tournament")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv[1:])
        assert (out.getvalue() + err.getvalue()).splitlines() == expected, command
        assert code == (2 if err.getvalue() else 0), command
