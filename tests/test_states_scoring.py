"""Points for a won hand: the standard scoring and the alternate scoring (R305, R314)."""

from __future__ import annotations

from rules.states.deck import deck_from_entries
from rules.states.scoring import POINT_TABLES, Scoring

STANDARD = POINT_TABLES[Scoring.STANDARD]
ALTERNATE = POINT_TABLES[Scoring.ALTERNATE]
# The rulebook's alternate-scoring example, with PA, MD and WV in colours of our choosing.
DECK = deck_from_entries(["PA red 2", "DE blue 8", "MD red 5", "WV yellow 5"], 4)


def test_connecting_wins_4_points() -> None:
    assert STANDARD.connect_points(["PA", "DE", "MD", "WV"], DECK) == 4


def test_knocking_wins_3_points() -> None:
    assert STANDARD.knock_points(19, four_card_knock=False) == 3


def test_a_four_card_knock_wins_4_points() -> None:
    assert STANDARD.knock_points(19, four_card_knock=True) == 4


def test_each_bonus_state_is_1_extra_point() -> None:
    assert STANDARD.bonus_points(2) == 2


def test_the_standard_game_is_to_15_points() -> None:
    assert STANDARD.target == 15


def test_the_rulebooks_alternate_example_pa_de_md_wv_collects_30() -> None:
    """The rulebook: "if you won with PA (2), DE (8), MD (5), and WV (5), you would collect
    10 + 20 = 30 points"."""
    assert ALTERNATE.connect_points(["PA", "DE", "MD", "WV"], DECK) == 30


def test_an_alternate_knock_collects_5_plus_the_knocking_cards() -> None:
    assert ALTERNATE.knock_points(19, four_card_knock=False) == 24


def test_an_alternate_four_card_knock_earns_nothing_more_than_its_cards() -> None:
    assert ALTERNATE.knock_points(25, four_card_knock=True) == 30


def test_an_alternate_bonus_state_is_worth_5() -> None:
    assert ALTERNATE.bonus_points(1) == 5


def test_the_alternate_game_is_to_75_points() -> None:
    assert ALTERNATE.target == 75
