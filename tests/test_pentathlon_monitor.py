"""The monitor's game state machine, common to every game: who begins, the flag, one-minute
turns, challenges and their rulings, opinions, three I/IA, time, and the monitor's confirmation.
"""

from __future__ import annotations

import pytest

from rules.errors import GameOver, IllegalAction, InvalidInput, InvalidLog
from rules.pentathlon.catalogue import Game
from rules.pentathlon.challenges import Official
from rules.pentathlon.contig import ContigPlay
from rules.pentathlon.monitor import apply, start
from rules.pentathlon.monitor_actions import (
    Begins,
    Challenge,
    Confirm,
    DeclareWin,
    DieToss,
    ForfeitTurn,
    Opinion,
    PassFlag,
    Rule,
    StartPentathlon,
    StripDraw,
    TimeCalled,
    TurnTimeout,
    start_action,
)
from rules.pentathlon.queens_guards import MovePiece
from rules.pentathlon.results import How
from tests.pentathlon_helpers import (
    CORRECT,
    INAPPROPRIATE,
    INCORRECT,
    A,
    B,
    game_of,
    new_game,
    play,
    ruled,
    turns,
)

CONTIG, QUEENS, STARS = Game.CONTIG_60, Game.QUEENS_AND_GUARDS, Game.STARS_AND_BARS

# -- the start -------------------------------------------------------------------------------


def test_contig_60_the_lower_die_toss_begins() -> None:
    state = game_of(CONTIG, DieToss(5, 2))
    assert (state.phase, state.on_turn) == ("play", B)


def test_juggle_the_lower_die_toss_begins() -> None:
    assert game_of(Game.JUGGLE, DieToss(1, 6)).on_turn is A


def test_equal_die_tosses_are_recorded_and_tossed_again() -> None:
    """Rulebook: "Players each toss one of the die. The player with the lower toss receives
    Scoring Flag Card": equal tosses decide nothing; they are recorded (R788)."""
    state = game_of(CONTIG, DieToss(4, 4))
    assert (state.phase, state.start_entries) == ("begin", (DieToss(4, 4),))
    state = play(state, DieToss(3, 2))
    assert (state.on_turn, len(state.start_entries)) == (B, 2)


def test_a_die_toss_is_one_to_six() -> None:
    with pytest.raises(InvalidInput, match="die toss 7: expected 1 to 6"):
        game_of(CONTIG, DieToss(7, 1))


def test_fab_a_diffy_the_lower_strip_begins() -> None:
    assert game_of(Game.FAB_A_DIFFY, StripDraw("3/4", "5/12")).on_turn is B


def test_fab_a_diffy_equal_strips_are_recorded_and_drawn_again() -> None:
    state = game_of(Game.FAB_A_DIFFY, StripDraw("1/2", "6/12"))
    assert (state.phase, state.start_entries) == ("begin", (StripDraw("1/2", "6/12"),))


def test_queens_and_guards_the_chip_in_hand_is_the_monitors_verdict() -> None:
    assert game_of(QUEENS, Begins(B)).on_turn is B


def test_stars_and_bars_a_die_toss_is_not_how_it_begins() -> None:
    with pytest.raises(IllegalAction, match="Stars & Bars begins by first-star-card"):
        game_of(STARS, DieToss(1, 2))


def test_nothing_is_played_before_who_begins_is_entered() -> None:
    state = new_game(CONTIG)
    assert state.phase == "begin"
    with pytest.raises(IllegalAction):
        apply(state, ContigPlay(3))


def test_a_log_starts_with_pentathlon_start_only() -> None:
    with pytest.raises(InvalidLog, match=r"starts with pentathlon\.start"):
        start(Begins(A))
    with pytest.raises(InvalidLog, match="only starts a log"):
        apply(new_game(CONTIG), start_action(CONTIG, 30, chips=20))


def test_the_time_limit_is_configuration_of_the_start() -> None:
    with pytest.raises(InvalidInput, match="time limit 0 minutes"):
        start(StartPentathlon(QUEENS, 0))


