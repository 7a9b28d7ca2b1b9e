"""Game 3, Dashing States: the tests read as the rulebook's rules, in order."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Action, decode, encode
from rules.atlas import Category, default_atlas
from rules.errors import GameOver, IllegalAction, InvalidInput, RuleError
from rules.geoplunge.games.common import DeclarePlunge, GameContext, GameRules
from rules.geoplunge.games.dashing_states import (
    DashingCategory,
    DashingRace,
    DashingState,
    DashingStates,
    first_out_of_order,
    race_order_valid,
    race_winner,
)
from rules.geoplunge.games.state_iq import StateIQPower
from rules.geoplunge.teams import Team
from tests.docs_examples import documented_game
from tests.soak import sized

A, B = Team.A, Team.B
BOTH = frozenset({A, B})
RULES = DashingStates()

# Six cards in each race's order, no card in two lists.
BY_NAME = ("AL", "CO", "IA", "MT", "OR", "WY")  # Alabama ... Wyoming
BY_CAPITAL = ("NY", "GA", "ND", "MA", "SC", "NH")  # Albany, Atlanta, Bismarck, Boston, ...
BY_STATEHOOD = ("DE", "PA", "NJ", "CT", "MD", "VA")  # 1, 2, 3, 5, 7, 10


def play(*actions: Action, state: DashingState | None = None) -> DashingState:
    state = state if state is not None else RULES.start(GameContext())
    for action in actions:
        state = RULES.apply(state, action)
    return state


def won_by(team: Team) -> DashingRace:
    """A race the first shouter ``team`` wins by meeting all three conditions."""
    if team is A:
        return DashingRace(frozenset({A}), a_met=True)
    return DashingRace(frozenset({B}), b_met=True)


TIED = DashingRace(BOTH, a_met=False, b_met=False)


def racing(*races: DashingRace) -> DashingState:
    state = play(DeclarePlunge(frozenset()))
    for race in races:
        if state.phase == "category":
            state = RULES.apply(state, DashingCategory(Category.STATEHOOD))
        state = RULES.apply(state, race)
    return state


# Step 1: GeoPlunging before the first race


def test_plunge_comes_before_the_first_race() -> None:
    state = RULES.start(GameContext())
    assert state.phase == "plunge"
    with pytest.raises(IllegalAction, match="phase 'plunge'"):
        RULES.apply(state, won_by(A))


def test_plunge_is_asked_once() -> None:
    state = play(DeclarePlunge(frozenset({B})))
    assert state.plunging == frozenset({B})
    with pytest.raises(IllegalAction, match="phase 'race'"):
        RULES.apply(state, DeclarePlunge(frozenset({A})))


def test_only_level_4_is_played() -> None:
    with pytest.raises(InvalidInput, match="expected level 4"):
        RULES.start(GameContext(level=2))


# The objective: how each race sorts


def test_race_1_sorts_alphabetically_by_state_name() -> None:
    assert race_order_valid(1, BY_NAME)
    assert not race_order_valid(1, ("Iowa", "Colorado"))


def test_race_1_sorts_new_york_after_new_mexico() -> None:
    assert race_order_valid(1, ("Nevada", "New Hampshire", "New Mexico", "New York", "NC"))


def test_race_2_sorts_alphabetically_by_capital() -> None:
    assert race_order_valid(2, BY_CAPITAL)
    assert not race_order_valid(2, BY_NAME)  # Montgomery, Denver, ...


def test_st_paul_may_sort_as_printed_or_as_saint_paul() -> None:
    assert race_order_valid(2, ("CA", "OR", "IL", "MN", "FL"))  # ... Springfield, St. Paul
    assert race_order_valid(2, ("CA", "MN", "OR", "UT", "NM"))  # Sacramento, Saint Paul, ...
    assert not race_order_valid(2, ("IL", "MN", "OR"))  # Springfield, St. Paul, Salem


def test_race_3_sorts_by_the_power_card_category_rank_1_first_or_rank_50_first() -> None:
    assert race_order_valid(3, BY_STATEHOOD, Category.STATEHOOD)
    assert race_order_valid(3, tuple(reversed(BY_STATEHOOD)), Category.STATEHOOD)
    assert race_order_valid(3, ("AK", "TX", "CA"), Category.SIZE)
    assert race_order_valid(3, ("CA", "TX", "AK"), Category.SIZE)


def test_race_3_cards_that_change_direction_are_out_of_order() -> None:
    assert not race_order_valid(3, ("AK", "CA", "TX"), Category.SIZE)  # 1, 3, 2
    assert race_order_valid(3, ("CA", "TX", "FL"), Category.POPULATION)


def test_race_3_order_needs_a_category() -> None:
    with pytest.raises(InvalidInput, match="expected a category"):
        race_order_valid(3, BY_STATEHOOD)


def test_races_1_and_2_take_no_category() -> None:
    with pytest.raises(InvalidInput, match="race 2 sorts alphabetically"):
        race_order_valid(2, BY_CAPITAL, Category.SIZE)


def test_first_out_of_order_names_the_pair() -> None:
    assert first_out_of_order(1, ("AL", "IA", "CO", "WY")) == ("IA", "CO")
    assert first_out_of_order(1, BY_NAME) is None


def test_there_are_only_three_races() -> None:
    with pytest.raises(InvalidInput, match="expected race 1, 2 or 3"):
        race_order_valid(4, BY_NAME)


# Determining who wins a race


def test_first_shouter_meeting_all_three_conditions_wins_the_race() -> None:
    assert race_winner(frozenset({A}), met=frozenset({A})) is A


def test_first_shouter_failing_a_condition_gives_the_race_to_the_other_team() -> None:
    assert race_winner(frozenset({B}), met=frozenset()) is A


@pytest.mark.parametrize(
    ("met", "winner"),
    [(frozenset(), None), (BOTH, None), (frozenset({A}), A), (frozenset({B}), B)],
)
def test_simultaneous_shouts_tie_unless_exactly_one_team_met_them(
    met: frozenset[Team], winner: Team | None
) -> None:
    assert race_winner(BOTH, met) is winner


def test_a_race_is_recorded_for_its_winner() -> None:
    state = racing(DashingRace(frozenset({A}), a_met=False))
    assert state.races == (B,)
    assert state.wins(B) == 1
    assert state.race_number == 2


def test_a_race_needs_a_shouter() -> None:
    with pytest.raises(InvalidInput, match="no team shouted"):
        racing(DashingRace(frozenset()))


def test_every_shouting_team_needs_a_verdict() -> None:
    with pytest.raises(InvalidInput, match="Team B shouted: expected a verdict b_met"):
        racing(DashingRace(BOTH, a_met=True))


def test_a_team_that_did_not_shout_gets_no_verdict() -> None:
    with pytest.raises(InvalidInput, match="Team B did not shout: expected no b_met"):
        racing(DashingRace(frozenset({A}), a_met=True, b_met=True))


# The Map cards, when the dealer enters them


def test_cards_in_order_with_a_met_verdict_win_the_race() -> None:
    state = racing(DashingRace(frozenset({A}), a_met=True, a_cards=BY_NAME))
    assert state.races == (A,)
    assert state.used_cards == set(BY_NAME)


def test_out_of_order_cards_contradict_a_met_verdict() -> None:
    shuffled = ("CO", "AL", "IA", "MT", "OR", "WY")
    with pytest.raises(InvalidInput, match=r"out of order \(CO before AL.*expected a_met false"):
        racing(DashingRace(frozenset({A}), a_met=True, a_cards=shuffled))


def test_out_of_order_cards_with_a_failed_verdict_lose_the_race() -> None:
    shuffled = ("CO", "AL", "IA", "MT", "OR", "WY")
    state = racing(DashingRace(frozenset({A}), a_met=False, a_cards=shuffled))
    assert state.races == (B,)


def test_cards_in_order_may_still_fail_another_condition() -> None:
    state = racing(DashingRace(frozenset({B}), b_met=False, b_cards=BY_NAME))
    assert state.races == (A,)


def test_a_team_lays_down_six_cards() -> None:
    with pytest.raises(InvalidInput, match="laid down 5 cards: expected 6"):
        racing(DashingRace(frozenset({A}), a_met=True, a_cards=BY_NAME[:5]))


def test_a_card_laid_down_twice_is_refused() -> None:
    with pytest.raises(InvalidInput, match="card AL is used more than once"):
        racing(DashingRace(frozenset({A}), a_met=False, a_cards=("AL", *BY_NAME[:5])))


def test_unknown_card_is_refused() -> None:
    with pytest.raises(InvalidInput, match="unknown state 'Kansass'"):
        racing(DashingRace(frozenset({A}), a_met=False, a_cards=("Kansass", *BY_NAME[1:])))


def test_cards_used_in_a_race_cannot_be_used_in_a_later_race() -> None:
    first = DashingRace(frozenset({A}), a_met=True, a_cards=BY_NAME)
    again = DashingRace(frozenset({B}), b_met=False, b_cards=("AL", *BY_CAPITAL[1:]))
    with pytest.raises(IllegalAction, match="Team B used AL in an earlier race"):
        racing(first, again)


def test_both_teams_cannot_lay_down_the_same_card() -> None:
    race = DashingRace(BOTH, a_met=False, b_met=False, a_cards=BY_NAME, b_cards=BY_NAME)
    with pytest.raises(InvalidInput, match="both teams laid down AL"):
        racing(race)


def test_cards_are_only_checked_for_a_shouting_team() -> None:
    race = DashingRace(frozenset({A}), a_met=True, b_cards=BY_NAME)
    with pytest.raises(InvalidInput, match="cards given for Team B"):
        racing(race)


def test_race_2_checks_cards_by_capital() -> None:
    first = DashingRace(frozenset({A}), a_met=True, a_cards=BY_NAME)
    state = racing(first, DashingRace(frozenset({B}), b_met=True, b_cards=BY_CAPITAL))
    assert state.races == (A, B)


def test_race_3_checks_cards_by_the_power_card_category() -> None:
    state = racing(won_by(A), won_by(B))
    state = RULES.apply(state, DashingCategory(Category.STATEHOOD))
    state = RULES.apply(state, DashingRace(frozenset({A}), a_met=True, a_cards=BY_STATEHOOD))
    assert state.races == (A, B, A)


# Race 3's Power card


def test_race_3_needs_the_power_card_category_first() -> None:
    state = racing(won_by(A), won_by(B))
    assert state.phase == "category"
    assert state.sort_by is None
    with pytest.raises(IllegalAction, match="phase 'category'"):
        RULES.apply(state, won_by(A))


def test_the_power_card_is_only_turned_for_race_3() -> None:
    with pytest.raises(IllegalAction, match="phase 'race'"):
        RULES.apply(racing(), DashingCategory(Category.SIZE))


def test_the_display_shows_what_each_race_sorts_by() -> None:
    assert racing().sort_by == "state name, A to Z"
    assert racing(won_by(A)).sort_by == "capital, A to Z"
    state = RULES.apply(racing(won_by(A), won_by(B)), DashingCategory(Category.POPULATION))
    assert state.sort_by == "population ranking, 1 first"
    assert state.race_number == 3


# Determining who wins this game and the Bonus Points


def test_winning_the_first_two_races_wins_with_the_bonus() -> None:
    state = racing(won_by(B), won_by(B))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)
    assert state.phase == "over"
    assert state.race_number == 2


def test_two_tied_races_tie_the_game() -> None:
    state = racing(TIED, TIED)
    assert state.result is not None
    assert state.result.winner is None


def test_a_win_and_a_tie_go_to_a_third_race() -> None:
    state = racing(won_by(A), TIED)
    assert state.result is None
    assert state.phase == "category"


def test_two_of_three_races_win_without_the_bonus() -> None:
    state = racing(won_by(A), won_by(B), won_by(A))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_no_team_with_two_of_three_races_ties_the_game() -> None:
    state = racing(won_by(A), TIED, won_by(B))
    assert state.result is not None
    assert state.result.winner is None


# The machine's contract


def test_actions_after_the_result_raise_game_over() -> None:
    with pytest.raises(GameOver):
        RULES.apply(racing(won_by(A), won_by(A)), won_by(B))


def test_other_games_actions_are_refused() -> None:
    with pytest.raises(IllegalAction, match=r"'state_iq\.power' is not a Dashing States"):
        RULES.apply(racing(), StateIQPower("ABC"))


def test_apply_returns_a_new_state_and_keeps_the_old_one() -> None:
    before = racing()
    after = RULES.apply(before, won_by(A))
    assert before.races == ()
    assert after.races == (A,)


def test_rules_follow_the_game_protocol() -> None:
    rules: GameRules[DashingState] = DashingStates(default_atlas())
    assert (rules.number, rules.key, rules.title) == (3, "dashing", "Dashing States")


@pytest.mark.parametrize(
    "action",
    [
        DashingCategory(Category.SIZE),
        DashingRace(frozenset({A}), a_met=True),
        DashingRace(BOTH, a_met=False, b_met=True, a_cards=BY_NAME, b_cards=BY_CAPITAL),
    ],
)
def test_actions_round_trip_through_the_log(action: Action) -> None:
    assert decode(json.loads(json.dumps(encode(action)))) == action


def test_documented_example_game_replays_to_its_result() -> None:
    state = play(*documented_game("dashing."))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


# Random action streams: junk mixed with actions that fit the phase, so streams reach the end

cards = st.sampled_from([*default_atlas().codes, "Kansass"])
teams = st.sampled_from(Team)
verdicts = st.none() | st.booleans()
laid = st.none() | st.lists(cards, min_size=5, max_size=7).map(tuple)
plunges = st.builds(DeclarePlunge, plunging=st.frozensets(teams))
categories = st.builds(DashingCategory, category=st.sampled_from(Category))
any_action = st.one_of(
    plunges,
    categories,
    st.builds(
        DashingRace,
        shouters=st.frozensets(teams),
        a_met=verdicts,
        b_met=verdicts,
        a_cards=laid,
        b_cards=laid,
    ),
)
judged_races = st.one_of(
    st.builds(lambda met: DashingRace(frozenset({A}), a_met=met), st.booleans()),
    st.builds(lambda met: DashingRace(frozenset({B}), b_met=met), st.booleans()),
    st.builds(lambda a, b: DashingRace(BOTH, a_met=a, b_met=b), st.booleans(), st.booleans()),
)


def fitting(state: DashingState) -> st.SearchStrategy[Action]:
    if state.phase == "plunge":
        return plunges
    if state.phase == "category":
        return categories
    return judged_races


@settings(max_examples=sized(ci=50, soak=200))
@given(st.data())
def test_random_action_streams_only_raise_rule_errors(data: st.DataObject) -> None:
    state = RULES.start(GameContext())
    for _ in range(data.draw(st.integers(0, 30))):
        action = data.draw(st.one_of(any_action, fitting(state), fitting(state)))  # 2:1 fitting
        try:
            state = RULES.apply(state, action)
        except RuleError:
            continue
        assert state.phase in {"plunge", "race", "category", "over"}
        assert len(state.races) <= 3
        assert (state.phase == "over") == (state.result is not None)
