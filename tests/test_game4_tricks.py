"""Game 4's trick judges: ranks under a base, the BUR, protection, Power cards and the Zap."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.atlas import Category, default_atlas
from rules.errors import InvalidInput, RuleError, UnknownState
from rules.geoplunge.games.tricks import (
    Trick,
    TrickSide,
    ZapCondition,
    bur_rank,
    is_protected,
    judge_trick,
    judge_zap,
    rank_key,
)
from rules.geoplunge.power import BASES, Game4Version

PTR1, PTR2 = Game4Version.PTR1, Game4Version.PTR2
SIZE, STATEHOOD, POPULATION = Category.SIZE, Category.STATEHOOD, Category.POPULATION
RULEBOOK_BUR = ("FL", "VA")  # the rulebook's examples: BUR 3 for base 1, 35 for base 30
CODES = default_atlas().codes


def _best_first(base: int, ranks: list[int]) -> list[int]:
    return sorted(ranks, key=lambda rank: rank_key(base, rank))


# Ranks under each base


def test_base_1_best_rank_is_1_then_upward() -> None:
    assert _best_first(1, [50, 3, 1, 2]) == [1, 2, 3, 50]


@pytest.mark.parametrize("base", [10, 20, 30])
def test_base_10_20_30_best_rank_is_the_base_then_upward(base: int) -> None:
    assert _best_first(base, [50, base + 1, base, base + 2]) == [base, base + 1, base + 2, 50]


@pytest.mark.parametrize("base", [10, 20, 30])
def test_rank_below_a_10_20_30_base_is_worse_than_every_rank_at_or_above_it(base: int) -> None:
    assert rank_key(base, 50) < rank_key(base, base - 1)
    assert rank_key(base, 50) < rank_key(base, 1)


@pytest.mark.parametrize("base", [10, 20, 30])
def test_ranks_below_the_base_all_lose_alike(base: int) -> None:
    assert rank_key(base, 1) == rank_key(base, base - 1)


def test_base_50_best_rank_is_50_then_downward() -> None:
    assert _best_first(50, [1, 48, 50, 49]) == [50, 49, 48, 1]


def test_rank_key_rejects_a_base_not_on_any_power_card() -> None:
    with pytest.raises(InvalidInput, match="base 5"):
        rank_key(5, 3)


@pytest.mark.parametrize("rank", [0, 51])
def test_rank_key_rejects_a_rank_outside_1_to_50(rank: int) -> None:
    with pytest.raises(InvalidInput, match="expected 1 to 50"):
        rank_key(1, rank)


# The BUR


def test_bur_for_base_1_with_florida_and_virginia_is_florida_population_3() -> None:
    assert bur_rank(1, RULEBOOK_BUR) == 3


def test_bur_for_base_30_with_florida_and_virginia_is_virginia_size_35() -> None:
    assert bur_rank(30, RULEBOOK_BUR) == 35


def test_bur_for_base_50_counts_down_from_50() -> None:
    assert bur_rank(50, RULEBOOK_BUR) == 35


def test_bur_for_base_10_can_be_the_base_itself() -> None:
    assert bur_rank(10, RULEBOOK_BUR) == 10  # Virginia's statehood


def test_bur_takes_every_category_of_every_card() -> None:
    assert bur_rank(20, RULEBOOK_BUR) == 22  # Florida's size


def test_no_bur_cards_no_bur() -> None:
    assert bur_rank(30, ()) is None


def test_bur_entirely_below_the_base_reports_the_rank_closest_below_it() -> None:
    assert bur_rank(30, ("FL", "GA")) == 27  # Florida's statehood; nothing reaches 30


# Protection


def test_lead_power_card_always_protects() -> None:
    assert is_protected("CO", SIZE, 1, RULEBOOK_BUR, lead_power=SIZE)


def test_rank_better_than_the_bur_protects() -> None:
    assert is_protected("MN", STATEHOOD, 30, RULEBOOK_BUR)  # 32 beats the BUR 35


def test_rank_equal_to_the_bur_does_not_protect() -> None:
    assert not is_protected("WV", STATEHOOD, 30, RULEBOOK_BUR)  # 35 only equals the BUR


def test_rank_worse_than_the_bur_does_not_protect() -> None:
    assert not is_protected("CO", SIZE, 1, RULEBOOK_BUR)  # 8 is worse than the BUR 3


def test_without_bur_cards_only_a_power_card_protects() -> None:
    assert not is_protected("CA", POPULATION, 1, ())
    assert is_protected("CA", POPULATION, 1, (), lead_power=POPULATION)


def test_ruling_bur_below_the_base_protects_every_card_at_or_above_it() -> None:
    assert is_protected("UT", POPULATION, 30, ("FL", "GA"))  # 33 against a BUR of 27


def test_ruling_card_below_the_base_is_never_protected_by_rank() -> None:
    assert not is_protected("OK", POPULATION, 30, ("FL", "GA"))  # 28, closer than the BUR 27


# The rulebook's worked examples (base 1 for tricks 1-4, 30 for tricks 5-8, BUR FL and VA)


def test_example_1_lead_power_card_locks_the_category_and_new_york_beats_georgia() -> None:
    trick = Trick(
        PTR1, 1, POPULATION, "NY", "GA", lead_power=POPULATION, other_power=SIZE, bur=RULEBOOK_BUR
    )
    decision = judge_trick(trick)
    assert decision.winner is TrickSide.LEAD
    assert decision.category is POPULATION
    assert (decision.lead_rank, decision.other_rank) == (4, 8)
    assert decision.protected


def test_example_2_minnesota_statehood_32_is_protected_by_the_bur_35() -> None:
    trick = Trick(PTR1, 30, STATEHOOD, "MN", "TX", other_power=POPULATION, bur=RULEBOOK_BUR)
    decision = judge_trick(trick)
    assert decision.protected
    assert decision.bur == 35
    assert decision.category is STATEHOOD
    assert decision.winner is TrickSide.LEAD


def test_example_2_only_wisconsin_or_california_beat_minnesota() -> None:
    beaters = {
        other
        for other in CODES
        if other != "MN"
        and judge_trick(
            Trick(PTR1, 30, STATEHOOD, "MN", other, other_power=POPULATION, bur=RULEBOOK_BUR)
        ).winner
        is TrickSide.OTHER
    }
    assert beaters == {"WI", "CA"}


def test_example_3_other_power_card_changes_the_category_and_tennessee_beats_colorado() -> None:
    trick = Trick(PTR1, 1, SIZE, "CO", "TN", other_power=STATEHOOD, bur=RULEBOOK_BUR)
    decision = judge_trick(trick)
    assert decision.winner is TrickSide.OTHER
    assert decision.category is STATEHOOD
    assert (decision.lead_rank, decision.other_rank) == (38, 16)
    assert not decision.protected


def test_example_4_oklahoma_population_28_is_below_the_base_30_and_loses() -> None:
    decision = judge_trick(Trick(PTR1, 30, POPULATION, "UT", "OK", bur=RULEBOOK_BUR))
    assert decision.winner is TrickSide.LEAD
    assert decision.reason == (
        "Oklahoma's population rank 28 is below the base 30: it loses automatically"
    )


# Who wins a trick


def test_base_30_rank_below_base_loses_automatically_even_for_the_lead() -> None:
    decision = judge_trick(Trick(PTR1, 30, POPULATION, "OK", "UT"))
    assert decision.winner is TrickSide.OTHER


def test_both_cards_below_a_10_20_30_base_the_lead_wins() -> None:
    decision = judge_trick(Trick(PTR1, 30, POPULATION, "OK", "TX"))  # 28 and 2
    assert decision.winner is TrickSide.LEAD
    assert decision.reason.startswith("Both population ranks")


def test_base_50_counts_downward() -> None:
    assert judge_trick(Trick(PTR1, 50, STATEHOOD, "AK", "HI")).winner is TrickSide.OTHER
    assert judge_trick(Trick(PTR1, 50, STATEHOOD, "HI", "AK")).winner is TrickSide.LEAD


def test_base_1_lower_rank_wins() -> None:
    assert judge_trick(Trick(PTR1, 1, SIZE, "TX", "AK")).winner is TrickSide.OTHER


def test_ruling_lead_power_card_category_overrides_the_announced_category() -> None:
    decision = judge_trick(Trick(PTR1, 1, SIZE, "NY", "GA", lead_power=POPULATION))
    assert decision.category is POPULATION


def test_other_power_card_cannot_change_the_category_after_a_lead_power_card() -> None:
    trick = Trick(PTR1, 1, SIZE, "CO", "TN", lead_power=SIZE, other_power=STATEHOOD)
    assert judge_trick(trick).winner is TrickSide.LEAD


def test_other_power_card_with_the_same_category_changes_nothing() -> None:
    trick = Trick(PTR1, 1, SIZE, "CO", "TN", other_power=SIZE, bur=RULEBOOK_BUR)
    assert judge_trick(trick).category is SIZE


def test_other_power_card_without_bur_cards_always_changes_the_category() -> None:
    decision = judge_trick(Trick(PTR1, 30, STATEHOOD, "MN", "TX", other_power=POPULATION))
    assert decision.category is POPULATION
    assert decision.bur is None


@given(st.sampled_from(BASES), st.sampled_from(list(Category)), st.permutations(CODES))
def test_without_power_cards_the_better_rank_key_wins_and_ties_go_to_the_lead(
    base: int, category: Category, codes: list[str]
) -> None:
    lead, other = default_atlas().lookup(codes[0]), default_atlas().lookup(codes[1])
    decision = judge_trick(Trick(PTR1, base, category, lead.code, other.code))
    other_better = rank_key(base, other.rank(category)) < rank_key(base, lead.rank(category))
    assert (decision.winner is TrickSide.OTHER) == other_better


# PTR2: Change the Base


def test_ptr2_change_the_base_changes_the_base_of_an_unprotected_lead_card() -> None:
    trick = Trick(
        PTR2,
        50,
        STATEHOOD,
        "NC",
        "NY",
        other_power=SIZE,
        other_power_base=10,
        change_base=True,
        bur=RULEBOOK_BUR,
        bases=(50, 10),
    )
    decision = judge_trick(trick)
    assert decision.base == 10
    assert decision.winner is TrickSide.OTHER  # NY 11 beats NC 12 from 10; from 50 NC won


def test_ptr2_change_the_base_keeps_the_announced_category() -> None:
    trick = Trick(
        PTR2, 50, STATEHOOD, "NC", "NY", other_power=SIZE, other_power_base=10, change_base=True
    )
    assert judge_trick(trick).category is STATEHOOD


def test_ptr2_change_the_base_fails_against_a_protected_lead_card() -> None:
    trick = Trick(
        PTR2,
        50,
        STATEHOOD,
        "AK",
        "TX",
        other_power=SIZE,
        other_power_base=10,
        change_base=True,
        bur=RULEBOOK_BUR,
        bases=(50, 10),
    )
    decision = judge_trick(trick)
    assert decision.protected  # 49 beats the BUR 35 for base 50
    assert (decision.base, decision.category, decision.winner) == (50, STATEHOOD, TrickSide.LEAD)


def test_ptr2_change_the_base_fails_against_a_lead_power_card() -> None:
    trick = Trick(
        PTR2,
        50,
        STATEHOOD,
        "NC",
        "NY",
        lead_power=STATEHOOD,
        other_power=SIZE,
        other_power_base=10,
        change_base=True,
    )
    assert judge_trick(trick).base == 50


def test_ptr2_power_card_without_change_the_base_changes_the_category() -> None:
    trick = Trick(PTR2, 50, STATEHOOD, "NC", "NY", other_power=SIZE, other_power_base=10)
    decision = judge_trick(trick)
    assert (decision.base, decision.category) == (50, SIZE)


def test_ptr2_change_the_base_to_the_announced_base_is_rejected() -> None:
    trick = Trick(
        PTR2, 50, STATEHOOD, "NC", "NY", other_power=SIZE, other_power_base=50, change_base=True
    )
    with pytest.raises(InvalidInput, match="already announced base 50"):
        judge_trick(trick)


def test_ptr2_change_the_base_to_a_base_not_in_the_game_is_rejected() -> None:
    trick = Trick(
        PTR2,
        50,
        STATEHOOD,
        "NC",
        "NY",
        other_power=SIZE,
        other_power_base=30,
        change_base=True,
        bases=(50, 10),
    )
    with pytest.raises(InvalidInput, match="30 is not one of this game's bases"):
        judge_trick(trick)


def test_change_the_base_is_not_a_ptr1_rule() -> None:
    trick = Trick(
        PTR1, 50, STATEHOOD, "NC", "NY", other_power=SIZE, other_power_base=10, change_base=True
    )
    with pytest.raises(InvalidInput, match="PTR2 rule"):
        judge_trick(trick)


def test_change_the_base_needs_the_power_cards_left_number() -> None:
    trick = Trick(PTR2, 50, STATEHOOD, "NC", "NY", other_power=SIZE, change_base=True)
    with pytest.raises(InvalidInput, match="left-corner number"):
        judge_trick(trick)


# Malformed tricks


@pytest.mark.parametrize(
    ("trick", "problem"),
    [
        (Trick(PTR1, 1, SIZE, "NY", "new york"), "both teams played NY"),
        (Trick(Game4Version.PTB, 1, SIZE, "NY", "GA"), "Border Zap"),
        (Trick(PTR1, 5, SIZE, "NY", "GA"), "base 5"),
        (Trick(PTR1, 30, SIZE, "NY", "GA", bases=(1, 10)), "expected 1 or 10"),
        (Trick(PTR1, 1, SIZE, "NY", "GA", bur=("FL", "fl")), "BUR card is listed twice"),
        (Trick(PTR1, 1, SIZE, "NY", "GA", other_power_base=10), "Power card"),
    ],
)
def test_malformed_trick_is_one_clear_line(trick: Trick, problem: str) -> None:
    with pytest.raises(InvalidInput, match=problem) as caught:
        judge_trick(trick)
    assert "\n" not in str(caught.value)


def test_unknown_state_is_named() -> None:
    with pytest.raises(UnknownState, match="Nevadaa"):
        judge_trick(Trick(PTR1, 1, SIZE, "Nevadaa", "GA"))


CARD_TEXT = st.text(max_size=12) | st.sampled_from(CODES)
ANY_TRICK = st.builds(
    Trick,
    version=st.sampled_from(list(Game4Version)),
    base=st.integers(-5, 60),
    category=st.sampled_from(list(Category)),
    lead=CARD_TEXT,
    other=CARD_TEXT,
    lead_power=st.none() | st.sampled_from(list(Category)),
    other_power=st.none() | st.sampled_from(list(Category)),
    other_power_base=st.none() | st.integers(-5, 60),
    change_base=st.booleans(),
    bur=st.lists(CARD_TEXT, max_size=3).map(tuple),
    bases=st.lists(st.integers(-5, 60), max_size=2).map(tuple),
)


@given(ANY_TRICK)
def test_judge_trick_only_ever_raises_rule_errors(trick: Trick) -> None:
    with contextlib.suppress(RuleError):
        judge_trick(trick)


# Border Zap


def test_rulebook_zap_texas_zaps_utah_through_new_mexico() -> None:
    decision = judge_zap("UT", "TX")
    assert decision.winner is TrickSide.OTHER
    assert decision.reasons == (ZapCondition.COMMON_BORDER,)
    assert "New Mexico" in decision.reason


def test_zap_by_bordering_the_lead_state() -> None:
    decision = judge_zap("ME", "NH")  # no common neighbour; 1 and 3 border states
    assert decision.reasons == (ZapCondition.BORDERS,)
    assert decision.winner is TrickSide.OTHER


def test_zap_by_the_same_number_of_border_states() -> None:
    decision = judge_zap("FL", "WA")  # 2 each, far apart
    assert decision.reasons == (ZapCondition.SAME_COUNT,)
    assert decision.winner is TrickSide.OTHER


def test_zap_lists_every_condition_that_holds() -> None:
    assert judge_zap("UT", "CO").reasons == (ZapCondition.BORDERS, ZapCondition.COMMON_BORDER)


def test_no_zap_the_lead_wins() -> None:
    decision = judge_zap("UT", "ME")
    assert decision.winner is TrickSide.LEAD
    assert decision.reasons == ()
    assert decision.reason.endswith("the lead wins")


def test_ruling_hawaii_zaps_alaska_with_zero_border_states_each() -> None:
    decision = judge_zap("AK", "HI")
    assert decision.reasons == (ZapCondition.SAME_COUNT,)
    assert decision.winner is TrickSide.OTHER


def test_maine_does_not_zap_alaska() -> None:
    assert judge_zap("AK", "ME").winner is TrickSide.LEAD


def test_zap_with_the_same_card_twice_is_rejected() -> None:
    with pytest.raises(InvalidInput, match="both teams played UT"):
        judge_zap("Utah", "ut")
