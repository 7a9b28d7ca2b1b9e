"""The worked Pentathlon script (docs/scripts/pentathlon-contig60.jsonl), played headless by
``gametable sim``: the decisions it shows, the record its journal exports (the rules' own record
of the game's log), and the same record after the table is stopped at points all through it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.faults import SCRIPTS, reference_run
from tests.journal_helpers import in_process
from tests.test_durability import _finish, _killed_after

SCRIPT = SCRIPTS / "pentathlon-contig60.jsonl"


def _played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    journal = tmp_path / "journal.db"
    outcome = in_process(
        capsys, "sim", "--headless", "--script", str(SCRIPT), "--journal", str(journal)
    )
    assert outcome.code == 0, outcome.stderr
    return [json.loads(line) for line in outcome.stdout.splitlines()]


def _named(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "t"} for e in events if e["event"] == name]


def test_the_script_s_challenge_is_ruled_i_then_c_by_the_game_leader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rulings = _named(_played(tmp_path, capsys), "ruling")
    assert [(r["ruling"], r["by"]) for r in rulings] == [("I", "monitor"), ("C", "game-leader")]


def test_the_script_warns_a_after_the_monitor_s_i(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    warnings = _named(_played(tmp_path, capsys), "warning")
    assert [(w["player"], w["i_ia"]) for w in warnings] == [("A", 1)]


def test_the_script_s_clock_stands_still_through_the_challenge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = _named(_played(tmp_path, capsys), "clock")
    assert clock[1]["paused"] and clock[2]["resumed"]
    assert clock[1]["left"] == clock[2]["left"]


def test_the_script_reminds_a_then_b_and_b_s_turn_is_forfeited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = _played(tmp_path, capsys)
    assert [r["player"] for r in _named(events, "reminder")] == ["A", "B"]
    assert sum(e.get("action") == "pentathlon.forfeit_turn" for e in events) == 1


def test_the_script_ends_at_the_time_limit_a_wins_and_the_monitor_confirms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    over = _named(_played(tmp_path, capsys), "game_over")
    assert over == [
        {
            "event": "game_over",
            "winner": "A",
            "how": "time-limit",
            "detail": "time limit: A has the lower score by 3 or more (A 26, B 51)",
            "scores": {"A": 26, "B": 51},
            "challenges": {"A": {"C": 1, "I": 0, "IA": 0}, "B": {"C": 0, "I": 0, "IA": 0}},
        }
    ]


def test_the_journal_s_record_is_the_rules_record_of_its_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _played(tmp_path, capsys)
    exported = in_process(capsys, "journal", "export", str(tmp_path / "journal.db"))
    session = json.loads(exported.stdout)["sessions"][0]
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(action) + "\n" for action in session["actions"]))
    replayed = in_process(capsys, "pentathlon", "replay", str(log))
    assert replayed.code == 0, replayed.stderr
    assert json.loads(replayed.stdout) == session["result"]
    assert session["result"]["players"]["B"]["forfeited_turns"] == 1
    assert session["result"]["players"]["A"]["i_ia"] == 0  # the C in force


def test_a_stop_after_commits_all_through_the_script_resumes_to_the_same_record(
    tmp_path: Path,
) -> None:
    lines = SCRIPT.read_text().splitlines()
    reference, _ = reference_run(lines, tmp_path / "reference.db")
    commits = 0
    while _killed_after(lines, tmp_path / f"stop{commits}.db", commits):
        assert _finish(lines, tmp_path / f"stop{commits}.db") == reference, commits
        commits += 11  # a stop in each stretch: the challenge, the time out, the late turns
    assert commits > 100  # the stops spread over the whole script
