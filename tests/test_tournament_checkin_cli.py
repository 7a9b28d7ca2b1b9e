"""``gametable tournament checkin / withdraw / standings-release`` (R1040-R1043): what each
records (who and when), what pairing then does, and bad input as one line with no change."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware_py.director.record.tournament_db import TournamentDB
from tests.test_tournament_cli import (
    TEAMS_CSV,
    Capture,
    assert_unchanged,
    new,
    ok_json,
    play_round,
    run,
    snapshot,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    (tmp_path / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    return tmp_path / "t.db"


def _paired(pairing: dict[str, object]) -> set[str]:
    rows = pairing["pairings"]
    assert isinstance(rows, list)
    teams = {team for row in rows for team in (row["A"], row["B"])}
    return teams | ({pairing["bye"]} if pairing["bye"] else set())  # type: ignore[arg-type]


def _mark(capsys: Capture, db: Path, number: int, team: str, state: str) -> object:
    return ok_json(
        capsys, "checkin", "--round", str(number), "--team", team, f"--{state}", "--db", str(db)
    )


def _check_in_all(capsys: Capture, db: Path, number: int, absent: set[str]) -> None:
    for team in ("Eagles", "Hawks", "Owls", "Ravens", "Falcons", "Herons"):
        _mark(capsys, db, number, team, "absent" if team in absent else "present")


def test_pair_pairs_only_the_teams_checked_in(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3")
    _check_in_all(capsys, db, 1, absent={"Owls"})
    pairing = ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    assert _paired(pairing) == {"Eagles", "Hawks", "Ravens", "Falcons", "Herons"}
    assert pairing["bye"] is not None  # five teams: the odd field's bye


def test_pair_without_check_in_pairs_every_team_as_before(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3")
    pairing = ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    assert len(_paired(pairing)) == 6


def test_pair_with_a_team_unmarked_is_one_line_that_names_it(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3")
    _mark(capsys, db, 1, "Eagles", "absent")
    assert_unchanged(capsys, db, "pair", "--round", "1", names="Falcons, Hawks, Herons, Owls")


def test_checkin_is_recorded_with_who_and_when_and_a_later_mark_overrides(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db, "--seed", "3")
    ok_json(capsys, "checkin", "--round", "1", "--team", "owls", "--absent", "--by", "Kim",
            "--db", str(db))  # fmt: skip
    _mark(capsys, db, 1, "Owls", "present")
    marks = snapshot(db)["checkins"]
    assert marks[0] == {
        "round": 1, "team": "Owls", "present": False, "marked_by": "Kim",
        "marked_at": "2026-05-09T09:00:00+00:00",
    }  # fmt: skip
    assert [mark["present"] for mark in marks] == [False, True]
    listed = ok_json(capsys, "checkin", "--round", "1", "--db", str(db))
    assert {"team": "Owls", "state": "present"} in listed["teams"]
    assert {"team": "Eagles", "state": "not marked"} in listed["teams"]


def test_checkin_for_a_round_already_paired_is_one_line(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    assert_unchanged(
        capsys, db, "checkin", "--round", "1", "--team", "Owls", "--absent",
        names="round 1 is already paired: check-in is for round 2",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--round", "1", "--team", "Nobody", "--absent"], "unknown team 'Nobody'"),
        (["--round", "1", "--team", "Owls"], "expected one"),
        (["--round", "1", "--absent"], "--present or --absent without --team"),
        (["--round", "1", "--team", "Owls", "--absent", "--present"], "not allowed with"),
        (["--round", "0", "--team", "Owls", "--absent"], "round 0: expected a round from 1"),
        (["--round", "99", "--team", "Owls", "--absent"], "round 99: expected a round from 1"),
    ],
)
def test_bad_checkin_is_one_line_and_changes_nothing(
    capsys: Capture, db: Path, argv: list[str], names: str
) -> None:
    new(capsys, db, "--seed", "3")
    assert_unchanged(capsys, db, "checkin", *argv, names=names)


def test_a_withdrawn_team_is_never_paired_again(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    gone = ok_json(capsys, "withdraw", "--team", "Hawks", "--reason", "bus home at noon",
                   "--db", str(db))  # fmt: skip
    assert gone == {
        "team": "Hawks", "after_round": 1, "withdrawn_by": "director",
        "withdrawn_at": "2026-05-09T09:00:00+00:00", "reason": "bus home at noon",
    }  # fmt: skip
    pairing = ok_json(capsys, "pair", "--round", "2", "--db", str(db))
    assert "Hawks" not in _paired(pairing) and len(_paired(pairing)) == 5


def test_a_withdrawn_teams_games_stay_and_the_standings_mark_it(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    before = ok_json(capsys, "standings", "--db", str(db))
    ok_json(capsys, "withdraw", "--team", "Hawks", "--reason", "ill", "--db", str(db))
    after = ok_json(capsys, "standings", "--db", str(db))
    assert [{**row, "withdrawn": False} for row in after] == [
        {**row, "withdrawn": False} for row in before
    ]
    assert [row["team"] for row in after if row["withdrawn"]] == ["Hawks"]
    code, out, _ = run(capsys, "standings", "--db", str(db))
    assert code == 0
    assert next(line for line in out.splitlines() if "(withdrawn)" in line).split()[1] == "Hawks"


def test_withdrawing_twice_or_without_a_reason_is_one_line(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3")
    ok_json(capsys, "withdraw", "--team", "Hawks", "--reason", "ill", "--db", str(db))
    assert_unchanged(capsys, db, "withdraw", "--team", "hawks", "--reason", "again",
                     names="Hawks has already withdrawn (by director at")  # fmt: skip
    assert_unchanged(capsys, db, "withdraw", "--team", "Owls", "--reason", " ",
                     names="reason")  # fmt: skip
    assert_unchanged(capsys, db, "checkin", "--round", "1", "--team", "Hawks", "--present",
                     names="Hawks has withdrawn")  # fmt: skip


def test_a_late_team_scores_the_rounds_it_missed_as_byes(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3", "--bye-result", "tie", "--bye-points", "10")
    _check_in_all(capsys, db, 1, absent={"Owls", "Ravens"})
    play_round(capsys, db, 1, (10, 0), (20, 10))
    play_round(capsys, db, 2, (10, 0), (20, 10), (10, 10))  # everyone: check-in not used
    owls = next(r for r in ok_json(capsys, "standings", "--db", str(db)) if r["team"] == "Owls")
    assert (owls["byes"], owls["played"]) == (1, 1)
    assert owls["ties"] >= 1 and owls["points"] >= 10


def test_standings_release_is_public_by_default_then_hidden_and_released(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db, "--seed", "3")
    assert ok_json(capsys, "standings-release", "--db", str(db))["public"] is True
    ok_json(capsys, "standings-release", "--hidden", "--by", "TD Lee", "--db", str(db))
    ok_json(capsys, "standings-release", "--public", "--db", str(db))
    assert snapshot(db)["standings_releases"] == [
        {"public": False, "set_by": "TD Lee", "set_at": "2026-05-09T09:00:00+00:00"},
        {"public": True, "set_by": "director", "set_at": "2026-05-09T09:00:00+00:00"},
    ]
    assert_unchanged(capsys, db, "standings-release", "--public", names="already public")


def test_a_record_made_before_check_in_gains_the_tables_on_the_first_mark(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db, "--seed", "3")
    with sqlite3.connect(db) as raw:
        for table in ("team_checkins", "team_withdrawals", "standings_releases"):
            for verb in ("update", "delete"):
                raw.execute(f"DROP TRIGGER {table}_{verb}_refused")
            raw.execute(f"DROP TABLE {table}")
    raw.close()
    assert snapshot(db)["checkins"] == []
    _mark(capsys, db, 1, "Owls", "absent")
    with TournamentDB.open(db) as record:
        assert record.load().attendance.marks(1) == {"Owls": False}


def test_a_team_withdrawn_before_round_1_is_said_so(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "3")
    code, out, _ = run(capsys, "withdraw", "--team", "Owls", "--reason", "no bus", "--db", str(db))
    assert code == 0
    assert out.startswith("Owls withdrawn before round 1 (by director)")


@pytest.mark.parametrize(
    ("table", "change"),
    [
        ("team_checkins", "UPDATE team_checkins SET present = 1"),
        ("team_withdrawals", "DELETE FROM team_withdrawals"),
        ("standings_releases", "UPDATE standings_releases SET public = 1"),
    ],
)
def test_marks_withdrawals_and_release_switches_are_append_only(
    capsys: Capture, db: Path, table: str, change: str
) -> None:
    new(capsys, db, "--seed", "3")
    _mark(capsys, db, 1, "Owls", "absent")
    ok_json(capsys, "withdraw", "--team", "Hawks", "--reason", "ill", "--db", str(db))
    ok_json(capsys, "standings-release", "--hidden", "--db", str(db))
    raw = sqlite3.connect(db)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute(change)
    finally:
        raw.close()
    assert snapshot(db)[{"team_checkins": "checkins"}.get(table, table)]
