"""The Combo 3 match: morning rounds in order, afternoon picks alternating, points, time up."""

from __future__ import annotations

import pytest

from rules.actions import Action, decode, encode
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.border_up import Shout, Verdict
from rules.geoplunge.games.common import DeclarePlunge, DrawWinner, StatehoodDraw
from rules.geoplunge.games.game4 import ChooseVersion
from rules.geoplunge.match import NextGame, TimeUp, TimeUpRule
from rules.geoplunge.match3 import (
    AfternoonPicks,
    DayPart,
    Match3State,
    StartMatch3,
    apply_match3,
    day_part,
    game_cycle,
    new_match3,
    round_minutes,
)
from rules.geoplunge.power import Game4Version
from rules.geoplunge.scoring import GameResult, score_game
from rules.geoplunge.teams import Team

A, B = Team.A, Team.B


def play(state: Match3State, *actions: Action) -> Match3State:
    for action in actions:
        state = apply_match3(state, action)
    return state


def border_up_won_by(team: Team, plunging: frozenset[Team] = frozenset()) -> tuple[Action, ...]:
    return (DeclarePlunge(plunging), Shout(frozenset({team})), Verdict(team, valid=True))


def afternoon(first: int = 5, second: int = 1) -> Match3State:
    """Round 5: Team B's card is closer to statehood 1, so B picks first."""
    return play(new_match3(StartMatch3(round=5)), DrawWinner(B), AfternoonPicks(first, second))


# Rounds: four morning rounds of 20 minutes, four afternoon rounds of 12


def test_rounds_1_to_4_are_morning_rounds() -> None:
    assert [day_part(n) for n in (1, 2, 3, 4)] == [DayPart.MORNING] * 4


def test_rounds_5_to_8_are_afternoon_rounds() -> None:
    assert [day_part(n) for n in (5, 6, 7, 8)] == [DayPart.AFTERNOON] * 4


def test_combo_3_has_eight_rounds() -> None:
    with pytest.raises(InvalidInput, match="round 9: expected a Combo 3 round 1 to 8"):
        day_part(9)
    with pytest.raises(InvalidInput, match="round 0"):
        new_match3(StartMatch3(round=0))


def test_morning_rounds_last_20_minutes_and_afternoon_rounds_12() -> None:
    assert (round_minutes(1), round_minutes(5)) == (20, 12)
    assert new_match3(StartMatch3(round=8)).minutes == 12


def test_a_tournament_may_set_another_length() -> None:
    assert new_match3(StartMatch3(round=1, minutes=25)).minutes == 25
    with pytest.raises(InvalidInput, match="expected 1 to 120"):
        new_match3(StartMatch3(round=1, minutes=0))
    with pytest.raises(InvalidInput, match="expected 1 to 120"):
        new_match3(StartMatch3(round=1, minutes=100_000))


# Morning rounds: every game in order, repeating


def test_a_morning_round_plays_games_1_to_5_in_order() -> None:
    state = new_match3(StartMatch3(round=2))
    assert (state.phase, state.cycle) == ("between_games", (1, 2, 3, 4, 5))


def test_a_morning_round_starts_with_border_up_at_level_3() -> None:
    state = play(new_match3(StartMatch3(round=1)), NextGame())
    assert (state.current_number, state.current.phase) == (1, "plunge")


def test_a_morning_round_takes_no_picks() -> None:
    with pytest.raises(IllegalAction, match="morning round"):
        apply_match3(new_match3(StartMatch3(round=1)), AfternoonPicks(1, 2))


def test_a_morning_round_takes_no_statehood_draw_between_games() -> None:
    with pytest.raises(IllegalAction, match="morning round"):
        apply_match3(new_match3(StartMatch3(round=1)), DrawWinner(A))


def test_the_morning_order_repeats_after_game_5() -> None:
    state = new_match3(StartMatch3(round=1))
    assert game_cycle(1) == (1, 2, 3, 4, 5)
    state = play(state, NextGame(), *border_up_won_by(A))
    assert state.next_game == 2


# Afternoon rounds: the draw winner picks first, the other team a different game


def test_an_afternoon_round_starts_with_the_statehood_draw() -> None:
    state = new_match3(StartMatch3(round=5))
    assert state.phase == "draw"
    with pytest.raises(IllegalAction, match="expected the statehood draw"):
        apply_match3(state, NextGame())


def test_the_team_whose_card_is_closer_to_statehood_1_chooses_first() -> None:
    state = apply_match3(new_match3(StartMatch3(round=6)), StatehoodDraw(a="HI", b="DE"))
    assert (state.chooser, state.phase) == (B, "picks")


def test_the_picks_come_after_the_draw() -> None:
    with pytest.raises(IllegalAction, match="expected the statehood draw first"):
        apply_match3(new_match3(StartMatch3(round=5)), AfternoonPicks(3, 5))


def test_the_other_team_picks_a_different_game() -> None:
    state = apply_match3(new_match3(StartMatch3(round=5)), DrawWinner(A))
    with pytest.raises(InvalidInput, match="expected the other team to pick a different game"):
        apply_match3(state, AfternoonPicks(3, 3))