def test_contig_60_needs_its_chips_in_the_start() -> None:
    with pytest.raises(InvalidInput, match="contig-60 chips None"):
        start(StartPentathlon(CONTIG, 30))


def test_options_of_another_game_are_refused() -> None:
    with pytest.raises(InvalidInput, match="only contig-60 takes chips"):
        start(StartPentathlon(STARS, 30, chips=20))
    with pytest.raises(InvalidInput, match="only fab-a-diffy takes partitions"):
        start(StartPentathlon(STARS, 30, partitions=(2, 3)))


def test_fab_a_diffy_states_its_partitions_in_the_log() -> None:
    assert start_action(Game.FAB_A_DIFFY, 30).partitions == (2, 3, 4, 6, 12)
    with pytest.raises(InvalidInput, match="fab-a-diffy needs partitions"):
        start(StartPentathlon(Game.FAB_A_DIFFY, 30))


# -- the flag --------------------------------------------------------------------------------


def test_the_player_with_the_flag_is_on_turn_and_passing_it_ends_the_turn() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), PassFlag(A))
    assert (state.on_turn, state.play is not None and state.play.played) == (B, False)


def test_only_the_flag_holder_passes_the_flag() -> None:
    with pytest.raises(IllegalAction, match="B does not hold the flag card: A does"):
        game_of(QUEENS, Begins(A), PassFlag(B))


def test_a_round_is_the_beginning_players_turn_and_the_second_players() -> None:
    state = game_of(QUEENS, Begins(B), *turns(B, 3))
    assert state.play is not None and state.play.round == 2


# -- one-minute turns ------------------------------------------------------------------------


def test_each_turn_has_a_number_that_the_next_turn_counts_on() -> None:
    state = game_of(CONTIG, Begins(A), *turns(A, 3))
    assert state.play is not None and state.play.turn == 4


def test_a_turn_begun_afresh_by_a_correct_challenger_is_a_new_turn() -> None:
    state = game_of(QUEENS, Begins(A), PassFlag(A), *ruled(B, "move", CORRECT))
    assert state.on_turn is B
    assert state.play is not None and state.play.turn == 3  # B's turn 2, begun again


def test_a_turn_that_goes_on_after_an_ia_ruling_keeps_its_number() -> None:
    state = game_of(QUEENS, Begins(A), PassFlag(A), *ruled(B, "move", INAPPROPRIATE))
    assert state.play is not None and state.play.turn == 2


def test_a_turn_timeout_has_the_monitor_remind_the_player() -> None:
    state = game_of(QUEENS, Begins(A), TurnTimeout())
    assert state.play is not None and state.play.overtime
    assert state.on_turn is A


def test_a_player_who_does_not_take_the_turn_after_the_reminder_forfeits_it() -> None:
    state = game_of(QUEENS, Begins(A), TurnTimeout(), ForfeitTurn())
    assert state.on_turn is B
    assert state.play is not None and state.play.forfeited == (1, 0)


def test_a_turn_is_forfeited_only_after_the_minute() -> None:
    with pytest.raises(IllegalAction, match="A's minute is not up"):
        game_of(QUEENS, Begins(A), ForfeitTurn())


def test_a_player_who_plays_after_the_reminder_finishes_the_turn() -> None:
    with pytest.raises(IllegalAction, match="has played since the reminder"):
        game_of(QUEENS, Begins(A), TurnTimeout(), MovePiece(), ForfeitTurn())


# -- challenges ------------------------------------------------------------------------------


def test_a_challenge_of_several_rules_is_one_record_per_rule_ruled_in_the_order_announced() -> None:
    state = game_of(
        CONTIG,
        DieToss(1, 2),
        ContigPlay(4),
        PassFlag(A),
        Challenge(B, ("announcing", "scoring")),
        Rule(INCORRECT),
    )
    assert [(r.number, r.rule, r.ruling) for r in state.challenges] == [
        (1, "announcing", INCORRECT),
        (2, "scoring", None),
    ]
    assert state.phase == "challenge"
    state = play(state, Rule(INAPPROPRIATE))
    assert [r.ruling for r in state.challenges] == [INCORRECT, INAPPROPRIATE]
    assert {r.announcement for r in state.challenges} == {1}


