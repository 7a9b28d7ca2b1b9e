"""One hand of STATES: the deal, turns, discard piles, water cards, bonus states, claims and
knocks (R304, R306-R312, R318)."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InvalidInput
from rules.states.actions import (
    Claim,
    DealHand,
    Discard,
    Draw,
    Knock,
    PlaceWater,
    Reshuffle,
    Source,
)
from rules.states.connect import Connection
from rules.states.deck import WATER, Deck, shipped_deck
from rules.states.game import StatesGame, apply_action
from rules.states.hand import Hand, WinBy
from tests.states_helpers import EXAMPLE_DECK, deal, play, stacked, started, turn

# Hands that connect nowhere near each other's cards, and filler cards that border none of them.
A_HAND = ("UT", "CO", "KS", "ME")
B_HAND = ("FL", "SC", "WA", "VT")
PILES = ("RI", "CT")


def _hand(game: StatesGame) -> Hand:
    assert game.hand is not None
    return game.hand


def two_player(top: tuple[str, ...] = ("OK", "NJ", "DE", "MI")) -> StatesGame:
    """A and B; A plays first holding UT, CO, KS, ME; OK, NJ, DE and MI lie on top of the deck."""
    return deal(started(("A", "B")), "A", [A_HAND, B_HAND], PILES, top)


# --- The deal -----------------------------------------------------------------------------------


def test_the_deal_gives_each_player_4_cards() -> None:
    hand = _hand(two_player())
    assert hand.held_by("A") == A_HAND
    assert hand.held_by("B") == B_HAND


def test_the_deal_turns_up_one_card_on_each_discard_pile() -> None:
    assert _hand(two_player()).piles == (("RI",), ("CT",))


def test_the_first_player_named_in_the_deal_plays_first() -> None:
    game = deal(started(("A", "B", "C")), "B", [B_HAND, A_HAND, ("NY", "PA", "OH", "IN")], PILES)
    assert _hand(game).turn == "B"
    assert _hand(game).held_by("B") == B_HAND


def test_a_dealt_bonus_state_lies_face_up_and_is_replaced_at_once() -> None:
    order = stacked([A_HAND, B_HAND], PILES)
    game = apply_action(started(), DealHand("A", ("AK", *(c for c in order if c != "AK"))))
    assert _hand(game).in_front_of("A") == ("AK",)
    assert _hand(game).held_by("A") == A_HAND


def test_a_deal_that_is_not_the_whole_deck_is_refused_naming_the_difference() -> None:
    order = list(stacked([A_HAND, B_HAND], PILES))
    order[order.index("TX")] = "UT"
    with pytest.raises(InvalidInput, match="missing TX; not expected UT"):
        apply_action(started(), DealHand("A", tuple(order)))


def test_a_deal_short_of_a_water_card_is_refused() -> None:
    order = list(stacked([A_HAND, B_HAND], PILES))
    order.remove(WATER)
    with pytest.raises(InvalidInput, match=r"\(missing water\): expected 54 cards"):
        apply_action(started(), DealHand("A", tuple(order)))


# --- Drawing and discarding ---------------------------------------------------------------------


def test_a_draw_from_the_deck_takes_its_top_card() -> None:
    game = play(two_player(), Draw("A", Source.DECK))
    assert _hand(game).held_by("A") == (*A_HAND, "OK")
    assert _hand(game).deck[0] == "NJ"


def test_a_draw_from_a_pile_takes_its_top_card() -> None:
    game = play(two_player(), *turn("A", "ME", pile=2), Draw("B", Source.PILE2))
    assert _hand(game).held_by("B") == (*B_HAND, "ME")
    assert _hand(game).piles[1] == ("CT",)


def test_a_discard_ends_the_turn_and_play_passes_clockwise() -> None:
    hands = [A_HAND, B_HAND, ("NY", "PA", "OH", "IN")]
    game = play(
        deal(started(("A", "B", "C")), "A", hands, PILES, ("OK", "NJ")),
        *turn("A", "OK"),
        *turn("B", "NJ"),
    )
    assert _hand(game).turn == "C"


def test_players_start_and_end_a_turn_with_4_cards() -> None:
    game = play(two_player(), Draw("A", Source.DECK))
    assert len(_hand(game).held_by("A")) == 5
    game = play(game, Discard("A", "ME", 1))
    assert len(_hand(game).held_by("A")) == 4
    assert _hand(game).piles[0] == ("RI", "ME")


def test_a_second_draw_in_a_turn_is_refused() -> None:
    with pytest.raises(IllegalAction, match="expected A's discard"):
        play(two_player(), Draw("A", Source.DECK), Draw("A", Source.DECK))


def test_a_discard_before_the_draw_is_refused() -> None:
    with pytest.raises(IllegalAction, match=r"expected A's draw \(states.draw or states.knock\)"):
        play(two_player(), Discard("A", "ME", 1))


def test_only_the_player_whose_turn_it_is_may_draw() -> None:
    with pytest.raises(IllegalAction, match="it is A's turn, not B's"):
        play(two_player(), Draw("B", Source.DECK))


def test_an_unknown_player_is_named() -> None:
    with pytest.raises(InvalidInput, match="unknown player 'Z': expected one of A, B"):
        play(two_player(), Draw("Z", Source.DECK))


def test_a_card_not_in_the_hand_cannot_be_discarded() -> None:
    with pytest.raises(IllegalAction, match="A does not hold TX"):
        play(two_player(), Draw("A", Source.DECK), Discard("A", "TX", 1))


def test_there_are_two_discard_piles() -> None:
    with pytest.raises(InvalidInput, match="pile 3: expected discard pile 1 or 2"):
        play(two_player(), Draw("A", Source.DECK), Discard("A", "ME", 3))


def test_taking_the_only_card_of_a_pile_obliges_the_discard_there() -> None:
    """ "If you pick up the only card from a pile, you must discard there"."""
    game = play(two_player(), Draw("A", Source.PILE1))
    with pytest.raises(IllegalAction, match="took the only card of pile 1: expected the discard"):
        play(game, Discard("A", "ME", 2))
    assert _hand(play(game, Discard("A", "ME", 1))).piles == (("ME",), ("CT",))


# --- Bonus states -------------------------------------------------------------------------------


def test_a_drawn_bonus_state_lies_face_up_and_is_replaced_from_the_deck() -> None:
    game = play(two_player(top=("HI", "OK")), Draw("A", Source.DECK))
    assert _hand(game).in_front_of("A") == ("HI",)
    assert _hand(game).held_by("A") == (*A_HAND, "OK")


def test_a_bonus_state_picked_from_a_pile_is_replaced_from_the_deck() -> None:
    game = deal(started(), "A", [A_HAND, B_HAND], ("AK", "CT"), ("OK",))
    game = play(game, Draw("A", Source.PILE1))
    assert _hand(game).in_front_of("A") == ("AK",)
    assert _hand(game).held_by("A") == (*A_HAND, "OK")
    assert _hand(game).emptied == 1


# --- Water cards --------------------------------------------------------------------------------


def water_player(top: tuple[str, ...] = ("OK", "NJ")) -> StatesGame:
    """A holds UT, CO, KS and a water card."""
    return deal(started(), "A", [("UT", "CO", "KS", WATER), B_HAND], PILES, top)


def test_a_placed_water_card_lies_in_front_and_another_card_is_picked_up() -> None:
    game = play(water_player(), Draw("A", Source.DECK), PlaceWater("A", Source.DECK))
    assert _hand(game).in_front_of("A") == (WATER,)
    assert _hand(game).held_by("A") == ("UT", "CO", "KS", "OK", "NJ")


def test_a_water_card_may_be_placed_before_the_draw() -> None:
    game = play(water_player(), PlaceWater("A", Source.PILE2), Draw("A", Source.DECK))
    assert _hand(game).held_by("A") == ("UT", "CO", "KS", "CT", "OK")


def test_a_player_without_a_water_card_cannot_place_one() -> None:
    with pytest.raises(IllegalAction, match="A holds no water card"):
        play(two_player(), PlaceWater("A", Source.DECK))


def test_a_water_card_is_not_discarded() -> None:
    with pytest.raises(IllegalAction, match="a water card is not discarded"):
        play(water_player(), Draw("A", Source.DECK), Discard("A", WATER, 1))


def test_a_water_card_in_front_blocks_the_pile_it_is_played_on() -> None:
    game = play(
        water_player(),
        Draw("A", Source.DECK),
        PlaceWater("A", Source.DECK),
        Discard("A", "NJ", 1, block=1),
    )
    assert _hand(game).piles[0] == ("RI", "NJ", WATER)
    assert _hand(game).in_front_of("A") == ()
    with pytest.raises(IllegalAction, match="pile 1 is blocked by a water card"):
        play(game, Draw("B", Source.PILE1))


def test_a_water_card_cannot_be_played_without_one_in_front() -> None:
    with pytest.raises(IllegalAction, match="A has no water card in front"):
        play(water_player(), Draw("A", Source.DECK), Discard("A", "OK", 1, block=2))


def test_a_card_discarded_onto_a_water_card_may_be_picked_up_but_not_the_water_under_it() -> None:
    game = play(
        water_player(),
        Draw("A", Source.DECK),
        PlaceWater("A", Source.DECK),
        Discard("A", "NJ", 1, block=1),
        *turn("B", "VT", pile=1),
        Draw("A", Source.PILE1),
    )
    assert _hand(game).held_by("A")[-1] == "VT"
    assert _hand(game).piles[0] == ("RI", "NJ", WATER)
    assert _hand(game).blocked(1)


def test_a_pile_already_blocked_cannot_be_blocked_again() -> None:
    game = deal(started(), "A", [("UT", "CO", WATER, WATER), B_HAND], PILES, ("OK", "NJ", "TX"))
    game = play(
        game,
        Draw("A", Source.DECK),
        PlaceWater("A", Source.DECK),
        PlaceWater("A", Source.DECK),
        Discard("A", "NJ", 1, block=1),
        *turn("B", "VT", pile=2),
        Draw("A", Source.DECK),
    )
    with pytest.raises(IllegalAction, match="pile 1 is already blocked"):
        play(game, Discard("A", "UT", 2, block=1))


def test_one_discard_cannot_refill_both_piles() -> None:
    """With a water card a player picks up twice, but may empty only one pile (R318)."""
    game = play(water_player(), Draw("A", Source.PILE1))
    with pytest.raises(IllegalAction, match="already took the only card of pile 1"):
        play(game, PlaceWater("A", Source.PILE2))


def test_the_rulebooks_surprise_move_makes_a_knocking_hand_of_19() -> None:
    """A holds DE (blue 8), a water card and 2 cards of other colours; B discards OR (blue 7)
    while NM (blue 4) tops the other pile. A picks up OR, places the water card, picks up NM,
    and knocks at the start of the next turn."""
    deck = shipped_deck()
    assert (deck.value("DE"), deck.value("OR"), deck.value("NM")) == (8, 7, 4)
    game = deal(
        started(),
        "B",
        [("OR", "FL", "SC", "VT"), ("DE", WATER, "UT", "KS")],
        ("RI", "NM"),
        ("ME",),
    )
    game = play(
        game,
        *turn("B", "OR", pile=1),
        Draw("A", Source.PILE1),
        PlaceWater("A", Source.PILE2),
        Discard("A", "UT", 2),  # NM was pile 2's only card: the discard goes there
        *turn("B", "ME", pile=2),
    )
    assert sorted(_hand(game).held_by("A")) == ["DE", "KS", "NM", "OR"]
    game = play(game, Knock("A"))
    assert _hand(game).knocker == "A"


# --- Claims -------------------------------------------------------------------------------------


def test_a_claim_of_four_bordering_states_wins_the_hand() -> None:
    game = play(two_player(), Draw("A", Source.DECK), Claim("A", ("UT", "CO", "KS", "OK")))
    assert game.hand is None
    end = game.played[0].end
    assert end.how is WinBy.CONNECT
    assert end.winners == ("A",)


def test_a_wrong_claim_scores_nothing_and_play_continues() -> None:
    game = play(two_player(), Draw("A", Source.DECK), Claim("A", ("UT", "CO", "KS", "ME")))
    hand = _hand(game)
    assert game.scores == (0, 0)
    assert hand.phase == "discard"
    assert hand.held_by("A") == (*A_HAND, "OK")
    assert [claim.connects for claim in hand.claims] == [False]


def test_a_player_may_claim_again_after_a_wrong_claim() -> None:
    game = play(
        two_player(),
        Draw("A", Source.DECK),
        Claim("A", ("UT", "CO", "KS", "ME")),
        Claim("A", ("UT", "CO", "KS", "OK")),
    )
    assert game.played[0].end.winners == ("A",)
    assert len(game.played[0].claims) == 2


def test_a_claim_comes_after_a_card_is_picked_up() -> None:
    game = deal(started(), "A", [("UT", "CO", "KS", "OK"), B_HAND], PILES)
    with pytest.raises(IllegalAction, match="A has not picked up a card this turn"):
        play(game, Claim("A", ("UT", "CO", "KS", "OK")))


def test_a_claim_after_a_water_cards_pick_up_counts() -> None:
    game = play(water_player(), PlaceWater("A", Source.DECK), Claim("A", ("UT", "CO", "KS", "OK")))
    assert game.played[0].end.winners == ("A",)


def test_a_claim_of_states_not_held_is_refused() -> None:
    with pytest.raises(IllegalAction, match="A does not hold NE"):
        play(two_player(), Draw("A", Source.DECK), Claim("A", ("UT", "CO", "KS", "NE")))


def test_a_claim_out_of_turn_is_refused() -> None:
    with pytest.raises(IllegalAction, match="it is A's turn, not B's"):
        play(two_player(), Draw("A", Source.DECK), Claim("B", ("FL", "SC", "WA", "VT")))


def test_under_the_chain_rule_a_star_claim_is_wrong() -> None:
    """MO with IA, KY and OK connects as a group, not as a chain (R302)."""
    hands = [("MO", "IA", "KY", "ME"), B_HAND]
    game = deal(started(connect=Connection.CHAIN), "A", hands, PILES, ("OK",))
    game = play(game, Draw("A", Source.DECK), Claim("A", ("MO", "IA", "KY", "OK")))
    assert game.hand is not None
    assert "not in a chain" in game.hand.claims[0].reason


def test_under_the_group_rule_a_star_claim_wins() -> None:
    hands = [("MO", "IA", "KY", "ME"), B_HAND]
    game = deal(started(), "A", hands, PILES, ("OK",))
    game = play(game, Draw("A", Source.DECK), Claim("A", ("MO", "IA", "KY", "OK")))
    assert game.played[0].end.winners == ("A",)


# --- Knocks -------------------------------------------------------------------------------------


def knock_game(players: tuple[str, ...] = ("A", "B", "C")) -> StatesGame:
    """A holds 3 blue cards (DE, OR, NM) and CO; B and C hold other colours."""
    hands = [("DE", "OR", "NM", "CO"), ("FL", "SC", "RI", "VT"), ("GA", "NC", "LA", "WY")]
    return deal(started(players), "A", hands[: len(players)], ("CT", "MA"), ("OK", "NJ", "TX"))


def test_a_knock_replaces_the_draw_and_passes_the_turn() -> None:
    game = play(knock_game(), Knock("A"))
    hand = _hand(game)
    assert hand.knocker == "A"
    assert hand.turn == "B"
    assert hand.held_by("A") == ("DE", "OR", "NM", "CO")


def test_a_knock_after_the_draw_is_refused() -> None:
    with pytest.raises(IllegalAction, match=r"states\.knock is not allowed now"):
        play(knock_game(), Draw("A", Source.DECK), Knock("A"))


def test_a_knock_after_a_water_cards_pick_up_is_refused() -> None:
    game = deal(started(), "A", [("DE", "OR", "NM", WATER), B_HAND], PILES)
    with pytest.raises(IllegalAction, match="a knock is the first thing in a turn"):
        play(game, PlaceWater("A", Source.DECK), Knock("A"))


def test_a_knock_needs_three_states_of_one_colour() -> None:
    with pytest.raises(IllegalAction, match="A cannot knock: expected 3 or 4 states of one"):
        play(two_player(), Knock("A"))


def test_every_other_player_takes_one_more_turn_after_a_knock() -> None:
    game = play(knock_game(), Knock("A"), *turn("B", "OK"))
    assert _hand(game).turn == "C"
    game = play(game, *turn("C", "NJ"))
    assert game.hand is None
    assert game.played[0].end.how is WinBy.KNOCK


def test_the_highest_total_wins_a_knock_nobody_answers() -> None:
    game = play(knock_game(), Knock("A"), *turn("B", "OK"), *turn("C", "NJ"))
    end = game.played[0].end
    assert end.showdown is not None
    assert end.showdown.best_of("A").total == 19
    assert end.winners == ("A",)


def test_a_connection_in_the_last_round_wins_over_the_knock() -> None:
    hands = [("DE", "OR", "NM", "CO"), ("UT", "KS", "NE", "VT")]
    game = deal(started(), "A", hands, ("CT", "MA"), ("WY",))
    game = play(game, Knock("A"), Draw("B", Source.DECK), Claim("B", ("UT", "KS", "NE", "WY")))
    assert game.played[0].end.how is WinBy.CONNECT
    assert game.played[0].end.winners == ("B",)


def test_only_one_knock_a_hand() -> None:
    hands = [("DE", "OR", "NM", "CO"), ("FL", "CA", "AL", "VT"), ("GA", "NC", "LA", "WY")]
    game = deal(started(("A", "B", "C")), "A", hands, ("CT", "MA"))
    with pytest.raises(IllegalAction, match="A has already knocked: one knock a hand"):
        play(game, Knock("A"), Knock("B"))


def test_a_knock_is_refused_in_a_game_without_knocking() -> None:
    game = deal(
        started(knocking=False, deck=shipped_deck()),
        "A",
        [("DE", "OR", "NM", "CO"), B_HAND],
        PILES,
    )
    with pytest.raises(IllegalAction, match="knocking is off in this game"):
        play(game, Knock("A"))


# --- The deck runs out --------------------------------------------------------------------------


def run_the_deck_down(game: StatesGame, leave: int = 0) -> StatesGame:
    """Each player draws from the deck and discards what was drawn, alternating piles, until
    ``leave`` cards are left in the deck."""
    while len(_hand(game).deck) > leave:
        player = _hand(game).turn
        game = play(game, Draw(player, Source.DECK))
        drawn = _hand(game).held_by(player)[-1]
        game = play(game, Discard(player, drawn, 1 + len(_hand(game).deck) % 2))
    return game


def waterless(piles: tuple[str, str] = ("AK", "HI"), last: tuple[str, ...] = ()) -> StatesGame:
    """A game without water cards, the bonus states turned up on the piles: each draw from the
    deck takes one card, which can be discarded. ``last`` lies at the bottom of the deck."""
    game = started(deck=Deck(EXAMPLE_DECK.faces, water_cards=0))
    order = stacked([A_HAND, B_HAND], piles, deck=game.deck)
    return apply_action(game, DealHand("A", (*(card for card in order if card not in last), *last)))


def test_when_the_deck_runs_out_the_piles_are_reshuffled() -> None:
    game = run_the_deck_down(waterless(), leave=1)
    player = _hand(game).turn
    game = play(game, Draw(player, Source.DECK))
    hand = _hand(game)
    assert hand.phase == "reshuffle"
    with pytest.raises(IllegalAction, match="expected the discard piles reshuffled"):
        play(game, Discard(player, hand.held_by(player)[0], 1))
    tops = tuple(pile[-1:] for pile in hand.piles)
    game = play(game, Reshuffle(tuple(reversed(hand.to_reshuffle))))
    assert _hand(game).piles == tops
    assert _hand(game).deck == tuple(reversed(hand.to_reshuffle))
    assert _hand(game).phase == "discard"


def test_a_reshuffle_must_hold_exactly_the_cards_under_the_pile_tops() -> None:
    game = run_the_deck_down(waterless(), leave=1)
    game = play(game, Draw(_hand(game).turn, Source.DECK))
    with pytest.raises(InvalidInput, match="the reshuffle's order is not the piles' cards"):
        play(game, Reshuffle(_hand(game).to_reshuffle[1:]))


def test_a_reshuffle_before_the_deck_runs_out_is_refused() -> None:
    with pytest.raises(IllegalAction, match="the deck still has 44 card"):
        play(two_player(), Reshuffle(()))


def test_a_bonus_state_drawn_as_the_last_card_is_replaced_after_the_reshuffle() -> None:
    game = run_the_deck_down(waterless(piles=("CT", "HI"), last=("AK",)), leave=1)
    player = _hand(game).turn
    game = play(game, Draw(player, Source.DECK))
    assert _hand(game).in_front_of(player) == ("AK",)
    assert len(_hand(game).held_by(player)) == 4
    cards = _hand(game).to_reshuffle
    game = play(game, Reshuffle(cards))
    assert _hand(game).held_by(player)[-1] == cards[0]
    assert len(_hand(game).deck) == len(cards) - 1
