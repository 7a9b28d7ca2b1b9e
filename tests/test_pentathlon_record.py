"""The record of a game: per player the result and how, scores, challenges, opinions."""

from __future__ import annotations

import json

from rules.pentathlon.catalogue import Game
from rules.pentathlon.contig import ContigPlay
from rules.pentathlon.monitor_actions import (
    Challenge,
    Confirm,
    DeclareWin,
    DieToss,
    Opinion,
    PassFlag,
    Rule,
)
from rules.pentathlon.record import record
from tests.pentathlon_helpers import CORRECT, INCORRECT, A, B, game_of, new_game

FIVE = [a for _ in range(4) for a in (ContigPlay(1), PassFlag(A), PassFlag(B))]


def finished() -> dict[str, object]:
    state = game_of(
        Game.CONTIG_60,
        DieToss(1, 2),
        *FIVE,
        ContigPlay(1),
        DeclareWin(A, "five-in-a-row"),
        Challenge(B, ("five-in-a-row",)),
        Rule(INCORRECT),
        Opinion(1, B, CORRECT),
        Opinion(1, A, INCORRECT),
        Confirm(),
    )
    return record(state)


def test_the_record_is_plain_json_data() -> None:
    data = finished()
    assert json.loads(json.dumps(data)) == data


def test_the_record_names_the_family_and_the_game() -> None:
    data = finished()
    assert (data["family"], data["game"], data["title"], data["minutes"]) == (
        "pentathlon",
        "contig-60",
        "Contig 60",
        30,
    )


def test_the_record_gives_each_player_the_result_and_how() -> None:
    players = finished()["players"]
    assert isinstance(players, dict)
    assert (players["A"]["result"], players["A"]["how"]) == ("win", "goal")
    assert (players["B"]["result"], players["B"]["how"]) == ("loss", "goal")


def test_the_record_keeps_the_final_scores() -> None:
    assert finished()["scores"] == {
        "running_score": {"A": 55, "B": 60},
        "chips_left": {"A": 15, "B": 20},
    }


def test_the_record_keeps_every_ruling_with_who_ruled_and_who_asked() -> None:
    challenges = finished()["challenges"]
    assert isinstance(challenges, list)
    (challenge,) = challenges
    assert challenge["ruling"] == "I"
    assert challenge["rulings"] == [
        {"ruling": "I", "by": "monitor", "asked_by": None},
        {"ruling": "C", "by": "game-leader", "asked_by": "B"},
        {"ruling": "I", "by": "tournament-director", "asked_by": "A"},
    ]
    assert challenge["of_declared_win"] is True
    assert challenge["final"] is True


def test_the_record_counts_each_players_challenges_and_opinions() -> None:
    players = finished()["players"]
    assert isinstance(players, dict)
    assert players["B"]["challenges"] == {"made": [1], "C": 0, "I": 1, "IA": 0, "not_in_force": 0}
    assert players["B"]["i_ia"] == 1
    assert players["B"]["warning"] == "1 I/IA so far: 2 more end the game as a loss"
    assert players["A"]["opinions_asked"] == [{"challenge": 1, "of": "tournament-director"}]


def test_an_unconfirmed_result_is_shown_as_not_confirmed() -> None:
    state = game_of(
        Game.CONTIG_60, DieToss(1, 2), *FIVE, ContigPlay(1), DeclareWin(A, "five-in-a-row")
    )
    data = record(state)
    assert data["result"] == {
        "winner": "A",
        "how": "goal",
        "detail": "A reached the goal of Contig 60",
        "confirmed": False,
    }


def test_a_game_not_begun_has_an_empty_record() -> None:
    data = record(new_game(Game.JUGGLE))
    assert (data["phase"], data["result"], data["scores"], data["challenges"]) == (
        "begin",
        None,
        None,
        [],
    )
