"""Game 5, Chummy Challenge (Level 3): red and blue questions, chosen by the Power card's square."""

from __future__ import annotations

import pytest

from rules.actions import Action, decode, encode
from rules.errors import IllegalAction, InvalidInput
from rules.geoplunge.games.chummy_challenge import (
    ChummyAnswer,
    ChummyGeoPlungers,
    ChummyQuestion,
    ChummyQuestionRead,
    ChummyShout,
    ChummyState,
    ChummyTimeout,
)
from rules.geoplunge.games.common import DeclarePlunge, GameContext, GameRules
from rules.geoplunge.games.level3.chummy_challenge import ChummyChallengeLevel3, SquareQuestion
from rules.geoplunge.power import QuestionColour
from rules.geoplunge.teams import Team

A, B = Team.A, Team.B
RULES = ChummyChallengeLevel3()
RED, BLUE = QuestionColour.RED, QuestionColour.BLUE

_protocol_check: GameRules[ChummyState] = RULES  # mypy: a GameRules


def play(*actions: Action) -> ChummyState:
    state = RULES.start(GameContext(level=3))
    for action in actions:
        state = RULES.apply(state, action)
    return state


def asking(square: QuestionColour = RED) -> ChummyState:
    return play(DeclarePlunge(frozenset()), ChummyGeoPlungers("Ann", "Bo"), SquareQuestion(square))


def test_chummy_challenge_level_3_is_game_5() -> None:
    assert (RULES.number, RULES.key, RULES.title) == (5, "chummy", "Chummy Challenge")


def test_level_3_rules_refuse_a_level_4_start() -> None:
    with pytest.raises(InvalidInput, match="expected level 3"):
        RULES.start(GameContext(level=4))


def test_rulebook_example_a_red_square_asks_the_red_question() -> None:
    state = asking(RED)
    assert (state.colour, state.phase) == (RED, "reading")


def test_a_blue_square_asks_the_blue_question() -> None:
    assert asking(BLUE).colour is BLUE


def test_only_red_and_blue_questions_are_used() -> None:
    with pytest.raises(InvalidInput, match="expected red or blue"):
        asking(QuestionColour.GREEN)


def test_level_4_circles_are_refused_at_level_3() -> None:
    state = play(DeclarePlunge(frozenset()), ChummyGeoPlungers("Ann", "Bo"))
    with pytest.raises(IllegalAction, match=r"expected l3\.chummy\.question"):
        RULES.apply(state, ChummyQuestion(frozenset({RED}), RED))


def test_the_square_is_turned_once_the_geoplungers_are_seated() -> None:
    with pytest.raises(IllegalAction, match="phase 'geoplungers'"):
        play(DeclarePlunge(frozenset()), SquareQuestion(RED))


def test_a_team_winning_the_first_two_challenges_wins_with_the_bonus() -> None:
    state = asking(RED)
    for action in (
        ChummyShout(frozenset({A})),
        ChummyAnswer(a_correct=True),
        ChummyGeoPlungers("Al", "Bea"),
        SquareQuestion(BLUE),
        ChummyQuestionRead(),
        ChummyShout(frozenset({A})),
        ChummyAnswer(a_correct=True),
    ):
        state = RULES.apply(state, action)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)


def test_no_shout_within_15_seconds_ties_the_challenge() -> None:
    state = RULES.apply(RULES.apply(asking(), ChummyQuestionRead()), ChummyTimeout())
    assert state.challenges == (None,)
    assert state.answer_seconds is None


def test_a_team_uses_a_different_geoplunger_for_each_challenge() -> None:
    state = RULES.apply(RULES.apply(asking(), ChummyQuestionRead()), ChummyTimeout())
    with pytest.raises(IllegalAction, match="different GeoPlunger"):
        RULES.apply(state, ChummyGeoPlungers("Ann", "Bea"))


def test_the_square_action_round_trips_through_its_log_form() -> None:
    action = SquareQuestion(BLUE)
    assert encode(action) == {"action": "l3.chummy.question", "square": "blue"}
    assert decode(encode(action)) == action
