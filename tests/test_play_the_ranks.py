"""Play the Ranks 1 and 2 (Game 4, Level 4): set-up phases, tricks and who wins the game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from rules.actions import Action, decode, encode
from rules.atlas import Category
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.border_zap import ZapTrick
from rules.geoplunge.games.common import DeclarePlunge, DrawWinner, GameContext, StatehoodDraw
from rules.geoplunge.games.play_the_ranks import (
    AnnounceRole,
    BurDealt,
    DealBur,
    DeclarePull,
    KeepBases,
    PlayRanksTrick,
    PlayTheRanksRules,
    PlayTheRanksState,
    RanksPhase,
    Role,
    SetGeoStar,
    StarArea,
    TrickResult,
    TurnPowerCards,
    UpTheBur,
)
from rules.geoplunge.games.tricks import TrickDecision
from rules.geoplunge.power import Game4Version
from rules.geoplunge.teams import Team

RULES = PlayTheRanksRules()
PTR1, PTR2 = Game4Version.PTR1, Game4Version.PTR2
A, B = Team.A, Team.B
STATEHOOD, SIZE = Category.STATEHOOD, Category.SIZE
NOBODY: frozenset[Team] = frozenset()
TURNED = (1, 30, 50)
BUR = ("FL", "VA")  # the rulebook's BUR: 3 for base 1, 35 for base 30

# Per trick, a (better, worse) pair in statehood: base 1 for tricks 1-4, base 30 for 5-8.
# The better card wins whichever team plays it; no card repeats and none is a BUR card.
STATEHOOD_PAIRS = [
    ("DE", "HI"),
    ("PA", "AK"),
    ("NJ", "AZ"),
    ("GA", "NM"),
    ("WI", "TX"),
    ("CA", "IA"),
    ("MN", "MI"),
    ("OR", "AR"),
]


def _apply(state: PlayTheRanksState, *actions: Action) -> PlayTheRanksState:
    for action in actions:
        state = RULES.apply(state, action)
    return state


def _at_roles(version: Game4Version = PTR1) -> PlayTheRanksState:
    """Team A leads the first trick; three Power cards are on the table."""
    return _apply(RULES.start(GameContext(lead=A), version), TurnPowerCards(TURNED))


def _at_pull(version: Game4Version = PTR1, bases: tuple[int, int] = (1, 30)) -> PlayTheRanksState:
    """A said Cards so B is the Call team; bases kept; the BUR dealt to A."""
    return _apply(
        _at_roles(version), AnnounceRole(A, Role.CARDS), KeepBases(B, bases), DealBur(BUR)
    )


def _at_bur(version: Game4Version = PTR1, bases: tuple[int, int] = (1, 30)) -> PlayTheRanksState:
    """A said Cards so B is the Call team; bases kept; the BUR cards are next."""
    return _apply(_at_roles(version), AnnounceRole(A, Role.CARDS), KeepBases(B, bases))


def _at_tricks(
    version: Game4Version = PTR1,
    bases: tuple[int, int] = (1, 30),
    pull: Team | None = None,
    *,
    bur_entered: bool = True,
) -> PlayTheRanksState:
    """Tricks are next, team A leads; the BUR is FL, VA, or dealt but not entered."""
    bur = DealBur(BUR) if bur_entered else BurDealt(2)
    state = _apply(_at_bur(version, bases), bur, DeclarePull(B, pulling=pull is B))
    if pull is not B:
        state = _apply(state, DeclarePull(A, pulling=pull is A))
    return _apply(state, DeclarePlunge(NOBODY), SetGeoStar(StarArea.CAPITAL))


def _trick_won_by(
    state: PlayTheRanksState, winner: Team, *, powers: bool = False
) -> PlayRanksTrick:
    """A statehood trick the winner takes; ``powers`` adds a harmless Power card per team."""
    better, worse = STATEHOOD_PAIRS[len(state.tricks)]
    lead, other = (better, worse) if winner is state.lead else (worse, better)
    power = STATEHOOD if powers else None
    return PlayRanksTrick(lead, STATEHOOD, other, lead_power=power, other_power=power)


def _decision(state: PlayTheRanksState, index: int = -1) -> TrickDecision:
    """The judge's decision on a trick entered card by card."""
    decision = state.tricks[index].decision
    assert decision is not None
    return decision


