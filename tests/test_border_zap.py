"""Play the Border Zap (Game 4, Level 4): hands, tricks and who wins the game."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules.actions import Action, decode, encode
from rules.atlas import Category
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.border_zap import (
    BorderZapRules,
    BorderZapState,
    ZapHands,
    ZapPhase,
    ZapResult,
    ZapTrick,
)
from rules.geoplunge.games.common import DeclarePlunge, DrawWinner, GameContext, StatehoodDraw
from rules.geoplunge.games.play_the_ranks import PlayRanksTrick
from rules.geoplunge.games.tricks import ZapCondition
from rules.geoplunge.teams import Team

RULES = BorderZapRules()
A, B = Team.A, Team.B
NOBODY: frozenset[Team] = frozenset()

# Per trick, a pair the lead wins (no Zap) and a pair the other team wins (a Zap); all distinct.
LEAD_WINS = [("AL", "AZ"), ("AR", "CA"), ("CO", "CT"), ("DE", "GA"), ("LA", "MA"), ("MD", "MI")]
OTHER_WINS = [("IA", "ID"), ("IL", "IN"), ("KS", "KY"), ("MN", "MO"), ("MS", "MT"), ("NC", "OR")]


def _apply(state: BorderZapState, *actions: Action) -> BorderZapState:
    for action in actions:
        state = RULES.apply(state, action)
    return state


def _at_tricks(lead: Team = A) -> BorderZapState:
    return _apply(RULES.start(GameContext(lead=lead)), DeclarePlunge(NOBODY))


def _trick_won_by(state: BorderZapState, winner: Team) -> ZapTrick:
    pairs = LEAD_WINS if winner is state.lead else OTHER_WINS
    return ZapTrick(*pairs[len(state.tricks)])


def _play(state: BorderZapState, winners: Sequence[Team]) -> BorderZapState:
    for winner in winners:
        state = RULES.apply(state, _trick_won_by(state, winner))
    return state


def _judged(state: BorderZapState, winners: Sequence[Team]) -> BorderZapState:
    """Tricks judged by the dealer at the table, won by ``winners``."""
    for winner in winners:
        state = RULES.apply(state, ZapResult(winner))
    return state


# Who leads the first trick


def test_lead_from_the_match_goes_straight_to_the_plunge() -> None:
    state = RULES.start(GameContext(lead=B))
    assert (state.phase, state.lead) == (ZapPhase.PLUNGE, B)


def test_without_a_lead_a_statehood_draw_decides_it() -> None:
    state = RULES.start(GameContext())
    assert state.phase is ZapPhase.STATEHOOD_DRAW
    state = RULES.apply(state, StatehoodDraw(a="DE", b="HI"))
    assert (state.lead, state.first_lead, state.phase) == (A, A, ZapPhase.PLUNGE)


def test_without_a_lead_the_dealer_may_enter_the_draw_winner() -> None:
    state = RULES.apply(RULES.start(GameContext()), DrawWinner(first=B))
    assert (state.lead, state.first_lead, state.phase) == (B, B, ZapPhase.PLUNGE)


def test_draw_winner_is_refused_when_the_lead_is_known() -> None:
    with pytest.raises(IllegalAction, match="not allowed in phase 'plunge'"):
        RULES.apply(RULES.start(GameContext(lead=A)), DrawWinner(first=B))


# The hands (optional)


SIX_A = ("UT", "TX", "AK", "HI", "ME", "NH")
SIX_B = ("FL", "WA", "CO", "NY", "GA", "VT")


def test_recorded_hands_are_postal_codes() -> None:
    state = RULES.apply(RULES.start(GameContext(lead=A)), ZapHands(SIX_A, SIX_B))
    assert state.hand(A) == frozenset(SIX_A)
    assert state.hand(B) == frozenset(SIX_B)


def test_unrecorded_hands_are_none() -> None:
    assert _at_tricks().hand(A) is None


@pytest.mark.parametrize(
    ("hands", "problem"),
    [
        (ZapHands(SIX_A[:5], SIX_B), "team A's hand lists 5 cards"),
        (ZapHands(SIX_A, (*SIX_B[:5], "florida")), "team B's hand lists 6 cards, 5 different"),
        (ZapHands(SIX_A, (*SIX_B[:5], "UT")), "UT in both hands"),
    ],
)
def test_hands_are_six_different_cards_each_and_never_shared(hands: ZapHands, problem: str) -> None:
    with pytest.raises(InvalidInput, match=problem):
        RULES.apply(RULES.start(GameContext(lead=A)), hands)


def test_hands_are_recorded_once() -> None:
    state = RULES.apply(RULES.start(GameContext(lead=A)), ZapHands(SIX_A, SIX_B))
    with pytest.raises(IllegalAction, match="already recorded"):
        RULES.apply(state, ZapHands(SIX_A, SIX_B))


def test_hands_are_recorded_before_the_plunge() -> None:
    with pytest.raises(IllegalAction, match="phase 'tricks'"):
        RULES.apply(_at_tricks(), ZapHands(SIX_A, SIX_B))


def test_recorded_hands_bind_the_tricks() -> None:
    state = _apply(RULES.start(GameContext(lead=A)), ZapHands(SIX_A, SIX_B), DeclarePlunge(NOBODY))
    with pytest.raises(IllegalAction, match="FL is not in team A's hand"):
        RULES.apply(state, ZapTrick("FL", "UT"))
    state = RULES.apply(state, ZapTrick("UT", "CO"))
    assert state.hand(A) == frozenset(SIX_A) - {"UT"}


# Tricks


def test_plunge_comes_before_the_tricks() -> None:
    with pytest.raises(IllegalAction, match="phase 'plunge'"):
        RULES.apply(RULES.start(GameContext(lead=A)), ZapTrick("UT", "TX"))


def test_rulebook_texas_zaps_utah_and_the_zapper_leads_next() -> None:
    state = RULES.apply(_at_tricks(), ZapTrick("Utah", "Texas"))
    played = state.tricks[0]
    assert (played.lead, played.other, played.winner) == ("UT", "TX", B)
    assert played.decision is not None
    assert played.decision.reasons == (ZapCondition.COMMON_BORDER,)
    assert state.lead is B


def test_without_a_zap_the_lead_wins_and_leads_again() -> None:
    state = RULES.apply(_at_tricks(), ZapTrick("UT", "ME"))
    assert (state.tricks[0].winner, state.lead) == (A, A)


def test_a_card_is_used_in_one_trick_only() -> None:
    state = RULES.apply(_at_tricks(), ZapTrick("UT", "ME"))
    with pytest.raises(IllegalAction, match="ME was played on trick 1"):
        RULES.apply(state, ZapTrick("TX", "ME"))


def test_a_play_the_ranks_trick_is_not_a_border_zap_action() -> None:
    with pytest.raises(IllegalAction, match="not a Play the Border Zap action"):
        RULES.apply(_at_tricks(), PlayRanksTrick("UT", Category.SIZE, "TX"))


# Tricks judged by the dealer at the table (game4.zap_result)


def test_zap_result_records_the_winner_and_no_cards() -> None:
    state = RULES.apply(_at_tricks(), ZapResult(B))
    (played,) = state.tricks
    assert (played.number, played.lead_team, played.winner) == (1, A, B)
    assert (played.lead, played.other, played.decision, played.judged_at_table) == (
        None,
        None,
        None,
        True,
    )
    assert state.played_cards == frozenset()


def test_zap_result_winner_leads_the_next_trick() -> None:
    state = _judged(_at_tricks(), [B])
    assert (state.lead, state.trick_number) == (B, 2)
    state = _judged(state, [B])
    assert (state.tricks[1].lead_team, state.lead) == (B, B)


def test_zap_result_comes_after_the_plunge() -> None:
    with pytest.raises(IllegalAction, match="phase 'plunge'"):
        RULES.apply(RULES.start(GameContext(lead=A)), ZapResult(A))


def test_zap_result_first_five_tricks_end_the_game_early_with_the_bonus() -> None:
    state = _judged(_at_tricks(), [A] * 5)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus, state.phase) == (A, True, ZapPhase.OVER)


def test_zap_result_four_to_one_after_five_tricks_plays_on() -> None:
    assert _judged(_at_tricks(), [B, B, A, B, B]).result is None


def test_zap_result_five_tricks_to_one_earns_the_bonus() -> None:
    state = _judged(_at_tricks(), [B, A, B, B, B, B])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)


def test_zap_result_four_tricks_to_two_wins_without_the_bonus() -> None:
    state = _judged(_at_tricks(), [B, A, B, A, B, B])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)


def test_zap_result_three_all_the_last_trick_winner_wins() -> None:
    state = _judged(_at_tricks(), [B, B, B, A, A, A])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_zap_results_and_card_level_tricks_mix() -> None:
    state = _judged(_play(_at_tricks(), [B]), [A])
    state = _play(_judged(_play(state, [B, B]), [A]), [B])
    judged = [played.judged_at_table for played in state.tricks]
    assert judged == [False, True, False, False, True, False]
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)


def test_ruling_zap_result_with_recorded_hands_leaves_them_unplayed() -> None:
    start = RULES.start(GameContext(lead=A))
    state = _apply(start, ZapHands(SIX_A, SIX_B), DeclarePlunge(NOBODY), ZapResult(B))
    assert state.hand(A) == frozenset(SIX_A)
    assert state.hand(B) == frozenset(SIX_B)
    state = RULES.apply(state, ZapTrick("FL", "UT"))  # B leads; cards still from the hands
    assert state.hand(B) == frozenset(SIX_B) - {"FL"}
    with pytest.raises(IllegalAction, match="NY is not in team A's hand"):
        RULES.apply(state, ZapTrick("WA", "NY"))


def test_finished_game_rejects_a_zap_result() -> None:
    state = _judged(_at_tricks(), [B] * 5)
    with pytest.raises(GameOver):
        RULES.apply(state, ZapResult(A))


@pytest.mark.parametrize("action", [DrawWinner(first=B), ZapResult(A), ZapResult(B)])
def test_dealer_judged_actions_round_trip_through_the_log(action: Action) -> None:
    assert decode(encode(action)) == action


# Who wins the game


def test_first_five_tricks_end_the_game_early_with_the_bonus() -> None:
    state = _play(_at_tricks(), [B] * 5)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, True)
    assert state.phase is ZapPhase.OVER


def test_four_to_one_after_five_tricks_plays_on() -> None:
    state = _play(_at_tricks(), [A, A, A, B, A])
    assert state.result is None


def test_five_tricks_to_one_earns_the_bonus() -> None:
    state = _play(_at_tricks(), [A, B, A, A, A, A])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)


def test_four_tricks_to_two_wins_without_the_bonus() -> None:
    state = _play(_at_tricks(), [A, B, A, B, A, A])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_three_all_the_last_trick_winner_wins() -> None:
    state = _play(_at_tricks(), [A, A, A, B, B, B])
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)


def test_finished_game_rejects_every_action() -> None:
    state = _play(_at_tricks(), [A] * 5)
    with pytest.raises(GameOver):
        RULES.apply(state, ZapTrick("UT", "TX"))
