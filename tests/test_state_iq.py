"""Game 2, State IQ: the tests read as the rulebook's rules, in order."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Action, decode, encode
from rules.atlas import default_atlas
from rules.errors import GameOver, IllegalAction, InvalidInput, RuleError, UnknownState
from rules.geoplunge.games.chummy_challenge import ChummyTimeout
from rules.geoplunge.games.common import (
    DeclarePlunge,
    DrawWinner,
    GameContext,
    GameRules,
    StatehoodDraw,
    draw_result,
)
from rules.geoplunge.games.state_iq import (
    Guess,
    StateIQ,
    StateIQGuess,
    StateIQPower,
    StateIQState,
    second_turn_over,
)
from rules.geoplunge.teams import Team
from tests.docs_examples import documented_game
from tests.soak import sized

A, B = Team.A, Team.B
RULES = StateIQ()


def play(*actions: Action, state: StateIQState | None = None) -> StateIQState:
    state = state if state is not None else RULES.start(GameContext())
    for action in actions:
        state = RULES.apply(state, action)
    return state


def ready(order: str = "BAC", plunging: frozenset[Team] = frozenset()) -> StateIQState:
    """Team A guesses first (Delaware, statehood 1, beats Hawaii, 50)."""
    return play(StatehoodDraw(a="DE", b="HI"), DeclarePlunge(plunging), StateIQPower(order))


def guesses(state: StateIQState, team: Team, *verdicts: bool) -> StateIQState:
    return play(*(StateIQGuess(team, verdict) for verdict in verdicts), state=state)


def first_turn(*verdicts: bool) -> StateIQState:
    return guesses(ready(), A, *verdicts)


# Determining who guesses first


def test_statehood_draw_closer_to_1_guesses_first() -> None:
    state = play(StatehoodDraw(a="Hawaii", b="Delaware"))
    assert state.first_team is B
    assert state.second_team is A


def test_statehood_draw_of_one_card_twice_is_refused() -> None:
    with pytest.raises(InvalidInput, match="both teams drew DE"):
        play(StatehoodDraw(a="DE", b="delaware"))


def test_draw_winner_entered_by_the_dealer_guesses_first() -> None:
    state = play(DrawWinner(first=B))
    assert (state.first_team, state.second_team, state.phase) == (B, A, "plunge")


def test_draw_winner_is_the_same_as_the_cards_it_stands_for() -> None:
    by_cards = play(StatehoodDraw(a="Hawaii", b="Delaware"))
    by_dealer = play(DrawWinner(first=draw_result(StatehoodDraw(a="HI", b="DE"))))
    assert by_dealer == by_cards


def test_draw_winner_only_in_the_draw_phase() -> None:
    with pytest.raises(IllegalAction, match="phase 'plunge'"):
        play(DrawWinner(first=A), DrawWinner(first=B))


def test_game_starts_with_the_statehood_draw() -> None:
    assert RULES.start(GameContext()).phase == "draw"


def test_only_level_4_is_played() -> None:
    with pytest.raises(InvalidInput, match="expected level 4"):
        RULES.start(GameContext(level=3))


# Step 1: each team looks at its card, then the GeoPlunge question


def test_plunge_comes_after_the_draw() -> None:
    with pytest.raises(IllegalAction, match="phase 'draw'"):
        play(DeclarePlunge(frozenset({A})))


def test_plunge_is_asked_once() -> None:
    state = play(StatehoodDraw(a="DE", b="HI"), DeclarePlunge(frozenset({A, B})))
    assert state.plunging == frozenset({A, B})
    assert state.phase == "power"
    with pytest.raises(IllegalAction, match="phase 'power'"):
        RULES.apply(state, DeclarePlunge(frozenset()))


def test_no_team_plunging_is_recorded_as_empty() -> None:
    state = play(StatehoodDraw(a="DE", b="HI"), DeclarePlunge(frozenset()))
    assert state.plunging == frozenset()


# Step 2: the Power card's clue order


def test_power_card_comes_after_the_plunge() -> None:
    state = play(StatehoodDraw(a="DE", b="HI"))
    with pytest.raises(IllegalAction, match="phase 'plunge'"):
        RULES.apply(state, StateIQPower("BAC"))


def test_power_card_order_must_use_a_b_and_c_once_each() -> None:
    state = play(StatehoodDraw(a="DE", b="HI"), DeclarePlunge(frozenset()))
    with pytest.raises(InvalidInput, match="letters A, B and C once each"):
        RULES.apply(state, StateIQPower("ABB"))


def test_bac_example_gives_type_b_then_a_then_c() -> None:
    state = ready("bac")
    seen = []
    for _ in range(3):
        seen.append(state.next_clue_type)
        state = RULES.apply(state, StateIQGuess(A, correct=False))
    assert seen == ["B", "A", "C"]


def test_same_power_card_serves_both_teams() -> None:
    state = first_turn(False, False, False)
    assert state.guessing_team is B
    assert state.next_clue_type == "B"
    assert state.guess_number == 1


# Step 3: the first guessing team's 3 guesses


def test_first_guessing_team_guesses_the_other_teams_card() -> None:
    state = ready()
    assert state.phase == "guessing"
    assert state.guessing_team is A
    assert state.clue_giving_team is B
    assert state.card_number == 1


def test_first_guessing_team_takes_all_three_guesses() -> None:
    state = first_turn(True, True)
    assert state.guessing_team is A
    assert state.guess_number == 3


def test_wrong_team_guessing_is_refused() -> None:
    with pytest.raises(IllegalAction, match="Team B guessed: expected Team A"):
        RULES.apply(ready(), StateIQGuess(B, correct=True))


def test_correct_guess_deals_the_other_team_the_next_card() -> None:
    state = first_turn(True)
    assert state.deal_next_card is B
    assert state.card_number == 2


def test_wrong_guess_keeps_guessing_the_same_card() -> None:
    state = first_turn(False)
    assert state.deal_next_card is None
    assert state.card_number == 1


def test_no_card_is_dealt_after_a_teams_third_guess() -> None:
    state = first_turn(False, False, True)
    assert state.guessing_team is B
    assert state.deal_next_card is None


def test_second_teams_correct_guess_deals_the_first_team_a_card() -> None:
    state = guesses(first_turn(True, True, False), B, True)
    assert state.deal_next_card is A


# Step 4: the second guessing team stops once it has won or lost...


def test_second_team_stops_when_it_cannot_catch_up() -> None:
    state = guesses(first_turn(True, True, False), B, False, False)
    assert state.result is not None
    assert state.result.winner is A
    assert len(state.second_guesses) == 2


def test_second_team_keeps_guessing_while_a_tie_is_reachable() -> None:
    state = guesses(first_turn(True, True, False), B, False)
    assert state.result is None
    assert state.guessing_team is B


def test_second_team_stops_once_it_has_won_with_the_bonus_out_of_reach() -> None:
    state = guesses(first_turn(False, False, False), B, False, True)
    assert state.result is not None
    assert state.result.winner is B
    assert not state.result.bonus
    assert len(state.second_guesses) == 2


def test_second_team_keeps_guessing_while_bonus_reachable() -> None:
    state = guesses(first_turn(False, False, False), B, True)
    assert state.result is None
    assert state.guess_number == 2


def test_second_team_stops_after_its_third_guess() -> None:
    state = guesses(first_turn(True, False, False), B, False, True, False)
    assert state.result is not None
    assert state.result.winner is None


def test_second_team_can_only_tie_three_of_three() -> None:
    state = guesses(first_turn(True, True, True), B, True, True)
    assert state.result is None
    state = guesses(state, B, True)
    assert state.result is not None
    assert state.result.winner is None


def test_stopping_rule_treats_a_reachable_tie_as_undecided() -> None:
    miss = Guess(correct=False)
    assert not second_turn_over(1, (miss, miss))  # a last hit ties 1-1
    assert second_turn_over(2, (miss, miss))  # a last hit cannot reach 2


# Determining who wins and the Bonus Points


def test_more_correct_guesses_wins() -> None:
    state = guesses(first_turn(True, False, True), B, True, False, False)
    assert state.result is not None
    assert state.result.winner is A
    assert not state.result.bonus


def test_three_different_states_earn_the_bonus() -> None:
    state = guesses(first_turn(True, True, True), B, False)
    assert state.result is not None
    assert state.result.winner is A
    assert state.result.bonus


def test_second_team_three_of_three_wins_with_the_bonus() -> None:
    state = guesses(first_turn(True, False, False), B, True, True, True)
    assert state.result is not None
    assert state.result.winner is B
    assert state.result.bonus


def test_equal_correct_guesses_tie() -> None:
    state = guesses(first_turn(True, True, False), B, True, False, True)
    assert state.result is not None
    assert state.result.winner is None
    assert "guessed 2" in state.result.reason


def test_no_correct_guesses_is_a_tie() -> None:
    state = guesses(first_turn(False, False, False), B, False, False, False)
    assert state.result is not None
    assert state.result.winner is None


def test_game_over_shows_no_guessing_team() -> None:
    state = guesses(first_turn(True, True, True), B, False)
    assert state.phase == "over"
    assert state.guessing_team is None
    assert state.next_clue_type is None
    assert state.deal_next_card is None


# The state guessed, when the dealer enters it


def test_guessed_state_is_checked_against_the_atlas() -> None:
    with pytest.raises(UnknownState, match="did you mean Kansas"):
        RULES.apply(ready(), StateIQGuess(A, correct=False, state="Kansass"))


def test_guessed_state_is_recorded_as_its_postal_code() -> None:
    state = RULES.apply(ready(), StateIQGuess(A, correct=True, state="new york"))
    assert state.first_guesses[0].state == "NY"


def test_a_state_guessed_correctly_twice_is_refused() -> None:
    state = RULES.apply(ready(), StateIQGuess(A, correct=True, state="NY"))
    with pytest.raises(InvalidInput, match="NY was already guessed correctly"):
        RULES.apply(state, StateIQGuess(A, correct=True, state="NY"))


def test_a_card_already_identified_cannot_be_in_the_other_hand() -> None:
    state = play(StateIQGuess(A, correct=True, state="NY"), state=ready())
    state = guesses(state, A, False, False)
    with pytest.raises(InvalidInput, match="NY was already guessed correctly"):
        RULES.apply(state, StateIQGuess(B, correct=True, state="NY"))


def test_a_state_missed_on_this_card_cannot_then_be_right() -> None:
    state = RULES.apply(ready(), StateIQGuess(A, correct=False, state="OH"))
    with pytest.raises(InvalidInput, match="OH was already guessed wrong for this card"):
        RULES.apply(state, StateIQGuess(A, correct=True, state="OH"))


def test_a_state_missed_on_an_earlier_card_may_be_right_now() -> None:
    state = play(
        StateIQGuess(A, correct=False, state="OH"),
        StateIQGuess(A, correct=True, state="TX"),
        StateIQGuess(A, correct=True, state="OH"),
        state=ready(),
    )
    assert state.correct(A) == 2


# The machine's contract


def test_actions_after_the_result_raise_game_over() -> None:
    state = guesses(first_turn(True, True, True), B, False)
    with pytest.raises(GameOver):
        RULES.apply(state, StateIQGuess(B, correct=True))


def test_other_games_actions_are_refused() -> None:
    with pytest.raises(IllegalAction, match=r"'chummy\.timeout' is not a State IQ action"):
        RULES.apply(ready(), ChummyTimeout())


def test_guessing_before_the_power_card_is_refused() -> None:
    state = play(StatehoodDraw(a="DE", b="HI"), DeclarePlunge(frozenset()))
    with pytest.raises(IllegalAction, match="belongs to phase 'guessing'"):
        RULES.apply(state, StateIQGuess(A, correct=True))


def test_apply_returns_a_new_state_and_keeps_the_old_one() -> None:
    before = ready()
    after = RULES.apply(before, StateIQGuess(A, correct=True))
    assert before.first_guesses == ()
    assert after.first_guesses != ()
    with pytest.raises(FrozenInstanceError):
        before.result = None  # type: ignore[misc]


def test_rules_follow_the_game_protocol() -> None:
    rules: GameRules[StateIQState] = StateIQ(default_atlas())
    assert (rules.number, rules.key, rules.title) == (2, "state_iq", "State IQ")


@pytest.mark.parametrize(
    "action",
    [
        StatehoodDraw(a="DE", b="HI"),
        DrawWinner(first=B),
        DeclarePlunge(frozenset({B})),
        StateIQPower("CAB"),
        StateIQGuess(A, correct=True, state="NY"),
        StateIQGuess(B, correct=False),
    ],
)
def test_actions_round_trip_through_the_log(action: Action) -> None:
    assert decode(json.loads(json.dumps(encode(action)))) == action


def test_documented_example_game_replays_to_its_result() -> None:
    state = play(*documented_game("state_iq."))
    assert state.result is not None
    assert state.result.winner is B
    assert state.result.bonus


# Random action streams: junk mixed with actions that fit the phase, so streams reach the end

states = st.sampled_from([*default_atlas().codes, "Kansass", ""])
teams = st.sampled_from(Team)
plunges = st.builds(DeclarePlunge, plunging=st.frozensets(teams))
draws = st.builds(StatehoodDraw, a=states, b=states) | st.builds(DrawWinner, first=teams)
any_action = st.one_of(
    draws,
    plunges,
    st.builds(StateIQPower, clue_order=st.sampled_from(["ABC", "BAC", "cab", "AAB", "", "ABCD"])),
    st.builds(StateIQGuess, team=teams, correct=st.booleans(), state=st.none() | states),
)


def fitting(state: StateIQState) -> st.SearchStrategy[Action]:
    if state.phase == "draw":
        return draws
    if state.phase == "plunge":
        return plunges
    if state.phase == "power":
        return st.builds(StateIQPower, clue_order=st.sampled_from(["ABC", "BAC", "CBA"]))
    team = st.just(state.guessing_team) if state.guessing_team else teams
    return st.builds(StateIQGuess, team=team, correct=st.booleans(), state=st.none() | states)


@settings(max_examples=sized(ci=50, soak=200))
@given(st.data())
def test_random_action_streams_only_raise_rule_errors(data: st.DataObject) -> None:
    state = RULES.start(GameContext())
    for _ in range(data.draw(st.integers(0, 40))):
        action = data.draw(st.one_of(any_action, fitting(state), fitting(state)))  # 2:1 fitting
        try:
            state = RULES.apply(state, action)
        except RuleError:
            continue
        assert state.phase in {"draw", "plunge", "power", "guessing", "over"}
        assert (state.phase == "over") == (state.result is not None)


@given(st.lists(st.booleans(), min_size=3, max_size=3), st.lists(st.booleans(), max_size=3))
def test_result_goes_to_the_team_with_more_correct_guesses(
    first: list[bool], second: list[bool]
) -> None:
    state = guesses(ready(), A, *first)
    for verdict in second:
        if state.result is None:
            state = RULES.apply(state, StateIQGuess(B, verdict))
    if state.result is None:
        return  # the second team has guesses left
    a_correct, b_correct = state.correct(A), state.correct(B)
    expected = None if a_correct == b_correct else (A if a_correct > b_correct else B)
    assert state.result.winner is expected
    assert state.result.bonus == (max(a_correct, b_correct) == 3 and expected is not None)
