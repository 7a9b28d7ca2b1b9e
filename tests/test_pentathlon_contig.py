"""Contig 60: running scores from 60, captures, challenges, the three ways to win, time."""

from __future__ import annotations

import pytest

from rules.actions import Action
from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.contig import ContigBoard, ContigCapture, ContigPlay
from rules.pentathlon.monitor import PentathlonGame, apply, start
from rules.pentathlon.monitor_actions import (
    Challenge,
    DeclareWin,
    DieToss,
    PassFlag,
    Rule,
    TimeCalled,
    start_action,
)
from rules.pentathlon.play import RULINGS_R746_R749
from rules.pentathlon.results import How, Result
from tests.pentathlon_helpers import CORRECT, INCORRECT, A, B, new_game, play, ruled

CONTIG = Game.CONTIG_60


def contig(*actions: Action, chips: int = 20) -> PentathlonGame:
    return play(new_game(CONTIG, chips=chips), DieToss(1, 2), *actions)


def board(state: PentathlonGame) -> ContigBoard:
    assert state.play is not None and isinstance(state.play.board, ContigBoard)
    return state.play.board


def pending(state: PentathlonGame) -> Result:
    assert state.play is not None and state.play.pending is not None
    return state.play.pending


def test_running_scores_start_at_60() -> None:
    assert board(contig()).scores == (60, 60)


def test_a_placed_chip_subtracts_its_score_and_uses_a_chip() -> None:
    state = contig(ContigPlay(7))
    assert (board(state).scores, board(state).chips) == ((53, 60), (19, 20))


def test_one_chip_is_placed_per_turn() -> None:
    with pytest.raises(IllegalAction, match="A has placed this turn's chip"):
        contig(ContigPlay(7), ContigPlay(2))


def test_a_score_is_zero_or_more() -> None:
    with pytest.raises(InvalidInput, match="score -3"):
        contig(ContigPlay(-3))


def test_a_chip_s_points_are_at_most_the_tables_three_digits() -> None:
    """A chip's points are entered "as announced" (R204), within the bound the table's entry
    has, so a log the table never wrote (60 billion points) is refused (R787)."""
    with pytest.raises(InvalidInput, match="score 60000000000: expected the points as announced"):
        contig(ContigPlay(60_000_000_000))


def test_capture_of_a_pass_subtracts_twice_the_original_score() -> None:
    state = contig(PassFlag(A), ContigCapture(6))
    assert board(state).scores == (60, 48)


def test_after_a_capture_the_player_takes_a_regular_turn() -> None:
    state = contig(PassFlag(A), ContigCapture(6), ContigPlay(3))
    assert board(state).scores == (60, 45)


def test_only_a_pass_without_a_chip_can_be_captured() -> None:
    with pytest.raises(IllegalAction, match="no pass to capture"):
        contig(ContigPlay(5), PassFlag(A), ContigCapture(6))


def test_a_pass_is_captured_before_the_regular_turn() -> None:
    with pytest.raises(IllegalAction, match="B has placed this turn's chip"):
        contig(PassFlag(A), ContigPlay(3), ContigCapture(6))


def test_a_pass_is_captured_once() -> None:
    with pytest.raises(IllegalAction, match="B has captured a pass this turn already"):
        contig(PassFlag(A), ContigCapture(6), ContigCapture(6))


def test_correct_restores_the_prior_state_and_the_challenger_subtracts_2_and_begins() -> None:
    state = contig(ContigPlay(9), PassFlag(A), *ruled(B, "announcing", CORRECT))
    assert (board(state).scores, board(state).chips) == ((60, 58), (20, 20))
    assert state.on_turn is B
    assert state.challenges[0].effect == (
        "the game is restored to before A's turn: A's running score 60, 20 chips; "
        "B subtracts 2: running score 58; B begins a turn"
    )


def test_correct_on_a_captured_pass_restores_it_and_the_challenger_begins_a_turn() -> None:
    state = contig(PassFlag(A), ContigCapture(6), *ruled(A, "captured-pass", CORRECT))
    assert board(state).scores == (58, 60)
    assert state.on_turn is A