def _play(
    state: PlayTheRanksState, winners: Sequence[Team], *, power_tricks: int = 2
) -> PlayTheRanksState:
    """Play tricks won by ``winners``; both teams play a Power card on the first tricks."""
    for winner in winners:
        powers = len(state.tricks) < power_tricks
        state = RULES.apply(state, _trick_won_by(state, winner, powers=powers))
    return state


def _judged(
    state: PlayTheRanksState, winners: Sequence[Team], *, power_tricks: int = 2
) -> PlayTheRanksState:
    """Result-only tricks won by ``winners``; both teams play a Power card on the first tricks."""
    for winner in winners:
        powers = len(state.tricks) < power_tricks
        state = RULES.apply(state, TrickResult(winner, lead_power=powers, other_power=powers))
    return state


# Who leads the first trick


def test_lead_from_the_match_skips_the_statehood_draw() -> None:
    state = RULES.start(GameContext(lead=B), PTR1)
    assert (state.phase, state.lead, state.first_lead) == (RanksPhase.POWER_CARDS, B, B)


def test_without_a_lead_a_statehood_draw_decides_it() -> None:
    state = RULES.start(GameContext(), PTR2)
    assert state.phase is RanksPhase.STATEHOOD_DRAW
    state = RULES.apply(state, StatehoodDraw(a="HI", b="DE"))
    assert (state.lead, state.phase) == (B, RanksPhase.POWER_CARDS)


def test_without_a_lead_the_dealer_may_enter_the_draw_winner() -> None:
    state = RULES.apply(RULES.start(GameContext(), PTR2), DrawWinner(first=B))
    assert (state.lead, state.first_lead, state.phase) == (B, B, RanksPhase.POWER_CARDS)


def test_draw_winner_is_refused_when_the_lead_is_known() -> None:
    with pytest.raises(IllegalAction, match="not allowed in phase 'power_cards'"):
        RULES.apply(RULES.start(GameContext(lead=A), PTR1), DrawWinner(first=B))


def test_statehood_draw_is_refused_when_the_lead_is_known() -> None:
    with pytest.raises(IllegalAction, match="statehood_draw"):
        RULES.apply(RULES.start(GameContext(lead=A), PTR1), StatehoodDraw(a="HI", b="DE"))


def test_border_zap_is_not_play_the_ranks() -> None:
    with pytest.raises(InvalidInput, match="ptr1 or ptr2"):
        RULES.start(GameContext(lead=A), Game4Version.PTB)


# Step 2: three Power cards with different left-corner numbers


def test_three_power_cards_are_recorded() -> None:
    assert _at_roles().turned_bases == TURNED


def test_power_cards_with_the_same_left_number_are_rejected() -> None:
    with pytest.raises(InvalidInput, match="different left-corner numbers"):
        RULES.apply(RULES.start(GameContext(lead=A), PTR1), TurnPowerCards((1, 30, 30)))


def test_two_power_cards_are_not_enough() -> None:
    with pytest.raises(InvalidInput, match="expected the left-corner numbers of three"):
        RULES.apply(RULES.start(GameContext(lead=A), PTR1), TurnPowerCards((1, 30)))


def test_power_card_number_must_be_a_base() -> None:
    with pytest.raises(InvalidInput, match="base 40"):
        RULES.apply(RULES.start(GameContext(lead=A), PTR1), TurnPowerCards((1, 30, 40)))


# Step 2: Cards or Call


def test_lead_says_cards_the_second_team_is_the_call_team() -> None:
    state = RULES.apply(_at_roles(), AnnounceRole(A, Role.CARDS))
    assert (state.call_team, state.cards_team, state.bur_count) == (B, A, 2)


def test_lead_says_call_second_says_cards_the_lead_is_the_call_team() -> None:
    state = _apply(_at_roles(), AnnounceRole(A, Role.CALL), AnnounceRole(B, Role.CARDS))
    assert (state.call_team, state.bur_count, state.phase) == (A, 2, RanksPhase.CALL)


