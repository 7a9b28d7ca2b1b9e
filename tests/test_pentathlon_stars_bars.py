"""Stars & Bars: stack points, the end-of-round award, challenges of scoring, time."""

from __future__ import annotations

import pytest

from rules.actions import Action
from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.monitor import PentathlonGame, apply, start
from rules.pentathlon.monitor_actions import (
    Begins,
    DeclareWin,
    PassFlag,
    TimeCalled,
    start_action,
)
from rules.pentathlon.play import RULINGS_BEFORE_ISSUE_20, RULINGS_ISSUE_20
from rules.pentathlon.results import How, Result
from rules.pentathlon.stars_bars import CardsOut, PlaceCard, ScoreStacks, StarsBoard
from tests.pentathlon_helpers import CORRECT, MINUTES, A, B, new_game, play, ruled

STARS = Game.STARS_AND_BARS


def stars(*actions: Action) -> PentathlonGame:
    return play(new_game(STARS), Begins(A), *actions)


def board(state: PentathlonGame) -> StarsBoard:
    assert state.play is not None and isinstance(state.play.board, StarsBoard)
    return state.play.board


def pending(state: PentathlonGame) -> Result | None:
    assert state.play is not None
    return state.play.pending


def round_of(a: int, b: int) -> list[Action]:
    return [PlaceCard(a), PassFlag(A), PlaceCard(b), PassFlag(B)]


def dealt(rounds: int) -> list[Action]:
    """``rounds`` rounds of cards placed for 0 points: 2 cards on the board a round."""
    return [action for _ in range(rounds) for action in round_of(0, 0)]


@pytest.mark.parametrize(
    ("earlier", "stacks", "points"),
    [
        (0, ScoreStacks(cpa_turned=1), 2),
        (4, ScoreStacks(cpa_removed=True), 4),
        (3, ScoreStacks(cpa_turned=1, cpa_removed=True), 6),
        (0, ScoreStacks(opa_removed=1), 2),
        (0, ScoreStacks(opa_removed=2), 4),
    ],
)
def test_4_card_stack_points_cpa_2_4_6_and_opa_2(
    earlier: int, stacks: ScoreStacks, points: int
) -> None:
    """Rulebook: "2 points for turning over a 4 or more card stack in the CPA, 4 points for
    removing the four 4 stacks that are turned over in the CPA, 6 points if a player does both
    ... 2 points for removing a 4 or more card stack in the OPA". A turns ``earlier`` CPA
    stacks over; B scores ``stacks``."""
    turned = [ScoreStacks(cpa_turned=earlier)] if earlier else []
    state = stars(*dealt(10), *turned, PlaceCard(0), PassFlag(A), stacks)
    assert board(state).scores == (2 * earlier, points)


def test_opa_stacks_removed_are_bounded_by_the_cards_on_the_board() -> None:
    """Rulebook: "2 points for removing a 4 or more card stack in the OPA": 99,999,999,999
    stacks of 4 cards were never on a board that holds the CPA's 4 and 3 cards placed (R783)."""
    with pytest.raises(IllegalAction, match="need at least 400000000000 cards on the board"):
        stars(
            PlaceCard(0),
            PassFlag(A),
            PlaceCard(0),
            PassFlag(B),
            PlaceCard(0),
            PassFlag(A),
            ScoreStacks(opa_removed=99_999_999_999),
        )
    with pytest.raises(IllegalAction, match="at most 7 are"):
        stars(*dealt(1), PlaceCard(0), PassFlag(A), ScoreStacks(opa_removed=1))


def test_a_cpa_stack_is_turned_over_once() -> None:
    """Rulebook: "No cards can be placed onto a stack of cards that has been turned over": the
    CPA's 4 stacks, once turned over, are not turned over again until removed (R783)."""
    state = stars(*dealt(10), ScoreStacks(cpa_turned=3), PlaceCard(0), PassFlag(A))
    with pytest.raises(IllegalAction, match="2 CPA stacks turned over, but 1 of the 4"):
        apply(state, ScoreStacks(cpa_turned=2))


def test_the_cpa_stacks_are_removed_once_all_four_are_turned_over() -> None:
    """Rulebook: "4 points for removing the four 4 stacks that are turned over in the CPA"."""
    with pytest.raises(IllegalAction, match="removed once all 4 are turned over; 1 would be"):
        stars(*dealt(10), ScoreStacks(cpa_turned=1, cpa_removed=True))


def test_removed_stacks_leave_the_board() -> None:
    """Rulebook: "Stacks of cards that are removed from the board go into a discard pile and
    are no longer used": their cards no longer count towards another stack (R783)."""
    state = stars(*dealt(4), ScoreStacks(opa_removed=2), PlaceCard(0), PassFlag(A))
    with pytest.raises(IllegalAction, match="at most 5 are"):
        apply(state, ScoreStacks(opa_removed=1))


def test_a_correct_stack_points_challenge_puts_the_stacks_back() -> None:
    """Rulebook: "If there are less than 4 cards in the stack the stack is restored to the
    gameboard": after a Correct stack-points challenge the stacks count again (R783)."""
    state = stars(*dealt(4), ScoreStacks(opa_removed=2), PlaceCard(0), PassFlag(A))
    state = play(state, *ruled(B, "stack-points", CORRECT), ScoreStacks(opa_removed=2))
    assert board(state).scores == (0, 4)


def test_cards_out_is_refused_before_both_players_have_placed_their_hands() -> None:
    """Rulebook: "END OF GAME when BOTH players have no more cards to place onto the board":
    each holds a hand of 4 from the start, so not before the second player's turn (R784)."""
    with pytest.raises(IllegalAction, match="cards placed: A 0, B 0"):
        stars(CardsOut())
    with pytest.raises(IllegalAction, match="cards placed: B 3"):
        stars(*dealt(3), PlaceCard(0), PassFlag(A), CardsOut())


