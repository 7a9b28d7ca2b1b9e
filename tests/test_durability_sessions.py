"""Nothing lost across a session boundary: the next round's match, started from the console,
is in the same journal, and a table stopped (kill -9, power cut) anywhere around the start of
it, or anywhere in the championship's end, restarts to exactly the record of an uninterrupted
run (rulings R150, R158)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import VirtualTable, run_script
from firmware_py.table.journal import Journal
from tests.faults import kill_campaign, reference_run
from tests.soak import sized
from tests.test_durability import _finish, _killed_after, _lines

AROUND = 8  # commits either side of the one that decided the event


def _commit_deciding(lines: list[str], path: Path, event: str) -> tuple[int, int]:
    """How many commits the uninterrupted run had made once ``event`` was committed, and in
    all."""
    journal = Journal.open(path)
    real_commit = journal.commit
    commits = [0]
    found: list[int] = []

    def commit() -> None:
        if journal.pending:
            commits[0] += 1
        real_commit()

    def shown(decision: dict[str, object]) -> None:
        if decision["event"] == event and not found:
            found.append(commits[0])

    journal.commit = commit  # type: ignore[method-assign]
    try:
        run_script(lines, TableSettings(), shown, journal=journal)
    finally:
        journal.close()
    assert found, f"the script never decides {event!r}"
    return found[0], commits[0]


@pytest.mark.parametrize(
    ("name", "event"),
    [
        ("combo3-match", "match_result"),  # the end of round 4
        ("combo3-match", "session"),  # the start of round 5, from the console
        ("championship", "match_result"),  # the tie-breaker decides the champion
    ],
)
def test_a_stop_after_each_commit_around_a_boundary_resumes_to_the_same_record(
    name: str, event: str, tmp_path: Path
) -> None:
    lines = _lines(name)
    reference, _ = reference_run(lines, tmp_path / "reference.db")
    decided, total = _commit_deciding(lines, tmp_path / "count.db", event)
    for commits in range(max(0, decided - AROUND), min(decided + AROUND, total)):
        path = tmp_path / f"stop{commits}.db"
        assert _killed_after(lines, path, commits), f"the run ended before commit {commits}"
        assert _finish(lines, path) == reference, f"stopped after commit {commits}"


def test_a_table_rebuilt_after_the_boundary_keeps_the_finished_match(tmp_path: Path) -> None:
    lines = _lines("combo3-match")
    decided, _ = _commit_deciding(lines, tmp_path / "count.db", "session")
    path = tmp_path / "stopped.db"
    _killed_after(lines, path, decided)

    table = VirtualTable(TableSettings(), lambda event: None, journal=Journal.open(path))
    assert [log[0].kind for log in table.controller.finished] == ["match3.start"]
    assert table.controller.finished[0][-1].kind == "match.time_up"
    assert table.controller.log[0].round == 5  # type: ignore[attr-defined]
    table.close()


def test_kill_minus_9_during_combo3_and_championship_loses_and_invents_nothing(
    tmp_path: Path,
) -> None:
    """Real SIGKILLs at random moments of both scripts, the session boundary included (6; 200
    in make soak)."""
    kills = sized(ci=6, soak=200)
    report = kill_campaign(["combo3-match", "championship"], kills, tmp_path, seed=20261123)
    assert report.kills == kills
    assert report.failures == []