def test_up_the_bur_then_first_team_says_cards_the_second_team_calls() -> None:
    state = _apply(
        _at_roles(), AnnounceRole(A, Role.CALL), UpTheBur(B, 4), AnnounceRole(A, Role.CARDS)
    )
    assert (state.call_team, state.bur_count) == (B, 4)


def test_up_the_bur_then_first_team_says_call_it_stays_the_call_team() -> None:
    state = _apply(
        _at_roles(), AnnounceRole(A, Role.CALL), UpTheBur(B, 5), AnnounceRole(A, Role.CALL)
    )
    assert (state.call_team, state.bur_count) == (A, 5)


def test_second_team_becomes_call_team_only_by_up_the_bur() -> None:
    state = RULES.apply(_at_roles(), AnnounceRole(A, Role.CALL))
    with pytest.raises(IllegalAction, match="only by Up the BUR"):
        RULES.apply(state, AnnounceRole(B, Role.CALL))


@pytest.mark.parametrize("count", [2, 6])
def test_up_the_bur_is_to_3_4_or_5_cards(count: int) -> None:
    state = RULES.apply(_at_roles(), AnnounceRole(A, Role.CALL))
    with pytest.raises(InvalidInput, match="expected 3, 4 or 5"):
        RULES.apply(state, UpTheBur(B, count))


def test_up_the_bur_only_answers_a_call() -> None:
    with pytest.raises(IllegalAction, match="roles_reply"):
        RULES.apply(_at_roles(), UpTheBur(B, 3))


def test_only_the_first_trick_lead_chooses_first() -> None:
    with pytest.raises(IllegalAction, match="expected team A"):
        RULES.apply(_at_roles(), AnnounceRole(B, Role.CARDS))


def test_only_the_second_team_answers_the_call() -> None:
    state = RULES.apply(_at_roles(), AnnounceRole(A, Role.CALL))
    with pytest.raises(IllegalAction, match="expected team B"):
        RULES.apply(state, UpTheBur(A, 3))


# Step 3: the Call team keeps two Power cards


def test_ptr1_kept_bases_are_first_for_tricks_1_to_4_then_5_to_8() -> None:
    state = _apply(_at_roles(), AnnounceRole(A, Role.CARDS), KeepBases(B, (50, 1)))
    assert state.bases == (50, 1)
    assert state.base_in_force == 50


def test_only_the_call_team_keeps_bases() -> None:
    state = RULES.apply(_at_roles(), AnnounceRole(A, Role.CARDS))
    with pytest.raises(IllegalAction, match="expected team B"):
        RULES.apply(state, KeepBases(A, (1, 30)))


def test_kept_base_must_be_on_the_table() -> None:
    state = RULES.apply(_at_roles(), AnnounceRole(A, Role.CARDS))
    with pytest.raises(IllegalAction, match="no Power card with 10"):
        RULES.apply(state, KeepBases(B, (1, 10)))


def test_the_same_power_card_cannot_be_kept_twice() -> None:
    state = RULES.apply(_at_roles(), AnnounceRole(A, Role.CARDS))
    with pytest.raises(IllegalAction, match="kept twice"):
        RULES.apply(state, KeepBases(B, (30, 30)))


def test_the_call_team_keeps_exactly_two_power_cards() -> None:
    state = RULES.apply(_at_roles(), AnnounceRole(A, Role.CARDS))
    with pytest.raises(InvalidInput, match="expected two"):
        RULES.apply(state, KeepBases(B, TURNED))


# Step 4: the BUR cards


def test_bur_cards_are_recorded_as_postal_codes() -> None:
    state = _apply(
        _at_roles(), AnnounceRole(A, Role.CARDS), KeepBases(B, (1, 30)), DealBur(("Florida", "va"))
    )
    assert state.bur_cards == BUR


def test_two_bur_cards_unless_the_bur_was_upped() -> None:
    state = _apply(_at_roles(), AnnounceRole(A, Role.CARDS), KeepBases(B, (1, 30)))
    with pytest.raises(IllegalAction, match="deals 2 BUR cards: got 3"):
        RULES.apply(state, DealBur(("FL", "VA", "GA")))


