"""Game 4 (Level 3): Play the Ranks 1 and 2 without Level 4's set-up, and Play the Border Zap."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules.actions import Action
from rules.atlas import Category
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.border_zap import BorderZapState, ZapHands, ZapResult, ZapTrick
from rules.geoplunge.games.common import DeclarePlunge, DrawWinner, GameContext, GameRules
from rules.geoplunge.games.game4 import ChooseVersion, Game4State
from rules.geoplunge.games.level3.game4 import Game4Level3
from rules.geoplunge.games.play_the_ranks import (
    AnnounceRole,
    BurDealt,
    DealBur,
    DeclarePull,
    KeepBases,
    PlayRanksTrick,
    PlayTheRanksState,
    Role,
    SetGeoStar,
    StarArea,
    TrickResult,
    TurnPowerCards,
    UpTheBur,
)
from rules.geoplunge.power import Game4Version
from rules.geoplunge.teams import Team

RULES = Game4Level3()
A, B = Team.A, Team.B
PTR1, PTR2, PTB = Game4Version.PTR1, Game4Version.PTR2, Game4Version.PTB
STATEHOOD, SIZE, POPULATION = Category.STATEHOOD, Category.SIZE, Category.POPULATION
NOBODY: frozenset[Team] = frozenset()

_protocol_check: GameRules[Game4State] = RULES  # mypy: a GameRules


def play(*actions: Action, lead: Team | None = A, early_end: bool = False) -> Game4State:
    """A Level 3 Game 4; most tests here play all 8 tricks (the reading R68 keeps as a setting),
    the early end has tests of its own."""
    state = RULES.start(GameContext(level=3, lead=lead, ptr_early_end=early_end))
    for action in actions:
        state = RULES.apply(state, action)
    return state


def ptr(version: Game4Version = PTR1, bases: tuple[int, ...] = (1, 30)) -> Game4State:
    """Team A leads the first trick; the Power cards give ``bases``; nobody plunges."""
    return play(ChooseVersion(version), TurnPowerCards(bases), DeclarePlunge(NOBODY))


def ranks(state: Game4State) -> PlayTheRanksState:
    assert isinstance(state.inner, PlayTheRanksState)
    return state.inner


def tricks(state: Game4State, winners: Sequence[Team], powers: Sequence[Team] = ()) -> Game4State:
    """Tricks judged at the table; ``powers`` names, trick by trick from the first, the team
    that played a Power card on it (none after the list ends)."""
    for number, winner in enumerate(winners):
        lead = ranks(state).lead
        assert lead is not None
        player = powers[number] if number < len(powers) else None
        state = RULES.apply(
            state,
            TrickResult(winner, lead_power=player is lead, other_power=player is lead.other),
        )
    return state


BOTH_POWERS = (A, B, A, B)  # each team plays its two Power cards on tricks 1-4


# Set-up: two Power cards turned face-up give the bases


def test_game_4_level_3_is_game_4() -> None:
    assert (RULES.number, RULES.key) == (4, "game4")


def test_level_3_rules_refuse_a_level_4_start() -> None:
    with pytest.raises(InvalidInput, match="expected level 3"):
        RULES.start(GameContext(level=4))


def test_rulebook_example_base_1_for_the_first_four_tricks_and_30_for_the_last_four() -> None:
    state = ptr(PTR1, (1, 30))
    assert ranks(state).base_in_force == 1
    state = tricks(state, [A, A, A, A], BOTH_POWERS)
    assert ranks(state).base_in_force == 30


def test_the_same_left_corner_number_is_the_base_for_all_8_tricks() -> None:
    state = ptr(PTR1, (20, 20))
    for _ in range(7):
        assert ranks(state).base_in_force == 20
        state = tricks(state, [A])


def test_two_power_cards_are_turned_not_three() -> None:
    state = play(ChooseVersion(PTR1))
    with pytest.raises(InvalidInput, match="the two cards turned face-up"):
        RULES.apply(state, TurnPowerCards((1, 30, 50)))


def test_a_power_card_number_must_be_a_base() -> None:
    state = play(ChooseVersion(PTR1))
    with pytest.raises(InvalidInput, match="base 7"):
        RULES.apply(state, TurnPowerCards((1, 7)))


def test_the_plunge_follows_the_power_cards_and_the_tricks_follow_the_plunge() -> None:
    state = play(ChooseVersion(PTR1), TurnPowerCards((1, 30)))
    assert state.phase == "plunge"
    assert RULES.apply(state, DeclarePlunge(frozenset({A, B}))).phase == "tricks"


def test_without_a_lead_a_statehood_draw_decides_the_first_trick() -> None:
    state = play(ChooseVersion(PTR1), DrawWinner(first=B), lead=None)
    assert (state.phase, state.lead) == ("power_cards", B)


@pytest.mark.parametrize(
    "action",
    [
        AnnounceRole(A, Role.CALL),
        UpTheBur(B, 3),
        KeepBases(A, (1, 30)),
        DealBur(("FL", "VA")),
        BurDealt(2),
        DeclarePull(A, pulling=True),
        SetGeoStar(StarArea.CAPITAL),
    ],
)
def test_level_4_set_up_steps_do_not_exist_at_level_3(action: Action) -> None:
    with pytest.raises(IllegalAction, match="is a Level 4 step"):
        RULES.apply(ptr(), action)


# Tricks: Level 4's judge without the BUR


def test_rulebook_example_1_a_lead_power_card_locks_the_category() -> None:
    state = RULES.apply(
        ptr(), PlayRanksTrick("NY", POPULATION, "GA", lead_power=POPULATION, other_power=SIZE)
    )
    assert ranks(state).tricks[0].winner is A


def test_rulebook_example_3_the_other_teams_power_card_changes_the_category() -> None:
    state = RULES.apply(ptr(), PlayRanksTrick("CO", SIZE, "TN", other_power=STATEHOOD))
    assert ranks(state).tricks[0].winner is B


def test_rulebook_example_4_a_rank_below_the_base_loses() -> None:
    state = tricks(ptr(), [A, A, A, A], BOTH_POWERS)
    state = RULES.apply(state, PlayRanksTrick("UT", POPULATION, "OK"))
    assert ranks(state).tricks[-1].winner is A


def test_no_bur_protects_the_lead_card_at_level_3() -> None:
    # Level 4's example 2 protects Minnesota's statehood 32 by the BUR 35; Level 3 has no BUR,
    # so the other team's Power card changes the category: Minnesota's population 21 is below
    # the base 30 and loses to New Mexico's 36.
    state = tricks(ptr(), [A, A, A, A], BOTH_POWERS[:2])
    state = RULES.apply(state, PlayRanksTrick("MN", STATEHOOD, "NM", other_power=POPULATION))
    decision = ranks(state).tricks[-1].decision
    assert decision is not None
    assert (decision.winner.value, decision.category, decision.protected) == (
        "other",
        POPULATION,
        False,
    )


def test_ptr2_the_lead_announces_either_base_on_any_trick() -> None:
    state = RULES.apply(ptr(PTR2, (1, 30)), PlayRanksTrick("WI", STATEHOOD, "TX", base=30))
    assert ranks(state).tricks[0].winner is A


def test_ptr2_change_the_base_to_the_other_power_cards_number() -> None:
    trick = PlayRanksTrick(
        "WI",
        STATEHOOD,
        "DE",
        base=30,
        other_power=STATEHOOD,
        other_power_base=1,
        change_base=True,
    )
    state = RULES.apply(ptr(PTR2, (1, 30)), trick)
    assert ranks(state).tricks[0].winner is B


def test_a_card_is_used_in_one_trick_only() -> None:
    state = RULES.apply(ptr(), PlayRanksTrick("NY", POPULATION, "GA"))
    with pytest.raises(IllegalAction, match="NY was played on trick 1"):
        RULES.apply(state, PlayRanksTrick("NY", POPULATION, "FL"))


def test_a_team_plays_at_most_two_power_cards() -> None:
    state = tricks(ptr(), [A, A], [A, A])
    with pytest.raises(IllegalAction, match="both of its Power cards"):
        RULES.apply(state, TrickResult(A, lead_power=True))


# Who wins: at least 5 tricks; 4-4 the last trick; 6 the bonus; the Power card duty


def test_at_least_5_tricks_wins() -> None:
    state = tricks(ptr(), [A, A, A, B, B, B, A, A], BOTH_POWERS)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_four_tricks_each_the_last_trick_winner_wins() -> None:
    state = tricks(ptr(), [A, A, A, A, B, B, B, B], BOTH_POWERS)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)


def test_six_tricks_earn_the_bonus() -> None:
    state = tricks(ptr(), [B, B, A, B, B, A, B, B], BOTH_POWERS)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_six_tricks_end_the_game_early_by_default_as_at_level_4() -> None:
    started = play(
        ChooseVersion(PTR1), TurnPowerCards((1, 30)), DeclarePlunge(NOBODY), early_end=True
    )
    state = tricks(started, [A] * 6, BOTH_POWERS)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)
    assert "ends early" in state.result.reason


def test_with_the_all_8_tricks_reading_six_tricks_do_not_end_the_game() -> None:
    state = tricks(ptr(), [A] * 6, BOTH_POWERS)
    assert state.result is None
    assert state.phase == "tricks"
    assert ranks(state).trick_number == 7


def test_a_team_that_does_not_play_both_power_cards_loses() -> None:
    state = tricks(ptr(), [A] * 8, (A, B, B))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)


def test_the_other_team_then_has_the_bonus_only_with_6_tricks() -> None:
    state = tricks(ptr(), [A] * 8, (A, B, A))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)


def test_both_teams_failing_the_power_card_duty_is_a_tie() -> None:
    state = tricks(ptr(), [A] * 8, (A, B))
    assert state.result is not None and state.result.winner is None


def test_a_finished_game_accepts_no_trick() -> None:
    state = tricks(ptr(), [A] * 8, BOTH_POWERS)
    with pytest.raises(GameOver):
        RULES.apply(state, TrickResult(A))


# Play the Border Zap: the deal differs (one face-up card, one discard), the game does not


def test_rulebook_example_texas_zaps_utah() -> None:
    state = play(ChooseVersion(PTB), DeclarePlunge(NOBODY), ZapTrick("UT", "TX"))
    assert isinstance(state.inner, BorderZapState)
    assert state.inner.tricks[0].winner is B


def test_border_zap_hands_are_six_cards_after_the_discard() -> None:
    hands = ZapHands(("UT", "ME", "FL", "CO", "AK", "OR"), ("TX", "NH", "WA", "WY", "HI", "NV"))
    state = play(ChooseVersion(PTB), hands)
    assert isinstance(state.inner, BorderZapState)
    assert state.inner.hand(A) == frozenset(hands.a)


def test_border_zap_ends_early_when_one_team_wins_the_first_5_tricks() -> None:
    state = play(ChooseVersion(PTB), DeclarePlunge(NOBODY), *[ZapResult(B)] * 5)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_border_zap_at_least_4_of_6_tricks_wins() -> None:
    state = play(ChooseVersion(PTB), DeclarePlunge(NOBODY), *(ZapResult(Team(t)) for t in "AABAAB"))
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)
