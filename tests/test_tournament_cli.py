"""``gametable tournament ...``: every command, --json, and bad input as one line, no change."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from firmware_py.cli import BAD_INPUT, OneLineParser, UsageError
from firmware_py.director import tournament_cli
from firmware_py.director.record.tournament_db import TournamentDB

NOW = "2026-05-09T09:00:00+00:00"


def main(argv: Sequence[str], now: str = NOW) -> int:
    """A tiny ``gametable`` with only the tournament commands, wired as firmware_py/cli.py
    wires them (``add_parser`` on the sub-commands, ``run`` for ``tournament``)."""
    parser = OneLineParser(prog="gametable")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    tournament_cli.add_parser(commands)
    try:
        args = parser.parse_args(argv)
    except UsageError as error:
        print(f"gametable: error: {error}", file=sys.stderr)
        return BAD_INPUT
    return tournament_cli.run(args, now=now)


TEAMS_CSV = """name,school,players
Eagles,Lincoln,Ann;Bo;Cy
Hawks,Lincoln,Di;Ed;Flo
Owls,Roosevelt,Gus;Hal;Ida
Ravens,Roosevelt,Jo;Kai;Lu
Falcons,Adams,Mo;Ned;Oz
Herons,Adams,Pat;Quinn;Ray
"""

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    (tmp_path / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    return tmp_path / "t.db"


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(["tournament", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def ok_json(capsys: Capture, *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


def new(capsys: Capture, db: Path, *extra: str) -> Any:
    teams = str(db.parent / "teams.csv")
    return ok_json(capsys, "new", "--format", "combo4", "--teams", teams, "--db", str(db), *extra)


def snapshot(db: Path) -> dict[str, Any]:
    with TournamentDB.open(db) as record:
        return record.export()


def assert_bad_input(capsys: Capture, *argv: str, names: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("gametable: error: ")
    assert names in err, err
    assert "Traceback" not in err


def assert_unchanged(capsys: Capture, db: Path, *argv: str, names: str) -> None:
    before = snapshot(db)
    assert_bad_input(capsys, *argv, "--db", str(db), names=names)
    assert snapshot(db) == before


def play_round(capsys: Capture, db: Path, number: int, *points: tuple[int, int]) -> Any:
    pairing = ok_json(capsys, "pair", "--round", str(number), "--db", str(db))
    for table, (a, b) in enumerate(points, start=1):
        ok_json(
            capsys, "result", "--round", str(number), "--table", str(table),
            "--a-points", str(a), "--b-points", str(b), "--db", str(db),
        )  # fmt: skip
    return pairing


# new


def test_new_records_the_config_and_teams(capsys: Capture, db: Path) -> None:
    data = new(capsys, db, "--rounds", "5", "--seed", "7", "--tiebreaks", "head_to_head,points")
    assert (data["teams"], data["rounds"], data["seed"]) == (6, 5, 7)
    assert data["tiebreaks"] == ["head_to_head", "points"]
    assert snapshot(db)["teams"][0] == {
        "name": "Eagles",
        "school": "Lincoln",
        "players": ["Ann", "Bo", "Cy"],
        "short": "Eagles",
    }


def test_new_keeps_the_short_names_the_csv_gives(capsys: Capture, db: Path) -> None:
    teams = db.parent / "short.csv"
    teams.write_text("name,school,players,short\nLincoln High School,Lincoln,Ann,LHS\nOwls,,Bo,\n")
    code, _, err = run(capsys, "new", "--format", "combo4", "--teams", str(teams), "--db", str(db))
    assert code == 0, err
    shorts = [(team["name"], team["short"]) for team in snapshot(db)["teams"]]
    assert shorts == [("Lincoln High School", "LHS"), ("Owls", "Owls")]


def test_new_without_a_seed_draws_one_and_records_it(capsys: Capture, db: Path) -> None:
    data = new(capsys, db)
    assert snapshot(db)["config"]["seed"] == data["seed"]


def test_new_text_names_format_rounds_and_seed(capsys: Capture, db: Path) -> None:
    teams = str(db.parent / "teams.csv")
    code, out, _ = run(capsys, "new", "--format", "combo3", "--teams", teams, "--db", str(db),
                       "--seed", "3")  # fmt: skip
    assert code == 0
    assert out.startswith("combo3 tournament: 6 teams, 8 rounds, seed 3")


def test_new_with_duplicate_team_names_is_one_line_and_creates_nothing(
    capsys: Capture, db: Path
) -> None:
    (db.parent / "teams.csv").write_text(TEAMS_CSV + "OWLS,Adams,Sam\n", encoding="utf-8")
    teams = str(db.parent / "teams.csv")
    assert_bad_input(
        capsys, "new", "--format", "combo4", "--teams", teams, "--db", str(db),
        names="line 8: duplicate team name 'OWLS' (first on line 4)",
    )  # fmt: skip
    assert not db.exists()


def test_new_over_an_existing_tournament_is_refused(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    teams = str(db.parent / "teams.csv")
    assert_unchanged(
        capsys, db, "new", "--format", "combo4", "--teams", teams, names="already exists"
    )


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--format", "combo5"], "unknown format 'combo5'"),
        (["--format", "combo3", "--rounds", "6"], "expected 8"),
        (["--format", "combo4", "--tiebreaks", "luck"], "unknown tiebreak 'luck'"),
        (["--format", "combo4", "--bye-result", "draw"], "unknown bye result 'draw'"),
        (["--format", "combo4", "--qualify", "vote"], "unknown qualify 'vote'"),
        (["--format", "combo4", "--bye-points", "-1"], "bye points -1"),
    ],
)
def test_new_bad_options_are_one_line(
    capsys: Capture, db: Path, argv: list[str], names: str
) -> None:
    teams = str(db.parent / "teams.csv")
    assert_bad_input(capsys, "new", *argv, "--teams", teams, "--db", str(db), names=names)
    assert not db.exists()


def test_new_with_a_missing_teams_file_is_one_line(capsys: Capture, db: Path) -> None:
    assert_bad_input(
        capsys, "new", "--format", "combo4", "--teams", str(db.parent / "nope.csv"),
        "--db", str(db), names="cannot read",
    )  # fmt: skip


def test_argparse_errors_are_one_line(capsys: Capture) -> None:
    assert_bad_input(capsys, "pair", names="--round")
    assert_bad_input(capsys, "pair", "--round", "two", names="expected a whole number like 3")


def test_command_without_a_record_is_one_line(capsys: Capture, db: Path) -> None:
    assert_bad_input(capsys, "standings", "--db", str(db), names="no tournament at")
    assert not db.exists()


# pair


def test_pair_json_lists_tables_teams_and_the_bye(capsys: Capture, db: Path) -> None:
    (db.parent / "teams.csv").write_text(TEAMS_CSV + "Kites,,Sam\n", encoding="utf-8")
    new(capsys, db, "--seed", "1")
    data = ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    assert (data["round"], data["kind"], data["minutes"]) == (1, "all", 20)
    assert [p["table"] for p in data["pairings"]] == [1, 2, 3]
    names = {p["A"] for p in data["pairings"]} | {p["B"] for p in data["pairings"]}
    assert len(names | {data["bye"]}) == 7


def test_pair_avoids_same_school_pairs(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    data = ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    schools = {
        "Eagles": "L",
        "Hawks": "L",
        "Owls": "R",
        "Ravens": "R",
        "Falcons": "A",
        "Herons": "A",
    }
    assert all(schools[p["A"]] != schools[p["B"]] for p in data["pairings"])
    assert data["bye"] is None


def test_pair_text_shows_round_kind_tables_and_bye(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    code, out, _ = run(capsys, "pair", "--round", "1", "--db", str(db))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "round 1 (all, 20 minutes)"
    assert lines[1].startswith("table 1: ") and " (A) v " in lines[1]
    assert lines[-1] == "bye: none"


def test_round_paired_twice_is_one_line_and_changes_nothing(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    assert_unchanged(capsys, db, "pair", "--round", "1", names="round 1 is already paired")


def test_pair_before_the_results_are_in_is_refused(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    assert_unchanged(capsys, db, "pair", "--round", "2", names="no result for round 1 table 1")


def test_unpair_undoes_the_latest_round_and_the_round_is_paired_again(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db, "--seed", "1")
    paired = ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    code, out, _ = run(
        capsys, "unpair", "--round", "1", "--reason", "a team came late", "--db", str(db)
    )
    assert code == 0
    assert out.startswith("round 1's pairing undone (3 matches withdrawn)")
    assert snapshot(db)["withdrawn_rounds"][0]["reason"] == "a team came late"
    assert_bad_input(capsys, "round", "--round", "1", "--db", str(db), names="not paired")
    assert ok_json(capsys, "pair", "--round", "1", "--db", str(db))["round"] == 1
    assert paired["round"] == 1


def test_unpair_after_a_result_is_one_line_and_changes_nothing(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    play_round(capsys, db, 1, (10, 0))
    assert_unchanged(
        capsys, db, "unpair", "--round", "1", "--reason", "oops", names="a result is in (table 1)"
    )


def test_unpair_needs_a_reason(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    assert_unchanged(capsys, db, "unpair", "--round", "1", names="--reason")


def test_round_shows_pairings_with_their_results(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    data = ok_json(capsys, "round", "--round", "1", "--db", str(db))
    assert [(p["a_points"], p["b_points"]) for p in data["pairings"]] == [
        (10, 0),
        (20, 10),
        (10, 10),
    ]


# result


def test_result_names_the_winner_by_points(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    pairing = ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    data = ok_json(capsys, "result", "--round", "1", "--table", "1", "--a-points", "20",
                   "--b-points", "30", "--db", str(db))  # fmt: skip
    first = pairing["pairings"][0]
    assert (data["winner"], data["version"], data["source"]) == (first["B"], 1, "table")
    assert data["entered_by"] == "table 1"
    assert data["entered_at"] == "2026-05-09T09:00:00+00:00"


def test_equal_points_is_a_tie(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    code, out, _ = run(capsys, "result", "--round", "1", "--table", "2", "--a-points", "25",
                       "--b-points", "25", "--db", str(db))  # fmt: skip
    assert code == 0 and ": a tie (recorded, version 1, by table 2)" in out


def test_result_entered_twice_conflicts_and_changes_nothing(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    assert_unchanged(
        capsys, db, "result", "--round", "1", "--table", "1", "--a-points", "0",
        "--b-points", "10", names="already has a result (10-0, entered by table 1",
    )  # fmt: skip


def test_amend_with_a_reason_is_the_directors_new_version(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    data = ok_json(capsys, "result", "--round", "1", "--table", "1", "--a-points", "0",
                   "--b-points", "10", "--amend", "--reason", "sides swapped",
                   "--db", str(db))  # fmt: skip
    assert (data["version"], data["source"], data["entered_by"]) == (2, "director", "director")
    results = snapshot(db)["rounds"][0]["pairings"][0]["results"]
    assert [(r["a_points"], r["reason"]) for r in results] == [(10, None), (0, "sides swapped")]


def test_amend_without_a_reason_is_refused(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    assert_unchanged(
        capsys, db, "result", "--round", "1", "--table", "1", "--a-points", "0",
        "--b-points", "10", "--amend", names="--amend without --reason",
    )  # fmt: skip


def test_result_for_a_pairing_that_does_not_exist_changes_nothing(
    capsys: Capture, db: Path
) -> None:
    new(capsys, db, "--seed", "1")
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    assert_unchanged(
        capsys, db, "result", "--round", "1", "--table", "4", "--a-points", "10",
        "--b-points", "0", names="round 1 has no table 4: expected a table from 1 to 3",
    )  # fmt: skip
    assert_unchanged(
        capsys, db, "result", "--round", "2", "--table", "1", "--a-points", "10",
        "--b-points", "0", names="round 2 is not paired yet",
    )  # fmt: skip


def test_negative_points_are_one_line(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    assert_unchanged(
        capsys, db, "result", "--round", "1", "--table", "1", "--a-points", "-5",
        "--b-points", "0", names="team A points -5: expected 0 to 10000",
    )  # fmt: skip


# standings, championship, playoff


def test_standings_json_is_a_list_of_ranked_teams(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    rows = ok_json(capsys, "standings", "--db", str(db))
    assert isinstance(rows, list) and len(rows) == 6
    assert [row["rank"] for row in rows] == [1, 2, 3, 4, 4, 6]  # the two tied teams share 4
    assert {"rank", "team", "wins", "ties", "losses", "points"} <= set(rows[0])


def test_standings_text_is_a_table(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    code, out, _ = run(capsys, "standings", "--db", str(db))
    assert code == 0
    assert out.splitlines()[0].split() == ["rank", "team", "W", "T", "L", "points", "opp", "W"]
    assert len(out.splitlines()) == 7


def test_championship_before_the_last_round_is_one_line(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    assert_unchanged(capsys, db, "championship", names="the championship comes after round 8")


def _finish_with_a_three_way_tie(capsys: Capture, db: Path) -> None:
    """One round, qualifying by wins: three winners tie for the two places."""
    new(capsys, db, "--seed", "1", "--rounds", "1", "--qualify", "wins")
    play_round(capsys, db, 1, (10, 0), (20, 10), (30, 0))


def test_championship_three_way_tie_goes_to_a_border_up_playoff(capsys: Capture, db: Path) -> None:
    _finish_with_a_three_way_tie(capsys, db)
    data = ok_json(capsys, "championship", "--db", str(db))
    playoff = data["playoff"]
    assert (data["qualified"], data["finalists"], playoff["places"]) == ([], None, 2)
    assert len(playoff["teams"]) == 3
    assert playoff["next"] == {
        "A": playoff["teams"][0],
        "B": playoff["teams"][1],
        "decides": "the winner advances",
    }


def test_playoff_games_lead_to_the_finalists_and_the_champion(capsys: Capture, db: Path) -> None:
    _finish_with_a_three_way_tie(capsys, db)
    first, second, third = ok_json(capsys, "championship", "--db", str(db))["playoff"]["teams"]
    data = ok_json(capsys, "playoff", "--winner", second, "--db", str(db))
    assert data["playoff"]["next"]["A"] == first and data["playoff"]["next"]["B"] == third
    data = ok_json(capsys, "playoff", "--winner", third.upper(), "--db", str(db))
    assert data["finalists"] == [second, third]
    data = ok_json(capsys, "championship", "--winner", third, "--db", str(db))
    assert data["champion"] == third
    exported = snapshot(db)
    assert [g["winner"] for g in exported["playoff_games"]] == [second, third]
    assert exported["champions"][0]["name"] == third


def test_playoff_winner_who_is_not_playing_is_refused(capsys: Capture, db: Path) -> None:
    _finish_with_a_three_way_tie(capsys, db)
    third = ok_json(capsys, "championship", "--db", str(db))["playoff"]["teams"][2]
    assert_unchanged(capsys, db, "playoff", "--winner", third, names="is not in the next playoff")


def test_unknown_team_is_one_line_and_changes_nothing(capsys: Capture, db: Path) -> None:
    _finish_with_a_three_way_tie(capsys, db)
    assert_unchanged(capsys, db, "playoff", "--winner", "Crows", names="unknown team 'Crows'")


def test_playoff_void_keeps_the_games_in_the_record(capsys: Capture, db: Path) -> None:
    _finish_with_a_three_way_tie(capsys, db)
    first = ok_json(capsys, "championship", "--db", str(db))["playoff"]["teams"][0]
    ok_json(capsys, "playoff", "--winner", first, "--db", str(db))
    data = ok_json(capsys, "playoff", "--void", "--reason", "wrong cards dealt", "--db", str(db))
    assert data["playoff"]["games"] == []
    assert [g["void"] for g in snapshot(db)["playoff_games"]] == [True]


def test_champion_must_be_a_finalist(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1", "--rounds", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    finalists = ok_json(capsys, "championship", "--db", str(db))["finalists"]
    loser = next(row["team"] for row in ok_json(capsys, "standings", "--db", str(db))[-1:])
    assert loser not in finalists
    assert_unchanged(
        capsys, db, "championship", "--winner", loser, names="is not in the championship"
    )


def test_protest_is_recorded(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    data = ok_json(capsys, "protest", "buzzer stuck", "--round", "1", "--table", "2",
                   "--by", "Owls' coach", "--db", str(db))  # fmt: skip
    assert (data["protest"], data["table"], data["lodged_by"]) == (1, 2, "Owls' coach")
    assert snapshot(db)["protests"][0]["text"] == "buzzer stuck"


def test_export_is_the_whole_record(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    data = ok_json(capsys, "export", "--db", str(db))
    assert set(data) >= {"config", "teams", "rounds", "standings", "playoff_games", "protests"}
    code, out, _ = run(capsys, "export", "--db", str(db))
    assert code == 0 and json.loads(out) == data


def test_round_not_paired_yet_is_one_line(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    assert_unchanged(capsys, db, "round", "--round", "1", names="no round is paired yet")


def test_director_entry_is_marked_as_the_directors(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    data = ok_json(capsys, "result", "--round", "1", "--table", "3", "--a-points", "10",
                   "--b-points", "0", "--director", "--db", str(db))  # fmt: skip
    assert (data["source"], data["entered_by"]) == ("director", "director")


def test_combo3_rounds_5_to_8_are_afternoon_rounds(capsys: Capture, db: Path) -> None:
    teams = str(db.parent / "teams.csv")
    ok_json(capsys, "new", "--format", "combo3", "--teams", teams, "--db", str(db), "--seed", "4")
    kinds = []
    for number in range(1, 9):
        pairing = play_round(capsys, db, number, (10, 0), (20, 10), (10, 10))
        kinds.append((pairing["kind"], pairing["minutes"]))
    assert kinds == [("morning", 20)] * 4 + [("afternoon", 12)] * 4
    rounds = snapshot(db)["rounds"]
    pairs = [frozenset((p["A"], p["B"])) for r in rounds for p in r["pairings"]]
    # 6 teams, 8 rounds: 5 rounds use up every pair, so each pair meets at most twice
    assert len(set(pairs[:15])) == 15
    championship = ok_json(capsys, "championship", "--db", str(db))
    assert (championship["finalists"] is None) == (championship["playoff"] is not None)


def _paired(capsys: Capture, db: Path) -> None:
    new(capsys, db)
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))


def test_a_geoplunge_score_that_is_not_a_multiple_of_5_is_refused(
    capsys: Capture, db: Path
) -> None:
    _paired(capsys, db)
    assert_unchanged(
        capsys,
        db,
        "result",
        "--round",
        "1",
        "--table",
        "1",
        "--a-points",
        "7",
        "--b-points",
        "3",
        names="team A points 7: a combo4 score is a multiple of 5",
    )


def test_points_past_any_match_are_refused_before_they_reach_the_record(
    capsys: Capture, db: Path
) -> None:
    _paired(capsys, db)
    assert_unchanged(
        capsys,
        db,
        "result",
        "--round",
        "1",
        "--table",
        "1",
        "--a-points",
        "99999999999999999999",
        "--b-points",
        "0",
        names="--a-points: expected a whole number of at most 9 digits, got 20 digits",
    )


def test_a_teams_csv_with_a_field_over_the_csv_limit_is_one_line(capsys: Capture, db: Path) -> None:
    teams = db.parent / "huge.csv"
    teams.write_text("name,school,players\n" + "A" * 200_000 + ",x,y\n", encoding="utf-8")
    assert_bad_input(
        capsys,
        "new",
        "--format",
        "combo4",
        "--teams",
        str(teams),
        "--db",
        str(db),
        names="not a teams CSV",
    )
    assert not db.exists()


def test_an_argument_that_is_not_utf8_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    import subprocess

    gametable = Path(sys.executable).parent / "gametable"
    done = subprocess.run(
        [gametable, "tournament", "protest", b"\xff\xfe", "--db", tmp_path / "t.db"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count(b"\n") == 1
    assert b"is not UTF-8 text" in done.stderr
    assert list(tmp_path.iterdir()) == []


def _listing(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mode, p.read_bytes()) for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize(
    ("content", "names"),
    [
        (b"", "not an SQLite database"),
        (b"name,school\nEagles,North\n", "not an SQLite database"),
        (b"SQLite format 3\x00" + bytes(84), "(it holds no tournament)"),
    ],
    ids=["empty", "text", "another-database"],
)
def test_a_file_that_is_not_a_record_is_refused_untouched(
    capsys: Capture, tmp_path: Path, content: bytes, names: str
) -> None:
    path = tmp_path / "t.db"
    path.write_bytes(content)
    before = _listing(tmp_path)
    assert_bad_input(capsys, "standings", "--db", str(path), names=names)
    assert _listing(tmp_path) == before


def test_a_new_record_is_readable_by_its_owner_and_group_only(capsys: Capture, db: Path) -> None:
    import os

    old = os.umask(0o022)
    try:
        new(capsys, db)
    finally:
        os.umask(old)
    assert db.stat().st_mode & 0o777 == 0o640


# R133: free text kept in the record is one line of plain text


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (("protest", "buzzer\x1b[2J stuck"), "the protest: 'buzzer\\x1b[2J stuck' holds a control"),
        (("protest", "x" * 2001), "the protest is 2001 characters: expected at most 2000"),
        (("protest", "ok", "--by", "coach\x07"), "who enters it: 'coach\\x07' holds a control"),
        (
            ("protest", "ok", "--by", "c" * 65),
            "who enters it is 65 characters: expected at most 64",
        ),
        (("playoff", "--void", "--reason", "r\x1b]0;x\x07"), "the reason: 'r\\x1b]0;x\\x07' holds"),
    ],
)
def test_r133_free_text_with_a_control_character_or_too_long_is_refused(
    capsys: Capture, db: Path, argv: tuple[str, ...], names: str
) -> None:
    new(capsys, db, "--seed", "1")
    assert_unchanged(capsys, db, *argv, names=names)


def test_r342_a_reason_of_two_lines_is_refused_not_joined(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    assert_unchanged(
        capsys,
        db,
        *("playoff", "--void", "--reason", "wrong cards\ndealt"),
        names="the reason: expected one line of at most 500 printable characters, got 2 lines",
    )


def test_r133_free_text_is_stored_one_way(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    ok_json(
        capsys, "protest", "  Caf\u0065\u0301\u200b  table  2 ", "--by", " Owls ", "--db", str(db)
    )
    protest = snapshot(db)["protests"][0]
    assert (protest["text"], protest["lodged_by"]) == ("Caf\u00e9 table 2", "Owls")


def test_r132_a_bye_scores_a_multiple_of_5_as_a_match_does(capsys: Capture, db: Path) -> None:
    teams = str(db.parent / "teams.csv")
    assert_bad_input(
        capsys, "new", "--format", "combo4", "--teams", teams, "--bye-points", "7",
        "--db", str(db), names="bye points 7: a combo4 score is a multiple of 5",
    )  # fmt: skip
    assert not db.exists()


# a closed tournament (R850)


def _closed(capsys: Capture, db: Path) -> str:
    """One round played and its champion recorded: the tournament closed; the champion."""
    new(capsys, db, "--seed", "1", "--rounds", "1")
    play_round(capsys, db, 1, (10, 0), (20, 10), (10, 10))
    finalists = ok_json(capsys, "championship", "--db", str(db))["finalists"]
    ok_json(capsys, "championship", "--winner", finalists[0], "--db", str(db))
    return str(finalists[0])


@pytest.mark.parametrize(
    "change",
    [
        ("result", "--round", "1", "--table", "1", "--a-points", "0", "--b-points", "10",
         "--amend", "--reason", "sheet misread"),
        ("pair", "--round", "2"),
        ("unpair", "--round", "1", "--reason", "paired too soon"),
        ("playoff", "--void", "--reason", "wrong cards"),
    ],
    ids=["amend", "pair", "unpair", "playoff"],
)  # fmt: skip
def test_a_closed_tournament_refuses_every_change_naming_who_closed_it_and_how_to_reopen(
    capsys: Capture, db: Path, change: tuple[str, ...]
) -> None:
    champion = _closed(capsys, db)
    said = (
        f"the tournament is closed ({champion} recorded as champion by director at "
        "Sat 9 May 2026, 09:00 UTC): "
        "a director reopens it with a reason"
    )
    assert_unchanged(capsys, db, *change, names=said)


def test_reopening_keeps_who_when_and_why_and_the_champion_no_longer_stands(
    capsys: Capture, db: Path
) -> None:
    champion = _closed(capsys, db)
    code = main(
        ["tournament", "reopen", "--reason", "table 2's sheet misread", "--db", str(db)],
        now="2026-05-09T18:00:00+00:00",
    )
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert out.startswith(f"the tournament is reopened ({champion} was recorded as champion")
    assert ok_json(capsys, "championship", "--db", str(db))["champion"] is None
    assert snapshot(db)["reopenings"] == [
        {
            "champion": champion,
            "closed_by": "director",
            "closed_at": NOW,
            "reopened_by": "director",
            "reopened_at": "2026-05-09T18:00:00+00:00",
            "reason": "table 2's sheet misread",
        }
    ]
    amend = ("--a-points", "10", "--b-points", "20", "--amend", "--reason", "sheet misread")
    ok_json(capsys, "result", "--round", "1", "--table", "2", *amend, "--db", str(db))


def test_closing_again_after_reopening_records_the_champion_anew_saying_so(
    capsys: Capture, db: Path
) -> None:
    champion = _closed(capsys, db)
    ok_json(capsys, "reopen", "--reason", "a late protest", "--db", str(db))
    data = ok_json(capsys, "championship", "--winner", champion, "--db", str(db))
    assert data["champion"] == champion
    champions = snapshot(db)["champions"]
    assert [c["reason"] for c in champions] == [None, "closed again after it was reopened"]


def test_reopening_a_tournament_not_closed_is_one_line(capsys: Capture, db: Path) -> None:
    new(capsys, db, "--seed", "1")
    assert_unchanged(capsys, db, "reopen", "--reason", "why not", names="is not closed")


def test_a_protest_is_still_recorded_while_closed(capsys: Capture, db: Path) -> None:
    _closed(capsys, db)
    data = ok_json(capsys, "protest", "the final's clock ran fast", "--db", str(db))
    assert data["text"] == "the final's clock ran fast"
    assert ok_json(capsys, "championship", "--db", str(db))["champion"] is not None


def test_a_playoff_stopped_by_an_amendment_says_how_to_void_it_and_the_void_works(
    capsys: Capture, db: Path
) -> None:
    """R960: the line names the command; run as it says, the playoff starts again."""
    new(capsys, db, "--rounds", "1", "--seed", "1", "--qualify", "wins")
    ok_json(capsys, "pair", "--round", "1", "--db", str(db))
    for table, (a, b) in enumerate(((10, 0), (20, 10), (30, 0)), start=1):
        points = ("--a-points", str(a), "--b-points", str(b))
        ok_json(capsys, "result", "--round", "1", "--table", str(table), *points,
                "--director", "--db", str(db))  # fmt: skip
    first = ok_json(capsys, "championship", "--db", str(db))["playoff"]["next"]
    ok_json(capsys, "playoff", "--winner", first["B"], "--db", str(db))
    ok_json(capsys, "result", "--round", "1", "--table", "3", "--a-points", "5", "--b-points",
            "0", "--amend", "--reason", "the sheet re-added", "--db", str(db))  # fmt: skip
    code, out, err = run(capsys, "championship", "--db", str(db))
    assert (code, out) == (2, "")
    assert err.startswith(f"gametable: error: playoff game 1 was played as {first['A']} v ")
    said = "void it with 'gametable tournament playoff --void --reason TEXT'"
    assert said in err
    voided = ok_json(capsys, "playoff", "--void", "--reason", "table 3 re-added", "--db", str(db))
    assert voided["playoff"]["games"] == [] and voided["playoff"]["next"] is not None
