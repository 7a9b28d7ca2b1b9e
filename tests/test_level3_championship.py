"""The Combo 3 championship match: four games once, most games won, early end, tie-breaker."""

from __future__ import annotations

import pytest

from rules.actions import Action, decode, encode
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.championship import (
    DEFAULT_GAMES,
    ChampionshipState,
    StartChampionship,
    apply_championship,
    leader_beyond_reach,
    new_championship,
)
from rules.geoplunge.games.border_up import Shout, Verdict
from rules.geoplunge.games.border_zap import ZapResult
from rules.geoplunge.games.common import DeclarePlunge, DrawWinner
from rules.geoplunge.games.dashing_states import DashingRace
from rules.geoplunge.games.game4 import ChooseVersion
from rules.geoplunge.games.play_the_ranks import TurnPowerCards
from rules.geoplunge.games.state_iq import StateIQGuess, StateIQPower
from rules.geoplunge.match import NextGame, TimeUp
from rules.geoplunge.power import Game4Version
from rules.geoplunge.teams import Team

A, B = Team.A, Team.B
NOBODY: frozenset[Team] = frozenset()
Outcome = Team | None  # a game's winner; None a tie


def border_up(winner: Outcome) -> tuple[Action, ...]:
    if winner is None:
        return (DeclarePlunge(NOBODY), Shout(frozenset({A, B})), Verdict(A, True), Verdict(B, True))
    return (DeclarePlunge(NOBODY), Shout(frozenset({winner})), Verdict(winner, valid=True))


def state_iq(winner: Outcome) -> tuple[Action, ...]:
    """Team A guesses first: right at once unless Team B is to win, then Team B guesses."""
    first = (True,) if winner is not B else (False, False, False)
    second = (winner is not A,)
    return (
        DrawWinner(A),
        DeclarePlunge(NOBODY),
        StateIQPower("ABC"),
        *(StateIQGuess(A, correct) for correct in first),
        *(StateIQGuess(B, correct) for correct in second),
    )


def dashing(winner: Outcome) -> tuple[Action, ...]:
    if winner is None:
        tie = DashingRace(frozenset({A, B}), a_met=True, b_met=True)
        return (DeclarePlunge(NOBODY), tie, tie)
    race = DashingRace(
        frozenset({winner}),
        a_met=True if winner is A else None,
        b_met=True if winner is B else None,
    )
    return (DeclarePlunge(NOBODY), race, race)


def game4(winner: Outcome) -> tuple[Action, ...]:
    """PTB judged at the table; a tie is impossible, so ``winner`` is a team."""
    assert winner is not None
    return (ChooseVersion(Game4Version.PTB), DeclarePlunge(NOBODY), *[ZapResult(winner)] * 5)


GAME_ACTIONS = {1: border_up, 2: state_iq, 3: dashing, 4: game4}


def championship(*winners: Outcome, games: tuple[int, ...] = DEFAULT_GAMES) -> ChampionshipState:
    """Play the championship games in order with these winners (fewer: stop early)."""
    state = new_championship(StartChampionship(games))
    for number, winner in zip(games, winners, strict=False):
        state = apply_championship(state, NextGame())
        for action in GAME_ACTIONS[number](winner):
            state = apply_championship(state, action)
    return state


def tiebreaker(state: ChampionshipState, winner: Outcome) -> ChampionshipState:
    state = apply_championship(state, NextGame())
    for action in border_up(winner):
        state = apply_championship(state, action)
    return state


# Which games, in which order


def test_the_championship_plays_games_1_to_4_by_default() -> None:
    state = new_championship(StartChampionship())
    assert (state.games, state.next_game, state.phase) == ((1, 2, 3, 4), 1, "between_games")


def test_the_championship_games_are_configurable() -> None:
    state = new_championship(StartChampionship(games=(5, 1, 3)))
    assert state.next_game == 5


def test_each_championship_game_is_played_once() -> None:
    with pytest.raises(InvalidInput, match="each game once"):
        new_championship(StartChampionship(games=(1, 1, 2, 3)))


def test_championship_games_are_numbered_1_to_5() -> None:
    with pytest.raises(InvalidInput, match="game 6"):
        new_championship(StartChampionship(games=(1, 6)))
    with pytest.raises(InvalidInput, match="no championship games"):
        new_championship(StartChampionship(games=()))


