"""Guesstimation as a state machine: one test per rule of the rulebook and per ruling R280-R294."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rules.errors import GameOver, IllegalAction, InvalidInput, InvalidLog
from rules.geoplunge.match import NextGame
from rules.guesstimation.actions import (
    DEFAULT_FINISH,
    ChooseUnits,
    DeclareDuel,
    ReadQuestion,
    RecordGuess,
    RevealAnswer,
    RollDie,
    StartGuesstimation,
    UnitSystem,
)
from rules.guesstimation.scoring import Move
from rules.guesstimation.session import apply_action, new_game
from tests.guesstimation_helpers import (
    PLAYERS,
    everyone,
    holding_chip,
    play,
    play_round,
    round_actions,
    started,
)

# Set up and the first Round Leader


def test_every_piece_starts_on_start() -> None:
    state = new_game(StartGuesstimation(PLAYERS))
    assert state.positions == (0, 0, 0, 0)
    assert state.finish == DEFAULT_FINISH == 20


@pytest.mark.parametrize("count", [3, 6])
def test_three_to_six_players_may_play(count: int) -> None:
    players = tuple("ABCDEF"[:count])
    assert new_game(StartGuesstimation(players)).players == players


@pytest.mark.parametrize("count", [2, 7])
def test_fewer_than_three_or_more_than_six_players_is_refused(count: int) -> None:
    with pytest.raises(InvalidInput, match="expected 3 to 6"):
        new_game(StartGuesstimation(tuple("ABCDEFG"[:count])))


def test_a_player_named_twice_is_refused_whatever_the_case() -> None:
    with pytest.raises(InvalidInput, match="named twice"):
        new_game(StartGuesstimation(("Ann", "Bo", "ann")))


@pytest.mark.parametrize("name", ["", " Ann", "A,B", "A=B", "x" * 21, "Tab\there"])
def test_a_player_name_must_be_plain_short_text(name: str) -> None:
    with pytest.raises(InvalidInput, match="player name"):
        new_game(StartGuesstimation(("Ann", "Bo", name)))


@pytest.mark.parametrize("finish", [1, 101])
def test_the_board_is_2_to_100_spaces_long(finish: int) -> None:
    with pytest.raises(InvalidInput, match="finish"):
        new_game(StartGuesstimation(PLAYERS, finish))


def test_the_highest_first_roll_becomes_the_first_round_leader() -> None:
    state = new_game(StartGuesstimation(PLAYERS))
    assert state.phase == "first_leader"
    state = play(state, RollDie("A", 3), RollDie("B", 5), RollDie("C", 2), RollDie("D", 4))
    assert (state.leader, state.phase) == ("B", "question_roll")


def test_players_tied_on_the_highest_first_roll_roll_again_among_themselves() -> None:
    state = new_game(StartGuesstimation(PLAYERS))
    state = play(state, RollDie("A", 5), RollDie("B", 5), RollDie("C", 2), RollDie("D", 5))
    assert state.rolloff is not None
    assert state.rolloff.waiting_for == ("A", "B", "D")
    with pytest.raises(IllegalAction, match="not in this roll-off"):
        apply_action(state, RollDie("C", 6))
    state = play(state, RollDie("D", 6), RollDie("A", 1), RollDie("B", 4))
    assert state.leader == "D"


def test_a_player_rolls_once_per_roll_off() -> None:
    state = play(new_game(StartGuesstimation(PLAYERS)), RollDie("A", 3))
    with pytest.raises(IllegalAction, match="already rolled"):
        apply_action(state, RollDie("A", 4))


@pytest.mark.parametrize("value", [0, 7])
def test_a_die_shows_1_to_6(value: int) -> None:
    with pytest.raises(InvalidInput, match="expected 1 to 6"):
        apply_action(new_game(StartGuesstimation(PLAYERS)), RollDie("A", value))


# Playing a round


def test_the_round_leader_rolls_for_the_question_number() -> None:
    state = started(leader="C")
    with pytest.raises(IllegalAction, match="expected the Round Leader C"):
        apply_action(state, RollDie("A", 3))
    state = play(state, RollDie("C", 3))
    assert state.current is not None and state.current.die == 3
    assert state.phase == "question"


def test_the_round_leader_passes_clockwise_each_round() -> None:
    state = started(leader="C")
    leaders = []
    for _ in range(5):
        assert state.current is not None
        leaders.append(state.current.leader)
        state = play_round(state, everyone(state, "100", A="1"), "50")
    assert leaders == ["C", "D", "A", "B", "C"]


def test_guesses_are_spoken_from_the_round_leaders_left() -> None:
    state = started(leader="C")
    assert state.current is not None
    assert state.current.guessers == ("D", "A", "B", "C")


def test_every_player_including_the_round_leader_guesses_before_the_answer() -> None:
    state = started(leader="A")
    state = play(state, RollDie("A", 1), ReadQuestion(), *[RecordGuess(p, "1") for p in "BCD"])
    with pytest.raises(IllegalAction, match="a guess from A"):
        apply_action(state, RevealAnswer("3"))


def test_guesses_entered_in_any_order_make_the_same_round() -> None:
    state = play(started(), RollDie("A", 1), ReadQuestion())
    forward = play(state, *[RecordGuess(p, v) for p, v in zip("ABCD", "1234", strict=True)])
    backward = play(state, *[RecordGuess(p, v) for p, v in zip("DCBA", "4321", strict=True)])
    assert forward == backward


def test_a_written_guess_is_not_changed() -> None:
    state = play(started(), RollDie("A", 1), ReadQuestion(), RecordGuess("B", "7"))
    with pytest.raises(IllegalAction, match="already guessed"):
        apply_action(state, RecordGuess("B", "8"))


def test_a_guess_that_is_not_a_number_is_refused() -> None:
    state = play(started(), RollDie("A", 1), ReadQuestion())
    with pytest.raises(InvalidInput, match="guess for B"):
        apply_action(state, RecordGuess("B", "about 7"))


def test_an_unknown_player_is_refused() -> None:
    state = play(started(), RollDie("A", 1), ReadQuestion())
    with pytest.raises(InvalidInput, match="unknown player 'Z'"):
        apply_action(state, RecordGuess("Z", "7"))


# Scoring a standard round


def test_the_closest_guess_wins_and_moves_ahead_two_spaces() -> None:
    state = play_round(started(), everyone(started(), "100", B="48"), "50")
    assert state.positions == (0, 2, 0, 0)


def test_higher_or_lower_does_not_matter() -> None:
    state = play_round(started(), everyone(started(), "100", B="52", C="47"), "50")
    assert state.positions == (0, 2, 0, 0)


def test_rulebook_tie_answer_5_guesses_4_and_6_both_move_ahead() -> None:
    state = started(("A", "B", "C"))
    state = play_round(state, {"A": "4", "B": "6", "C": "9"}, "5")
    assert state.positions == (2, 2, 0)
    assert state.played[-1].outcome is not None
    assert state.played[-1].outcome.winners == ("A", "B")


def test_an_exact_guess_moves_one_extra_space_decimals_included() -> None:
    state = play_round(started(), everyone(started(), "3.14", C="3.14159"), "3.14159")
    assert state.positions == (0, 0, 3, 0)


def test_exact_means_numerically_equal() -> None:
    state = play_round(started(), everyone(started(), "1", D="29029.0"), "29029")
    assert state.position("D") == 3


def test_the_round_keeps_guesses_and_answer_as_exact_decimals() -> None:
    state = play_round(started(), everyone(started(), "0.1", A="0.3"), "0.30000000000000001")
    played = state.played[-1]
    assert played.guess_of("A") == Decimal("0.3")
    assert played.answer == Decimal("0.30000000000000001")
    assert state.position("A") == 2  # 0.3 is closer than 0.1, and not exact


# Chip possession


def test_question_4_is_a_chip_possession_question() -> None:
    state = play(started(), RollDie("A", 4), ReadQuestion(chip=False))
    assert state.current is not None and state.current.question is not None
    assert state.current.question.chip is True


def test_the_card_may_mark_other_chip_possession_questions() -> None:
    state = play(started(), RollDie("A", 2), ReadQuestion(chip=True))
    assert state.current is not None and state.current.question is not None
    assert state.current.question.chip is True


def test_winning_a_chip_possession_round_wins_the_dueling_chip() -> None:
    assert holding_chip("C").chip == "C"


def test_winning_a_standard_round_does_not_win_the_chip() -> None:
    state = play_round(started(), everyone(started(), "100", B="48"), "50", die=3)
    assert state.chip is None


def test_the_chip_is_kept_through_standard_rounds_until_used() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", B="48"), "50", die=2)
    assert state.chip == "C"


def test_the_holder_keeps_the_chip_by_winning_the_next_chip_possession_round() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", C="48"), "50", die=4)
    assert state.chip == "C"


def test_the_holder_loses_the_chip_by_not_winning_the_next_chip_possession_round() -> None:
    state = holding_chip("C")  # won on the previous round, no chance to use it: luck of the die
    state = play_round(state, everyone(state, "100", D="48"), "50", die=4)
    assert state.chip == "D"


def test_a_holder_tied_for_the_win_keeps_the_chip() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", C="48", D="52"), "50", die=4)
    assert (state.chip, state.phase) == ("C", "question_roll")


def test_tied_winners_of_a_chip_round_roll_for_the_chip() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", A="48", D="52"), "50", die=4)
    assert state.phase == "chip_roll"
    assert state.chip is None
    assert state.positions == (2, 0, 2, 2)  # the winners moved already
    state = play(state, RollDie("A", 3), RollDie("D", 3), RollDie("D", 2), RollDie("A", 5))
    assert (state.chip, state.phase) == ("A", "question_roll")
    assert state.played[-1].outcome is not None and state.played[-1].outcome.chip == "A"


# Duels


def _c_duels(*, opponent: str = "A", wager: int | None = None) -> DeclareDuel:
    """C, who holds the chip in these tests, challenges ``opponent``."""
    return DeclareDuel("C", opponent, wager)


def test_only_the_chip_holder_may_declare_a_duel() -> None:
    state = play(holding_chip("C"), RollDie("B", 1), ReadQuestion())
    with pytest.raises(IllegalAction, match="A does not hold the Dueling Chip \\(C does\\)"):
        apply_action(state, DeclareDuel("A", "B"))


def test_a_duel_is_declared_on_a_standard_question_only() -> None:
    state = play(holding_chip("C"), RollDie("B", 4), ReadQuestion())
    with pytest.raises(IllegalAction, match="chip-possession question"):
        apply_action(state, _c_duels())


def test_a_duel_is_declared_before_the_first_guess() -> None:
    state = play(holding_chip("C"), RollDie("B", 1), ReadQuestion(), RecordGuess("D", "1"))
    with pytest.raises(IllegalAction, match="before the first guess"):
        apply_action(state, _c_duels())


def test_a_duel_is_declared_after_the_question_is_read() -> None:
    state = play(holding_chip("C"), RollDie("B", 1))
    with pytest.raises(IllegalAction, match="question 1 read by B"):
        apply_action(state, _c_duels())


def test_the_dueler_challenges_another_player() -> None:
    state = play(holding_chip("C"), RollDie("B", 1), ReadQuestion())
    with pytest.raises(IllegalAction, match="cannot challenge themselves"):
        apply_action(state, DeclareDuel("C", "C"))
    with pytest.raises(InvalidInput, match="unknown player"):
        apply_action(state, DeclareDuel("C", "Z"))


def test_the_round_leader_may_duel_and_may_be_challenged() -> None:
    state = holding_chip("B")  # B leads round 2
    state = play(state, RollDie("B", 1), ReadQuestion(), DeclareDuel("B", "C"))
    assert state.current is not None and state.current.duel is not None
    state = holding_chip("C")
    state = play(state, RollDie("B", 1), ReadQuestion(), DeclareDuel("C", "B"))
    assert state.current is not None and state.current.duel is not None


def test_one_duel_per_round() -> None:
    state = play(holding_chip("C"), RollDie("B", 1), ReadQuestion(), _c_duels())
    with pytest.raises(IllegalAction, match="already declared a duel"):
        apply_action(state, _c_duels())


def test_the_wager_defaults_to_two_spaces() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", C="49", A="60"), "50", duel=_c_duels())
    assert state.played[-1].duel is not None and state.played[-1].duel.wager == 2
    assert (state.position("C"), state.position("A")) == (4, 0)


@pytest.mark.parametrize("wager", [0, 4])
def test_the_wager_is_1_to_3_spaces(wager: int) -> None:
    state = play(holding_chip("C"), RollDie("B", 1), ReadQuestion())
    with pytest.raises(InvalidInput, match="expected 1, 2 or 3"):
        apply_action(state, _c_duels(wager=wager))


def test_rulebook_wager_3_winner_advances_3_loser_moves_back_3() -> None:
    state = holding_chip("C")  # C is on 2
    state = play_round(state, everyone(state, "100", A="10"), "9", die=2)  # A to 2
    state = play_round(
        state, everyone(state, "100", C="29000", A="30000"), "29029", duel=_c_duels(wager=3)
    )
    assert (state.position("C"), state.position("A")) == (5, 0)


def test_in_a_duel_only_the_two_guesses_count() -> None:
    state = holding_chip("C")
    guesses = everyone(state, "100", C="40", A="70", B="51")  # B is closest but only a bystander
    state = play_round(state, guesses, "50", duel=_c_duels(wager=1))
    assert state.positions == (0, 0, 3, 0)


def test_a_bystander_with_the_exact_answer_moves_three_spaces() -> None:
    state = holding_chip("C")
    guesses = everyone(state, "100", C="40", A="70", D="50.0")
    state = play_round(state, guesses, "50", duel=_c_duels(wager=1))
    assert state.positions == (0, 0, 3, 3)


def test_the_duel_winner_with_the_exact_answer_moves_one_extra_space() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", C="50"), "50", duel=_c_duels(wager=3))
    assert state.position("C") == 2 + 3 + 1


def test_the_duel_loser_never_goes_behind_start() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", A="90", C="10"), "20", duel=_c_duels(wager=3))
    assert state.position("A") == 0
    assert state.played[-1].outcome is not None
    assert Move("A", -3) in state.played[-1].outcome.moves


def test_a_tied_duel_goes_to_the_higher_die_roll() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", C="40", A="60"), "50", duel=_c_duels(wager=3))
    assert state.phase == "duel_roll"
    with pytest.raises(IllegalAction, match="not in this roll-off"):
        apply_action(state, RollDie("B", 6))
    state = play(state, RollDie("C", 4), RollDie("A", 4), RollDie("A", 6), RollDie("C", 1))
    assert (state.position("A"), state.position("C")) == (3, 0)
    assert state.phase == "question_roll"


def test_the_chip_returns_to_the_board_after_a_duel() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", C="49"), "50", duel=_c_duels())
    assert state.chip is None


def test_the_chip_returns_even_when_the_dueler_loses() -> None:
    state = holding_chip("C")
    state = play_round(state, everyone(state, "100", A="49", C="90"), "50", duel=_c_duels())
    assert state.chip is None


# Units of measurement


def test_the_group_chooses_the_units_before_anyone_guesses() -> None:
    state = play(started(), RollDie("A", 5), ReadQuestion(measured=True))
    assert state.phase == "units"
    with pytest.raises(IllegalAction, match="unit system"):
        apply_action(state, RecordGuess("A", "29000"))
    state = play_round(
        started(),
        everyone(started(), "8000", B="8848.86"),
        "8848.86",
        measured=True,
        units=UnitSystem.METRIC,
    )
    assert state.played[-1].units is UnitSystem.METRIC


def test_a_question_without_units_takes_no_unit_system() -> None:
    state = play(started(), RollDie("A", 1), ReadQuestion())
    with pytest.raises(IllegalAction, match="not measured"):
        apply_action(state, ChooseUnits(UnitSystem.US))


def test_the_chip_holder_may_declare_a_duel_before_the_units_are_chosen() -> None:
    state = play(holding_chip("C"), RollDie("B", 1), ReadQuestion(measured=True), _c_duels())
    assert state.phase == "units"


# Winning the game


def test_the_first_player_to_reach_the_finish_wins() -> None:
    state = started(finish=3)
    state = play_round(state, everyone(state, "100", B="48"), "50")
    state = play_round(state, everyone(state, "100", B="48"), "50")
    assert (state.champion, state.phase, state.position("B")) == ("B", "over", 3)


def test_a_piece_stops_on_the_finish_space() -> None:
    state = started(finish=2)
    state = play_round(state, everyone(state, "100", B="50"), "50")
    assert state.position("B") == 2


def test_players_reaching_the_finish_in_the_same_round_play_a_final_question() -> None:
    state = started(finish=2)
    state = play_round(state, everyone(state, "100", B="48", D="52"), "50")
    assert state.champion is None
    assert state.finalists == ("B", "D")
    assert state.current is not None and state.current.final
    assert state.current.leader == "B"
    assert state.current.guessers == ("D", "B")


def test_only_the_finalists_guess_the_final_question() -> None:
    state = started(finish=2)
    state = play_round(state, everyone(state, "100", B="48", D="52"), "50")
    state = play(state, RollDie("B", 2), ReadQuestion())
    with pytest.raises(IllegalAction, match="only D, B guess"):
        apply_action(state, RecordGuess("A", "1"))


def test_the_final_question_is_never_for_the_chip_nor_a_duel() -> None:
    state = started(finish=4)
    state = play_round(state, everyone(state, "100", B="48"), "50")
    state = play_round(state, everyone(state, "100", C="48"), "50", die=4)
    state = play_round(state, everyone(state, "100", C="48", B="52"), "50")
    assert (state.chip, state.finalists) == ("C", ("B", "C"))
    state = play(state, RollDie("D", 4), ReadQuestion())
    assert state.current is not None and state.current.question is not None
    assert state.current.question.chip is False
    with pytest.raises(IllegalAction, match="never a duel"):
        apply_action(state, _c_duels(opponent="B"))


def test_the_winner_of_the_final_question_wins_the_game() -> None:
    state = started(finish=2)
    state = play_round(state, everyone(state, "100", B="48", D="52"), "50")
    state = play_round(state, {"B": "10", "D": "12"}, "12")
    assert state.champion == "D"
    assert state.positions == (0, 2, 0, 2)  # the final question moves no piece


def test_a_tied_final_question_is_played_again_among_the_tied() -> None:
    players = ("A", "B", "C")
    state = started(players, finish=2)
    state = play_round(state, {"A": "50", "B": "50", "C": "50"}, "50")
    assert state.finalists == ("A", "B", "C")
    state = play_round(state, {"A": "9", "B": "11", "C": "20"}, "10")
    assert state.finalists == ("A", "B")
    assert state.current is not None and state.current.guessers == ("A", "B")
    state = play_round(state, {"A": "9", "B": "10"}, "10")
    assert state.champion == "B"


def test_a_finished_game_accepts_no_action() -> None:
    state = started(finish=2)
    state = play_round(state, everyone(state, "100", B="50"), "50")
    with pytest.raises(GameOver, match="B won"):
        apply_action(state, RollDie("C", 3))


def test_no_roll_for_the_chip_once_the_game_is_won() -> None:
    state = started(finish=2)
    actions = round_actions(state, everyone(state, "100", B="48", D="52"), "50", die=4)
    state = play(state, *actions)
    assert state.phase == "question_roll" and state.current is not None and state.current.final


# Actions from elsewhere


def test_a_start_action_only_starts_a_log() -> None:
    with pytest.raises(InvalidLog, match="only starts a log"):
        apply_action(started(), StartGuesstimation(PLAYERS))


def test_an_action_of_another_game_is_refused() -> None:
    with pytest.raises(IllegalAction, match="not a Guesstimation action"):
        apply_action(started(), NextGame())


def test_an_action_out_of_turn_names_what_the_table_waits_for() -> None:
    with pytest.raises(IllegalAction, match="expected the Round Leader A's die roll"):
        apply_action(started(), RevealAnswer("5"))
