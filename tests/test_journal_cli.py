"""``gametable journal show|export`` and ``gametable replay`` of an export: every session of a
journal (a match, then the next round's match started from the console) with its actions and
its result (ruling R158)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import run_script
from firmware_py.table.journal import Journal
from tests.cli_helpers import assert_bad_input, run
from tests.faults import SCRIPTS


def _journal(tmp_path: Path, script: str) -> Path:
    path = tmp_path / "journal.db"
    lines = (SCRIPTS / f"{script}.jsonl").read_text().splitlines()
    journal = Journal.open(path)
    try:
        run_script(lines, TableSettings(), lambda event: None, journal=journal)
    finally:
        journal.close()
    return path


def _export(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    code, out, err = run(capsys, "journal", "export", str(path))
    assert (code, err) == (0, "")
    data: dict[str, Any] = json.loads(out)
    return data


def test_export_lists_every_session_with_its_actions_and_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _export(capsys, _journal(tmp_path, "combo3-match"))
    assert (data["format"], data["version"]) == ("gametable-journal-export", 2)
    first, second = data["sessions"]
    assert first["number"] == 1
    assert first["actions"][0] == {
        "action": "match3.start", "round": 4, "minutes": None, "on_time_up": "abandon",
        "ptr_early_end": True,
    }  # fmt: skip
    assert (first["result"]["over"], first["result"]["scores"]) == (True, {"A": 50, "B": 40})
    assert second["actions"][0]["round"] == 5
    assert (second["result"]["round"], second["result"]["scores"]) == (5, {"A": 30, "B": 0})
    assert any(d["event"] == "session" for d in data["decisions"])


def test_replay_of_an_export_replays_every_session(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    exported = tmp_path / "match.json"
    code, _, _ = run(capsys, "journal", "export", str(_journal(tmp_path, "combo3-match")),
                     "--out", str(exported))  # fmt: skip
    assert code == 0
    code, out, err = run(capsys, "replay", str(exported))
    assert (code, err) == (0, "")
    results = json.loads(out)["sessions"]
    assert [(r["round"], r["winner"], r["scores"]) for r in results] == [
        (4, "A", {"A": 50, "B": 40}),
        (5, "A", {"A": 30, "B": 0}),
    ]


def test_replay_of_an_export_names_the_session_of_a_refused_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _export(capsys, _journal(tmp_path, "combo3-match"))
    data["sessions"][1]["actions"].insert(1, {"action": "match3.afternoon_picks", "first": 1,
                                              "second": 1})  # fmt: skip
    exported = tmp_path / "tampered.json"
    exported.write_text(json.dumps(data, indent=1))
    assert_bad_input(capsys, "replay", str(exported), names="session 2: action 2")


def test_replay_still_takes_a_version_1_export(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = Path(__file__).resolve().parents[1] / "firmware_py/judge/examples/combo4-match.jsonl"
    actions = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    exported = tmp_path / "old.json"
    exported.write_text(
        json.dumps({"format": "gametable-journal-export", "version": 1, "actions": actions})
    )
    code, out, _ = run(capsys, "replay", str(exported))
    assert code == 0
    assert json.loads(out)["over"] is True


def test_show_sums_up_every_session(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _journal(tmp_path, "combo3-match")
    code, out, err = run(capsys, "journal", "show", str(path))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(f"journal {path}: 2 sessions, ")
    assert any(" session " in line and "match3.start" in line for line in lines)
    assert lines[-2:] == [
        "session 1 (match3.start round=4 on_time_up=abandon ptr_early_end=True)"
        " was: over, score {'A': 50, 'B': 40}",
        "session 2 (match3.start round=5 on_time_up=abandon ptr_early_end=True)"
        " now: over, score {'A': 30, 'B': 0}",
    ]


def test_show_of_the_championship_gives_games_won_and_the_champion(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "journal", "show", str(_journal(tmp_path, "championship")))
    assert code == 0
    assert out.splitlines()[-1] == (
        "session 1 (championship.start games=[1, 2, 3, 4] ptr_early_end=True)"
        " now: over, games won A 2 B 2, champion B"
    )


def test_show_of_a_missing_journal_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert_bad_input(capsys, "journal", "show", str(tmp_path / "none.db"), names="does not exist")


def test_show_json_is_one_object_with_every_session_and_decision(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "journal", "show", "--json", str(_journal(tmp_path, "championship")))
    data = json.loads(out)
    assert code == 0 and set(data) == {"sessions", "decisions"}
    assert data["sessions"][0]["start"]["action"] == "championship.start"
    assert data["decisions"] and all("event" in decision for decision in data["decisions"])


def test_a_journal_resumes_only_with_the_setup_that_recorded_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _journal(tmp_path, "combo4-match")
    before = path.read_bytes()
    assert_bad_input(
        capsys, "sim", "--headless", "--script", str(SCRIPTS / "combo3-match.jsonl"),
        "--journal", str(path), names="was recorded with another setup (options.format",
    )  # fmt: skip
    assert path.read_bytes() == before
