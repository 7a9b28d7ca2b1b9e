"""Game 3, Dashing States (Level 3): three races at most, no Power card for race 3."""

from __future__ import annotations

import pytest

from rules.actions import Action
from rules.atlas import Category
from rules.errors import IllegalAction, InvalidInput
from rules.geoplunge.games.common import DeclarePlunge, GameContext, GameRules
from rules.geoplunge.games.dashing_states import DashingCategory, DashingRace, DashingState
from rules.geoplunge.games.level3.dashing_states import DashingStatesLevel3, sorting_race
from rules.geoplunge.teams import Team

A, B = Team.A, Team.B
RULES = DashingStatesLevel3()
BY_NAME = ("AL", "CO", "IA", "MT", "OR", "WY")  # Alabama ... Wyoming
BY_CAPITAL = ("NY", "GA", "ND", "MA", "SC", "NH")  # Albany, Atlanta, Bismarck, Boston, ...
BY_NAME_AGAIN = ("DE", "KY", "LA", "NM", "TN", "VT")  # Delaware ... Vermont
BY_STATEHOOD = ("AK", "HI", "AZ", "NM", "OK", "UT")  # 49, 50, 48, ...: not by name

_protocol_check: GameRules[DashingState] = RULES  # mypy: a GameRules


def play(*actions: Action) -> DashingState:
    state: DashingState = RULES.start(GameContext(level=3))
    for action in actions:
        state = RULES.apply(state, action)
    return state


def won_by(team: Team, cards: tuple[str, ...] | None = None) -> DashingRace:
    if team is A:
        return DashingRace(frozenset({A}), a_met=True, a_cards=cards)
    return DashingRace(frozenset({B}), b_met=True, b_cards=cards)


NOBODY_PLUNGES = DeclarePlunge(frozenset())


def test_dashing_states_level_3_is_game_3() -> None:
    assert (RULES.number, RULES.key, RULES.title) == (3, "dashing", "Dashing States")


def test_level_3_rules_refuse_a_level_4_start() -> None:
    with pytest.raises(InvalidInput, match="expected level 3"):
        RULES.start(GameContext(level=4))


def test_race_1_sorts_by_state_name_and_race_2_by_capital() -> None:
    state = play(NOBODY_PLUNGES)
    assert state.sort_by == "state name, A to Z"
    state = RULES.apply(state, won_by(A, BY_NAME))
    assert state.sort_by == "capital, A to Z"
    assert RULES.apply(state, won_by(B, BY_CAPITAL)).result is None


def test_race_3_needs_no_power_card() -> None:
    state = play(NOBODY_PLUNGES, won_by(A), won_by(B))
    assert (state.race_number, state.phase) == (3, "race")


def test_race_3_sorts_by_state_name_like_race_1() -> None:
    state = play(NOBODY_PLUNGES, won_by(A), won_by(B))
    assert state.sort_by == "state name, A to Z"
    assert sorting_race(3) == 1
    state = RULES.apply(state, won_by(A, BY_NAME_AGAIN))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_race_3_cards_sorted_by_a_category_are_refused_as_met() -> None:
    state = play(NOBODY_PLUNGES, won_by(A), won_by(B))
    with pytest.raises(InvalidInput, match="sorting by state name"):
        RULES.apply(state, won_by(A, BY_STATEHOOD))


def test_a_power_card_category_is_refused_at_level_3() -> None:
    state = play(NOBODY_PLUNGES, won_by(A), won_by(B))
    with pytest.raises(IllegalAction, match="turns no Power card"):
        RULES.apply(state, DashingCategory(Category.STATEHOOD))


def test_a_team_winning_the_first_two_races_wins_with_the_bonus() -> None:
    state = play(NOBODY_PLUNGES, won_by(B), won_by(B))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_two_tied_races_tie_the_game() -> None:
    tie = DashingRace(frozenset({A, B}), a_met=True, b_met=True)
    state = play(NOBODY_PLUNGES, tie, tie)
    assert state.result is not None and state.result.winner is None


def test_cards_used_in_a_race_are_not_used_in_a_later_race() -> None:
    state = play(NOBODY_PLUNGES, won_by(A, BY_NAME), won_by(B))
    with pytest.raises(IllegalAction, match="earlier race"):
        RULES.apply(state, won_by(A, BY_NAME))
