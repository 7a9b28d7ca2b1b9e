"""Queens & Guards: the Queen surrounded, the monitor's declaration, ties, time."""

from __future__ import annotations

import pytest

from rules.actions import Action
from rules.errors import IllegalAction
from rules.pentathlon.catalogue import Game, Ruling
from rules.pentathlon.monitor import PentathlonGame, start
from rules.pentathlon.monitor_actions import (
    Begins,
    Challenge,
    DeclareWin,
    PassFlag,
    Rule,
    TimeCalled,
    start_action,
)
from rules.pentathlon.play import RULINGS_R746_R749
from rules.pentathlon.queens_guards import DeclareTie, MovePiece, TieReason
from rules.pentathlon.record import record
from rules.pentathlon.results import How, Result
from tests.pentathlon_helpers import MINUTES, A, B, new_game, play

QUEENS = Game.QUEENS_AND_GUARDS
GOAL = "queen-surrounded"


def queens(*actions: Action) -> PentathlonGame:
    return play(new_game(QUEENS), Begins(A), *actions)


def pending(state: PentathlonGame) -> Result:
    assert state.play is not None and state.play.pending is not None
    return state.play.pending


def test_the_first_to_surround_the_queen_on_the_centre_wins() -> None:
    state = queens(MovePiece(), DeclareWin(A, GOAL))
    assert (pending(state).winner, pending(state).how) == (A, How.GOAL)


def test_the_monitor_declares_a_win_the_player_did_not_announce() -> None:
    state = queens(MovePiece(), PassFlag(A), DeclareWin(A, GOAL, by_monitor=True))
    assert pending(state).winner is A


def test_in_other_games_the_monitor_does_not_declare_a_players_win() -> None:
    with pytest.raises(IllegalAction, match="declared by the player, with the flag card"):
        play(new_game(Game.JUGGLE), Begins(A), DeclareWin(B, "board-covered", by_monitor=True))


def test_a_tie_when_both_agree_no_one_can_move_within_the_rules() -> None:
    state = queens(DeclareTie(TieReason.AGREED))
    assert (pending(state).winner, pending(state).how) == (None, How.AGREEMENT)


def test_a_tie_when_all_six_guards_surround_the_centre_without_the_queen() -> None:
    state = queens(DeclareTie(TieReason.GUARDS_WITHOUT_QUEEN))
    assert (pending(state).winner, pending(state).how) == (None, How.AWARD)


def test_at_the_time_limit_a_tie_if_nobody_has_won() -> None:
    state = queens(MovePiece(), TimeCalled(), PassFlag(A), MovePiece(), PassFlag(B))
    assert (pending(state).winner, pending(state).how) == (None, How.TIME_LIMIT)


def test_moving_into_a_trap_is_not_challengeable() -> None:
    with pytest.raises(IllegalAction, match="the opponent moves the piece to the outermost band"):
        queens(MovePiece(), Challenge(B, ("into-trap",)))


# -- issue 26, finding 6: the sanction follows a player's own declaration (R986) ------------


def test_a_correct_challenge_of_a_win_the_monitor_declared_withdraws_it_and_play_continues() -> (
    None
):
    """Rulebook: "CHALLENGING A DECLARED WIN ... If CORRECT, a win is granted to the challenger"
    sanctions a player's own declaration; A declared nothing: the Monitor's win goes, no
    sanction, and A, on turn, plays on."""
    state = queens(MovePiece(), DeclareWin(A, GOAL, by_monitor=True))
    state = play(state, Challenge(B, (GOAL,)), Rule(Ruling.CORRECT))
    assert state.phase == "play" and state.on_turn is A
    assert state.challenges[0].effect == (
        "the win the Monitor declared for A is withdrawn and play continues (A declared "
        "nothing: no sanction)"
    )
    assert [(d["fate"], d["by_monitor"]) for d in record(state)["declarations"]] == [
        ("withdrawn", True)
    ]


def test_a_correct_challenge_of_the_player_s_own_declaration_still_gives_the_win() -> None:
    state = queens(MovePiece(), DeclareWin(A, GOAL))
    state = play(state, Challenge(B, (GOAL,)), Rule(Ruling.CORRECT))
    assert (pending(state).winner, pending(state).how) == (B, How.CHALLENGED_WIN)


def test_a_game_under_earlier_rulings_keeps_the_win_for_the_challenger() -> None:
    """R796: a journal of flow 3 or before replays to the result it recorded."""
    begun = start(start_action(QUEENS, MINUTES), rulings=RULINGS_R746_R749)
    state = play(begun, Begins(A), MovePiece(), DeclareWin(A, GOAL, by_monitor=True))
    state = play(state, Challenge(B, (GOAL,)), Rule(Ruling.CORRECT))
    assert (pending(state).winner, pending(state).how) == (B, How.CHALLENGED_WIN)


def test_the_monitor_s_win_confirmed_on_one_rule_and_ruled_correct_on_the_goal_is_withdrawn() -> (
    None
):
    """R991 (R986, R980): B names a move and the Queen surrounded, in that order; the move is
    ruled I (the declared win is confirmed), the goal C: the win the Monitor declared for A is
    withdrawn with no sanction, as a goal's C alone withdraws it; it does not go to B."""
    state = queens(MovePiece(), DeclareWin(A, GOAL, by_monitor=True))
    state = play(state, Challenge(B, ("move", GOAL)), Rule(Ruling.INCORRECT), Rule(Ruling.CORRECT))
    assert state.play is not None and state.play.pending is None
    assert state.phase == "play"
    assert state.challenges[1].effect == (
        "the win the Monitor declared for A is withdrawn and play continues (A declared "
        "nothing: no sanction)"
    )
    assert [(d["fate"], d["challenge"]) for d in record(state)["declarations"]] == [
        ("withdrawn", 2)
    ]


def test_a_player_s_own_win_confirmed_on_one_rule_still_goes_to_the_goal_s_challenger() -> None:
    """R980: the same challenge of A's own declared win gives B the win."""
    state = queens(MovePiece(), DeclareWin(A, GOAL))
    state = play(state, Challenge(B, ("move", GOAL)), Rule(Ruling.INCORRECT), Rule(Ruling.CORRECT))
    assert (pending(state).winner, pending(state).how) == (B, How.CHALLENGED_WIN)