@pytest.mark.parametrize(
    ("rule", "reason"),
    [
        ("start", "the starting rules are not challengeable"),
        ("flag", "passing of the flag card is not challengeable"),
        ("time", "time (the one-minute turn, the game time limit) is not challengeable"),
    ],
)
def test_start_flag_and_time_are_not_challengeable_and_nothing_is_recorded(
    rule: str, reason: str
) -> None:
    state = game_of(CONTIG, DieToss(1, 2))
    with pytest.raises(IllegalAction, match=reason.replace("(", r"\(").replace(")", r"\)")):
        apply(state, Challenge(B, (rule,)))


def test_a_games_own_not_challengeable_topics_are_refused() -> None:
    with pytest.raises(IllegalAction, match="say 'Trap', not 'Challenge'"):
        game_of(QUEENS, Begins(A), Challenge(B, ("trap-call",)))


def test_an_unknown_rule_names_the_games_challengeable_rules() -> None:
    with pytest.raises(InvalidInput, match="Contig 60's challengeable rules are recording, "):
        game_of(CONTIG, DieToss(1, 2), Challenge(B, ("dancing",)))


def test_a_challenge_stops_the_clocks_until_it_is_ruled() -> None:
    state = game_of(QUEENS, Begins(A), Challenge(A, ("other",)))
    assert state.clocks_stopped
    for action in (TimeCalled(), TurnTimeout(), PassFlag(A)):
        with pytest.raises(IllegalAction, match="waiting for the monitor's ruling"):
            apply(state, action)
    assert not play(state, Rule(INAPPROPRIATE)).clocks_stopped


def test_incorrect_is_a_loss_of_turn() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), PassFlag(A), *ruled(B, "move", INCORRECT))
    assert state.on_turn is A
    assert state.challenges[0].effect.startswith("loss of turn: the flag card passes to A")


def test_inappropriate_is_recorded_with_no_loss_of_turn() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), PassFlag(A), *ruled(B, "move", INAPPROPRIATE))
    assert state.on_turn is B
    assert state.challenges[0].effect.startswith("recorded; no loss of turn")


def test_correct_the_challenger_begins_a_turn() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), *ruled(B, "move", CORRECT))
    assert state.on_turn is B
    assert "B begins a turn" in state.challenges[0].effect


def test_incorrect_while_not_holding_the_flag_loses_the_next_turn() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), *ruled(B, "move", INCORRECT), PassFlag(A))
    assert state.on_turn is A
    assert state.play is not None and state.play.turns_lost == (0, 1)


def test_a_rule_the_rulebook_allows_only_one_ruling_on_refuses_the_others() -> None:
    state = game_of(STARS, Begins(A), Challenge(A, ("stack-not-turned",)))
    with pytest.raises(IllegalAction, match="the ruling is IA"):
        apply(state, Rule(CORRECT))
    assert play(state, Rule(INAPPROPRIATE)).challenges[0].ruling is INAPPROPRIATE


# -- three I/IA ------------------------------------------------------------------------------


def test_three_i_or_ia_in_any_combination_end_the_game_as_a_loss() -> None:
    state = game_of(
        QUEENS,
        Begins(A),
        *ruled(B, "move", INAPPROPRIATE),
        *ruled(B, "other", INCORRECT),
        PassFlag(A),
        *ruled(B, "traps", INAPPROPRIATE),
    )
    assert state.phase == "result"
    assert state.play is not None and state.play.pending is not None
    assert (state.play.pending.winner, state.play.pending.how) == (A, How.THREE_STRIKES)
    assert play(state, Confirm()).result == state.play.pending


