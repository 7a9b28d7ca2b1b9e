"""``gametable tournament pentathlon ...``: the event started from a CSV (alone or in a
GeoPlunge tournament's record), seats, results with amendments kept, standings per game and
overall; --json; exit 0, 1 (no result yet), 2 (bad input: one line, nothing changed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table import hub_wire
from rules.tournament.pentathlon import MAX_TABLE
from tests.test_tournament_cli import TEAMS_CSV, main

PLAYERS_CSV = """name,division,school
Ann Lee,III,Oak
Ben Cho,3,Elm
Cy Diaz,III,Oak
Dee Ng,III,
Eve Roy,IV,Elm
"""

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    (tmp_path / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    return tmp_path / "t.db"


def _run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(["tournament", "pentathlon", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _ok(capsys: Capture, db: Path, *argv: str) -> str:
    code, out, err = _run(capsys, *argv, "--db", str(db))
    assert (code, err) == (0, ""), err
    return out


def _bad(capsys: Capture, db: Path, *argv: str, names: str) -> None:
    before = db.read_bytes() if db.exists() else None
    code, out, err = _run(capsys, *argv, "--db", str(db))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("gametable: error: "), err
    assert names in err, err
    assert (db.read_bytes() if db.exists() else None) == before


def _seated(capsys: Capture, db: Path) -> Path:
    _ok(capsys, db, "new", "--players", str(db.parent / "players.csv"))
    _ok(capsys, db, "seat", "--round", "1", "--table", "1", "--game", "contig-60",
        "--a", "Ann Lee", "--b", "Ben Cho")  # fmt: skip
    _ok(capsys, db, "seat", "--round", "1", "--table", "2", "--game", "contig-60",
        "--a", "Cy Diaz", "--b", "Dee Ng")  # fmt: skip
    return db


RESULT = ("result", "--round", "1", "--table", "1")


def test_new_records_the_players_and_the_points(capsys: Capture, db: Path) -> None:
    out = _ok(capsys, db, "new", "--players", str(db.parent / "players.csv"), "--json")
    data = json.loads(out)
    assert data["points"] == {"win": 2, "tie": 1, "loss": 0}
    assert [(p["name"], p["division"]) for p in data["players"]][:2] == [
        ("Ann Lee", "III"),
        ("Ben Cho", "III"),
    ]


def test_an_event_is_started_once_per_record(capsys: Capture, db: Path) -> None:
    _ok(capsys, db, "new", "--players", str(db.parent / "players.csv"))
    _bad(capsys, db, "new", "--players", str(db.parent / "players.csv"), names="started once")


def test_a_geoplunge_tournament_s_record_takes_a_pentathlon_event_too(
    capsys: Capture, db: Path
) -> None:
    (db.parent / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    teams = str(db.parent / "teams.csv")
    assert main(["tournament", "new", "--format", "combo4", "--teams", teams, "--seed", "1",
                 "--db", str(db)]) == 0  # fmt: skip
    capsys.readouterr()
    _ok(capsys, db, "new", "--players", str(db.parent / "players.csv"))
    with TournamentDB.open(db) as record:
        assert len(record.entrants()) == 6
        assert len(PentathlonRecord(record).event().players) == 5


def test_the_seat_s_result_is_entered_and_shown(capsys: Capture, db: Path) -> None:
    _seated(capsys, db)
    out = _ok(capsys, db, *RESULT, "--winner", "A", "--how", "time-limit", "--scores", "25,34",
              "--challenges", "0/0/1,0/1/0")  # fmt: skip
    assert out.startswith("round 1 table 1 (contig-60): Ann Lee wins by time-limit, scores 25-34")
    shown = json.loads(_ok(capsys, db, *RESULT, "--show", "--json"))
    (version,) = shown["versions"]
    assert (version["winner"], version["entered_by"], version["source"]) == (
        "A",
        "table 1",
        "table",
    )
    assert version["challenges"]["B"] == {"C": 0, "I": 1, "IA": 0}


def test_a_seat_without_a_result_yet_exits_1(capsys: Capture, db: Path) -> None:
    _seated(capsys, db)
    code, out, err = _run(capsys, *RESULT, "--show", "--db", str(db))
    assert (code, err) == (1, "")
    assert out == "round 1 table 1: Ann Lee (A) v Ben Cho (B), contig-60: no result yet\n"


def test_an_amendment_keeps_every_version_with_its_reason(capsys: Capture, db: Path) -> None:
    _seated(capsys, db)
    _ok(capsys, db, *RESULT, "--winner", "A", "--how", "goal")
    _bad(capsys, db, *RESULT, "--winner", "B", "--how", "goal", names="expected an amendment")
    _ok(capsys, db, *RESULT, "--winner", "B", "--how", "challenged-win", "--amend",
        "--reason", "the 5 in a row was challenged")  # fmt: skip
    versions = json.loads(_ok(capsys, db, *RESULT, "--show", "--json"))["versions"]
    assert [(v["winner"], v["entered_by"], v["reason"]) for v in versions] == [
        ("A", "table 1", None),
        ("B", "director", "the 5 in a row was challenged"),
    ]
    with TournamentDB.open(db) as record, pytest.raises(Exception, match="append-only"):
        record.connection.execute("DELETE FROM pentathlon_results")


def test_standings_per_game_and_overall(capsys: Capture, db: Path) -> None:
    _seated(capsys, db)
    _ok(capsys, db, *RESULT, "--winner", "B", "--how", "three-i-ia", "--challenges", "0/2/1,0/0/0")
    _ok(capsys, db, "result", "--round", "1", "--table", "2", "--winner", "tie", "--how",
        "time-limit")  # fmt: skip
    rows = json.loads(_ok(capsys, db, "standings", "--json"))
    assert [(r["rank"], r["name"], r["points"]) for r in rows if r["division"] == "III"] == [
        (1, "Ben Cho", 2),
        (2, "Cy Diaz", 1),
        (2, "Dee Ng", 1),
        (4, "Ann Lee", 0),
    ]
    juggle = json.loads(_ok(capsys, db, "standings", "--game", "juggle", "--json"))
    assert {r["points"] for r in juggle} == {0}
    text = _ok(capsys, db, "standings")
    assert text.splitlines()[:3] == [
        "standings: every game",
        "division III",
        "rank  name      P  W  T  L  points  I/IA",
    ]


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (("seat", "--round", "1", "--table", "1", "--game", "chess", "--a", "Ann Lee", "--b",
          "Ben Cho"), "unknown game 'chess'"),
        (("seat", "--round", "2", "--table", "1", "--game", "juggle", "--a", "Ann Lee", "--b",
          "Eve Roy"), "play within their division"),
        (("seat", "--round", "2", "--table", "1", "--game", "juggle", "--a", "Zed", "--b",
          "Ann Lee"), "no Pentathlete named 'Zed'"),
        ((*RESULT, "--winner", "C", "--how", "goal"), "--winner 'C'"),
        ((*RESULT, "--winner", "A", "--how", "luck"), "--how 'luck'"),
        ((*RESULT, "--winner", "A"), "expected --winner and --how"),
        ((*RESULT, "--winner", "A", "--how", "goal", "--scores", "1"), "--scores '1'"),
        ((*RESULT, "--winner", "A", "--how", "goal", "--challenges", "1/2"), "--challenges"),
        ((*RESULT, "--winner", "A", "--how", "goal", "--amend"), "--amend without --reason"),
        ((*RESULT, "--winner", "A", "--how", "goal", "--reason", "x"), "--reason without"),
        ((*RESULT, "--show", "--winner", "A"), "--show shows a result"),
        ((*RESULT, "--winner", "A", "--how", "goal", "--amend", "--reason", "two\nlines"),
         "the reason: expected one line of at most 500 printable characters, got 2 lines"),
        (("result", "--round", "3", "--table", "1", "--winner", "A", "--how", "goal"),
         "round 3 has no table 1 seated"),
        (("seat", "--round", "99999999999999999999", "--table", "3", "--game", "juggle", "--a",
          "Ann Lee", "--b", "Ben Cho"), "--round: expected a whole number of at most 9 digits"),
        (("seat", "--round", "2", "--table", "99999999999999999999", "--game", "juggle", "--a",
          "Ann Lee", "--b", "Ben Cho"), "--table: expected a whole number of at most 9 digits"),
        ((*RESULT[:2], "99999999999999999999", *RESULT[3:], "--show"), "got 20 digits"),
        (("seat", "--round", "3", "--table", "1", "--game", "juggle", "--a", "Ann Lee", "--b",
          "Ben Cho"), "rounds are seated in order"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_changes_nothing(
    capsys: Capture, db: Path, argv: tuple[str, ...], names: str
) -> None:
    _seated(capsys, db)
    _bad(capsys, db, *argv, names=names)


@pytest.mark.parametrize(
    ("entered", "names"),
    [
        (("--winner", "B", "--how", "time-limit", "--scores", "25,34"),
         "the adjudication gives A wins"),
        (("--winner", "B", "--how", "three-i-ia", "--challenges", "0/0/0,0/3/0"),
         "expected player A with 3 I/IA"),
        (("--winner", "A", "--how", "goal", "--challenges", "9/9/9,0/0/0"),
         "player A has 18 I/IA"),
    ],
)  # fmt: skip
def test_a_result_its_own_scores_or_challenges_contradict_is_refused(
    capsys: Capture, db: Path, entered: tuple[str, ...], names: str
) -> None:
    _seated(capsys, db)
    _bad(capsys, db, "result", "--round", "1", "--table", "2", *entered, names=names)


def test_the_record_s_tables_are_the_hub_s() -> None:
    assert MAX_TABLE == hub_wire.MAX_TABLE


def test_a_record_without_a_pentathlon_event_says_how_to_start_one(
    capsys: Capture, db: Path
) -> None:
    (db.parent / "teams.csv").write_text(TEAMS_CSV, encoding="utf-8")
    assert main(["tournament", "new", "--format", "combo4", "--teams",
                 str(db.parent / "teams.csv"), "--db", str(db)]) == 0  # fmt: skip
    capsys.readouterr()
    _bad(capsys, db, "standings", names="holds no Pentathlon event: start one with")


def test_a_players_csv_without_its_header_creates_nothing(capsys: Capture, db: Path) -> None:
    (db.parent / "players.csv").write_text("Ann,III,Oak\n", encoding="utf-8")
    _bad(capsys, db, "new", "--players", str(db.parent / "players.csv"), names="header line")
    assert not db.exists()


def test_the_export_holds_the_event_with_every_version(capsys: Capture, db: Path) -> None:
    _seated(capsys, db)
    _ok(capsys, db, *RESULT, "--winner", "A", "--how", "goal")
    _ok(capsys, db, *RESULT, "--winner", "B", "--how", "challenged-win", "--amend",
        "--reason", "challenged")  # fmt: skip
    code = main(["tournament", "export", "--db", str(db)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and set(data) == {"pentathlon"}  # the event has the record to itself
    seat = data["pentathlon"]["seats"][0]
    assert [r["winner"] for r in seat["results"]] == ["A", "B"]
    assert data["pentathlon"]["standings"][0]["name"] == "Ben Cho"
