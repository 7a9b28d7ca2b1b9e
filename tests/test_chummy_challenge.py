"""Game 5, Chummy Challenge: the tests read as the rulebook's rules, in order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Action, decode, encode
from rules.errors import GameOver, IllegalAction, InvalidInput, RuleError
from rules.geoplunge.games.chummy_challenge import (
    CHUMMY_ANSWER_SECONDS,
    ChummyAnswer,
    ChummyChallenge,
    ChummyGeoPlungers,
    ChummyQuestion,
    ChummyQuestionRead,
    ChummyShout,
    ChummyState,
    ChummyTimeout,
    challenge_winner,
)
from rules.geoplunge.games.common import DeclarePlunge, GameContext, GameRules
from rules.geoplunge.games.dashing_states import DashingRace
from rules.geoplunge.power import QuestionColour
from rules.geoplunge.teams import Team
from tests.docs_examples import documented_game
from tests.soak import sized

A, B = Team.A, Team.B
BOTH = frozenset({A, B})
BLUE, GREEN, RED = QuestionColour.BLUE, QuestionColour.GREEN, QuestionColour.RED
RULES = ChummyChallenge()
PLAYERS = {A: ("Ann", "Al", "Amy"), B: ("Bea", "Bo", "Bud")}


def play(*actions: Action, state: ChummyState | None = None) -> ChummyState:
    state = state if state is not None else RULES.start(GameContext())
    for action in actions:
        state = RULES.apply(state, action)
    return state


def asking(state: ChummyState | None = None) -> ChummyState:
    """The next challenge with its GeoPlungers seated and the blue question being read."""
    state = state if state is not None else play(DeclarePlunge(frozenset()))
    number = len(state.challenges)
    seated = ChummyGeoPlungers(a=PLAYERS[A][number], b=PLAYERS[B][number])
    return play(seated, ChummyQuestion(frozenset({BLUE, GREEN}), BLUE), state=state)


def won_by(team: Team) -> tuple[Action, ...]:
    answer = ChummyAnswer(a_correct=True) if team is A else ChummyAnswer(b_correct=True)
    return ChummyShout(frozenset({team})), answer


TIED: tuple[Action, ...] = (ChummyQuestionRead(), ChummyTimeout())


def challenges(*outcomes: tuple[Action, ...]) -> ChummyState:
    state = play(DeclarePlunge(frozenset({A})))
    for outcome in outcomes:
        state = play(*outcome, state=asking(state))
    return state


# Step 1: GeoPlunging before the first challenge


def test_plunge_comes_before_the_first_challenge() -> None:
    state = RULES.start(GameContext())
    assert state.phase == "plunge"
    with pytest.raises(IllegalAction, match="phase 'plunge'"):
        RULES.apply(state, ChummyGeoPlungers(a="Ann", b="Bea"))


def test_plunge_is_asked_once() -> None:
    state = play(DeclarePlunge(frozenset({A, B})))
    assert state.plunging == BOTH
    with pytest.raises(IllegalAction, match="phase 'geoplungers'"):
        RULES.apply(state, DeclarePlunge(frozenset()))


def test_only_level_4_is_played() -> None:
    with pytest.raises(InvalidInput, match="expected level 4"):
        RULES.start(GameContext(level=3))


# Step 2A: each team's GeoPlunger


def test_each_team_names_its_geoplunger() -> None:
    state = play(DeclarePlunge(frozenset()), ChummyGeoPlungers(a="  Ann  Lee ", b="seat 2"))
    assert (state.geoplunger(A), state.geoplunger(B)) == ("Ann Lee", "seat 2")
    assert state.phase == "question"


def test_a_team_must_use_a_different_geoplunger_each_challenge() -> None:
    state = challenges(won_by(A))
    with pytest.raises(IllegalAction, match="Team A's GeoPlunger 'ann' played challenge 1"):
        RULES.apply(state, ChummyGeoPlungers(a="ann", b="Bo"))


def test_the_other_team_may_use_a_name_this_team_used() -> None:
    state = challenges(won_by(A))
    state = RULES.apply(state, ChummyGeoPlungers(a="Al", b="Ann"))
    assert state.geoplunger(B) == "Ann"


def test_a_blank_geoplunger_is_refused() -> None:
    with pytest.raises(InvalidInput, match="Team B's GeoPlunger is blank"):
        play(DeclarePlunge(frozenset()), ChummyGeoPlungers(a="Ann", b="  "))


def test_the_geoplungers_are_named_before_the_question() -> None:
    with pytest.raises(IllegalAction, match="phase 'geoplungers'"):
        play(DeclarePlunge(frozenset()), ChummyQuestion(frozenset({BLUE}), BLUE))


# Step 2B: the Power card's circles choose the question


def test_the_question_must_be_a_colour_on_the_power_card() -> None:
    state = play(DeclarePlunge(frozenset()), ChummyGeoPlungers(a="Ann", b="Bea"))
    with pytest.raises(IllegalAction, match="red question is not on the Power card"):
        RULES.apply(state, ChummyQuestion(frozenset({BLUE, GREEN}), RED))


def test_the_dealer_may_ask_either_colour_of_two_circles() -> None:
    state = play(DeclarePlunge(frozenset()), ChummyGeoPlungers(a="Ann", b="Bea"))
    for colour in (BLUE, GREEN):
        asked = RULES.apply(state, ChummyQuestion(frozenset({BLUE, GREEN}), colour))
        assert asked.colour is colour
        assert asked.phase == "reading"


@pytest.mark.parametrize("circles", [frozenset(), frozenset({RED, BLUE, GREEN})])
def test_a_power_card_has_one_or_two_circles(circles: frozenset[QuestionColour]) -> None:
    state = play(DeclarePlunge(frozenset()), ChummyGeoPlungers(a="Ann", b="Bea"))
    with pytest.raises(InvalidInput, match="expected 1 or 2"):
        RULES.apply(state, ChummyQuestion(circles, RED))


# Step 2C: the shout, the answer, the 15 seconds


def test_a_first_shout_stops_the_reading_and_that_team_answers() -> None:
    state = RULES.apply(asking(), ChummyShout(frozenset({B})))
    assert state.phase == "answer"
    assert state.shouters == frozenset({B})


def test_a_shout_may_come_after_the_question_was_read() -> None:
    state = play(ChummyQuestionRead(), ChummyShout(frozenset({A})), state=asking())
    assert state.phase == "answer"


def test_a_correct_answer_wins_the_challenge() -> None:
    assert challenges(won_by(B)).challenges == (B,)


def test_a_wrong_answer_gives_the_challenge_to_the_other_team() -> None:
    state = challenges((ChummyShout(frozenset({A})), ChummyAnswer(a_correct=False)))
    assert state.challenges == (B,)


@pytest.mark.parametrize(
    ("a_correct", "b_correct", "winner"),
    [(True, False, A), (False, True, B), (True, True, None), (False, False, None)],
)
def test_simultaneous_shouts_go_to_the_only_correct_team_else_tie(
    a_correct: bool, b_correct: bool, winner: Team | None
) -> None:
    answer = ChummyAnswer(a_correct=a_correct, b_correct=b_correct)
    assert challenges((ChummyShout(BOTH), answer)).challenges == (winner,)


def test_challenge_winner_of_no_shout_is_a_tie() -> None:
    assert challenge_winner(frozenset(), frozenset()) is None


def test_every_shouting_team_needs_a_verdict() -> None:
    state = RULES.apply(asking(), ChummyShout(BOTH))
    with pytest.raises(InvalidInput, match="Team B shouted: expected a verdict b_correct"):
        RULES.apply(state, ChummyAnswer(a_correct=True))


def test_a_team_that_did_not_shout_gets_no_verdict() -> None:
    state = RULES.apply(asking(), ChummyShout(frozenset({A})))
    with pytest.raises(InvalidInput, match="Team B did not shout: expected no b_correct"):
        RULES.apply(state, ChummyAnswer(a_correct=True, b_correct=False))


def test_a_shout_names_a_team() -> None:
    with pytest.raises(InvalidInput, match="a shout with no team"):
        RULES.apply(asking(), ChummyShout(frozenset()))


def test_no_shout_within_15_seconds_of_the_question_ties_the_challenge() -> None:
    assert CHUMMY_ANSWER_SECONDS == 15
    assert challenges(TIED).challenges == (None,)


def test_the_15_seconds_start_once_the_question_is_read() -> None:
    state = asking()
    assert state.answer_seconds is None
    with pytest.raises(IllegalAction, match="phase 'reading'"):
        RULES.apply(state, ChummyTimeout())
    state = RULES.apply(state, ChummyQuestionRead())
    assert state.phase == "waiting"
    assert state.answer_seconds == CHUMMY_ANSWER_SECONDS


def test_no_timeout_after_a_shout() -> None:
    state = play(ChummyQuestionRead(), ChummyShout(frozenset({A})), state=asking())
    with pytest.raises(IllegalAction, match="phase 'answer'"):
        RULES.apply(state, ChummyTimeout())


def test_a_new_challenge_starts_with_new_geoplungers() -> None:
    state = challenges(won_by(A))
    assert state.phase == "geoplungers"
    assert state.challenge_number == 2
    assert state.geoplunger(A) is None
    assert state.colour is None
    assert state.geoplungers(A) == ("Ann",)


# Determining who wins and the Bonus Points


def test_winning_the_first_two_challenges_wins_with_the_bonus() -> None:
    state = challenges(won_by(A), won_by(A))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)
    assert state.challenge_number == 2


def test_two_tied_challenges_tie_the_game() -> None:
    state = challenges(TIED, TIED)
    assert state.result is not None
    assert state.result.winner is None


def test_a_split_goes_to_a_third_challenge() -> None:
    state = challenges(won_by(A), won_by(B))
    assert state.result is None
    assert state.challenge_number == 3


def test_two_of_three_challenges_win_without_the_bonus() -> None:
    state = challenges(TIED, won_by(B), won_by(B))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)
    assert state.wins(B) == 2


def test_no_team_with_two_of_three_challenges_ties_the_game() -> None:
    state = challenges(won_by(A), TIED, won_by(B))
    assert state.result is not None
    assert state.result.winner is None


# The machine's contract


def test_actions_after_the_result_raise_game_over() -> None:
    state = challenges(won_by(A), won_by(A))
    assert state.phase == "over"
    with pytest.raises(GameOver):
        RULES.apply(state, ChummyGeoPlungers(a="Amy", b="Bud"))


def test_other_games_actions_are_refused() -> None:
    with pytest.raises(IllegalAction, match=r"'dashing\.race' is not a Chummy Challenge"):
        RULES.apply(asking(), DashingRace(frozenset({A}), a_met=True))


def test_apply_returns_a_new_state_and_keeps_the_old_one() -> None:
    before = asking()
    after = RULES.apply(before, ChummyShout(frozenset({A})))
    assert before.shouters is None
    assert after.shouters == frozenset({A})


def test_rules_follow_the_game_protocol() -> None:
    rules: GameRules[ChummyState] = ChummyChallenge()
    assert (rules.number, rules.key, rules.title) == (5, "chummy", "Chummy Challenge")


@pytest.mark.parametrize(
    "action",
    [
        ChummyGeoPlungers(a="Ann", b="seat 2"),
        ChummyQuestion(frozenset({BLUE, GREEN}), GREEN),
        ChummyQuestionRead(),
        ChummyShout(BOTH),
        ChummyAnswer(a_correct=True, b_correct=False),
        ChummyAnswer(b_correct=True),
        ChummyTimeout(),
    ],
)
def test_actions_round_trip_through_the_log(action: Action) -> None:
    assert decode(json.loads(json.dumps(encode(action)))) == action


def test_documented_example_game_replays_to_its_result() -> None:
    state = play(*documented_game("chummy."))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)


# Random action streams: junk mixed with actions that fit the phase, so streams reach the end

names = st.sampled_from(["Ann", "ann ", "Bea", "Bo", "", "seat 1", "seat 2", "seat 3"])
colours = st.sampled_from(QuestionColour)
teams = st.sampled_from(Team)
verdicts = st.none() | st.booleans()
any_action = st.one_of(
    st.builds(DeclarePlunge, plunging=st.frozensets(teams)),
    st.builds(ChummyGeoPlungers, a=names, b=names),
    st.builds(ChummyQuestion, circles=st.frozensets(colours, max_size=3), colour=colours),
    st.just(ChummyQuestionRead()),
    st.builds(ChummyShout, shouters=st.frozensets(teams)),
    st.builds(ChummyAnswer, a_correct=verdicts, b_correct=verdicts),
    st.just(ChummyTimeout()),
)
asked = st.builds(lambda colour: ChummyQuestion(frozenset({colour}), colour), colours)


def fitting(state: ChummyState) -> st.SearchStrategy[Action]:
    if state.phase == "geoplungers":
        return st.just(
            ChummyGeoPlungers(a=f"a{len(state.challenges)}", b=f"b{len(state.challenges)}")
        )
    if state.phase == "question":
        return asked
    if state.phase in {"reading", "waiting"}:
        shout = st.builds(ChummyShout, shouters=st.frozensets(teams, min_size=1))
        return shout | st.just(ChummyQuestionRead()) | st.just(ChummyTimeout())
    if state.phase == "answer" and state.shouters is not None:
        a = st.booleans() if A in state.shouters else st.none()
        b = st.booleans() if B in state.shouters else st.none()
        return st.builds(ChummyAnswer, a_correct=a, b_correct=b)
    return st.builds(DeclarePlunge, plunging=st.frozensets(teams))


@settings(max_examples=sized(ci=50, soak=200))
@given(st.data())
def test_random_action_streams_only_raise_rule_errors(data: st.DataObject) -> None:
    state = RULES.start(GameContext())
    phases = {"plunge", "geoplungers", "question", "reading", "waiting", "answer", "over"}
    for _ in range(data.draw(st.integers(10, 80))):
        action = data.draw(st.one_of(any_action, fitting(state), fitting(state)))  # 2:1 fitting
        try:
            state = RULES.apply(state, action)
        except RuleError:
            continue
        assert state.phase in phases
        assert len(state.challenges) <= 3
        for team in Team:
            lowered = [name.casefold() for name in state.geoplungers(team)]
            assert len(set(lowered)) == len(lowered)