def test_correct_on_other_rules_restores_without_the_2() -> None:
    state = contig(ContigPlay(9), PassFlag(A), *ruled(B, "piece-laid", CORRECT))
    assert board(state).scores == (60, 60)


def test_five_in_a_row_is_declared_and_won() -> None:
    moves = [a for _ in range(4) for a in (ContigPlay(1), PassFlag(A), PassFlag(B))]
    state = contig(*moves, ContigPlay(1), DeclareWin(A, "five-in-a-row"))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)


def test_a_score_of_0_or_less_with_a_difference_of_3_or_more_is_declared_and_won() -> None:
    state = contig(ContigPlay(61), DeclareWin(A, "score-zero-or-less"))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)


def test_reaching_0_or_less_ends_the_game_at_the_end_of_the_turn() -> None:
    state = contig(ContigPlay(59), PassFlag(A), ContigPlay(59), PassFlag(B), ContigPlay(1))
    state = play(state, PassFlag(A))
    assert (pending(state).winner, pending(state).how) == (None, How.AWARD)
    assert "the scores differ by less than 3" in pending(state).detail


def test_depletion_of_chips_the_monitor_awards_the_lower_score_by_3_or_more() -> None:
    state = contig(
        *[a for _ in range(5) for a in (ContigPlay(2), PassFlag(A), PassFlag(B))], chips=5
    )
    assert (pending(state).winner, pending(state).how) == (A, How.AWARD)
    assert pending(state).detail.startswith("A has no chips at the beginning of a turn")


def test_depletion_with_a_difference_under_3_is_a_tie() -> None:
    moves = [a for _ in range(5) for a in (ContigPlay(1), PassFlag(A), ContigPlay(1), PassFlag(B))]
    state = contig(*moves, chips=5)
    assert pending(state).winner is None


def test_at_the_time_limit_the_lower_score_wins_by_3_or_more() -> None:
    state = contig(ContigPlay(3), PassFlag(A), TimeCalled())
    state = play(state, PassFlag(B))
    assert (pending(state).winner, pending(state).how) == (A, How.TIME_LIMIT)


def test_at_the_time_limit_a_difference_of_2_or_less_is_a_tie() -> None:
    state = contig(ContigPlay(2), PassFlag(A), TimeCalled(), PassFlag(B))
    assert pending(state).winner is None


def test_rulebook_non_example_an_incorrect_sentence_for_the_fifth_chip_lets_play_continue() -> None:
    moves = [a for _ in range(4) for a in (ContigPlay(1), PassFlag(A), PassFlag(B))]
    state = contig(*moves, ContigPlay(1), DeclareWin(A, "five-in-a-row"))
    state = play(state, Challenge(B, ("announcing",)), Rule(CORRECT))
    assert state.phase == "play"
    assert state.on_turn is B
    assert (board(state).scores, board(state).chips) == ((56, 58), (16, 20))
    assert state.challenges[0].effect.startswith(
        "A's declared win is withdrawn and play continues; the game is restored"
    )


def test_an_incorrect_challenge_is_a_loss_of_turn() -> None:
    state = contig(ContigPlay(9), PassFlag(A), *ruled(B, "announcing", INCORRECT))
    assert state.on_turn is A
    with pytest.raises(IllegalAction):
        apply(state, PassFlag(B))


def test_a_turn_undone_by_a_correct_challenge_is_no_pass_to_capture() -> None:
    state = contig(ContigPlay(9), PassFlag(A), *ruled(B, "placing", CORRECT))
    with pytest.raises(IllegalAction, match="no pass to capture"):
        apply(state, ContigCapture(4))


def test_a_challenge_of_two_rules_both_correct_subtracts_2_for_each() -> None:
    """Rulebook: "If a challenge situation involves more than one rule, each challenged rule is
    treated as a separate challenge": two rules ruled Correct are two Correct challenges, and
    the challenger subtracts 2 for each (R793)."""
    state = contig(ContigPlay(9), PassFlag(A), Challenge(B, ("recording", "scoring")))
    state = play(state, Rule(CORRECT), Rule(CORRECT))
    assert board(state).scores == (60, 56)
    assert [record.effect for record in state.challenges] == [
        "the game is restored to before A's turn: A's running score 60, 20 chips; B subtracts "
        "2: running score 58; B begins a turn",
        "the game is restored to before A's turn: A's running score 60, 20 chips; B subtracts "
        "2: running score 56; B begins a turn",
    ]
    assert state.on_turn is B