def test_upped_bur_deals_that_many_cards() -> None:
    state = _apply(
        _at_roles(),
        AnnounceRole(A, Role.CALL),
        UpTheBur(B, 3),
        AnnounceRole(A, Role.CARDS),
        KeepBases(B, (1, 30)),
    )
    with pytest.raises(IllegalAction, match="deals 3 BUR cards: got 2"):
        RULES.apply(state, DealBur(BUR))
    assert RULES.apply(state, DealBur(("FL", "VA", "GA"))).bur_cards == ("FL", "VA", "GA")


def test_a_bur_card_cannot_be_dealt_twice() -> None:
    state = _apply(_at_roles(), AnnounceRole(A, Role.CARDS), KeepBases(B, (1, 30)))
    with pytest.raises(InvalidInput, match="listed twice"):
        RULES.apply(state, DealBur(("FL", "Florida")))


def test_bur_dealt_without_the_cards_moves_on_to_pulling_the_power() -> None:
    state = RULES.apply(_at_bur(), BurDealt(2))
    assert (state.phase, state.bur_count, state.bur_cards) == (RanksPhase.PULL_CALL_TEAM, 2, ())
    assert state.bur_unknown


def test_bur_dealt_count_is_two_unless_the_bur_was_upped() -> None:
    with pytest.raises(IllegalAction, match="deals 2 BUR cards: got 3"):
        RULES.apply(_at_bur(), BurDealt(3))


def test_bur_dealt_count_is_the_up_the_bur_number() -> None:
    state = _apply(
        _at_roles(),
        AnnounceRole(A, Role.CALL),
        UpTheBur(B, 4),
        AnnounceRole(A, Role.CARDS),
        KeepBases(B, (1, 30)),
    )
    with pytest.raises(IllegalAction, match="deals 4 BUR cards: got 2"):
        RULES.apply(state, BurDealt(2))
    assert RULES.apply(state, BurDealt(4)).bur_count == 4


@pytest.mark.parametrize("count", [0, -1, 6])
def test_bur_dealt_count_must_be_a_count_the_game_deals(count: int) -> None:
    with pytest.raises(IllegalAction, match=f"deals 2 BUR cards: got {count}"):
        RULES.apply(_at_bur(), BurDealt(count))


def test_bur_is_dealt_once_entered_or_not() -> None:
    with pytest.raises(IllegalAction, match="phase 'pull_call_team'"):
        RULES.apply(RULES.apply(_at_bur(), DealBur(BUR)), BurDealt(2))
    with pytest.raises(IllegalAction, match="phase 'pull_call_team'"):
        RULES.apply(RULES.apply(_at_bur(), BurDealt(2)), DealBur(BUR))


# Step 6: Pulling the Power


def test_the_call_team_declares_pulling_first() -> None:
    with pytest.raises(IllegalAction, match="expected team B"):
        RULES.apply(_at_pull(), DeclarePull(A, pulling=False))


def test_call_team_pulling_the_power_skips_the_cards_team() -> None:
    state = RULES.apply(_at_pull(), DeclarePull(B, pulling=True))
    assert (state.pulled_by, state.phase) == (B, RanksPhase.PLUNGE)


def test_cards_team_may_pull_when_the_call_team_does_not() -> None:
    state = _apply(_at_pull(), DeclarePull(B, pulling=False), DeclarePull(A, pulling=True))
    assert state.pulled_by is A


def test_nobody_pulls_the_power() -> None:
    state = _apply(_at_pull(), DeclarePull(B, pulling=False), DeclarePull(A, pulling=False))
    assert (state.pulled_by, state.phase) == (None, RanksPhase.PLUNGE)


# Steps 7-8: GeoPlunging and the GeoStar


def test_plunge_is_declared_once_before_the_geostar() -> None:
    state = _apply(_at_pull(), DeclarePull(B, pulling=True), DeclarePlunge(frozenset({A})))
    assert (state.plunging, state.phase) == (frozenset({A}), RanksPhase.GEOSTAR)
    with pytest.raises(IllegalAction, match="plunge"):
        RULES.apply(state, DeclarePlunge(NOBODY))