def test_championship_games_are_level_3_games() -> None:
    state = apply_championship(new_championship(StartChampionship(games=(4,))), NextGame())
    state = apply_championship(state, ChooseVersion(Game4Version.PTR1))
    state = apply_championship(state, DrawWinner(A))
    with pytest.raises(InvalidInput, match="the two cards turned face-up"):
        apply_championship(state, TurnPowerCards((1, 30, 50)))
    assert apply_championship(state, TurnPowerCards((1, 30))).current.phase == "plunge"


# The most games won; the early end


def test_the_team_that_wins_more_games_is_champion() -> None:
    state = championship(A, B, A, A)
    assert (state.champion, state.wins(A), state.wins(B), state.over) == (A, 3, 1, True)


def test_rulebook_example_winning_the_first_three_games_ends_the_match() -> None:
    state = championship(B, B, B)
    assert (state.champion, state.phase, state.not_played) == (B, "over", (4,))


def test_rulebook_example_two_of_the_first_three_and_a_tie_ends_the_match() -> None:
    state = championship(A, None, A)
    assert (state.champion, state.not_played) == (A, (4,))


def test_two_wins_to_one_after_three_games_plays_the_fourth() -> None:
    state = championship(A, B, A)
    assert (state.champion, state.next_game) == (None, 4)


def test_two_wins_after_two_games_plays_the_third() -> None:
    state = championship(A, A)
    assert (state.champion, state.next_game) == (None, 3)


def test_one_win_and_two_ties_plays_the_fourth() -> None:
    state = championship(A, None, None)
    assert (state.champion, state.next_game) == (None, 4)


def test_a_lead_is_decisive_only_when_larger_than_the_games_left() -> None:
    assert leader_beyond_reach(3, 0, 1) is A
    assert leader_beyond_reach(2, 0, 2) is None
    assert leader_beyond_reach(0, 2, 1) is B
    assert leader_beyond_reach(1, 1, 0) is None


# The tie-breaker


def test_equal_wins_after_all_four_games_go_to_a_border_up_tiebreaker() -> None:
    state = championship(A, B, A, B)
    assert (state.champion, state.phase, state.next_game) == (None, "tiebreaker", 1)


def test_the_tiebreaker_winner_is_champion() -> None:
    state = tiebreaker(championship(A, B, A, B), B)
    assert (state.champion, state.over) == (B, True)
    assert state.played[-1].tiebreaker
    assert (state.wins(A), state.wins(B)) == (2, 2)


def test_a_tied_tiebreaker_is_played_again() -> None:
    state = tiebreaker(championship(A, B, A, B), None)
    assert (state.champion, state.phase) == (None, "tiebreaker")
    state = tiebreaker(state, A)
    assert state.champion is A


# What the championship does not have


def test_the_championship_has_no_clock() -> None:
    with pytest.raises(IllegalAction, match="no time limit"):
        apply_championship(new_championship(StartChampionship()), TimeUp())


def test_a_decided_championship_accepts_no_action() -> None:
    with pytest.raises(GameOver):
        apply_championship(championship(B, B, B), NextGame())


def test_the_next_game_waits_for_the_end_of_this_one() -> None:
    state = apply_championship(new_championship(StartChampionship()), NextGame())
    with pytest.raises(IllegalAction, match="expected the end of this game"):
        apply_championship(state, NextGame())


def test_game_actions_need_a_game_in_progress() -> None:
    with pytest.raises(IllegalAction, match="needs a game in progress"):
        apply_championship(new_championship(StartChampionship()), DeclarePlunge(NOBODY))


def test_game_4_is_led_by_the_most_recent_games_winner() -> None:
    state = apply_championship(championship(A, B, B), NextGame())
    assert state.current_number == 4
    assert state.current.lead is B


def test_championship_start_round_trips_through_its_log_form() -> None:
    action = StartChampionship(games=(2, 1, 4, 3))
    assert encode(action) == {
        "action": "championship.start",
        "games": [2, 1, 4, 3],
        "ptr_early_end": True,
    }
    assert decode(encode(action)) == action
