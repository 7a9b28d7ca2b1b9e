"""Game 1, Border-Up (Level 3): groups of 3 with the bordering state in the middle, 18 cards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.atlas import default_atlas
from rules.errors import GameOver, IllegalAction, InvalidInput, UnknownState
from rules.geoplunge.games.border_up import BorderUpState, Shout, Show, Verdict
from rules.geoplunge.games.common import DeclarePlunge, GameContext, GameRules
from rules.geoplunge.games.level3.border_up import (
    HAND_SIZE,
    BorderUpLevel3,
    check_showing,
    middle_states,
    require_well_formed,
    solve,
    winning_groups,
)
from rules.geoplunge.teams import Team

RULES = BorderUpLevel3()
CODES = default_atlas().codes
A, B = Team.A, Team.B
NOBODY: frozenset[Team] = frozenset()
MD_VA_NC = ("MD", "VA", "NC")  # the rulebook's example: Virginia borders both
TX_OK_KS = ("TX", "OK", "KS")
GA_AL_MS = ("GA", "AL", "MS")
TWO_GROUPS = (MD_VA_NC, TX_OK_KS)
THREE_GROUPS = (*TWO_GROUPS, GA_AL_MS)

_protocol_check: GameRules[BorderUpState] = RULES  # mypy: a GameRules


def _racing() -> BorderUpState:
    return RULES.apply(RULES.start(GameContext(level=3)), DeclarePlunge(NOBODY))


def _after_shout(*shouters: Team, three_o: frozenset[Team] = NOBODY) -> BorderUpState:
    return RULES.apply(_racing(), Shout(frozenset(shouters), three_o))


# The rulebook's example


def test_rulebook_example_maryland_virginia_north_carolina_is_a_group() -> None:
    assert check_showing(TWO_GROUPS, three_o=False).valid


def test_rulebook_example_virginia_is_the_state_bordering_both() -> None:
    assert middle_states(MD_VA_NC) == ("VA",)


# What a properly sorted group is


def test_the_bordering_state_must_be_in_the_middle() -> None:
    check = check_showing((("MD", "NC", "VA"), TX_OK_KS), three_o=False)
    assert not check.valid
    assert "expected VA (it borders both others) in the middle" in check.problems[0]


def test_either_end_may_come_first() -> None:
    assert check_showing((("NC", "VA", "MD"), ("KS", "OK", "TX")), three_o=False).valid


def test_any_order_when_all_three_border_each_other() -> None:
    for order in [("MD", "VA", "WV"), ("VA", "MD", "WV"), ("MD", "WV", "VA")]:
        assert check_showing((order, TX_OK_KS), three_o=False).valid


def test_three_states_none_bordering_both_others_are_not_a_group() -> None:
    check = check_showing((("MD", "VA", "TX"), ("NC", "OK", "KS")), three_o=False)
    assert not check.valid
    assert any("not a winning group" in problem for problem in check.problems)


# Group sizes and counts


def test_a_geoplunge_is_two_groups_of_three() -> None:
    check = check_showing((("KS", "MO", "KY", "WV"), MD_VA_NC), three_o=False)
    assert not check.valid
    assert "expected 3+3 (GeoPlunge)" in check.problems[0]


def test_a_threeoplunge_is_three_groups_of_three() -> None:
    assert check_showing(THREE_GROUPS, three_o=True).valid


def test_a_threeoplunge_showing_only_two_groups_is_not_valid() -> None:
    assert not check_showing(TWO_GROUPS, three_o=True).valid


def test_a_geoplunge_showing_three_groups_is_not_valid() -> None:
    assert not check_showing(THREE_GROUPS, three_o=False).valid


def test_a_card_cannot_be_used_in_two_groups() -> None:
    check = check_showing((MD_VA_NC, ("WV", "MD", "PA")), three_o=False)
    assert not check.valid
    assert "card(s) used more than once: MD" in check.problems


def test_cards_must_come_from_the_hand_when_one_is_given() -> None:
    check = check_showing(TWO_GROUPS, three_o=False, hand=("MD", "VA", "NC", "TX", "OK"))
    assert "not in the team's hand: KS" in check.problems


def test_an_unknown_state_is_bad_input_not_a_bad_showing() -> None:
    with pytest.raises(UnknownState):
        check_showing((("MD", "XX", "NC"), TX_OK_KS), three_o=False)


def test_judge_cli_refuses_wrong_group_sizes_as_bad_input() -> None:
    with pytest.raises(InvalidInput, match=r"group sizes 4\+3: expected 3\+3 \(GeoPlunge\)"):
        require_well_formed((("KS", "MO", "KY", "WV"), MD_VA_NC), three_o=False)


def test_judge_cli_refuses_a_repeated_card_as_bad_input() -> None:
    with pytest.raises(InvalidInput, match="MD is used more than once"):
        require_well_formed((MD_VA_NC, ("WV", "MD", "PA")), three_o=False)


# The solver


def test_every_winning_group_is_found_once_and_sorted() -> None:
    groups = winning_groups(("MD", "VA", "WV", "TX"))
    assert len(groups) == 1
    assert check_showing((groups[0], TX_OK_KS), three_o=False).valid


def test_solver_finds_a_geoplunge() -> None:
    hand = ("AK", "NC", "TX", "HI", "VA", "KS", "ME", "MD", "OK")
    showing = solve(hand)
    assert showing is not None
    assert check_showing(showing, three_o=False, hand=hand).valid


def test_solver_finds_a_threeoplunge_when_asked() -> None:
    hand = (*(card for group in THREE_GROUPS for card in group), "AK", "HI")
    showing = solve(hand, three_o=True)
    assert showing is not None and len(showing) == 3
    assert check_showing(showing, three_o=True, hand=hand).valid


def test_solver_says_none_when_no_two_groups_exist() -> None:
    assert solve(("AK", "HI", "ME", "FL", "WA", "MD", "VA", "NC")) is None


def test_solver_says_none_for_threeoplunge_when_only_a_geoplunge_exists() -> None:
    hand = (*MD_VA_NC, *TX_OK_KS, "AK", "HI")
    assert solve(hand) is not None
    assert solve(hand, three_o=True) is None


def test_solver_refuses_a_hand_with_a_repeated_card() -> None:
    with pytest.raises(InvalidInput, match="repeated"):
        solve(("MD", "MD", "VA"))


@settings(max_examples=150, deadline=None)
@given(
    hand=st.lists(st.sampled_from(CODES), min_size=18, max_size=18, unique=True),
    three=st.booleans(),
)
def test_every_solver_showing_validates(hand: list[str], three: bool) -> None:
    showing = solve(hand, three_o=three)
    if showing is not None:
        assert check_showing(showing, three_o=three, hand=hand).valid


# The game: who wins is Level 4's rule


def test_border_up_level_3_is_game_1() -> None:
    assert (RULES.number, RULES.key, RULES.title) == (1, "border_up", "Border-Up")


def test_level_3_rules_refuse_a_level_4_start() -> None:
    with pytest.raises(InvalidInput, match="expected 3"):
        RULES.start(GameContext(level=4))


def test_first_shouter_with_two_valid_groups_wins_without_bonus() -> None:
    state = RULES.apply(_after_shout(A), Show(A, TWO_GROUPS))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_first_shouter_of_a_valid_threeoplunge_wins_with_bonus() -> None:
    state = RULES.apply(_after_shout(B, three_o=frozenset({B})), Show(B, THREE_GROUPS))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_a_shouter_with_an_unsorted_group_gives_the_other_team_win_and_bonus() -> None:
    state = RULES.apply(_after_shout(A), Show(A, (("MD", "NC", "VA"), TX_OK_KS)))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_simultaneous_shouts_only_one_valid_wins_with_bonus() -> None:
    state = _after_shout(A, B)
    state = RULES.apply(state, Show(A, (("MD", "NC", "VA"), TX_OK_KS)))
    state = RULES.apply(state, Show(B, (("WV", "PA", "DE"), GA_AL_MS)))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_simultaneous_shouts_both_valid_is_a_tie() -> None:
    state = _after_shout(A, B)
    state = RULES.apply(state, Verdict(A, valid=True))
    state = RULES.apply(state, Verdict(B, valid=True))
    assert state.result is not None and state.result.winner is None


def test_a_shown_hand_must_be_18_cards() -> None:
    with pytest.raises(InvalidInput, match="18 different cards"):
        RULES.apply(_after_shout(A), Show(A, TWO_GROUPS, hand=tuple(CODES[:21])))


def test_a_shown_hand_of_18_cards_is_checked() -> None:
    shown = {card for group in TWO_GROUPS for card in group}
    hand = (*shown, *[code for code in CODES if code not in shown][:12])
    assert len(set(hand)) == HAND_SIZE
    state = RULES.apply(_after_shout(A), Show(A, TWO_GROUPS, hand=hand))
    assert state.result is not None and state.result.winner is A


def test_problems_with_a_showing_are_kept_for_the_dealer() -> None:
    state = RULES.apply(_after_shout(A), Show(A, (("MD", "NC", "VA"), TX_OK_KS)))
    assert state.problems[0].startswith("A: NC does not border both ends of MD-NC-VA")


def test_a_finished_game_accepts_no_action() -> None:
    state = RULES.apply(_after_shout(A), Verdict(A, valid=True))
    with pytest.raises(GameOver):
        RULES.apply(state, Verdict(B, valid=True))


def test_plunges_are_declared_before_the_race() -> None:
    with pytest.raises(IllegalAction):
        RULES.apply(RULES.start(GameContext(level=3)), Shout(frozenset({A})))
