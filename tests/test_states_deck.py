"""The deck: its file, the shipped values and the form a start action carries (R300, R301)."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput
from rules.states.deck import (
    BONUS_STATES,
    DEFAULT_WATER_CARDS,
    WATER,
    CardFace,
    deck_from_entries,
    deck_from_toml,
    playing_states,
    require_complete,
    shipped_deck,
)
from tests.states_helpers import EXAMPLE_DECK

RULEBOOK = {
    "DE": CardFace("blue", 8),
    "OR": CardFace("blue", 7),
    "NM": CardFace("blue", 4),
    "PA": CardFace(None, 2),
    "MD": CardFace(None, 5),
    "WV": CardFace(None, 5),
}


def test_the_shipped_deck_holds_the_rulebooks_colours_and_values() -> None:
    faces = shipped_deck().faces
    assert {code: faces[code] for code in RULEBOOK} == RULEBOOK


def test_the_shipped_deck_guesses_nothing_the_rulebook_does_not_print() -> None:
    unknown = {code: face for code, face in shipped_deck().faces.items() if code not in RULEBOOK}
    assert set(unknown.values()) == {CardFace()}


def test_the_shipped_deck_has_the_default_number_of_water_cards() -> None:
    assert shipped_deck().water_cards == DEFAULT_WATER_CARDS


def test_a_full_deck_is_48_states_the_two_bonus_states_and_the_water_cards() -> None:
    cards = EXAMPLE_DECK.cards
    assert len(playing_states()) == 48
    assert sorted(set(cards) - {WATER}) == sorted([*playing_states(), *BONUS_STATES])
    assert cards.count(WATER) == EXAMPLE_DECK.water_cards


def test_the_example_deck_is_complete() -> None:
    assert EXAMPLE_DECK.without_colour == ()
    assert EXAMPLE_DECK.without_value == ()


def test_a_deck_round_trips_through_a_start_actions_entries() -> None:
    for deck in (shipped_deck(), EXAMPLE_DECK):
        assert deck_from_entries(deck.entries(), deck.water_cards) == deck


def test_an_entry_with_an_unknown_colour_keeps_its_value() -> None:
    deck = deck_from_entries(["PA ? 2", "DE light blue 8"], 4)
    assert deck.faces["PA"] == CardFace(None, 2)
    assert deck.faces["DE"] == CardFace("light blue", 8)


def test_an_incomplete_deck_names_every_missing_card() -> None:
    with pytest.raises(InvalidInput, match=r"lacks it for 45 card\(s\): AL, AR, AZ, .*WY"):
        require_complete(
            shipped_deck(), colours=True, values=True, needed_for="knocking", otherwise="no"
        )


def test_values_alone_are_enough_when_colours_are_not_needed() -> None:
    deck = deck_from_entries([f"{code} ? 3" for code in playing_states()], 0)
    require_complete(deck, colours=False, values=True, needed_for="the scoring", otherwise="no")


def test_a_deck_file_reads_colours_and_values_case_insensitively() -> None:
    deck = deck_from_toml('water_cards = 2\n[cards]\nde = { colour = "Blue", value = 8 }\n')
    assert deck.faces["DE"] == CardFace("blue", 8)
    assert deck.water_cards == 2


def test_a_deck_file_may_leave_out_cards() -> None:
    deck = deck_from_toml("[cards]\n")
    assert deck.faces["UT"] == CardFace()
    assert deck.water_cards == DEFAULT_WATER_CARDS


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("[cards\n", "the deck file is not TOML"),
        ("water = 2\n", "unknown key(s) water: expected cards, water_cards"),
        ("water_cards = 11\n", "water_cards 11: expected 0 to 10"),
        ('water_cards = "4"\n', "water_cards: expected a whole number"),
        ("cards = 3\n", "cards: expected a table"),
        ("[cards]\nXX = {}\n", "cards.XX: unknown state 'XX'"),
        ("[cards]\nAK = {}\n", "cards.AK: AK is a bonus state"),
        ('[cards]\nDE = "blue"\n', "cards.DE: expected { colour"),
        ('[cards]\nDE = { color = "blue" }\n', "cards.DE: unknown key(s) color"),
        ("[cards]\nDE = { value = 0 }\n", "cards.DE.value: expected a whole number 1 to 99"),
        ("[cards]\nDE = { value = 8.0 }\n", "cards.DE.value: expected a whole number"),
        ("[cards]\nDE = { value = true }\n", "cards.DE.value: expected a whole number"),
        ("[cards]\nDE = { colour = 3 }\n", "cards.DE.colour: expected text"),
        ('[cards]\nDE = { colour = "blue!" }\n', "colour 'blue!': expected a colour name"),
        ("[cards]\nDE = {}\nDelaware = {}\n", "cards.Delaware: DE is given twice"),
    ],
)
def test_a_faulty_deck_file_is_refused_naming_the_key(text: str, names: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        deck_from_toml(text)
    assert names in str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("entry", "names"),
    [
        ("DE blue", "expected 'CODE COLOUR VALUE'"),
        ("DE blue eight", "value 'eight': expected a whole number"),
        ("HI blue 3", "HI is a bonus state"),
        ("ZZ blue 3", "unknown state 'ZZ'"),
    ],
)
def test_a_faulty_start_action_entry_is_refused(entry: str, names: str) -> None:
    with pytest.raises(InvalidInput, match=names):
        deck_from_entries([entry], 4)


def test_a_card_given_twice_in_the_entries_is_refused() -> None:
    with pytest.raises(InvalidInput, match="DE is given twice"):
        deck_from_entries(["DE blue 8", "DE red 3"], 4)
