"""Fab-a-Diffy: the best of 3 games by tricks, captures within 10 seconds, challenges, time."""

from __future__ import annotations

import itertools

import pytest

from rules.actions import Action
from rules.errors import IllegalAction
from rules.pentathlon.catalogue import Game
from rules.pentathlon.fab_a_diffy import (
    CaptureTimeout,
    CaptureTrick,
    DeckOut,
    FabBoard,
    ShowStrip,
    TakeTrick,
    decided,
    overall,
)
from rules.pentathlon.monitor import PentathlonGame, apply, start
from rules.pentathlon.monitor_actions import (
    Challenge,
    PassFlag,
    Rule,
    StripDraw,
    TimeCalled,
    start_action,
)
from rules.pentathlon.play import RULINGS_BEFORE_ISSUE_20, RULINGS_ISSUE_20
from rules.pentathlon.players import Player
from rules.pentathlon.results import How, Result
from tests.pentathlon_helpers import (
    CORRECT,
    INAPPROPRIATE,
    MINUTES,
    A,
    B,
    new_game,
    play,
    ruled,
)

FAB = Game.FAB_A_DIFFY


def fab(*actions: Action) -> PentathlonGame:
    return play(new_game(FAB), StripDraw("1/12", "1/2"), *actions)  # A begins


def board(state: PentathlonGame) -> FabBoard:
    assert state.play is not None and isinstance(state.play.board, FabBoard)
    return state.play.board


def pending(state: PentathlonGame) -> Result:
    assert state.play is not None and state.play.pending is not None
    return state.play.pending


def trick_turn(player: Player) -> list[Action]:
    return [ShowStrip(), TakeTrick(), PassFlag(player)]


def holder(state: PentathlonGame) -> Player:
    assert state.on_turn is not None
    return state.on_turn


def shown_out(state: PentathlonGame) -> PentathlonGame:
    """Turns of a strip shown and no trick until the deck cannot give a strip to show."""
    while board(state).deck_left >= board(state).show_needs:
        state = play(state, ShowStrip(), PassFlag(holder(state)))
    return state


def won_game(state: PentathlonGame, winner: Player) -> PentathlonGame:
    """One game: the winner takes a trick in one turn, then the deck runs out."""
    beginner = holder(state)
    first = trick_turn(beginner) if winner is beginner else [ShowStrip(), PassFlag(beginner)]
    second = (
        trick_turn(beginner.other)
        if winner is not beginner
        else [ShowStrip(), PassFlag(beginner.other)]
    )
    return apply(shown_out(play(state, *first, *second)), DeckOut())


# -- the overall result ----------------------------------------------------------------------


def rulebook_overall(games: tuple[Player | None, ...]) -> Player | str | None:
    """The rulebook's words: WIN = 2 games won, or 1 won and 2 tied; TIE = 1 won each and 1
    tied, or all 3 tied. Anything else cannot happen in 3 games."""
    for player in Player:
        won, lost, tied = games.count(player), games.count(player.other), games.count(None)
        if won == 2 or (won == 1 and tied == 2):
            return player
        if won == 1 and lost == 1 and tied == 1:
            return None
    return None if games.count(None) == 3 else "not in the rulebook"


@pytest.mark.parametrize("games", list(itertools.product([A, B, None], repeat=3)))
def test_overall_win_is_2_games_won_or_1_won_and_2_tied_else_a_tie(
    games: tuple[Player | None, ...],
) -> None:
    expected = rulebook_overall(games)
    if expected == "not in the rulebook":  # 3-0 or 2-1: the more games won
        expected = A if games.count(A) > games.count(B) else B
    assert overall(games).winner == expected


@pytest.mark.parametrize(
    ("games", "over"),
    [
        ((A, A), True),
        ((A, B), False),
        ((A, None), False),  # B could still tie the match by winning game 3
        ((None, None), False),
        ((A, None, B), True),
    ],
)
def test_a_deciding_game_is_played_only_when_it_can_change_the_result(
    games: tuple[Player | None, ...], over: bool
) -> None:
    assert decided(games) is over