def test_geostar_top_city_names_its_position() -> None:
    state = _apply(_at_pull(), DeclarePull(B, pulling=True), DeclarePlunge(NOBODY))
    state = RULES.apply(state, SetGeoStar(StarArea.TOP_CITY, top_city=2))
    assert state.geostar == SetGeoStar(StarArea.TOP_CITY, top_city=2)
    assert state.phase is RanksPhase.TRICKS


@pytest.mark.parametrize(
    "geostar",
    [SetGeoStar(StarArea.TOP_CITY), SetGeoStar(StarArea.TOP_CITY, 6), SetGeoStar(StarArea.BIRD, 1)],
)
def test_geostar_top_city_position_only_with_a_top_city(geostar: SetGeoStar) -> None:
    state = _apply(_at_pull(), DeclarePull(B, pulling=True), DeclarePlunge(NOBODY))
    with pytest.raises(InvalidInput):
        RULES.apply(state, geostar)


def test_a_trick_before_the_geostar_is_in_the_wrong_phase() -> None:
    state = _apply(_at_pull(), DeclarePull(B, pulling=True), DeclarePlunge(NOBODY))
    with pytest.raises(IllegalAction, match="not allowed in phase 'geostar'"):
        RULES.apply(state, PlayRanksTrick("DE", STATEHOOD, "HI"))


# Step 9: tricks


def test_ptr1_bases_by_trick_number() -> None:
    state = _play(_at_tricks(), [A] * 5)
    assert [_decision(state, i).base for i in range(5)] == [1, 1, 1, 1, 30]
    assert state.base_in_force == 30


def test_ptr1_lead_cannot_announce_another_base() -> None:
    with pytest.raises(IllegalAction, match="played with base 1: got 30"):
        RULES.apply(_at_tricks(), PlayRanksTrick("DE", STATEHOOD, "HI", base=30))


def test_ptr1_lead_may_repeat_the_base_in_force() -> None:
    state = RULES.apply(_at_tricks(), PlayRanksTrick("DE", STATEHOOD, "HI", base=1))
    assert _decision(state, 0).base == 1


def test_trick_winner_leads_the_next_trick() -> None:
    state = _play(_at_tricks(), [B])
    assert state.lead is B
    assert state.tricks[0].lead_team is A
    state = _play(state, [B])
    assert state.tricks[1].lead_team is B


def test_trick_uses_the_games_bur_for_protection() -> None:
    state = _play(_at_tricks(), [A] * 4, power_tricks=0)  # base 30 from trick 5; BUR 35
    state = RULES.apply(state, PlayRanksTrick("MN", STATEHOOD, "WV", other_power=SIZE))
    assert _decision(state).protected
    assert _decision(state).category is STATEHOOD


def test_ptr2_lead_announces_either_kept_base_on_any_trick() -> None:
    state = _at_tricks(PTR2, bases=(30, 1))
    state = RULES.apply(state, PlayRanksTrick("DE", STATEHOOD, "HI", base=1))
    assert _decision(state, 0).base == 1
    assert state.base_in_force is None


def test_ptr2_lead_must_announce_the_base() -> None:
    with pytest.raises(IllegalAction, match="expected 30 or 1"):
        RULES.apply(_at_tricks(PTR2, bases=(30, 1)), PlayRanksTrick("DE", STATEHOOD, "HI"))


def test_ptr2_announced_base_must_be_kept() -> None:
    with pytest.raises(IllegalAction, match="base 50 is not one of this game's bases"):
        RULES.apply(_at_tricks(PTR2, bases=(30, 1)), PlayRanksTrick("DE", STATEHOOD, "HI", base=50))


def test_ptr2_change_the_base_in_a_game() -> None:
    state = _at_tricks(PTR2, bases=(50, 1))
    play = PlayRanksTrick(
        "NC", STATEHOOD, "NY", base=50, other_power=SIZE, other_power_base=1, change_base=True
    )
    decision = _decision(RULES.apply(state, play), 0)
    assert (decision.base, decision.category) == (1, STATEHOOD)


