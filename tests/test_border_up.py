"""Game 1, Border-Up (Level 4): winning groups, the solver and who wins the race."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import decode, encode
from rules.atlas import default_atlas
from rules.errors import GameOver, IllegalAction, InvalidInput, UnknownState
from rules.geoplunge.games.border_up import (
    BorderUpRules,
    BorderUpState,
    Shout,
    Show,
    Verdict,
    check_showing,
    require_well_formed,
    solve,
)
from rules.geoplunge.games.common import DeclarePlunge, GameContext
from rules.geoplunge.teams import Team

RULES = BorderUpRules()
CODES = default_atlas().codes
FIVE_AND_THREE = (("KS", "MO", "KY", "WV", "PA"), ("MD", "VA", "NC"))
FOUR_AND_FOUR = (("WA", "ID", "MT", "ND"), ("ME", "NH", "VT", "NY"))
EXTRA_THREE = ("GA", "AL", "MS")
NOBODY: frozenset[Team] = frozenset()


def _racing() -> BorderUpState:
    return RULES.apply(RULES.start(GameContext()), DeclarePlunge(NOBODY))


def _after_shout(*shouters: Team, three_o: frozenset[Team] = NOBODY) -> BorderUpState:
    return RULES.apply(_racing(), Shout(frozenset(shouters), three_o))


# Worked examples and non-examples from the rulebook


def test_rulebook_example_groups_of_5_and_3_are_winning() -> None:
    assert check_showing(FIVE_AND_THREE, three_o=False).valid


def test_rulebook_non_example_kansas_iowa_missouri_arkansas_needs_missouri_twice() -> None:
    for order in [("KS", "IA", "MO", "AR"), ("IA", "MO", "KS", "AR"), ("KS", "MO", "IA", "AR")]:
        assert not check_showing((order, ("WA", "ID", "MT", "ND")), three_o=False).valid


def test_rulebook_non_example_texas_borders_none_of_colorado_nebraska_kansas() -> None:
    check = check_showing((("CO", "NE", "KS", "TX"), ("WA", "ID", "MT", "ND")), three_o=False)
    assert not check.valid
    assert check.broken_pairs == (("KS", "TX"),)


# What a winning showing is


def test_two_groups_of_four_are_a_geoplunge() -> None:
    assert check_showing(FOUR_AND_FOUR, three_o=False).valid


def test_groups_may_be_shown_smaller_first() -> None:
    assert check_showing(tuple(reversed(FIVE_AND_THREE)), three_o=False).valid


def test_a_group_must_be_in_chain_order_as_shown() -> None:
    shuffled = (("KS", "KY", "MO", "WV", "PA"), ("MD", "VA", "NC"))
    check = check_showing(shuffled, three_o=False)
    assert not check.valid
    assert ("KS", "KY") in check.broken_pairs


def test_non_adjacent_states_of_a_chain_may_also_border() -> None:
    # Ruling: only consecutive states must border (docs/rulings.md).
    assert check_showing((("NY", "PA", "NJ", "DE"), ("WA", "ID", "MT", "ND")), False).valid


def test_four_and_three_is_not_a_geoplunge() -> None:
    assert not check_showing((FOUR_AND_FOUR[0], ("MD", "VA", "NC")), three_o=False).valid


def test_threeoplunge_adds_a_third_group_of_three() -> None:
    assert check_showing((*FIVE_AND_THREE, EXTRA_THREE), three_o=True).valid


def test_threeoplunge_third_group_must_be_three_cards() -> None:
    showing = (*FIVE_AND_THREE, ("GA", "AL", "MS", "TN"))
    assert not check_showing(showing, three_o=True).valid


def test_a_card_cannot_be_used_in_two_groups() -> None:
    check = check_showing((("KS", "MO", "KY", "WV", "PA"), ("PA", "MD", "VA")), three_o=False)
    assert not check.valid
    assert any("PA" in problem for problem in check.problems)


def test_cards_must_come_from_the_hand_when_one_is_given() -> None:
    hand = ("KS", "MO", "KY", "WV", "PA", "MD", "VA")
    check = check_showing(FIVE_AND_THREE, three_o=False, hand=hand)
    assert not check.valid
    assert "not in the team's hand: NC" in check.problems


def test_an_unknown_state_is_bad_input_not_a_bad_showing() -> None:
    with pytest.raises(UnknownState):
        check_showing((("KS", "XX", "KY", "WV"), ("MD", "VA", "NC", "SC")), three_o=False)


def test_judge_cli_refuses_wrong_group_sizes_as_bad_input() -> None:
    with pytest.raises(InvalidInput, match=r"group sizes 4\+3"):
        require_well_formed((FOUR_AND_FOUR[0], ("MD", "VA", "NC")), three_o=False)


def test_judge_cli_refuses_a_repeated_card_as_bad_input() -> None:
    with pytest.raises(InvalidInput, match="PA is used more than once"):
        require_well_formed((("KS", "MO", "KY", "WV", "PA"), ("PA", "MD", "VA")), False)


# The solver


def test_solver_finds_the_rulebook_showing_in_a_hand() -> None:
    hand = ("NC", "PA", "AK", "VA", "HI", "KY", "MD", "ME", "WV", "MO", "KS")
    showing = solve(hand)
    assert showing is not None
    assert check_showing(showing, three_o=False, hand=hand).valid


def test_solver_says_none_when_no_geoplunge_exists() -> None:
    assert solve(("AK", "HI", "ME", "FL", "WA", "CA", "TX", "KS", "NY")) is None


def test_solver_finds_a_threeoplunge_when_asked() -> None:
    hand = (*(c for g in FIVE_AND_THREE for c in g), *EXTRA_THREE, "AK", "HI")
    showing = solve(hand, three_o=True)
    assert showing is not None and len(showing) == 3
    assert check_showing(showing, three_o=True, hand=hand).valid


def test_solver_says_none_for_threeoplunge_when_only_a_geoplunge_exists() -> None:
    hand = (*(c for g in FIVE_AND_THREE for c in g), "AK", "HI")
    assert solve(hand) is not None
    assert solve(hand, three_o=True) is None


def test_solver_refuses_a_hand_with_a_repeated_card() -> None:
    with pytest.raises(InvalidInput):
        solve(("KS", "KS", "MO"))


@settings(max_examples=150, deadline=None)
@given(
    hand=st.lists(st.sampled_from(CODES), min_size=21, max_size=21, unique=True),
    three=st.booleans(),
)
def test_every_solver_showing_validates(hand: list[str], three: bool) -> None:
    showing = solve(hand, three_o=three)
    if showing is not None:
        assert check_showing(showing, three_o=three, hand=hand).valid


# Who wins


def test_plunges_are_declared_before_the_race() -> None:
    with pytest.raises(IllegalAction):
        RULES.apply(RULES.start(GameContext()), Shout(frozenset({Team.A})))


def test_first_shouter_with_valid_groups_wins_without_bonus() -> None:
    state = RULES.apply(_after_shout(Team.A), Show(Team.A, FIVE_AND_THREE))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (Team.A, False)


def test_first_shouter_of_a_valid_threeoplunge_wins_with_bonus() -> None:
    state = _after_shout(Team.B, three_o=frozenset({Team.B}))
    state = RULES.apply(state, Show(Team.B, (*FIVE_AND_THREE, EXTRA_THREE)))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (Team.B, True)


def test_threeoplunge_shouter_showing_only_two_groups_loses() -> None:
    state = _after_shout(Team.B, three_o=frozenset({Team.B}))
    state = RULES.apply(state, Show(Team.B, FIVE_AND_THREE))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (Team.A, True)


def test_first_shouter_with_invalid_groups_gives_the_other_team_win_and_bonus() -> None:
    state = RULES.apply(_after_shout(Team.A), Verdict(Team.A, valid=False))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (Team.B, True)


def test_simultaneous_shouts_both_valid_is_a_tie() -> None:
    state = _after_shout(Team.A, Team.B)
    state = RULES.apply(state, Verdict(Team.A, valid=True))
    assert state.result is None
    state = RULES.apply(state, Verdict(Team.B, valid=True))
    assert state.result is not None and state.result.winner is None


def test_simultaneous_shouts_neither_valid_is_a_tie() -> None:
    state = _after_shout(Team.A, Team.B)
    state = RULES.apply(state, Verdict(Team.B, valid=False))
    state = RULES.apply(state, Verdict(Team.A, valid=False))
    assert state.result is not None and state.result.winner is None


def test_simultaneous_shouts_only_one_valid_wins_with_bonus() -> None:
    state = _after_shout(Team.A, Team.B)
    state = RULES.apply(state, Show(Team.A, (("KS", "TX", "KY", "WV", "PA"), ("MD", "VA", "NC"))))
    state = RULES.apply(state, Show(Team.B, FOUR_AND_FOUR))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (Team.B, True)


def test_only_a_shouting_team_shows() -> None:
    with pytest.raises(IllegalAction, match="no showing"):
        RULES.apply(_after_shout(Team.A), Verdict(Team.B, valid=True))


def test_a_team_is_judged_once() -> None:
    state = RULES.apply(_after_shout(Team.A, Team.B), Verdict(Team.A, valid=True))
    with pytest.raises(IllegalAction):
        RULES.apply(state, Verdict(Team.A, valid=False))


def test_a_finished_game_accepts_no_action() -> None:
    state = RULES.apply(_after_shout(Team.A), Verdict(Team.A, valid=True))
    with pytest.raises(GameOver):
        RULES.apply(state, Verdict(Team.B, valid=True))


def test_a_shout_names_at_least_one_team() -> None:
    with pytest.raises(InvalidInput):
        RULES.apply(_racing(), Shout(NOBODY))


def test_a_shown_hand_must_be_21_cards() -> None:
    with pytest.raises(InvalidInput, match="21"):
        RULES.apply(_after_shout(Team.A), Show(Team.A, FIVE_AND_THREE, hand=("KS", "MO")))


def test_problems_with_a_showing_are_kept_for_the_dealer() -> None:
    bad = (("KS", "TX", "KY", "WV", "PA"), ("MD", "VA", "NC"))
    state = RULES.apply(_after_shout(Team.A), Show(Team.A, bad))
    assert "A: KS does not border TX in group KS-TX-KY-WV-PA" in state.problems


def test_actions_round_trip_through_their_log_form() -> None:
    actions = [
        Shout(frozenset({Team.A, Team.B}), frozenset({Team.A})),
        Show(Team.A, FIVE_AND_THREE, hand=tuple(CODES[:21])),
        Verdict(Team.B, valid=False),
    ]
    for action in actions:
        assert decode(encode(action)) == action


def _both_show(a_groups: list[list[str]], b_groups: list[list[str]]) -> list[str]:
    import json

    return [
        '{"action": "game.start", "game": 1}',
        '{"action": "plunge", "plunging": []}',
        '{"action": "border_up.shout", "shouters": ["A", "B"]}',
        json.dumps({"action": "border_up.show", "team": "A", "groups": a_groups}),
        json.dumps({"action": "border_up.show", "team": "B", "groups": b_groups}),
    ]


def test_both_teams_cannot_show_the_same_card_there_is_one_card_per_state() -> None:
    from rules import families
    from rules.errors import InvalidInput as Invalid

    same = [["KS", "MO", "KY", "WV", "PA"], ["MD", "VA", "NC"]]
    with pytest.raises(Invalid, match="already shown by the other team: there is one card"):
        families.replay_log(_both_show(same, same))


def test_a_showing_of_more_cards_than_a_hand_is_refused_before_it_is_judged() -> None:
    from rules import families
    from rules.errors import InvalidInput as Invalid

    huge = [["KS"] * 5000 for _ in range(20)]
    with pytest.raises(Invalid, match=r"shows 100000 cards .* a Border-Up hand is 21 cards"):
        families.replay_log(_both_show(huge, huge))
