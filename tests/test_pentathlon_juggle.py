"""Juggle: declared wins, the rulebook's challenged win, the round, and the count at time."""

from __future__ import annotations

import pytest

from rules.actions import Action
from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.juggle import CountEmpty
from rules.pentathlon.monitor import PentathlonGame, apply
from rules.pentathlon.monitor_actions import (
    Challenge,
    Confirm,
    DeclareWin,
    DieToss,
    PassFlag,
    Rule,
    TimeCalled,
)
from rules.pentathlon.results import How, Result
from tests.pentathlon_helpers import CORRECT, INCORRECT, A, B, new_game, play, ruled

JUGGLE = Game.JUGGLE
COVERED = "board-covered"


def juggle(*actions: Action) -> PentathlonGame:
    return play(new_game(JUGGLE), DieToss(2, 5), *actions)  # A begins


def pending(state: PentathlonGame) -> Result:
    assert state.play is not None and state.play.pending is not None
    return state.play.pending


def test_rulebook_example_a_declared_win_with_like_colours_touching_goes_to_the_challenger() -> (
    None
):
    state = juggle(PassFlag(A), DeclareWin(B, COVERED), *ruled(A, "placement", CORRECT), Confirm())
    assert state.result is not None
    assert (state.result.winner, state.result.how) == (A, How.CHALLENGED_WIN)


def test_an_incorrect_challenge_of_a_declared_win_confirms_it() -> None:
    state = juggle(
        PassFlag(A), DeclareWin(B, COVERED), *ruled(A, "placement", INCORRECT), Confirm()
    )
    assert state.result is not None
    assert (state.result.winner, state.result.how) == (B, How.GOAL)


def test_when_the_beginning_player_declares_the_second_player_completes_a_turn() -> None:
    state = juggle(DeclareWin(A, COVERED), PassFlag(A))
    assert (state.phase, state.on_turn) == ("play", B)
    state = play(state, PassFlag(B))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)


def test_both_players_covering_their_boards_in_one_round_is_a_tie() -> None:
    state = juggle(DeclareWin(A, COVERED), PassFlag(A), DeclareWin(B, COVERED))
    assert (pending(state).winner, pending(state).how) == (None, How.GOAL)


def test_the_second_player_may_challenge_the_beginners_declared_win_on_receiving_the_flag() -> None:
    state = juggle(DeclareWin(A, COVERED), PassFlag(A), *ruled(B, "placement", CORRECT))
    assert (pending(state).winner, pending(state).how) == (B, How.CHALLENGED_WIN)


def test_at_the_time_limit_the_round_is_finished_then_the_empty_spaces_counted() -> None:
    state = juggle(PassFlag(A), TimeCalled(), PassFlag(B))
    assert state.phase == "counting"
    state = play(state, CountEmpty(4, 9))
    assert (pending(state).winner, pending(state).how) == (A, How.TIME_LIMIT)


def test_at_the_time_limit_a_difference_of_2_or_less_is_a_tie() -> None:
    state = juggle(PassFlag(A), TimeCalled(), PassFlag(B), CountEmpty(4, 6))
    assert pending(state).winner is None


def test_touching_pieces_challenged_after_time_are_removed_before_counting() -> None:
    state = juggle(
        PassFlag(A), TimeCalled(), PassFlag(B), Challenge(A, ("placement",)), Rule(CORRECT)
    )
    assert state.phase == "counting"
    assert state.challenges[0].ruling is CORRECT
    assert play(state, CountEmpty(5, 5)).phase == "result"


def test_the_empty_spaces_are_counted_only_when_time_is_up() -> None:
    with pytest.raises(IllegalAction, match="counted once time is called"):
        juggle(CountEmpty(1, 2))


def test_a_count_is_0_or_more() -> None:
    state = juggle(PassFlag(A), TimeCalled(), PassFlag(B))
    with pytest.raises(InvalidInput, match="expected 0 to 999 each"):
        apply(state, CountEmpty(-1, 2))


def test_a_declared_win_stands_over_the_count_when_the_round_ends_at_time() -> None:
    state = juggle(DeclareWin(A, COVERED), TimeCalled(), PassFlag(A), PassFlag(B))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)