def test_picks_are_game_numbers_1_to_5() -> None:
    state = apply_match3(new_match3(StartMatch3(round=5)), DrawWinner(A))
    with pytest.raises(InvalidInput, match="game 6"):
        apply_match3(state, AfternoonPicks(6, 3))


def test_the_two_picked_games_are_played_in_the_order_chosen() -> None:
    assert afternoon(5, 1).cycle == (5, 1)
    assert afternoon(1, 5).cycle == (1, 5)


def test_the_two_picked_games_alternate_until_the_round_ends() -> None:
    state = afternoon(1, 3)
    numbers = []
    for _ in range(3):
        numbers.append(state.next_game)
        state = apply_match3(state, NextGame())
        if state.current_number == 1:
            state = play(state, *border_up_won_by(A))
        else:
            race = decode({"action": "dashing.race", "shouters": ["B"], "b_met": True})
            state = play(state, DeclarePlunge(frozenset()), race, race)
    assert numbers == [1, 3, 1]
    assert state.next_game == 3


def test_the_picks_are_made_once() -> None:
    with pytest.raises(IllegalAction, match="picked once"):
        apply_match3(afternoon(), AfternoonPicks(2, 3))


def test_the_draw_is_made_once() -> None:
    with pytest.raises(IllegalAction, match="made once"):
        apply_match3(afternoon(), DrawWinner(A))


# Points, as in Combo 4


def test_a_game_won_with_the_bonus_and_both_plunging_earns_40_points() -> None:
    state = play(
        afternoon(1, 2),
        NextGame(),
        DeclarePlunge(frozenset({A, B})),
        Shout(frozenset({A})),
        Verdict(A, valid=False),
    )
    assert state.played[-1].points == (0, 40)
    assert state.scores == (0, 40)


def test_the_team_with_more_points_wins_the_match() -> None:
    state = play(afternoon(1, 2), NextGame(), *border_up_won_by(A), TimeUp())
    assert state.over
    assert state.result is not None
    assert (state.result.winner, state.result.scores) == (A, (10, 0))


def test_equal_points_tie_the_match() -> None:
    state = play(afternoon(), TimeUp())
    assert state.result is not None
    assert (state.result.winner, state.result.scores) == (None, (0, 0))


# Game 4's first lead and the end of time


def test_game_4_is_led_by_the_most_recent_games_winner() -> None:
    state = play(afternoon(1, 4), NextGame(), *border_up_won_by(B), NextGame())
    state = apply_match3(state, ChooseVersion(Game4Version.PTB))
    assert (state.current_number, state.current.lead, state.current.phase) == (4, B, "plunge")


def test_game_4_picked_first_needs_a_statehood_draw() -> None:
    state = play(afternoon(4, 1), NextGame(), ChooseVersion(Game4Version.PTR1))
    assert state.current.phase == "statehood_draw"


def test_time_up_abandons_the_game_in_progress_by_default() -> None:
    state = play(afternoon(), NextGame(), DeclarePlunge(frozenset({A})), TimeUp())
    assert state.over
    assert state.played[-1].result is None
    assert state.scores == (0, 0)


def test_time_up_may_finish_the_game_in_progress() -> None:
    start = StartMatch3(round=1, on_time_up=TimeUpRule.FINISH)
    state = play(new_match3(start), NextGame(), DeclarePlunge(frozenset()), TimeUp())
    assert not state.over
    state = play(state, Shout(frozenset({A})), Verdict(A, valid=True))
    assert state.over and state.scores == (10, 0)


def test_time_up_may_score_the_game_in_progress_as_a_tie() -> None:
    start = StartMatch3(round=1, on_time_up=TimeUpRule.TIE)
    state = play(new_match3(start), NextGame(), TimeUp())
    assert state.scores == (5, 5)


def test_a_finished_match_accepts_no_action() -> None:
    with pytest.raises(GameOver):
        apply_match3(play(afternoon(), TimeUp()), NextGame())


def test_game_actions_need_a_game_in_progress() -> None:
    with pytest.raises(IllegalAction, match="needs a game in progress"):
        apply_match3(afternoon(), DeclarePlunge(frozenset()))


def test_the_next_game_waits_for_the_end_of_this_one() -> None:
    with pytest.raises(IllegalAction, match="during a game"):
        play(afternoon(), NextGame(), NextGame())


def test_the_shuffle_reminder_follows_each_game() -> None:
    state = play(afternoon(1, 2), NextGame(), *border_up_won_by(A))
    assert state.shuffle_reminder == ("GeoPlunge",)


def test_match3_actions_round_trip_through_their_log_form() -> None:
    for action in (StartMatch3(round=5), StartMatch3(3, 20, TimeUpRule.TIE), AfternoonPicks(3, 5)):
        assert decode(encode(action)) == action
    expected = {"action": "match3.afternoon_picks", "first": 3, "second": 5}
    assert encode(AfternoonPicks(3, 5)) == expected


def test_rulebook_example_a_bonus_with_both_teams_plunging_is_40_points() -> None:
    assert score_game(GameResult(A, bonus=True), frozenset({A, B})) == {A: 40, B: 0}
