"""Judging one Guesstimation question: the closest guess, a duel, and exact decimals."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import InvalidInput
from rules.guesstimation.numbers import MAX_DIGITS, distance, number_text, parse_number
from rules.guesstimation.scoring import Move, closest_guesses, judge_duel

D = Decimal

# Numbers


@pytest.mark.parametrize(
    ("text", "value"),
    [("29029", D(29029)), ("-89.2", D("-89.2")), (".5", D("0.5")), (" 7 ", D(7)), ("+3.", D(3))],
)
def test_a_number_is_a_plain_decimal(text: str, value: Decimal) -> None:
    assert parse_number(text, "guess") == value


@pytest.mark.parametrize("text", ["NaN", "nan", "Infinity", "-inf", "sNaN"])
def test_nan_and_infinity_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput, match="expected a finite number, not NaN or Infinity"):
        parse_number(text, "guess")


@pytest.mark.parametrize("text", ["29,029", "1e4", "0x10", "", "seven", "1.2.3", "١٢"])
def test_anything_else_is_not_a_number(text: str) -> None:
    with pytest.raises(InvalidInput, match="is not a number"):
        parse_number(text, "guess")


def test_a_number_has_at_most_30_digits_each_side_of_the_point() -> None:
    assert parse_number("9" * MAX_DIGITS + "." + "9" * MAX_DIGITS, "guess")
    with pytest.raises(InvalidInput, match="at most 30 digits"):
        parse_number("1" + "0" * MAX_DIGITS, "guess")
    with pytest.raises(InvalidInput, match="at most 30 digits"):
        parse_number("0." + "0" * MAX_DIGITS + "1", "guess")


def test_distance_is_exact_where_binary_floats_are_not() -> None:
    assert distance(D("0.1") + D("0.2"), D("0.3")) == 0
    assert distance(D("9" * 30), D("-0." + "0" * 29 + "1")) == D("9" * 30 + "." + "0" * 29 + "1")


decimals = st.decimals(
    min_value=-(10**12), max_value=10**12, allow_nan=False, allow_infinity=False, places=6
)


@given(decimals)
def test_a_number_written_out_reads_back_the_same(value: Decimal) -> None:
    assert parse_number(number_text(value), "guess") == value


# The closest guess


def test_rulebook_answer_5_guesses_4_and_6_are_a_tie() -> None:
    verdict = closest_guesses(D(5), {"A": D(4), "B": D(6), "C": D(9)})
    assert verdict.winners == ("A", "B")
    assert verdict.moves == (Move("A", 2), Move("B", 2))


def test_identical_closest_guesses_are_a_tie() -> None:
    assert closest_guesses(D(50), {"A": D(40), "B": D(40), "C": D(70)}).winners == ("A", "B")


def test_a_standard_win_moves_two_and_an_exact_answer_one_more() -> None:
    assert closest_guesses(D(5), {"A": D(4), "B": D(9)}).moves == (Move("A", 2),)
    exact = closest_guesses(D("3.5"), {"A": D("3.50"), "B": D(9)})
    assert (exact.exact, exact.moves) == (("A",), (Move("A", 3),))


def test_a_guess_near_a_decimal_answer_is_not_exact() -> None:
    verdict = closest_guesses(D("3.14159"), {"A": D("3.14"), "B": D(3)})
    assert (verdict.exact, verdict.moves) == ((), (Move("A", 2),))


names = st.sampled_from(["A", "B", "C", "D", "E", "F"])
guesses = st.dictionaries(names, st.integers(-20, 20).map(Decimal), min_size=1, max_size=6)


@given(answer=st.integers(-20, 20).map(Decimal), entered=guesses, data=st.data())
def test_the_closest_verdict_does_not_depend_on_the_order_guesses_are_entered(
    answer: Decimal, entered: dict[str, Decimal], data: st.DataObject
) -> None:
    order = data.draw(st.permutations(list(entered)))
    reordered = {player: entered[player] for player in order}
    assert closest_guesses(answer, reordered) == closest_guesses(answer, entered)


# Duels


def test_rulebook_wager_3_the_winner_advances_3_and_the_loser_moves_back_3() -> None:
    verdict = judge_duel(
        D(29029), {"A": D(29000), "B": D(1), "C": D(30000)}, dueler="A", opponent="C", wager=3
    )
    assert (verdict.winner, verdict.loser) == ("A", "C")
    assert verdict.moves == (Move("A", 3), Move("C", -3))


def test_a_forgotten_wager_is_two_spaces() -> None:
    verdict = judge_duel(D(10), {"A": D(9), "C": D(20)}, dueler="A", opponent="C")
    assert (verdict.wager, verdict.moves) == (2, (Move("A", 2), Move("C", -2)))


def test_the_opponent_wins_the_duel_when_closer() -> None:
    verdict = judge_duel(D(10), {"A": D(1), "C": D(11)}, dueler="A", opponent="C", wager=1)
    assert verdict.moves == (Move("A", -1), Move("C", 1))


def test_bystanders_score_only_an_exact_answer_three_spaces() -> None:
    verdict = judge_duel(
        D(29029),
        {"A": D(29000), "B": D("29029.0"), "C": D(30000), "D": D(29030)},
        dueler="A",
        opponent="C",
        wager=3,
    )
    assert verdict.moves == (Move("A", 3), Move("B", 3), Move("C", -3))


def test_the_duel_winner_with_the_exact_answer_moves_one_extra() -> None:
    verdict = judge_duel(D(7), {"A": D(7), "C": D(8)}, dueler="A", opponent="C", wager=3)
    assert verdict.moves == (Move("A", 4), Move("C", -3))


def test_a_tied_duel_waits_for_the_die() -> None:
    verdict = judge_duel(D(10), {"A": D(9), "B": D(10), "C": D(11)}, dueler="A", opponent="C")
    assert (verdict.tied, verdict.winner, verdict.moves) == (True, None, (Move("B", 3),))
    rolled = judge_duel(
        D(10), {"A": D(9), "C": D(11)}, dueler="A", opponent="C", wager=1, tie_winner="C"
    )
    assert rolled.moves == (Move("A", -1), Move("C", 1))


def test_a_loser_with_the_exact_answer_gets_no_bonus() -> None:
    verdict = judge_duel(D(3), {"A": D(3), "C": D(3)}, dueler="A", opponent="C", tie_winner="A")
    assert verdict.moves == (Move("A", 3), Move("C", -2))


def test_a_die_roll_cannot_decide_a_duel_that_is_not_tied() -> None:
    with pytest.raises(InvalidInput, match="not tied"):
        judge_duel(D(10), {"A": D(9), "C": D(20)}, dueler="A", opponent="C", tie_winner="C")


@pytest.mark.parametrize("wager", [0, 4, -1])
def test_a_wager_is_1_2_or_3(wager: int) -> None:
    with pytest.raises(InvalidInput, match="wager"):
        judge_duel(D(10), {"A": D(9), "C": D(20)}, dueler="A", opponent="C", wager=wager)