def test_cards_out_comes_at_the_beginning_of_a_turn() -> None:
    with pytest.raises(IllegalAction, match="cards out is at a turn's start"):
        stars(*dealt(4), PlaceCard(0), CardsOut())


def test_stack_points_are_scored_before_touching_a_card() -> None:
    with pytest.raises(IllegalAction, match="before touching a card"):
        stars(PlaceCard(3), ScoreStacks(cpa_turned=1))


def test_stack_points_are_scored_once_a_turn() -> None:
    with pytest.raises(IllegalAction, match="has scored stack points this turn"):
        stars(*dealt(6), ScoreStacks(cpa_turned=1), ScoreStacks(opa_removed=1))


def test_the_cpa_has_four_stacks() -> None:
    with pytest.raises(InvalidInput, match="cpa_turned 5"):
        stars(ScoreStacks(cpa_turned=5))


def test_a_card_is_placed_once_a_turn_even_for_zero_points() -> None:
    state = stars(PlaceCard(0))
    with pytest.raises(IllegalAction, match="has placed this turn's card"):
        apply(state, PlaceCard(4))


def test_over_140_and_at_least_15_ahead_at_the_end_of_a_round_wins() -> None:
    state = stars(*round_of(141, 126))
    result = pending(state)
    assert result is not None and (result.winner, result.how) == (A, How.AWARD)


def test_over_140_at_the_end_of_a_round_ends_the_game_and_less_than_15_ahead_is_a_tie() -> None:
    """END OF GAME "when at the end of a round a player is over 140 points"; the GOAL's win
    needs "over 140 points at the end of a round and at least 15 points ahead": the game ends,
    no way to win is met, so it is a tie (R747)."""
    result = pending(stars(PlaceCard(141), PassFlag(A), PlaceCard(127), PassFlag(B)))
    assert result is not None and (result.winner, result.how) == (None, How.AWARD)
    assert "A is over 140 points" in result.detail and "a tie (R747)" in result.detail


def test_both_over_140_and_equal_at_the_end_of_a_round_is_a_tie() -> None:
    """END OF GAME "when at the end of a round a player is over 140 points" (R747)."""
    result = pending(stars(*round_of(150, 150)))
    assert result is not None and result.winner is None
    assert "A and B are over 140 points" in result.detail


def test_over_140_waits_for_the_end_of_the_round() -> None:
    """END OF GAME "at the end of a round": the beginning player's 141 alone ends nothing (R747)."""
    assert pending(stars(PlaceCard(141), PassFlag(A))) is None


@pytest.mark.parametrize("rulings", [RULINGS_BEFORE_ISSUE_20, RULINGS_ISSUE_20])
def test_a_journal_before_r747_plays_on_over_140_without_15_ahead(rulings: int) -> None:
    """A journal written before R747 (flow 1 or 2) replays as it was written (R796)."""
    before = start(start_action(STARS, MINUTES), rulings=rulings)
    assert pending(play(before, Begins(A), *round_of(141, 127))) is None


def test_140_exactly_is_not_over_140() -> None:
    assert pending(stars(*round_of(140, 120))) is None


def test_more_than_40_ahead_at_the_end_of_a_round_wins() -> None:
    result = pending(stars(*round_of(10, 51)))
    assert result is not None and result.winner is B
    assert pending(stars(*round_of(10, 50))) is None


def test_the_award_waits_for_the_end_of_the_round() -> None:
    state = stars(PlaceCard(60), PassFlag(A))
    assert pending(state) is None


def test_at_the_time_limit_15_or_more_ahead_wins_once_the_round_is_complete() -> None:
    state = stars(PlaceCard(120), PassFlag(A), TimeCalled(), PlaceCard(105))
    assert pending(state) is None
    result = pending(play(state, PassFlag(B)))
    assert result is not None and (result.winner, result.how) == (A, How.TIME_LIMIT)


def test_at_the_time_limit_less_than_15_ahead_is_a_tie() -> None:
    result = pending(stars(PlaceCard(120), PassFlag(A), TimeCalled(), PlaceCard(106), PassFlag(B)))
    assert result is not None and result.winner is None


def test_correct_on_card_placement_subtracts_the_cards_points() -> None:
    state = stars(
        *dealt(2),
        ScoreStacks(cpa_turned=1),
        PlaceCard(9),
        PassFlag(A),
        *ruled(B, "card-placement", CORRECT),
    )
    assert board(state).scores == (2, 0)


def test_correct_on_stack_points_subtracts_only_those_points() -> None:
    state = stars(
        *dealt(2),
        ScoreStacks(cpa_turned=1),
        PlaceCard(9),
        PassFlag(A),
        *ruled(B, "stack-points", CORRECT),
    )
    assert board(state).scores == (9, 0)


def test_a_correct_challenge_at_the_end_of_a_round_checks_the_award_again() -> None:
    state = stars(PlaceCard(10), PassFlag(A), PlaceCard(51), PassFlag(B))
    assert pending(state) is not None
    state = play(state, *ruled(A, "card-placement", CORRECT))
    assert pending(state) is None
    assert (state.phase, state.on_turn) == ("play", A)


def test_when_both_players_are_out_of_cards_the_game_ends_as_at_the_time_limit() -> None:
    result = pending(stars(*dealt(3), *round_of(30, 10), CardsOut()))
    assert result is not None and (result.winner, result.how) == (A, How.AWARD)


def test_the_monitor_awards_the_win_nothing_is_declared() -> None:
    with pytest.raises(IllegalAction, match="the monitor awards the win: nothing to declare"):
        stars(DeclareWin(A, "anything"))
