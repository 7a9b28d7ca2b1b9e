"""The Combo 4 match: All/Call rotation, points, shuffle reminders and the end of time."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.actions import Action
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.border_up import Shout, Verdict
from rules.geoplunge.games.common import DeclarePlunge
from rules.geoplunge.match import (
    DECKS_BETWEEN_MATCHES,
    CallPicks,
    MatchKind,
    MatchState,
    NextGame,
    PlayedGame,
    StartMatch,
    TimeUp,
    TimeUpRule,
    apply_match,
    game_cycle,
    match_kind,
    new_match,
    shuffle_after,
)
from rules.geoplunge.teams import Team

A_WINS_BORDER_UP: tuple[Action, ...] = (
    DeclarePlunge(frozenset({Team.A})),
    Shout(frozenset({Team.A})),
    Verdict(Team.A, valid=True),
)


def _play(state: MatchState, *actions: Action) -> MatchState:
    for action in actions:
        state = apply_match(state, action)
    return state


def _all_match(on_time_up: TimeUpRule = TimeUpRule.ABANDON) -> MatchState:
    return new_match(StartMatch(round=1, on_time_up=on_time_up))


def test_odd_rounds_are_all_matches() -> None:
    assert match_kind(1) is MatchKind.ALL
    assert match_kind(3) is MatchKind.ALL


def test_even_rounds_are_call_matches() -> None:
    assert match_kind(2) is MatchKind.CALL


def test_round_numbers_start_at_one() -> None:
    with pytest.raises(InvalidInput, match="round 0"):
        match_kind(0)


def test_a_log_names_no_round_past_the_last_a_tournament_has() -> None:
    assert match_kind(99) is MatchKind.ALL
    with pytest.raises(InvalidInput, match="round 1000: expected a Combo 4 round 1 to 99"):
        new_match(StartMatch(round=1000))


@pytest.mark.parametrize("minutes", [0, 121, 100_000])
def test_a_match_lasts_1_to_120_minutes(minutes: int) -> None:
    assert new_match(StartMatch(round=1, minutes=120)).minutes == 120
    with pytest.raises(InvalidInput, match=f"match length {minutes} minutes: expected 1 to 120"):
        new_match(StartMatch(round=1, minutes=minutes))


def test_all_match_plays_games_one_to_five() -> None:
    assert game_cycle(MatchKind.ALL) == (1, 2, 3, 4, 5)


def test_rulebook_call_example_picks_3_5_and_2_3_play_2_3_5() -> None:
    assert game_cycle(MatchKind.CALL, ((3, 5), (2, 3))) == (2, 3, 5)


def test_call_match_with_the_same_picks_plays_two_games() -> None:
    assert game_cycle(MatchKind.CALL, ((4, 1), (1, 4))) == (1, 4)


def test_call_match_with_different_picks_plays_four_games() -> None:
    assert game_cycle(MatchKind.CALL, ((5, 1), (2, 3))) == (1, 2, 3, 5)


def test_each_team_picks_exactly_two_different_games() -> None:
    with pytest.raises(InvalidInput, match="team B"):
        game_cycle(MatchKind.CALL, ((1, 2), (3, 3)))
    with pytest.raises(InvalidInput, match="team A"):
        game_cycle(MatchKind.CALL, ((1, 2, 3), (3, 4)))


def test_picks_are_games_one_to_five() -> None:
    with pytest.raises(InvalidInput, match="1 to 5"):
        game_cycle(MatchKind.CALL, ((1, 6), (3, 4)))


def test_call_match_waits_for_picks_before_the_first_game() -> None:
    state = new_match(StartMatch(round=2))
    with pytest.raises(IllegalAction, match="picks"):
        apply_match(state, NextGame())


def _with_played(state: MatchState, number: int | None) -> MatchState:
    assert number is not None
    return replace(state, played=(*state.played, PlayedGame(number, None, frozenset(), (0, 0))))


def test_call_match_rotation_repeats_until_time_is_up() -> None:
    state = _play(new_match(StartMatch(round=2)), CallPicks((3, 5), (2, 3)))
    order = []
    for _ in range(6):
        order.append(state.next_game)
        state = _with_played(state, state.next_game)
    assert order == [2, 3, 5, 2, 3, 5]


def test_all_match_continues_from_game_5_back_to_game_1() -> None:
    state = _all_match()
    for number in (1, 2, 3, 4, 5):
        state = _with_played(state, number)
    assert state.next_game == 1


def test_an_all_match_takes_no_picks() -> None:
    with pytest.raises(IllegalAction):
        apply_match(_all_match(), CallPicks((1, 2), (3, 4)))


def test_game_points_add_up_in_the_match() -> None:
    state = _play(_all_match(), NextGame(), *A_WINS_BORDER_UP)
    assert state.scores == (20, 0)
    assert state.played[0].number == 1


def test_a_game_action_needs_a_game_in_progress() -> None:
    with pytest.raises(IllegalAction, match="NEXT"):
        apply_match(_all_match(), DeclarePlunge(frozenset()))


def test_next_game_waits_for_the_game_in_progress() -> None:
    with pytest.raises(IllegalAction):
        _play(_all_match(), NextGame(), NextGame())


@pytest.mark.parametrize(
    ("game", "decks"),
    [(1, ("GeoPlunge",)), (2, ("GeoPlunge",)), (3, ("Map",)), (4, ("GeoPlunge", "Power"))],
)
def test_shuffle_reminders_after_each_game(game: int, decks: tuple[str, ...]) -> None:
    assert shuffle_after(game) == decks


def test_shuffle_reminder_is_shown_between_games() -> None:
    state = _play(_all_match(), NextGame(), *A_WINS_BORDER_UP)
    assert state.shuffle_reminder == ("GeoPlunge",)


def test_every_deck_is_shuffled_between_matches() -> None:
    state = _play(_all_match(), TimeUp())
    assert state.shuffle_reminder == DECKS_BETWEEN_MATCHES


def test_most_points_wins_the_match() -> None:
    state = _play(_all_match(), NextGame(), *A_WINS_BORDER_UP, TimeUp())
    assert state.result is not None
    assert state.result.winner is Team.A
    assert state.result.scores == (20, 0)


def test_equal_points_is_a_tied_match() -> None:
    state = _play(_all_match(), TimeUp())
    assert state.result is not None and state.result.winner is None


def test_time_up_abandon_the_unfinished_game_scores_nothing() -> None:
    state = _play(_all_match(), NextGame(), DeclarePlunge(frozenset()), TimeUp())
    assert state.over
    assert state.played[-1].result is None
    assert state.scores == (0, 0)


def test_time_up_tie_the_unfinished_game_is_five_each() -> None:
    state = _play(_all_match(TimeUpRule.TIE), NextGame(), TimeUp())
    assert state.over
    assert state.scores == (5, 5)


def test_time_up_finish_the_game_in_progress_is_played_out() -> None:
    state = _play(_all_match(TimeUpRule.FINISH), NextGame(), TimeUp())
    assert not state.over
    with pytest.raises(IllegalAction):
        apply_match(_play(state, *A_WINS_BORDER_UP[:1]), NextGame())
    state = _play(state, *A_WINS_BORDER_UP)
    assert state.over
    assert state.scores == (20, 0)


def test_no_game_starts_after_time_is_up() -> None:
    state = _play(_all_match(TimeUpRule.FINISH), TimeUp())
    assert state.over
    with pytest.raises(GameOver):
        apply_match(state, NextGame())


def test_a_finished_match_accepts_no_action() -> None:
    with pytest.raises(GameOver):
        apply_match(_play(_all_match(), TimeUp()), TimeUp())


def test_match_length_is_at_least_a_minute() -> None:
    with pytest.raises(InvalidInput, match="minutes"):
        new_match(StartMatch(round=1, minutes=0))
