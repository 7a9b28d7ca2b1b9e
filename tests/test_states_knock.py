"""Knocking: who may knock, and who wins when nobody connects (R312, R313)."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.states.deck import WATER, deck_from_entries, shipped_deck
from rules.states.knock import ColourTotal, best_colour, knock_colour, showdown

# A few cards with colours and values chosen for each case; the rest of the deck is unknown.
DECK = deck_from_entries(
    [
        "DE blue 8",
        "OR blue 7",
        "NM blue 4",
        "WA blue 2",
        "MO green 2",
        "IA green 1",
        "OK green 1",
        "TX red 12",
        "CA red 3",
        "ME red 5",
        "UT yellow 5",
        "NV yellow 5",
        "ID yellow 6",
        "KS yellow 3",
        "FL green 13",
        "GA green 12",
    ],
    water_cards=4,
)


def test_the_rulebooks_knocking_hand_de_or_nm_totals_19() -> None:
    """DE blue 8, OR blue 7 and NM blue 4: "a fantastic hand for knocking (19)"."""
    assert best_colour(["DE", "OR", "NM", WATER], shipped_deck()) == ColourTotal(
        "blue", 19, ("DE", "OR", "NM")
    )


def test_three_cards_of_one_colour_may_knock() -> None:
    assert knock_colour(["DE", "OR", "NM", "TX"], DECK) == ColourTotal(
        "blue", 19, ("DE", "OR", "NM")
    )


def test_two_cards_of_one_colour_may_not_knock() -> None:
    assert knock_colour(["DE", "OR", "TX", "CA"], DECK) is None


def test_a_water_card_has_no_colour() -> None:
    assert knock_colour(["DE", "OR", WATER, WATER], DECK) is None


def test_the_highest_total_in_one_colour_wins_even_with_one_card() -> None:
    """The rulebook's note: the highest total wins "even if he has just 1 card in that color"."""
    judged = showdown([("A", ("MO", "IA", "OK", "DE")), ("B", ("TX", "UT"))], "A", DECK)
    assert judged.winners == ("B",)
    assert judged.best_of("B") == ColourTotal("red", 12, ("TX",))


def test_the_knocker_wins_with_the_highest_total() -> None:
    judged = showdown([("A", ("DE", "OR", "NM", "UT")), ("B", ("TX", "CA"))], "A", DECK)
    assert judged.winners == ("A",)


def test_a_knockers_best_colour_may_be_another_than_its_knocking_colour() -> None:
    """Three greens worth 4 knock; the single red 12 is the knocker's highest total."""
    judged = showdown([("A", ("MO", "IA", "OK", "TX")), ("B", ("DE", "NM"))], "A", DECK)
    assert judged.best_of("A") == ColourTotal("red", 12, ("TX",))
    assert judged.winners == ("A",)


def test_the_knocker_wins_a_tie_it_is_part_of() -> None:
    judged = showdown([("A", ("UT", "NV", "KS", "CA")), ("B", ("FL", "WA"))], "A", DECK)
    assert judged.best_of("A").total == judged.best_of("B").total == 13
    assert judged.winners == ("A",)


def test_players_tied_above_the_knocker_all_win() -> None:
    judged = showdown(
        [("A", ("MO", "IA", "OK")), ("B", ("TX", "DE")), ("C", ("GA", "OR"))], "A", DECK
    )
    assert judged.best_of("B").total == judged.best_of("C").total == 12
    assert judged.winners == ("B", "C")


def test_four_cards_of_the_knocking_colour_make_a_four_card_knock() -> None:
    judged = showdown([("A", ("DE", "OR", "NM", "WA")), ("B", ("TX",))], "A", DECK)
    assert judged.four_card


def test_three_cards_of_the_knocking_colour_are_not_a_four_card_knock() -> None:
    judged = showdown([("A", ("DE", "OR", "NM", "TX")), ("B", ("CA",))], "A", DECK)
    assert not judged.four_card


def test_a_hand_of_water_cards_totals_nothing() -> None:
    assert best_colour([WATER, WATER], DECK) == ColourTotal(None, 0, ())


def test_a_card_without_a_colour_in_the_deck_is_named() -> None:
    with pytest.raises(InvalidInput, match="PA has no colour in the deck"):
        best_colour(["DE", "PA"], shipped_deck())
