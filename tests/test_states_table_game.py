"""STATES in table mode, the rules core: the cards are dealt by hand, the table keeps the game
(R320-R327). One rule per test."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Action, encode
from rules.errors import IllegalAction, InvalidInput, RuleError
from rules.families import replay_log
from rules.states.deck import shipped_deck
from rules.states.scoring import Scoring
from rules.states.table_actions import (
    BeginHand,
    BestTotal,
    BonusHolders,
    ClaimAtTable,
    KnockAtTable,
    LastRoundOver,
    StartTable,
)
from rules.states.table_game import TableGame, apply_table_action, new_table_game
from tests.states_helpers import EXAMPLE_DECK, cards_of

CONNECTS = ("UT", "CO", "KS", "OK")  # the rulebook's example
APART = ("UT", "CO", "KS", "TX")
RULEBOOK_KNOCK = ("DE", "OR", "NM", "water")  # blue 8 + 7 + 4 = 19


def table(
    players: Sequence[str] = ("Ann", "Bo"),
    *,
    teams: bool = False,
    scoring: Scoring = Scoring.STANDARD,
    knocking: bool = True,
    target: int | None = None,
) -> TableGame:
    return new_table_game(
        StartTable(
            players=tuple(players),
            teams=teams,
            scoring=scoring,
            knocking=knocking,
            target=target,
            cards=EXAMPLE_DECK.entries(),
        )
    )


def play(game: TableGame, *actions: Action) -> TableGame:
    for action in actions:
        game = apply_table_action(game, action)
    return game


def knock_hand(game: TableGame, knock: KnockAtTable, *totals: BestTotal) -> TableGame:
    return play(game, knock, LastRoundOver(), *totals)


# --- claims ----------------------------------------------------------------------------------


def test_the_rulebooks_connection_shown_wins_the_hand_for_4_points() -> None:
    game = play(table(), BeginHand("Ann"), ClaimAtTable("Ann", CONNECTS), BonusHolders())
    assert game.scores == (4, 0)
    assert game.played[-1].won.claim is not None
    assert game.played[-1].won.claim.by == "rules"


def test_a_wrong_claim_is_recorded_scores_nothing_and_play_continues() -> None:
    game = play(table(), BeginHand("Ann"), ClaimAtTable("Ann", APART))
    assert game.phase == "play"
    assert game.scores == (0, 0)
    assert game.hand is not None and not game.hand.claims[-1].connects


def test_the_dealer_overrules_the_rules_with_a_reason_on_record() -> None:
    game = play(table(), BeginHand("Ann"), ClaimAtTable("Ann", CONNECTS, overruled="not in hand"))
    assert game.phase == "play"
    assert game.hand is not None
    claim = game.hand.claims[-1]
    assert (claim.connects, claim.by, claim.reason) == (False, "overruled", "not in hand")


def test_the_dealers_yes_without_the_states_wins_the_hand() -> None:
    game = play(table(), BeginHand("Bo"), ClaimAtTable("Bo", connects=True), BonusHolders())
    assert game.scores == (0, 4)


def test_a_claim_needs_the_states_or_the_dealers_verdict() -> None:
    with pytest.raises(InvalidInput, match="expected states or connects"):
        play(table(), BeginHand("Ann"), ClaimAtTable("Ann"))


def test_the_states_shown_leave_the_verdict_to_the_rules_core() -> None:
    with pytest.raises(InvalidInput, match="judged by the rules core"):
        play(table(), BeginHand("Ann"), ClaimAtTable("Ann", APART, connects=True))


def test_the_alternate_scoring_adds_the_four_states_values() -> None:
    game = table(scoring=Scoring.ALTERNATE)
    game = play(game, BeginHand("Ann"), ClaimAtTable("Ann", CONNECTS), BonusHolders())
    values = sum(EXAMPLE_DECK.value(code) or 0 for code in CONNECTS)
    assert game.scores == (10 + values, 0)


def test_the_alternate_scoring_asks_the_dealers_yes_for_the_cards_values() -> None:
    game = play(table(scoring=Scoring.ALTERNATE), BeginHand("Ann"))
    with pytest.raises(InvalidInput, match="adds the four cards' values"):
        play(game, ClaimAtTable("Ann", connects=True))
    game = play(game, ClaimAtTable("Ann", connects=True, values=20), BonusHolders())
    assert game.scores == (30, 0)


def test_the_standard_scoring_takes_no_cards_values() -> None:
    with pytest.raises(InvalidInput, match="values: expected none"):
        play(table(), BeginHand("Ann"), ClaimAtTable("Ann", connects=True, values=20))


def test_the_knocker_has_no_turn_left_to_claim_on() -> None:
    game = play(table(), BeginHand("Ann"), KnockAtTable("Ann", RULEBOOK_KNOCK))
    with pytest.raises(IllegalAction, match="knocked and has no more turns"):
        play(game, ClaimAtTable("Ann", CONNECTS))


def test_a_connection_in_the_knocks_last_round_wins_the_hand() -> None:
    game = play(
        table(),
        BeginHand("Ann"),
        KnockAtTable("Ann", RULEBOOK_KNOCK),
        ClaimAtTable("Bo", CONNECTS),
        BonusHolders(),
    )
    assert game.scores == (0, 4)


# --- knocks ----------------------------------------------------------------------------------


def test_the_rulebooks_knock_is_worth_19_and_wins_3_points() -> None:
    game = play(table(), BeginHand("Ann"), KnockAtTable("Ann", RULEBOOK_KNOCK))
    assert game.hand is not None and game.hand.knock is not None
    assert (game.hand.knock.colour, game.hand.knock.total) == ("blue", 19)
    game = play(game, LastRoundOver(), BestTotal("Bo", total=13), BonusHolders())
    assert game.scores == (3, 0)


def test_the_rulebooks_knock_wins_5_plus_19_in_the_alternate_scoring() -> None:
    game = play(table(scoring=Scoring.ALTERNATE), BeginHand("Ann"))
    game = knock_hand(game, KnockAtTable("Ann", RULEBOOK_KNOCK), BestTotal("Bo", total=13))
    assert play(game, BonusHolders()).scores == (24, 0)


def test_a_knock_needs_three_states_of_one_colour() -> None:
    mixed = (*cards_of("blue")[:2], cards_of("red")[0], "water")
    with pytest.raises(IllegalAction, match="expected 3 or 4 states of one colour"):
        play(table(), BeginHand("Ann"), KnockAtTable("Ann", mixed))


def test_a_four_card_knock_wins_4_points() -> None:
    game = play(table(), BeginHand("Ann"))
    game = knock_hand(
        game, KnockAtTable("Ann", tuple(cards_of("blue")[:4])), BestTotal("Bo", total=1)
    )
    assert play(game, BonusHolders()).scores == (4, 0)


def test_a_knock_entered_as_a_total_is_judged_by_it() -> None:
    game = play(table(), BeginHand("Ann"))
    game = knock_hand(
        game, KnockAtTable("Ann", total=12, four_card=True), BestTotal("Bo", total=11)
    )
    assert play(game, BonusHolders()).scores == (4, 0)


def test_the_knocker_wins_a_tie() -> None:
    game = play(table(), BeginHand("Ann"))
    game = knock_hand(game, KnockAtTable("Ann", total=19), BestTotal("Bo", total=19))
    assert play(game, BonusHolders()).scores == (3, 0)


def test_players_tied_above_the_knocker_all_win() -> None:
    game = play(table(("Ann", "Bo", "Cy")), BeginHand("Ann"))
    game = knock_hand(
        game,
        KnockAtTable("Ann", total=12),
        BestTotal("Bo", total=20),
        BestTotal("Cy", total=20),
    )
    assert play(game, BonusHolders()).scores == (0, 3, 3)


def test_a_single_card_beats_a_knock_if_its_total_is_higher() -> None:
    single = max(EXAMPLE_DECK.faces, key=lambda code: EXAMPLE_DECK.value(code) or 0)
    game = play(table(), BeginHand("Ann"))
    game = knock_hand(game, KnockAtTable("Ann", total=3), BestTotal("Bo", cards=(single,)))
    assert play(game, BonusHolders()).scores == (0, 3)


def test_knocking_off_refuses_a_knock() -> None:
    with pytest.raises(IllegalAction, match="knocking is off"):
        play(table(knocking=False), BeginHand("Ann"), KnockAtTable("Ann", total=19))


def test_one_knock_a_hand() -> None:
    game = play(table(), BeginHand("Ann"), KnockAtTable("Ann", total=19))
    with pytest.raises(IllegalAction, match="not allowed now"):
        play(game, KnockAtTable("Bo", total=20))


def test_the_knocker_gives_no_best_total_of_their_own() -> None:
    game = play(table(), BeginHand("Ann"), KnockAtTable("Ann", total=19), LastRoundOver())
    with pytest.raises(IllegalAction, match="Ann knocked"):
        play(game, BestTotal("Ann", total=19))


def test_a_bonus_state_is_not_a_card_in_the_hand() -> None:
    with pytest.raises(InvalidInput, match="AK is a bonus state"):
        play(table(), BeginHand("Ann"), KnockAtTable("Ann", ("DE", "OR", "NM", "AK")))


# --- bonus states, the next hand, the game ----------------------------------------------------


def test_a_bonus_state_counts_only_for_the_winning_side() -> None:
    game = play(table(), BeginHand("Ann"), ClaimAtTable("Ann", CONNECTS), BonusHolders("Ann", "Bo"))
    assert game.scores == (5, 0)


def test_the_lowest_score_plays_first_in_the_next_hand() -> None:
    game = play(table(), BeginHand("Ann"), ClaimAtTable("Ann", CONNECTS), BonusHolders())
    assert game.may_start_next == ("Bo",)
    with pytest.raises(IllegalAction, match="the lowest score starts"):
        play(game, BeginHand("Ann"))


def test_a_partners_win_scores_for_the_team_once() -> None:
    game = play(
        table(("Ann", "Bo", "Cy", "Di"), teams=True),
        BeginHand("Ann"),
        ClaimAtTable("Cy", CONNECTS),
        BonusHolders(ak="Ann", hi="Cy"),
    )
    assert dict(zip(game.sides, game.scores, strict=True)) == {"Ann & Cy": 6, "Bo & Di": 0}


def test_the_game_is_won_at_the_target_score() -> None:
    game = table(target=8)
    for first in ("Ann", "Bo"):
        game = play(game, BeginHand(first), ClaimAtTable("Ann", CONNECTS), BonusHolders())
    assert game.champion == "Ann"
    with pytest.raises(RuleError, match="the game is over"):
        play(game, BeginHand("Bo"))


def test_sides_level_at_the_top_past_the_target_play_on() -> None:
    game = play(table(("Ann", "Bo", "Cy"), target=3), BeginHand("Ann"))
    game = knock_hand(
        game, KnockAtTable("Ann", total=5), BestTotal("Bo", total=9), BestTotal("Cy", total=9)
    )
    game = play(game, BonusHolders())
    assert game.champion is None and game.phase == "deal"


def _shipped(scoring: Scoring = Scoring.STANDARD) -> TableGame:
    return new_table_game(
        StartTable(players=("Ann", "Bo"), scoring=scoring, cards=shipped_deck().entries())
    )


def test_a_game_with_knocking_starts_with_an_incomplete_deck() -> None:
    assert _shipped().phase == "deal" and _shipped().knocking


def test_a_typed_knock_with_cards_the_deck_lacks_is_refused_naming_them() -> None:
    game = play(_shipped(), BeginHand("Ann"))
    knock = KnockAtTable("Ann", cards=("UT", "CO", "DE", "KS"))
    with pytest.raises(IllegalAction, match=r"deck file has no colour or value for UT, CO, KS;"):
        apply_table_action(game, knock)


def test_a_typed_knock_is_judged_when_the_deck_has_its_cards() -> None:
    game = play(_shipped(), BeginHand("Ann"), KnockAtTable("Ann", cards=RULEBOOK_KNOCK))
    assert game.hand is not None and game.hand.knock is not None
    assert game.hand.knock.total == 19


def test_a_knock_entered_as_a_total_needs_no_deck() -> None:
    game = play(_shipped(), BeginHand("Ann"), KnockAtTable("Ann", total=14, four_card=True))
    game = play(game, LastRoundOver(), BestTotal("Bo", total=9), BonusHolders())
    assert game.scores == (4, 0)


def test_a_typed_best_total_with_a_card_the_deck_lacks_is_refused_naming_it() -> None:
    game = play(_shipped(), BeginHand("Ann"), KnockAtTable("Ann", total=5), LastRoundOver())
    with pytest.raises(IllegalAction, match=r"Bo's best total .* no colour or value for TX;"):
        apply_table_action(game, BestTotal("Bo", cards=("DE", "TX")))
    assert play(game, BestTotal("Bo", total=9)).hand is not None


def test_the_alternate_scoring_with_an_incomplete_deck_is_refused_naming_the_cards() -> None:
    with pytest.raises(InvalidInput, match=r"alternate scoring needs every card's value.*AL, AR"):
        _shipped(Scoring.ALTERNATE)


def test_a_connect_only_game_plays_with_the_shipped_deck() -> None:
    start = StartTable(players=("Ann", "Bo"), knocking=False, cards=shipped_deck().entries())
    assert new_table_game(start).phase == "deal"


def test_a_target_out_of_range_is_refused() -> None:
    with pytest.raises(InvalidInput, match="target 0: expected a score from 1 to 999"):
        table(target=0)


def test_gametable_replay_reads_a_table_mode_log() -> None:
    actions: list[Action] = [
        StartTable(players=("Ann", "Bo"), cards=EXAMPLE_DECK.entries()),
        BeginHand("Ann"),
        ClaimAtTable("Ann", CONNECTS),
        BonusHolders(),
    ]
    family, session = replay_log(json.dumps(encode(action)) for action in actions)
    assert family.name == "states"
    assert family.summary(session)["scores"] == {"Ann": 4, "Bo": 0}


# --- properties ------------------------------------------------------------------------------

PLAYERS = ("Ann", "Bo", "Cy")
TABLE_ACTIONS = st.one_of(
    st.builds(BeginHand, st.sampled_from(PLAYERS)),
    st.builds(
        ClaimAtTable,
        st.sampled_from(PLAYERS),
        st.sampled_from(((), CONNECTS, APART)),
        st.sampled_from((None, True, False)),
        st.sampled_from((None, 4, 20)),
        st.sampled_from((None, "judge's ruling")),
    ),
    st.builds(
        KnockAtTable,
        st.sampled_from(PLAYERS),
        st.sampled_from(((), RULEBOOK_KNOCK)),
        st.sampled_from((None, 3, 19)),
        st.booleans(),
    ),
    st.builds(LastRoundOver),
    st.builds(
        BestTotal,
        st.sampled_from(PLAYERS),
        st.sampled_from(((), ("DE",), ("water",))),
        st.sampled_from((None, 0, 25)),
    ),
    st.builds(BonusHolders, st.sampled_from((None, *PLAYERS)), st.sampled_from((None, *PLAYERS))),
)


@settings(max_examples=60, deadline=None)
@given(
    actions=st.lists(TABLE_ACTIONS, max_size=80),
    scoring=st.sampled_from(tuple(Scoring)),
)
def test_scores_never_go_negative_and_a_replay_rebuilds_the_game(
    actions: list[Action], scoring: Scoring
) -> None:
    start = StartTable(players=PLAYERS, scoring=scoring, target=20, cards=EXAMPLE_DECK.entries())
    game = new_table_game(start)
    accepted: list[Action] = [start]
    for action in actions:
        try:
            after = apply_table_action(game, action)
        except RuleError:
            continue
        assert all(now >= before for now, before in zip(after.scores, game.scores, strict=True))
        game = after
        accepted.append(action)
    assert all(score >= 0 for score in game.scores)
    _, rebuilt = replay_log(json.dumps(encode(action)) for action in accepted)
    assert rebuilt == game
