"""The best-of-three series shared by Dashing States and Chummy Challenge."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import IllegalAction
from rules.geoplunge.games.best_of_three import MAX_ROUNDS, Round, series_result, wins
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

A, B = Team.A, Team.B
rounds = st.sampled_from([A, B, None])


def test_no_round_played_needs_a_round() -> None:
    assert series_result([]) is None


def test_one_round_never_decides() -> None:
    for first in (A, B, None):
        assert series_result([first]) is None


def test_winning_the_first_two_wins_with_the_bonus() -> None:
    result = series_result([B, B], "race")
    assert result == GameResult(B, bonus=True, reason="Team B won the first two races")


def test_two_tied_first_rounds_tie_the_game() -> None:
    result = series_result([None, None], "challenge")
    assert result is not None
    assert result.winner is None
    assert not result.bonus


@pytest.mark.parametrize("first_two", [(A, B), (B, A)])
def test_a_split_of_the_first_two_needs_a_third(first_two: tuple[Team, Team]) -> None:
    assert series_result(first_two) is None


@pytest.mark.parametrize("first_two", [(A, None), (None, A), (B, None), (None, B)])
def test_a_win_and_a_tie_need_a_third(first_two: tuple[Round, Round]) -> None:
    assert series_result(first_two) is None


@pytest.mark.parametrize("three", [(A, B, A), (A, None, A), (None, A, A), (B, A, A)])
def test_two_of_three_wins_without_the_bonus(three: tuple[Round, Round, Round]) -> None:
    assert series_result(three) == GameResult(A, bonus=False, reason="Team A won 2 of 3 rounds")


@pytest.mark.parametrize("three", [(A, B, None), (A, None, B), (A, None, None), (None, B, None)])
def test_no_team_with_two_of_three_is_a_tie(three: tuple[Round, Round, Round]) -> None:
    result = series_result(three)
    assert result is not None
    assert result.winner is None


def test_a_round_after_the_deciding_round_is_refused() -> None:
    with pytest.raises(IllegalAction, match="decided after race 2"):
        series_result([A, A, B], "race")


def test_a_fourth_round_is_refused() -> None:
    with pytest.raises(IllegalAction, match="expected no challenge 4"):
        series_result([A, B, None, A], "challenge")


def test_wins_counts_one_teams_rounds() -> None:
    assert wins([A, None, B, A], A) == 2


@given(st.tuples(rounds, rounds, rounds))
def test_three_rounds_always_decide(three: tuple[Round, Round, Round]) -> None:
    decided_by_two = series_result(three[:2])
    played = three[:2] if decided_by_two is not None else three
    result = series_result(played)
    assert result is not None
    assert len(played) <= MAX_ROUNDS


@given(st.tuples(rounds, rounds, rounds))
def test_the_bonus_only_comes_from_winning_the_first_two(three: tuple[Round, ...]) -> None:
    played = three[:2] if series_result(three[:2]) is not None else three
    result = series_result(played)
    assert result is not None
    assert result.bonus == (three[0] is not None and three[0] is three[1])
