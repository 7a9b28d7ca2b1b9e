"""Scoring is the same for every game (rulebook: Scoring)."""

from __future__ import annotations

import pytest

from rules.geoplunge.scoring import GameResult, PointTable, score_game
from rules.geoplunge.teams import Team

NOBODY: frozenset[Team] = frozenset()
BOTH = frozenset({Team.A, Team.B})


def test_tie_is_five_points_each() -> None:
    assert score_game(GameResult(None), NOBODY) == {Team.A: 5, Team.B: 5}


def test_tie_is_five_each_whatever_the_plunges() -> None:
    assert score_game(GameResult(None), BOTH) == {Team.A: 5, Team.B: 5}


def test_winner_gets_ten_loser_nothing() -> None:
    assert score_game(GameResult(Team.B), NOBODY) == {Team.A: 0, Team.B: 10}


def test_bonus_adds_ten() -> None:
    assert score_game(GameResult(Team.A, bonus=True), NOBODY)[Team.A] == 20


def test_one_team_plunging_adds_ten_to_the_winner() -> None:
    assert score_game(GameResult(Team.A), frozenset({Team.B}))[Team.A] == 20


def test_both_teams_plunging_adds_twenty_to_the_winner() -> None:
    assert score_game(GameResult(Team.A), BOTH)[Team.A] == 30


def test_rulebook_example_bonus_and_both_plunging_is_forty() -> None:
    assert score_game(GameResult(Team.A, bonus=True), BOTH) == {Team.A: 40, Team.B: 0}


def test_plunging_never_gives_the_loser_points() -> None:
    assert score_game(GameResult(Team.A), frozenset({Team.B}))[Team.B] == 0


def test_a_tie_cannot_carry_a_bonus() -> None:
    with pytest.raises(ValueError, match="tie"):
        GameResult(None, bonus=True)


def test_point_table_is_configurable() -> None:
    table = PointTable(tie=3, win=6, bonus=4, one_plunging=2, both_plunging=5)
    assert score_game(GameResult(Team.A, bonus=True), BOTH, table)[Team.A] == 15
