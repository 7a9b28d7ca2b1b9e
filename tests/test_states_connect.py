"""A "STATES!" claim: four states that border each other (R302, R303)."""

from __future__ import annotations

import pytest

from rules.errors import InvalidInput, UnknownState
from rules.states.connect import Connection, check_connection


def test_the_rulebooks_example_ut_co_ks_ok_connects() -> None:
    assert check_connection(["UT", "CO", "KS", "OK"]).connects


def test_the_rulebooks_example_is_also_a_chain_in_the_order_shown() -> None:
    check = check_connection(["UT", "CO", "KS", "OK"], Connection.CHAIN)
    assert check.connects
    assert check.chain == ("UT", "CO", "KS", "OK")


def test_states_may_be_shown_in_any_order() -> None:
    assert check_connection(["OK", "UT", "KS", "CO"]).connects


def test_names_and_codes_are_read_alike() -> None:
    assert check_connection(["Utah", "colorado", "KS", "Oklahoma"]).states == (
        "UT",
        "CO",
        "KS",
        "OK",
    )


def test_a_star_around_one_state_connects_as_a_group() -> None:
    """Missouri borders Iowa, Kentucky and Oklahoma; those three border nothing among them."""
    check = check_connection(["MO", "IA", "KY", "OK"])
    assert check.connects
    assert check.chain is None


def test_a_star_is_not_a_chain_under_the_chain_rule() -> None:
    check = check_connection(["MO", "IA", "KY", "OK"], Connection.CHAIN)
    assert not check.connects
    assert "not in a chain" in check.reason


def test_a_four_corners_contact_counts_as_a_border() -> None:
    """AZ-CO and NM-UT touch only at the Four Corners, and count as GeoPlunge counts them."""
    check = check_connection(["AZ", "CO", "KS", "NE"])
    assert check.connects
    assert ("AZ", "CO") in check.borders


def test_a_water_only_contact_does_not_count() -> None:
    """Michigan and Minnesota meet only in Lake Superior: Michigan is left on its own."""
    check = check_connection(["MI", "MN", "ND", "SD"])
    assert not check.connects
    assert check.reason.endswith("MI borders none of MN, ND and SD")


def test_a_state_bordering_none_of_the_others_is_named() -> None:
    check = check_connection(["UT", "CO", "KS", "TX"])
    assert not check.connects
    assert check.reason.endswith("TX borders none of UT, CO and KS")


def test_two_pairs_that_do_not_touch_are_named() -> None:
    check = check_connection(["UT", "CO", "ME", "NH"])
    assert not check.connects
    assert check.pieces == (("UT", "CO"), ("ME", "NH"))
    assert "(UT, CO) and (ME, NH) do not touch" in check.reason


def test_a_bonus_state_borders_nothing() -> None:
    assert not check_connection(["AK", "WA", "OR", "ID"]).connects


@pytest.mark.parametrize("shown", [["UT", "CO", "KS"], ["UT", "CO", "KS", "OK", "TX"]])
def test_a_claim_shows_exactly_four_states(shown: list[str]) -> None:
    with pytest.raises(InvalidInput, match=f"{len(shown)} state\\(s\\) shown: expected 4"):
        check_connection(shown)


def test_a_state_shown_twice_is_bad_input() -> None:
    with pytest.raises(InvalidInput, match="UT is shown twice"):
        check_connection(["UT", "Utah", "CO", "KS"])


def test_a_water_card_is_not_a_state() -> None:
    with pytest.raises(InvalidInput, match="a water card is not a state"):
        check_connection(["UT", "CO", "KS", "water"])


def test_an_unknown_state_is_named_with_a_suggestion() -> None:
    with pytest.raises(UnknownState, match="did you mean Kansas"):
        check_connection(["UT", "CO", "Kansa", "OK"])