def test_ptr2_change_the_base_only_to_the_games_other_base() -> None:
    state = _at_tricks(PTR2, bases=(50, 1))
    play = PlayRanksTrick(
        "NC", STATEHOOD, "NY", base=50, other_power=SIZE, other_power_base=30, change_base=True
    )
    with pytest.raises(IllegalAction, match="30 is not one of this game's bases"):
        RULES.apply(state, play)


def test_ptr1_has_no_change_the_base() -> None:
    play = PlayRanksTrick("NC", STATEHOOD, "NY", other_power=SIZE, other_power_base=30)
    with pytest.raises(InvalidInput, match="PTR2 rule"):
        RULES.apply(_at_tricks(), replace(play, change_base=True))


def test_a_card_cannot_be_played_twice_by_the_same_team() -> None:
    state = _play(_at_tricks(), [A])
    with pytest.raises(IllegalAction, match="DE was played on trick 1"):
        RULES.apply(state, PlayRanksTrick("DE", STATEHOOD, "AK"))


def test_a_card_cannot_be_played_twice_by_the_other_team() -> None:
    state = _play(_at_tricks(), [A])
    with pytest.raises(IllegalAction, match="HI was played on trick 1"):
        RULES.apply(state, PlayRanksTrick("PA", STATEHOOD, "Hawaii"))


def test_the_call_team_cannot_play_a_bur_card() -> None:
    with pytest.raises(IllegalAction, match="FL is a BUR card"):
        RULES.apply(_at_tricks(), PlayRanksTrick("DE", STATEHOOD, "FL"))  # B is the Call team


def test_the_cards_team_plays_its_bur_cards() -> None:
    state = RULES.apply(_at_tricks(), PlayRanksTrick("FL", STATEHOOD, "HI"))  # A holds the BUR
    assert state.played_cards == {"FL", "HI"}


def test_a_team_plays_at_most_two_power_cards() -> None:
    state = _play(_at_tricks(), [A, A])  # both teams played a Power card on tricks 1 and 2
    assert (state.power_played.a, state.power_played.b) == (2, 2)
    with pytest.raises(IllegalAction, match="team A has already played both"):
        RULES.apply(state, PlayRanksTrick("NJ", STATEHOOD, "AZ", lead_power=STATEHOOD))


def test_pulling_the_power_removes_every_power_card() -> None:
    state = _at_tricks(pull=A)
    assert state.power_cards_left(A) == state.power_cards_left(B) == 0
    with pytest.raises(IllegalAction, match="team A Pulled the Power"):
        RULES.apply(state, PlayRanksTrick("DE", STATEHOOD, "HI", other_power=SIZE))


def test_identical_cards_in_one_trick_are_rejected() -> None:
    with pytest.raises(InvalidInput, match="both teams played DE"):
        RULES.apply(_at_tricks(), PlayRanksTrick("DE", STATEHOOD, "Delaware"))


def test_a_border_zap_trick_is_not_a_play_the_ranks_action() -> None:
    with pytest.raises(IllegalAction, match="not a Play the Ranks action"):
        RULES.apply(_at_tricks(), ZapTrick("UT", "TX"))


# Step 9: tricks judged by the dealer at the table (game4.trick_result)


def test_result_only_trick_records_the_winner_and_no_cards() -> None:
    state = RULES.apply(_at_tricks(), TrickResult(B))
    (played,) = state.tricks
    assert (played.number, played.lead_team, played.winner) == (1, A, B)
    assert (played.trick, played.decision, played.judged_at_table) == (None, None, True)
    assert state.played_cards == frozenset()
    assert (state.tricks_won.a, state.tricks_won.b, state.trick_number) == (0, 1, 2)


def test_result_only_trick_winner_leads_the_next_trick() -> None:
    state = _judged(_at_tricks(), [B])
    assert state.lead is B
    state = _judged(state, [A])
    assert (state.tricks[1].lead_team, state.lead) == (B, A)


