"""The reach solver: every number a roll can make, each with a sentence that makes it."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvalidInput
from rules.pentathlon.reach import reach
from rules.pentathlon.sentences import check_sentence

OPS = ("+", "-", "×", "÷")


def brute_force(dice: tuple[int, ...]) -> set[int]:
    """Every sentence over three dice, flat or grouped, judged by the sentence checker."""
    made = set()
    for a, b, c in itertools.permutations(dice):
        for x, y in itertools.product(OPS, repeat=2):
            for sentence in (
                f"{a} {x} {b} {y} {c}",
                f"({a} {x} {b}) {y} {c}",
                f"{a} {x} ({b} {y} {c})",
            ):
                verdict = check_sentence(sentence, dice)
                if verdict.correct and verdict.value is not None and verdict.value.denominator == 1:
                    made.add(verdict.value.numerator)
    return made


def test_reach_of_the_rulebook_roll_holds_23_and_32() -> None:
    numbers = reach((3, 5, 4))
    assert {23, 32} <= set(numbers)
    assert numbers[23] == "4 × 5 + 3 = 23"
    assert numbers[32] == "5 + 3 = 8 and 4 × 8 = 32"


def test_reach_lists_the_numbers_in_ascending_order() -> None:
    numbers = list(reach((6, 3, 2)))
    assert numbers == sorted(numbers)


@settings(max_examples=60, deadline=None)
@given(dice=st.tuples(*[st.integers(1, 6)] * 3))
def test_reach_agrees_with_brute_force_on_random_rolls(dice: tuple[int, int, int]) -> None:
    assert set(reach(dice)) == brute_force(dice)


@pytest.mark.parametrize("dice", [(3, 5, 4), (1, 1, 1), (6, 6, 6), (2, 3, 6), (1, 4, 5)])
def test_every_reach_sentence_is_correct_and_makes_its_number(dice: tuple[int, ...]) -> None:
    for number, sentence in reach(dice).items():
        verdict = check_sentence(sentence, dice, target=number)
        assert verdict.correct, (sentence, verdict.problems)


def test_a_number_said_flat_needs_no_chained_step() -> None:
    assert " and " not in reach((6, 3, 2))[20]  # 2 + 3 × 6


def test_fractional_steps_reach_more_numbers_with_four_dice() -> None:
    assert 24 not in reach((1, 3, 4, 6))
    sentence = reach((1, 3, 4, 6), fractions=True)[24]
    assert check_sentence(sentence, (1, 3, 4, 6), fractions=True, target=24).correct
    assert check_sentence(sentence, (1, 3, 4, 6), fractions=True).value == Fraction(24)


def test_reach_needs_one_to_six_dice() -> None:
    with pytest.raises(InvalidInput, match="0 dice: expected 1 to 6"):
        reach(())


def test_fractional_steps_reach_no_new_number_with_three_six_sided_dice() -> None:
    """Ruling R202's ground for whole steps by default."""
    for dice in itertools.product(range(1, 7), repeat=3):
        assert set(reach(dice, fractions=True)) == set(reach(dice)), dice