def test_two_games_won_end_the_match_without_a_third() -> None:
    state = won_game(won_game(fab(), A), A)
    assert (pending(state).winner, pending(state).how) == (A, How.AWARD)
    assert board(state).games == (A, A)


# -- a game ----------------------------------------------------------------------------------


def test_a_game_goes_to_the_greater_number_of_tricks_and_a_tie_if_equal() -> None:
    state = apply(shown_out(fab(*trick_turn(A), *trick_turn(B))), DeckOut())
    assert board(state).games == (None,)
    state = won_game(state, B)
    assert board(state).games == (None, B)


def test_players_alternate_beginning_the_games() -> None:
    state = won_game(fab(), A)
    assert state.play is not None and (state.play.beginner, state.on_turn) == (B, B)


def test_a_game_ends_when_the_player_cannot_place_a_strip_into_the_show_box() -> None:
    with pytest.raises(IllegalAction, match="has placed a strip in the Show Box this turn"):
        fab(ShowStrip(), DeckOut())


def test_deck_out_is_refused_while_the_deck_can_give_a_strip_to_show() -> None:
    """END OF EACH GAME "when a player is unable to place a strip into the SHOW BOX at the
    beginning of a turn": impossible with a full deck of 27 strips (R746)."""
    with pytest.raises(IllegalAction, match="not Deck out: the deck has 27 strips left"):
        fab(DeckOut())


def test_a_game_with_no_trick_shows_24_strips_before_deck_out() -> None:
    """START: "the starting player puts 3 strips in center rectangles and one in the SHOW BOX"; each
    later turn draws one: 4 + 23 strips are the deck's 27 (R746)."""
    state = shown_out(fab())
    assert state.play is not None and state.play.turn == 25
    assert (board(state).deck_left, board(state).face_up) == (0, 27)
    with pytest.raises(IllegalAction, match="no strip to show: the deck has 0 strips left"):
        apply(state, ShowStrip())
    assert board(apply(state, DeckOut())).games == (None,)


def test_the_deck_s_27_strips_bound_the_3_strip_tricks_of_a_game() -> None:
    """GOAL: "3-strip tricks" from a deck of 27 strips, "ALWAYS 3 STRIPS FACE UP" replenished from
    the deck: a trick every turn takes 3 strips, so the 9th show finds 2 in the deck where it
    needs 3, and the game ends with 8 tricks (R746)."""
    state = fab()
    for _ in range(8):
        state = play(state, *trick_turn(holder(state)))
    assert board(state).tricks == (4, 4) and board(state).deck_left == 2
    with pytest.raises(
        IllegalAction,
        match="no strip to show: the deck has 2 strips left and a strip shown needs 3",
    ):
        apply(state, ShowStrip())
    assert board(apply(state, DeckOut())).games == (None,)


@pytest.mark.parametrize("rulings", [RULINGS_BEFORE_ISSUE_20, RULINGS_ISSUE_20])
def test_a_journal_under_earlier_rulings_replays_its_deck_out(rulings: int) -> None:
    """A journal written before R746 (flow 1 or 2) replays as it was written (R796): its Deck
    out with the deck whole stands."""
    before = start(start_action(FAB, MINUTES), rulings=rulings)
    assert board(play(before, StripDraw("1/12", "1/2"), DeckOut())).games == (None,)


def test_a_capture_takes_3_strips_face_up() -> None:
    """CAPTURE: "capture a trick the opponent did not take": after the opponent's trick only 1 strip
    is face up, so there is no trick to capture (R746)."""
    with pytest.raises(IllegalAction, match="a trick takes 3 strips and 1 is face up"):
        fab(*trick_turn(A), CaptureTrick())


def test_a_trick_is_taken_with_the_show_box_strip_once_per_turn() -> None:
    with pytest.raises(IllegalAction, match="once per turn"):
        fab(TakeTrick())
    with pytest.raises(IllegalAction, match="once per turn"):
        fab(ShowStrip(), TakeTrick(), TakeTrick())


# -- capture ---------------------------------------------------------------------------------