def test_result_only_tricks_advance_the_ptr1_base_in_force() -> None:
    state = _judged(_at_tricks(), [A] * 4)
    assert state.base_in_force == 30


def test_result_only_trick_counts_each_teams_power_card() -> None:
    state = RULES.apply(_at_tricks(), TrickResult(A, lead_power=True))
    assert (state.power_played.a, state.power_played.b) == (1, 0)
    state = RULES.apply(state, TrickResult(A, other_power=True))
    assert (state.power_cards_left(A), state.power_cards_left(B)) == (1, 1)


def test_result_only_tricks_allow_at_most_two_power_cards_a_team() -> None:
    state = _judged(_at_tricks(), [A, A])  # both teams played a Power card on tricks 1 and 2
    with pytest.raises(IllegalAction, match="team A has already played both"):
        RULES.apply(state, TrickResult(A, lead_power=True))
    with pytest.raises(IllegalAction, match="team B has already played both"):
        RULES.apply(state, TrickResult(A, other_power=True))


def test_result_only_trick_power_card_refused_after_pulling_the_power() -> None:
    state = _at_tricks(pull=B)
    with pytest.raises(IllegalAction, match="team B Pulled the Power"):
        RULES.apply(state, TrickResult(A, other_power=True))
    assert RULES.apply(state, TrickResult(A)).lead is A


def test_result_only_trick_before_the_geostar_is_in_the_wrong_phase() -> None:
    state = _apply(_at_pull(), DeclarePull(B, pulling=True), DeclarePlunge(NOBODY))
    with pytest.raises(IllegalAction, match="not allowed in phase 'geostar'"):
        RULES.apply(state, TrickResult(A))


def test_result_only_tricks_follow_bur_dealt() -> None:
    state = _judged(_at_tricks(bur_entered=False), [B] * 6)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_card_level_trick_is_refused_after_bur_dealt() -> None:
    state = _at_tricks(bur_entered=False)
    with pytest.raises(IllegalAction, match=r"not entered \(game4\.bur_dealt\).*trick_result"):
        RULES.apply(state, PlayRanksTrick("DE", STATEHOOD, "HI"))


def test_card_level_and_result_only_tricks_mix_when_the_bur_was_entered() -> None:
    state = _play(_at_tricks(), [B], power_tricks=0)
    state = RULES.apply(state, TrickResult(A, lead_power=True))
    state = RULES.apply(state, _trick_won_by(state, B))
    assert [played.judged_at_table for played in state.tricks] == [False, True, False]
    assert [played.winner for played in state.tricks] == [B, A, B]
    assert state.played_cards == {"DE", "HI", "NJ", "AZ"}
    assert (state.power_played.a, state.power_played.b) == (0, 1)
    with pytest.raises(IllegalAction, match="DE was played on trick 1"):
        RULES.apply(state, PlayRanksTrick("DE", STATEHOOD, "AK"))


# Who wins the game: tricks judged at the table


def test_result_only_six_tricks_end_the_game_early_with_the_bonus() -> None:
    state = _judged(_at_tricks(), [A, B, A, A, A, A, A], power_tricks=0)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)
    assert (state.phase, len(state.tricks)) == (RanksPhase.OVER, 7)


def test_result_only_five_tricks_to_three_wins_without_the_bonus() -> None:
    state = _judged(_at_tricks(), [A, B, A, B, A, B, A, A])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_result_only_four_all_the_last_trick_winner_wins() -> None:
    state = _judged(_at_tricks(), [A, A, A, A, B, B, B, B])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)
    assert "won the last trick" in state.result.reason


def test_result_only_four_all_after_a_pull_the_other_team_wins() -> None:
    state = _judged(_at_tricks(pull=A), [B, B, B, B, A, A, A, A], power_tricks=0)
    assert state.result is not None
    assert state.result.winner is B


def test_result_only_power_card_failure_loses_automatically() -> None:
    state = _at_tricks()
    for winner in [A] * 5 + [B] * 3:
        b_power = len(state.tricks) < 2  # only team B plays its Power cards
        lead_power, other_power = (b_power, False) if state.lead is B else (False, b_power)
        state = RULES.apply(state, TrickResult(winner, lead_power, other_power))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)
    assert "team A did not play both of its Power cards" in state.result.reason


