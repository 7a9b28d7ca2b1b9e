"""The Tournament Director's "0 points" for a Code of Conduct infraction in the record (R789,
R794): "Such infractions can result in 0 points and/or being required to leave the tournament
site". The table reports it in ``game_over``; the hub enters it with the result; that player's
game scores 0 in the standings, whatever its outcome; a table that reports it after a result
without it changes the result (an amendment), and the director can enter it too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_py.cli import main
from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import Decision
from rules.pentathlon.catalogue import Game
from rules.tournament.pentathlon import Pentathlete, PentathlonPoints, PentathlonStanding

NOW = "2026-05-09T09:00:00+00:00"
LATER = "2026-05-09T09:40:00+00:00"
JOURNAL = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
START = {"action": "pentathlon.start", "game": "contig-60", "minutes": 30, "chips": 20}
PLAYERS = (Pentathlete("Ann", "III"), Pentathlete("Ben", "III"))


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """Ann (A) v Ben (B) at table 1 in round 1, Contig 60."""
    made = PentathlonRecord.start(
        tmp_path / "t.db", PentathlonPoints(), PLAYERS, now=NOW, by="director"
    )
    event = PentathlonRecord(made)
    with made.writing():
        event.add_seat(event.event().seat(1, 1, Game.CONTIG_60, "Ann", "Ben"), now=NOW, by="d")
    with made:
        yield made


def game_over(seq: int, winner: str, *infractions: dict[str, Any]) -> Decision:
    """The table's game_over as ``view.report`` writes it, with its infractions if any."""
    event: dict[str, Any] = {
        "t": 1200.0,
        "event": "game_over",
        "winner": winner,
        "how": "time-limit",
        "detail": "time limit",
        "scores": {"A": 25, "B": 34} if winner == "A" else {"A": 34, "B": 25},  # lower wins
        "challenges": {"A": {"C": 0, "I": 0, "IA": 0}, "B": {"C": 0, "I": 0, "IA": 0}},
    }
    if infractions:
        event["infractions"] = list(infractions)
    return Decision(JOURNAL, seq, "2026-05-09T09:35:00.000+00:00", dict(START), event)


def zero(player: str, *, removal: bool = False) -> dict[str, Any]:
    return {"player": player, "zero_points": True, "removal": removal}


def standing(record: TournamentDB, name: str) -> PentathlonStanding:
    (row,) = [r for r in PentathlonRecord(record).event().standings() if r.name == name]
    return row


def test_a_winner_given_0_points_scores_0_for_the_game(record: TournamentDB) -> None:
    """ "0 points": the winner's game is worth nothing to the winner; the loser's is a loss."""
    applied = apply_result(record, 1, game_over(40, "A", zero("A")), now=LATER)
    assert applied.event is not None and applied.event.outcome == "recorded"
    assert "0 points to Ann (A)" in applied.event.note
    ann, ben = standing(record, "Ann"), standing(record, "Ben")
    assert (ann.played, ann.wins, ann.points) == (1, 1, 0)
    assert (ben.played, ben.losses, ben.points) == (1, 1, 0)


def test_the_opponent_keeps_the_points_of_the_result(record: TournamentDB) -> None:
    apply_result(record, 1, game_over(40, "A", zero("B")), now=LATER)
    assert standing(record, "Ann").points == PentathlonPoints().win
    assert standing(record, "Ben").points == 0


def test_a_removal_alone_is_not_0_points(record: TournamentDB) -> None:
    """The Director's two decisions are separate: "0 points and/or being required to leave"."""
    removal = {"player": "A", "zero_points": False, "removal": True}
    apply_result(record, 1, game_over(40, "A", removal), now=LATER)
    assert standing(record, "Ann").points == PentathlonPoints().win
    (entry,) = PentathlonRecord(record).history(1, 1)
    assert entry.result.zero_points == (False, False)


def test_the_0_points_are_kept_with_the_result(record: TournamentDB) -> None:
    apply_result(record, 1, game_over(40, "A", zero("A")), now=LATER)
    (entry,) = PentathlonRecord(record).history(1, 1)
    assert entry.result.zero_points == (True, False)
    assert entry.to_json()["zero_points"] == ["A"]
    exported = PentathlonRecord(record).export()
    assert exported["seats"][0]["results"][0]["zero_points"] == ["A"]


def test_0_points_reported_after_the_result_is_a_result_change(record: TournamentDB) -> None:
    """The monitor took back the confirmation, recorded the infraction and confirmed again: the
    table's new game_over differs only by the 0 points, and amends its own result."""
    apply_result(record, 1, game_over(40, "A"), now=LATER)
    assert standing(record, "Ann").points == PentathlonPoints().win
    applied = apply_result(record, 1, game_over(47, "A", zero("A")), now=LATER)
    assert applied.event is not None and applied.event.outcome == "amended"
    assert standing(record, "Ann").points == 0
    first, second = PentathlonRecord(record).history(1, 1)
    assert (first.result.zero_points, second.result.zero_points) == ((False, False), (True, False))


def test_a_malformed_infraction_is_refused_in_one_line(record: TournamentDB) -> None:
    applied = apply_result(record, 1, game_over(40, "A", {"player": "C"}), now=LATER)
    assert applied.event is not None and applied.event.outcome == "refused"
    assert applied.event.note.startswith("the result cannot be read: infraction")
    assert "\n" not in applied.event.note
    assert PentathlonRecord(record).history(1, 1) == ()


def test_the_director_enters_0_points_with_a_result(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(record.path)
    record.close()
    code = main(
        ["tournament", "pentathlon", "result", "--db", path, "--round", "1", "--table", "1",
         "--winner", "A", "--how", "time-limit", "--zero-points", "A", "--director"]
    )  # fmt: skip
    assert code == 0
    assert "0 points to A (the Tournament Director)" in capsys.readouterr().out
    with TournamentDB.open(Path(path)) as reopened:
        assert standing(reopened, "Ann").points == 0


def test_the_director_s_zero_points_option_is_checked(
    record: TournamentDB, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(record.path)
    record.close()
    code = main(
        ["tournament", "pentathlon", "result", "--db", path, "--round", "1", "--table", "1",
         "--winner", "A", "--how", "time-limit", "--zero-points", "C"]
    )  # fmt: skip
    assert code == 2
    assert capsys.readouterr().err.strip().endswith("--zero-points 'C': expected A, B or A,B")