def test_a_capture_takes_a_trick_the_opponent_did_not_take() -> None:
    state = fab(ShowStrip(), PassFlag(A), CaptureTrick(), ShowStrip())
    assert board(state).tricks == (0, 1)


def test_a_capture_is_announced_within_10_seconds_of_receiving_the_flag() -> None:
    with pytest.raises(IllegalAction, match="within 10 seconds"):
        fab(ShowStrip(), PassFlag(A), CaptureTimeout(), CaptureTrick())


def test_a_capture_comes_before_touching_a_strip_for_the_show_box() -> None:
    with pytest.raises(IllegalAction, match="within 10 seconds"):
        fab(ShowStrip(), PassFlag(A), ShowStrip(), CaptureTrick())


def test_the_first_turn_of_a_game_has_nothing_to_capture() -> None:
    with pytest.raises(IllegalAction, match="the opponent has not had a turn in this game"):
        fab(CaptureTrick())


# -- challenges ------------------------------------------------------------------------------


def test_correct_on_a_trick_awards_its_3_strips_to_the_challenger_who_begins_a_regular_turn() -> (
    None
):
    state = fab(*trick_turn(A), *ruled(B, "trick", CORRECT))
    assert board(state).tricks == (0, 1)
    assert state.on_turn is B
    with pytest.raises(IllegalAction, match="within 10 seconds"):
        apply(state, CaptureTrick())  # a regular turn: no capture


def test_correct_on_a_capture_gives_the_trick_to_the_challenger() -> None:
    state = fab(ShowStrip(), PassFlag(A), CaptureTrick(), *ruled(A, "capture", CORRECT))
    assert board(state).tricks == (1, 0)
    assert state.on_turn is A


def test_a_trick_challenge_cannot_be_correct_when_no_trick_was_taken() -> None:
    state = fab(ShowStrip(), PassFlag(A), Challenge(B, ("trick",)))
    with pytest.raises(IllegalAction, match="A took no trick in the challenged turn"):
        apply(state, Rule(CORRECT))


def test_correct_not_involving_a_trick_gives_the_challenger_an_additional_turn() -> None:
    state = fab(ShowStrip(), PassFlag(A), *ruled(B, "show-box", CORRECT), ShowStrip(), PassFlag(B))
    assert state.on_turn is B
    assert state.play is not None and state.play.extra_turns == (0, 0)


def test_always_3_strips_face_up_is_not_challengeable() -> None:
    with pytest.raises(IllegalAction, match="always 3 strips face up is not challengeable"):
        fab(Challenge(A, ("three-strips",)))


def test_three_i_or_ia_lose_every_game_of_the_event() -> None:
    state = fab(
        *ruled(A, "other", INAPPROPRIATE),
        *ruled(A, "other", INAPPROPRIATE),
        *ruled(A, "other", INAPPROPRIATE),
    )
    assert (pending(state).winner, pending(state).how) == (B, How.THREE_STRIKES)


# -- time ------------------------------------------------------------------------------------


def test_at_the_time_limit_the_unfinished_game_goes_to_the_player_with_more_tricks() -> None:
    state = play(won_game(fab(), B), *trick_turn(B), TimeCalled(), ShowStrip(), PassFlag(A))
    assert (pending(state).winner, pending(state).how) == (B, How.TIME_LIMIT)
    assert "1 game not played, counted as tied" in pending(state).detail


def test_at_the_time_limit_games_not_played_count_as_ties() -> None:
    state = fab(*trick_turn(A), TimeCalled(), PassFlag(B))
    assert pending(state).winner is A
    assert "games won: A 1, B 0; tied 2" in pending(state).detail


def test_a_game_ended_during_the_last_turns_after_time_ends_the_match() -> None:
    extra_turn = [*ruled(B, "show-box", CORRECT), ShowStrip(), PassFlag(B)]
    state = shown_out(fab(*trick_turn(A), *extra_turn))
    assert state.on_turn is B  # the second player: both players complete a turn (R231)
    state = play(state, TimeCalled(), DeckOut())
    assert (pending(state).winner, pending(state).how) == (A, How.TIME_LIMIT)
