"""Game 2, State IQ (Level 3): one card each, up to 3 guesses, fewer guesses wins."""

from __future__ import annotations

import pytest

from rules.actions import Action
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.common import (
    DeclarePlunge,
    DrawWinner,
    GameContext,
    GameRules,
    StatehoodDraw,
)
from rules.geoplunge.games.level3.state_iq import StateIQLevel3, StateIQLevel3State
from rules.geoplunge.games.state_iq import StateIQGuess, StateIQPower
from rules.geoplunge.teams import Team

A, B = Team.A, Team.B
RULES = StateIQLevel3()

_protocol_check: GameRules[StateIQLevel3State] = RULES  # mypy: a GameRules


def play(*actions: Action, state: StateIQLevel3State | None = None) -> StateIQLevel3State:
    state = state if state is not None else RULES.start(GameContext(level=3))
    for action in actions:
        state = RULES.apply(state, action)
    return state


def ready(order: str = "BAC") -> StateIQLevel3State:
    """Team A guesses first (Delaware, statehood 1, beats Hawaii, 50)."""
    return play(StatehoodDraw(a="DE", b="HI"), DeclarePlunge(frozenset()), StateIQPower(order))


def guesses(state: StateIQLevel3State, team: Team, *verdicts: bool) -> StateIQLevel3State:
    return play(*(StateIQGuess(team, verdict) for verdict in verdicts), state=state)


def game(first: tuple[bool, ...], second: tuple[bool, ...]) -> StateIQLevel3State:
    return guesses(guesses(ready(), A, *first), B, *second)


# Determining who guesses first and the set-up


def test_state_iq_level_3_is_game_2() -> None:
    assert (RULES.number, RULES.key, RULES.title) == (2, "state_iq", "State IQ")


def test_level_3_rules_refuse_a_level_4_start() -> None:
    with pytest.raises(InvalidInput, match="expected level 3"):
        RULES.start(GameContext(level=4))


def test_statehood_rank_closer_to_1_guesses_first() -> None:
    assert play(StatehoodDraw(a="HI", b="DE")).first_team is B


def test_the_dealer_may_enter_the_draw_winner() -> None:
    assert play(DrawWinner(first=B)).first_team is B


def test_phases_run_draw_plunge_power_guessing() -> None:
    state = RULES.start(GameContext(level=3))
    assert state.phase == "draw"
    state = play(DrawWinner(first=A), state=state)
    assert state.phase == "plunge"
    state = play(DeclarePlunge(frozenset({A})), state=state)
    assert state.phase == "power"
    assert play(StateIQPower("CAB"), state=state).phase == "guessing"


# Rulebook example: with BAC, B before the first guess, A before the second, C before the third


def test_rulebook_example_bac_gives_b_then_a_then_c() -> None:
    state = ready("BAC")
    assert state.next_clue_type == "B"
    state = guesses(state, A, False)
    assert state.next_clue_type == "A"
    state = guesses(state, A, False)
    assert state.next_clue_type == "C"


def test_the_second_team_uses_the_same_power_card() -> None:
    state = guesses(ready("BAC"), A, True)
    assert (state.guessing_team, state.next_clue_type) == (B, "B")


# Each team has up to 3 guesses at one card


def test_the_first_team_stops_after_a_correct_guess() -> None:
    state = guesses(ready(), A, False, True)
    assert (state.guessing_team, state.clue_giving_team, state.guess_number) == (B, A, 1)


def test_the_first_team_stops_after_three_misses() -> None:
    state = guesses(ready(), A, False, False, False)
    assert state.guessing_team is B


def test_only_the_guessing_team_guesses() -> None:
    with pytest.raises(IllegalAction, match="expected Team A to guess"):
        guesses(ready(), B, True)


# Whichever team guesses in fewer guesses wins


def test_fewer_guesses_wins() -> None:
    state = game((False, True), (False, False))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_the_second_team_wins_with_fewer_guesses() -> None:
    state = game((False, False, True), (False, True))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)


def test_a_team_that_guesses_beats_a_team_that_does_not() -> None:
    state = game((False, False, False), (False, False, True))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)


# The Bonus Points: a correct first guess


def test_a_winning_first_guess_earns_the_bonus() -> None:
    state = game((True,), (False,))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)


def test_the_second_team_winning_on_its_first_guess_earns_the_bonus() -> None:
    state = game((False, True), (True,))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


# Ties


def test_neither_team_guessing_is_a_tie() -> None:
    state = game((False, False, False), (False, False, False))
    assert state.result is not None and state.result.winner is None


def test_the_same_number_of_guesses_is_a_tie() -> None:
    state = game((False, True), (False, True))
    assert state.result is not None and state.result.winner is None


def test_both_guessing_first_time_is_a_tie_without_bonus() -> None:
    state = game((True,), (True,))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (None, False)


# The second guessing team stops once it has won or lost


def test_the_second_team_stops_once_it_cannot_need_fewer_or_equal_guesses() -> None:
    state = game((True,), (False,))
    assert state.result is not None
    assert state.result.winner is A
    assert len(state.second_guesses) == 1


def test_the_second_team_keeps_guessing_while_it_can_still_tie() -> None:
    state = game((False, False, True), (False, False))
    assert state.result is None
    assert state.guessing_team is B


def test_the_second_team_stops_when_it_guesses_correctly() -> None:
    state = game((False, False, False), (True,))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_a_finished_game_accepts_no_guess() -> None:
    state = game((True,), (False,))
    with pytest.raises(GameOver):
        guesses(state, B, True)


# The states named, when the dealer enters them


def test_a_correct_guess_cannot_name_a_state_already_guessed_wrong() -> None:
    state = play(StateIQGuess(A, False, "TX"), state=ready())
    with pytest.raises(InvalidInput, match="TX was already guessed wrong"):
        play(StateIQGuess(A, True, "Texas"), state=state)


def test_the_two_cards_are_different_states() -> None:
    state = play(StateIQGuess(A, True, "OH"), state=ready())
    with pytest.raises(InvalidInput, match="OH is Team B's own card"):
        play(StateIQGuess(B, True, "OH"), state=state)


def test_a_guessed_state_is_kept_as_its_postal_code() -> None:
    state = play(StateIQGuess(A, True, "Ohio"), state=ready())
    assert state.first_guesses[0].state == "OH"