def test_the_monitor_warns_after_the_first_and_second_i_or_ia() -> None:
    state = game_of(QUEENS, Begins(A), *ruled(B, "move", INAPPROPRIATE))
    assert state.strikes(B) == 1
    assert state.warning(B) == "1 I/IA so far: 2 more end the game as a loss"
    state = play(state, *ruled(B, "move", INAPPROPRIATE))
    assert state.warning(B) == "2 I/IA so far: 1 more ends the game as a loss"
    assert state.warning(A) is None


def test_correct_rulings_do_not_count_towards_three() -> None:
    state = game_of(QUEENS, Begins(A), *[a for _ in range(3) for a in ruled(B, "move", CORRECT)])
    assert (state.strikes(B), state.phase) == (0, "play")


def test_the_third_i_or_ia_within_one_announcement_leaves_the_rest_unruled() -> None:
    state = game_of(
        QUEENS,
        Begins(A),
        *ruled(B, "move", INAPPROPRIATE),
        *ruled(B, "move", INAPPROPRIATE),
        Challenge(B, ("traps", "other")),
        Rule(INCORRECT),
    )
    assert state.phase == "result"
    with pytest.raises(IllegalAction, match="the remaining challenges are not ruled"):
        apply(state, Rule(CORRECT))


# -- opinions --------------------------------------------------------------------------------


def test_the_game_leader_gives_the_2nd_opinion_and_the_tournament_director_the_3rd() -> None:
    state = game_of(
        QUEENS,
        Begins(A),
        MovePiece(),
        PassFlag(A),
        *ruled(B, "move", INCORRECT),
        Opinion(1, B, CORRECT),
        Opinion(1, A, INAPPROPRIATE),
    )
    record = state.challenges[0]
    assert [(e.ruling, e.by, e.asked_by) for e in record.rulings] == [
        (INCORRECT, Official.MONITOR, None),
        (CORRECT, Official.GAME_LEADER, B),
        (INAPPROPRIATE, Official.TOURNAMENT_DIRECTOR, A),
    ]
    with pytest.raises(IllegalAction, match="the Tournament Director's opinion was final"):
        apply(state, Opinion(1, B, CORRECT))


def test_an_opinion_that_changes_the_ruling_changes_what_it_did() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), PassFlag(A), *ruled(B, "move", INCORRECT))
    assert state.on_turn is A
    state = play(state, Opinion(1, B, CORRECT))
    assert state.on_turn is B
    assert state.challenges[0].effect.startswith("the board is restored to before A's turn")


def test_an_opinion_is_asked_after_the_monitors_ruling() -> None:
    state = game_of(QUEENS, Begins(A), Challenge(B, ("move",)))
    with pytest.raises(IllegalAction, match="has not been ruled by the monitor yet"):
        apply(state, Opinion(1, B, CORRECT))


def test_once_play_has_resumed_a_prior_ruling_cannot_change() -> None:
    state = game_of(
        QUEENS, Begins(A), MovePiece(), PassFlag(A), *ruled(B, "move", INCORRECT), PassFlag(A)
    )
    assert state.challenges[0].final
    with pytest.raises(IllegalAction, match="challenge 1's ruling is final: play has resumed"):
        apply(state, Opinion(1, B, CORRECT))


def test_an_opinion_names_a_challenge_of_the_game() -> None:
    with pytest.raises(InvalidInput, match="challenge 4: the game has 0 challenge"):
        game_of(QUEENS, Begins(A), Opinion(4, B, CORRECT))


def test_an_opinion_can_undo_a_third_i_or_ia() -> None:
    state = game_of(
        QUEENS,
        Begins(A),
        *ruled(B, "move", INAPPROPRIATE),
        *ruled(B, "move", INAPPROPRIATE),
        *ruled(B, "move", INAPPROPRIATE),
    )
    assert state.phase == "result"
    state = play(state, Opinion(3, B, CORRECT))
    assert (state.phase, state.strikes(B)) == ("play", 2)


# -- a declared win --------------------------------------------------------------------------


