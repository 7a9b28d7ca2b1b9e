"""Contig 60 number sentences: the order of operations, the chained form, each die once."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import InvalidInput
from rules.pentathlon.dice import check_roll, parse_numbers
from rules.pentathlon.sentences import check_sentence

ROLL = (3, 5, 4)  # the rulebook's example roll


def test_rulebook_example_3_plus_5_times_4_makes_23() -> None:
    verdict = check_sentence("3 plus 5 times 4", ROLL)
    assert (verdict.correct, verdict.value) == (True, Fraction(23))


def test_rulebook_example_3_plus_5_times_4_does_not_make_32() -> None:
    verdict = check_sentence("3 + 5 × 4 = 32", ROLL)
    assert not verdict.correct
    assert "3 + 5 × 4 is 23, not 32" in verdict.problems[0]
    assert "× and ÷ come before + and -" in verdict.problems[0]


def test_rulebook_example_32_needs_the_chained_form() -> None:
    verdict = check_sentence("3 plus 5 equals 8 and 8 times 4 is 32", ROLL, target=32)
    assert (verdict.correct, verdict.value) == (True, Fraction(32))


def test_a_target_the_sentence_does_not_make_fails_with_the_precedence_hint() -> None:
    verdict = check_sentence("3 + 5 x 4", ROLL, target=32)
    assert verdict.problems == (
        "it makes 23, not 32 (× and ÷ come before + and -: to use a sum first, say it as a step)",
    )


@pytest.mark.parametrize(
    ("sentence", "dice", "value"),
    [
        ("3 + 5 x 4", ROLL, 23),
        ("3 + 5 × 4", ROLL, 23),
        ("3 + 5 * 4", ROLL, 23),
        ("3 plus 5 times 4", ROLL, 23),
        ("5 - 3 + 4", ROLL, 6),
        ("5 − 3 + 4", ROLL, 6),
        ("5 – 3 + 4", ROLL, 6),
        ("5 minus 3 plus 4", ROLL, 6),
        ("6 / 3 + 2", (6, 3, 2), 4),
        ("6 ÷ 3 + 2", (6, 3, 2), 4),
        ("6 divided by 3 plus 2", (6, 3, 2), 4),
        ("6 Divided  BY 3 Plus 2 EQUALS 4", (6, 3, 2), 4),
    ],
)
def test_every_operator_spelling_is_read(sentence: str, dice: tuple[int, ...], value: int) -> None:
    verdict = check_sentence(sentence, dice)
    assert (verdict.correct, verdict.value) == (True, Fraction(value))


def test_parentheses_group_as_the_chained_form_does() -> None:
    assert check_sentence("(3 + 5) x 4 = 32", ROLL).correct


def test_a_later_step_may_put_the_earlier_result_anywhere() -> None:
    assert check_sentence("3 + 5 = 8 and 4 x 8 = 32", ROLL).correct


def test_each_die_is_used_exactly_once_a_missing_die_fails() -> None:
    verdict = check_sentence("3 + 5", ROLL)
    assert verdict.problems == ("the die 4 is not used: each die and result is used once",)


def test_each_die_is_used_exactly_once_a_die_used_twice_fails() -> None:
    verdict = check_sentence("3 + 5 + 5 - 4", ROLL)
    assert "5 is used 2 times, but there is only 1" in verdict.problems


def test_a_number_that_is_neither_a_die_nor_an_earlier_result_fails() -> None:
    verdict = check_sentence("3 + 5 + 10", ROLL)
    assert "10 is not a die (3, 5, 4) or an earlier result" in verdict.problems


def test_a_step_before_and_must_say_what_it_makes() -> None:
    verdict = check_sentence("3 + 5 and 8 x 4", ROLL)
    assert not verdict.correct
    assert "step 1 (3 + 5) is followed by 'and'" in verdict.problems[0]


def test_an_earlier_result_is_used_in_a_later_step() -> None:
    verdict = check_sentence("3 + 5 = 8 and 4 x 2", (3, 5, 4))
    assert "the result 8 is not used: each die and result is used once" in verdict.problems


def test_a_wrong_result_said_in_a_step_fails() -> None:
    verdict = check_sentence("3 + 5 = 9 and 9 x 4 = 36", ROLL)
    assert "3 + 5 is 8, not 9" in verdict.problems


def test_a_result_equal_to_a_die_may_stand_for_either() -> None:
    assert check_sentence("2 + 2 = 4 and 4 x 4 = 16", (2, 2, 4)).correct


def test_a_negative_earlier_result_may_be_said_again() -> None:
    assert check_sentence("3 - 5 = -2 and -2 + 4 = 2", ROLL).correct


def test_division_must_come_out_whole_by_default() -> None:
    verdict = check_sentence("5 ÷ 2 × 4 = 10", (5, 2, 4))
    assert verdict.problems == ("5 ÷ 2 is 5/2, not a whole number",)


def test_fractional_steps_are_allowed_when_configured() -> None:
    assert check_sentence("5 ÷ 2 × 4 = 10", (5, 2, 4), fractions=True).correct


def test_division_by_zero_has_no_value() -> None:
    verdict = check_sentence("4 ÷ (3 - 3)", (4, 3, 3))
    assert verdict.value is None
    assert verdict.problems == ("4 ÷ (3 - 3) divides by 0",)


def test_a_step_needs_an_operation() -> None:
    verdict = check_sentence("3 + 5 = 8 and 8", (3, 5))
    assert "step 2 (8) has no operation: each step combines numbers" in verdict.problems


@pytest.mark.parametrize(
    ("sentence", "named"),
    [
        ("", "empty"),
        ("3 +", "expected a number or '(' at the end"),
        ("3 $ 4", "unexpected '$' at character 3"),
        ("(3 + 5 x 4", "expected ')' at the end"),
        ("three plus 4", "unexpected 'three' at character 1"),
        ("3 divided 4", "expected 'divided by'"),
        ("3 + 5 = 8 x 4", "expected 'and' between steps"),
        ("3 4 5", "expected 'and' between steps"),
        ("3 + 5 =", "expected the result after '=' at the end"),
    ],
)
def test_a_sentence_that_cannot_be_read_is_invalid_input(sentence: str, named: str) -> None:
    with pytest.raises(InvalidInput, match="sentence: ") as error:
        check_sentence(sentence, ROLL)
    assert named in str(error.value)


def test_dice_are_checked_against_the_configured_dice() -> None:
    assert check_roll((3, 5, 4)) == (3, 5, 4)
    with pytest.raises(InvalidInput, match="7 is not on a 6-sided die"):
        check_roll((3, 5, 7))
    with pytest.raises(InvalidInput, match="expected 3 values, one per die"):
        check_roll((3, 5))
    assert check_roll((3, 5, 9), (6, 6, 10)) == (3, 5, 9)


def test_dice_text_that_is_not_numbers_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="--dice '3,x,4': expected whole numbers"):
        parse_numbers("3,x,4", "--dice")
