"""Fab-a-Diffy strips: a trick is a sum or difference; names limited to the partitions."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.pentathlon.strips import judge_trick, lower_strip


def test_two_strips_whose_sum_is_the_show_box_strip_are_a_trick() -> None:
    verdict = judge_trick("1/2", "1/3", "1/6")
    assert (verdict.trick, verdict.sentence) == (True, "1/3 + 1/6 = 1/2")


def test_two_strips_whose_difference_is_the_show_box_strip_are_a_trick() -> None:
    verdict = judge_trick("1/6", "1/3", "1/2")
    assert (verdict.trick, verdict.sentence) == (True, "1/2 - 1/3 = 1/6")


def test_strips_whose_sum_and_difference_miss_the_show_box_are_no_trick() -> None:
    verdict = judge_trick("1/2", "1/3", "1/4")
    assert not verdict.trick
    assert verdict.problems == ("1/3 + 1/4 = 7/12 and 1/3 - 1/4 = 1/12: neither is 1/2",)


@pytest.mark.parametrize("name", ["2/6", "1/3", "4/12"])
def test_equivalent_names_within_the_partitions_name_the_same_strip(name: str) -> None:
    assert judge_trick(name, "1/6", "1/6").trick


def test_3_9_is_not_a_name_the_game_allows() -> None:
    verdict = judge_trick("3/9", "1/6", "1/6")
    assert not verdict.trick
    assert "3/9 is not a name the game allows" in verdict.problems[0]


def test_the_partitions_are_configuration() -> None:
    assert not judge_trick("1/3", "1/6", "1/6", partitions=(6, 12)).trick
    assert judge_trick("2/6", "1/6", "1/6", partitions=(6, 12)).trick


def test_one_names_a_whole_strip() -> None:
    assert judge_trick("one", "1/2", "2/4").trick


def test_zero_strips_are_out_of_the_deck() -> None:
    with pytest.raises(InvalidInput, match="zero strips are out of the Fab-a-Diffy deck"):
        judge_trick("1/2", "0/6", "1/2")


@pytest.mark.parametrize(
    ("text", "named"),
    [("7/6", "up to one"), ("1/0", "denominator"), ("half", "expected a fraction")],
)
def test_a_strip_that_cannot_be_is_invalid_input(text: str, named: str) -> None:
    with pytest.raises(InvalidInput, match=named):
        judge_trick(text, "1/6", "1/6")


def test_the_lower_strip_begins_and_equal_strips_draw_again() -> None:
    assert lower_strip("5/12", "1/2", (2, 3, 4, 6, 12)) == 0
    assert lower_strip("2/3", "7/12", (2, 3, 4, 6, 12)) == 1
    assert lower_strip("2/6", "4/12", (2, 3, 4, 6, 12)) is None