def test_a_declared_win_waits_for_the_monitors_confirmation() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), DeclareWin(A, "queen-surrounded"))
    assert state.phase == "result"
    state = play(state, Confirm())
    assert state.phase == "over"
    assert state.result is not None and (state.result.winner, state.result.how) == (A, How.GOAL)


def test_a_win_is_declared_with_the_flag_card() -> None:
    with pytest.raises(IllegalAction, match="B must hold the flag card to declare a win"):
        game_of(QUEENS, Begins(A), DeclareWin(B, "queen-surrounded"))


def test_a_correct_challenge_of_a_declared_win_about_the_goal_gives_the_win_to_the_challenger() -> (
    None
):
    state = game_of(
        QUEENS, Begins(A), DeclareWin(A, "queen-surrounded"), *ruled(B, "queen-surrounded", CORRECT)
    )
    assert state.play is not None and state.play.pending is not None
    assert (state.play.pending.winner, state.play.pending.how) == (B, How.CHALLENGED_WIN)
    assert state.challenges[0].of_declared_win


def test_an_incorrect_challenge_of_a_declared_win_confirms_it() -> None:
    state = game_of(
        QUEENS,
        Begins(A),
        DeclareWin(A, "queen-surrounded"),
        *ruled(B, "queen-surrounded", INCORRECT),
    )
    assert state.play is not None and state.play.pending is not None
    assert (state.play.pending.winner, state.play.pending.how) == (A, How.GOAL)
    assert state.challenges[0].effect.startswith("the declared win is confirmed")


def test_a_game_that_has_ended_takes_no_more_turns() -> None:
    state = game_of(QUEENS, Begins(A), DeclareWin(A, "queen-surrounded"))
    with pytest.raises(IllegalAction, match="the game has ended"):
        apply(state, PassFlag(A))


def test_a_game_that_is_over_accepts_no_action() -> None:
    state = game_of(QUEENS, Begins(A), DeclareWin(A, "queen-surrounded"), Confirm())
    with pytest.raises(GameOver):
        apply(state, Opinion(1, B, CORRECT))


# -- time ------------------------------------------------------------------------------------


def test_time_in_a_round_game_finishes_the_round() -> None:
    state = game_of(STARS, Begins(A), TimeCalled())
    assert state.phase == "play"
    state = play(state, PassFlag(A))
    assert state.phase == "play"
    state = play(state, PassFlag(B))
    assert state.phase == "result"


def test_time_ends_a_game_that_is_not_a_round_game_at_once_if_the_beginner_has_not_played() -> None:
    state = game_of(QUEENS, Begins(A), *turns(A, 2), TimeCalled())
    assert state.phase == "result"
    assert state.play is not None and state.play.pending is not None
    assert state.play.pending.how is How.TIME_LIMIT


def test_time_lets_both_players_complete_a_turn_when_the_beginner_has_played() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), TimeCalled())
    state = play(state, MovePiece(), PassFlag(A))
    assert state.phase == "play"
    state = play(state, MovePiece(), PassFlag(B))
    assert state.phase == "result"


def test_time_in_the_second_players_turn_lets_that_turn_finish() -> None:
    state = game_of(QUEENS, Begins(A), MovePiece(), PassFlag(A), TimeCalled())
    assert state.phase == "play"
    assert play(state, PassFlag(B)).phase == "result"


def test_time_is_called_once() -> None:
    with pytest.raises(IllegalAction, match="time has been called already"):
        game_of(STARS, Begins(A), TimeCalled(), TimeCalled())


def test_who_begins_is_entered_once() -> None:
    with pytest.raises(IllegalAction, match="who begins is entered once"):
        game_of(QUEENS, Begins(A), Begins(B))


def test_an_action_of_another_family_is_refused() -> None:
    from rules.geoplunge.games.common import DeclarePlunge  # GeoPlunge's: not a Pentathlon action

    with pytest.raises(IllegalAction, match="'plunge' is not a Queens & Guards action"):
        game_of(QUEENS, Begins(A), DeclarePlunge(frozenset()))