def test_result_only_both_teams_failing_the_power_card_duty_is_a_tie() -> None:
    state = _judged(_at_tricks(), [A] * 5 + [B] * 3, power_tricks=1)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (None, False)


def test_finished_game_rejects_a_result_only_trick() -> None:
    state = _judged(_at_tricks(), [A] * 6)
    with pytest.raises(GameOver):
        RULES.apply(state, TrickResult(A))


@pytest.mark.parametrize(
    "action",
    [
        DrawWinner(first=A),
        BurDealt(3),
        TrickResult(B),
        TrickResult(A, lead_power=True, other_power=True),
    ],
)
def test_dealer_judged_actions_round_trip_through_the_log(action: Action) -> None:
    assert decode(encode(action)) == action


# Who wins the game


def test_six_tricks_end_the_game_early_with_the_bonus() -> None:
    state = _play(_at_tricks(), [A] * 6)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)
    assert state.phase is RanksPhase.OVER


def test_six_tricks_end_early_without_the_power_card_duty() -> None:
    state = _play(_at_tricks(), [B] * 6, power_tricks=0)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_game_continues_at_five_tricks_before_the_last_trick() -> None:
    state = _play(_at_tricks(), [A] * 5)
    assert state.result is None
    assert state.trick_number == 6


def test_five_tricks_to_three_wins_without_the_bonus() -> None:
    state = _play(_at_tricks(), [A, B, A, B, A, B, A, A])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_four_all_the_last_trick_winner_wins() -> None:
    state = _play(_at_tricks(), [A, A, A, A, B, B, B, B])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)
    assert "won the last trick" in state.result.reason


def test_four_all_after_a_pull_the_other_team_wins() -> None:
    state = _play(_at_tricks(pull=A), [B, B, B, B, A, A, A, A], power_tricks=0)
    assert state.result is not None
    assert state.result.winner is B  # although A won the last trick


def test_pulled_power_lifts_the_power_card_duty() -> None:
    state = _play(_at_tricks(pull=B), [A, B, A, B, A, B, A, A], power_tricks=0)
    assert state.result is not None
    assert state.result.winner is A


def test_power_card_failure_loses_automatically() -> None:
    state = _at_tricks()
    for winner in [A] * 5 + [B] * 3:
        play = _trick_won_by(state, winner)
        power = STATEHOOD if len(state.tricks) < 2 else None  # only team B plays Power cards
        if state.lead is B:
            play = replace(play, lead_power=power)
        else:
            play = replace(play, other_power=power)
        state = RULES.apply(state, play)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)
    assert "team A did not play both of its Power cards" in state.result.reason


def test_ruling_both_teams_failing_the_power_card_duty_is_a_tie() -> None:
    state = _play(_at_tricks(), [A] * 5 + [B] * 3, power_tricks=0)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (None, False)


def test_ruling_sixth_trick_on_the_last_trick_still_owes_the_power_cards() -> None:
    state = _play(_at_tricks(), [A, A, B, A, B, A, A, A], power_tricks=1)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (None, False)  # both played only one


def test_ruling_sixth_trick_on_the_last_trick_earns_the_bonus() -> None:
    state = _play(_at_tricks(), [A, A, B, A, B, A, A, A])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)


def test_a_team_out_of_tricks_for_its_power_cards_is_not_stopped_but_loses() -> None:
    state = _play(_at_tricks(), [A] * 3 + [B] * 4, power_tricks=0)
    state = RULES.apply(state, _trick_won_by(state, A, powers=True))
    assert state.result is not None
    assert state.result.winner is None  # each team played one of its two Power cards


def test_finished_game_rejects_every_action() -> None:
    state = _play(_at_tricks(), [A] * 6)
    with pytest.raises(GameOver):
        RULES.apply(state, PlayRanksTrick("OR", STATEHOOD, "AR"))
    with pytest.raises(GameOver):
        RULES.apply(state, DeclarePlunge(NOBODY))