# --- the words of a restore, for every position (R843) ----------------------------------------


def test_a_restore_of_a_player_who_has_had_no_turn_says_there_is_nothing_to_restore() -> None:
    """Rulebook, CORRECT - "C": "Restore the game to before the challenged player's turn": at the
    first turn of the game the second player has had none, so the ruling says so (R843) instead
    of "restored to before B's turn"."""
    state = contig(ContigPlay(9), *ruled(A, "recording", CORRECT))
    assert state.challenges[0].effect == (
        "B has had no turn yet: nothing to restore; A subtracts 2: running score 49; "
        "A begins a turn"
    )
    assert (board(state).scores, board(state).chips) == ((49, 60), (19, 20))


def test_a_restore_of_the_player_on_turn_is_to_before_that_turn() -> None:
    """The first turn of the game is the beginner's: B challenges it, A is restored (R843)."""
    state = contig(ContigPlay(9), *ruled(B, "recording", CORRECT))
    assert state.challenges[0].effect.startswith(
        "the game is restored to before A's turn: A's running score 60, 20 chips"
    )


def test_once_the_second_player_has_had_a_turn_their_restore_is_to_before_it() -> None:
    """B's first turn, passed back to A: A's challenge of it restores B (R843)."""
    state = contig(PassFlag(A), ContigPlay(5), PassFlag(B), *ruled(A, "recording", CORRECT))
    assert state.challenges[0].effect.startswith(
        "the game is restored to before B's turn: B's running score 60, 20 chips"
    )


def test_a_lost_turn_is_not_a_turn_so_there_is_nothing_to_restore() -> None:
    """R847: B, ruled Incorrect while not holding the flag, loses their next turn ("loss of
    turn"): round 2 begins without B having played, and "restore the game to before the
    challenged player's turn" has no turn of B's to go back to."""
    lost = (ContigPlay(9), *ruled(B, "scoring", INCORRECT), PassFlag(A))
    state = contig(*lost, *ruled(A, "placing", CORRECT))
    assert state.challenges[-1].effect == (
        "B has had no turn yet (B's turn was lost): nothing to restore; A subtracts 2: running "
        "score 49; A begins a turn"
    )
    assert (board(state).scores[1], board(state).chips[1]) == (60, 20)


def test_two_lost_turns_and_none_played_are_still_no_turn() -> None:
    """R847: each lost turn ends a round without B having played."""
    once = (*ruled(B, "scoring", INCORRECT), PassFlag(A))
    state = contig(ContigPlay(9), *once, *once, *ruled(A, "placing", CORRECT))
    assert state.play is not None and state.play.round == 3
    assert state.challenges[-1].effect.startswith(
        "B has had no turn yet (B's 2 turns were lost): nothing to restore"
    )


def test_a_turn_played_before_a_lost_one_is_the_turn_restored_to() -> None:
    """R843, R847: B played round 1's turn and lost round 2's: the restore is to before the
    latest turn B played."""
    first = (PassFlag(A), ContigPlay(5), PassFlag(B))
    state = contig(*first, *ruled(B, "scoring", INCORRECT), PassFlag(A))
    state = play(state, *ruled(A, "placing", CORRECT))
    assert state.challenges[-1].effect.startswith("the game is restored to before B's turn: ")


def test_a_game_under_rulings_3_keeps_its_restore_text_at_the_first_turn() -> None:
    """R796: a journal of flow 3 gives back the text it recorded."""
    game = start(start_action(CONTIG, 30, chips=20), rulings=RULINGS_R746_R749)
    state = play(game, DieToss(1, 2), ContigPlay(9), *ruled(A, "recording", CORRECT))
    assert state.challenges[0].effect.startswith(
        "the game is restored to before B's turn: B's running score 60, 20 chips"
    )
