"""A game of STATES: starting it, scoring hands, teams, the next hand's first player and the
end of the game (R300, R311, R315, R316)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.actions import Action
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.states.actions import Claim, DealHand, Draw, Knock, Source, StartStates
from rules.states.deck import WATER, shipped_deck
from rules.states.game import StatesGame, new_game
from rules.states.scoring import Scoring
from tests.states_helpers import EXAMPLE_DECK, deal, play, stacked, started, turn

CONNECTING = ("UT", "CO", "KS")  # with OK drawn from the deck: "STATES!"
OTHERS = [("FL", "SC", "WA", "VT"), ("GA", "NC", "LA", "WY"), ("ME", "NH", "MA", "RI")]


DRAWN_BEFORE = ("NJ", "TX", "NY")  # drawn and discarded by whoever plays before the winner


def connect_hand(game: StatesGame, winner: str, first: str | None = None) -> StatesGame:
    """A hand that ``winner`` wins on its first turn with UT, CO, KS and the drawn OK; the
    players from ``first`` (default: the winner) up to the winner play a plain turn before."""
    first = first or winner
    start = game.players.index(first)
    rotation = game.players[start:] + game.players[:start]
    fillers = iter(OTHERS)
    hands = [(*CONNECTING, "MS") if p == winner else next(fillers) for p in rotation]
    before = rotation[: rotation.index(winner)]
    game = deal(game, first, hands, ("CT", "DE"), (*DRAWN_BEFORE[: len(before)], "OK"))
    turns: list[Action] = []
    for player, card in zip(before, DRAWN_BEFORE, strict=False):
        turns += turn(player, card)
    return play(game, *turns, Draw(winner, Source.DECK), Claim(winner, (*CONNECTING, "OK")))


# --- Starting ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [("A",), ("A", "B", "C", "D", "E")])
def test_a_game_is_for_2_to_4_players(players: tuple[str, ...]) -> None:
    with pytest.raises(InvalidInput, match=f"{len(players)} player\\(s\\): expected 2 to 4"):
        started(players)


def test_teams_are_two_teams_of_two() -> None:
    with pytest.raises(InvalidInput, match="3 player\\(s\\) in teams: expected 4"):
        started(("A", "B", "C"), teams=True)


def test_partners_sit_across_the_table() -> None:
    assert started(("Ann", "Bo", "Cy", "Di"), teams=True).sides == ("Ann & Cy", "Bo & Di")


def test_a_player_named_twice_is_refused() -> None:
    with pytest.raises(InvalidInput, match="player 'a' is named twice"):
        started(("A", "a"))


@pytest.mark.parametrize("name", ["", " A", "A=B", "A,B", "x" * 21])
def test_a_players_name_is_checked(name: str) -> None:
    with pytest.raises(InvalidInput, match="player name"):
        started(("A", name))


def test_knocking_needs_a_complete_deck_and_names_the_missing_cards() -> None:
    with pytest.raises(InvalidInput, match="knocking needs every card's colour and value") as err:
        started(deck=shipped_deck())
    assert "AL, AR, AZ" in str(err.value)
    assert "or start with knocking off" in str(err.value)


def test_the_alternate_scoring_needs_every_cards_value() -> None:
    with pytest.raises(InvalidInput, match="the alternate scoring needs every card's value"):
        started(scoring=Scoring.ALTERNATE, knocking=False, deck=shipped_deck())


def test_the_shipped_deck_plays_a_connect_only_game() -> None:
    game = started(knocking=False, deck=shipped_deck())
    assert game.phase == "deal"


def test_a_start_action_with_a_faulty_deck_entry_is_refused() -> None:
    with pytest.raises(InvalidInput, match="deck card 'DE blue': expected 'CODE COLOUR VALUE'"):
        new_game(StartStates(("A", "B"), knocking=False, cards=("DE blue",)))


# --- Scoring a hand ----------------------------------------------------------------------------


def test_a_connection_scores_4_points() -> None:
    game = connect_hand(started(), "A")
    assert game.scores == (4, 0)
    assert game.played[0].points == (4, 0)


def test_a_connection_in_the_alternate_scoring_scores_10_plus_the_four_values() -> None:
    game = connect_hand(started(scoring=Scoring.ALTERNATE), "A")
    values = sum(EXAMPLE_DECK.faces[code].value or 0 for code in (*CONNECTING, "OK"))
    assert game.scores == (10 + values, 0)


def test_a_won_knock_scores_3_points() -> None:
    hands = [("DE", "OR", "NM", "CO"), OTHERS[0]]
    game = deal(started(), "A", hands, ("CT", "MA"), ("OK",))
    game = play(game, Knock("A"), *turn("B", "OK"))
    assert game.scores == (3, 0)


def test_a_won_four_card_knock_scores_4_points() -> None:
    hands = [("DE", "OR", "NM", "WA"), ("FL", "SC", "AL", "VT")]
    game = deal(started(), "A", hands, ("CT", "MA"), ("OK",))
    game = play(game, Knock("A"), *turn("B", "OK"))
    assert game.played[0].end.showdown is not None
    assert game.played[0].end.showdown.four_card
    assert game.scores == (4, 0)


def test_a_knock_won_by_another_player_scores_3_for_that_player() -> None:
    hands = [("MO", "IA", "OK", "CO"), ("ME", "WA", "VT", "FL")]  # green 10; blue 9+8+7
    game = deal(started(), "A", hands, ("CT", "MA"), ("NJ",))
    game = play(game, Knock("A"), *turn("B", "NJ"))
    assert game.played[0].end.winners == ("B",)
    assert game.scores == (0, 3)


def test_an_alternate_knock_scores_5_plus_the_winning_colours_cards() -> None:
    hands = [("DE", "OR", "NM", "CO"), OTHERS[0]]
    game = deal(started(scoring=Scoring.ALTERNATE), "A", hands, ("CT", "MA"), ("OK",))
    game = play(game, Knock("A"), *turn("B", "OK"))
    assert game.scores == (5 + 8 + 7 + 4, 0)


def test_a_bonus_state_adds_a_point_when_its_holder_wins() -> None:
    game = started()
    order = stacked([(*CONNECTING, "ME"), OTHERS[0]], ("CT", "DE"), ("OK",))
    game = play(
        game,
        DealHand("A", ("AK", *(card for card in order if card != "AK"))),
        Draw("A", Source.DECK),
        Claim("A", (*CONNECTING, "OK")),
    )
    assert game.scores == (5, 0)
    assert game.played[0].bonus == (1, 0)


def test_a_bonus_state_scores_nothing_when_its_holder_loses() -> None:
    game = started()
    order = stacked([OTHERS[0], (*CONNECTING, "ME")], ("CT", "DE"), ("NJ", "OK"))
    game = play(
        game,
        DealHand("A", ("AK", *(card for card in order if card != "AK"))),
        *turn("A", "NJ"),
        Draw("B", Source.DECK),
        Claim("B", (*CONNECTING, "OK")),
    )
    assert game.scores == (0, 4)


def test_an_alternate_bonus_state_adds_5() -> None:
    order = stacked([(*CONNECTING, "ME"), OTHERS[0]], ("CT", "DE"), ("HI", "OK"))
    game = play(
        started(scoring=Scoring.ALTERNATE),
        DealHand("A", order),
        Draw("A", Source.DECK),
        Claim("A", (*CONNECTING, "OK")),
    )
    assert game.played[0].bonus == (5, 0)


def test_a_partners_win_scores_for_the_team() -> None:
    game = connect_hand(started(("A", "B", "C", "D"), teams=True), "C")
    assert game.scores == (4, 0)


def test_a_bonus_state_counts_when_its_holders_partner_wins() -> None:
    game = started(("A", "B", "C", "D"), teams=True)
    hands = [OTHERS[0], OTHERS[1], (*CONNECTING, "ME"), ("NY", "PA", "OH", "IN")]
    order = stacked(hands, ("CT", "DE"), ("NJ", "TX", "OK"))
    game = play(
        game,
        DealHand("A", ("HI", *(card for card in order if card != "HI"))),
        *turn("A", "NJ"),
        *turn("B", "TX"),
        Draw("C", Source.DECK),
        Claim("C", (*CONNECTING, "OK")),
    )
    assert game.played[0].bonus == (1, 0)
    assert game.scores == (5, 0)


# --- Between hands -----------------------------------------------------------------------------


def test_the_first_hand_may_start_with_any_player() -> None:
    assert started(("A", "B", "C")).may_start_next == ("A", "B", "C")


def test_the_lowest_score_starts_the_next_hand() -> None:
    game = connect_hand(started(("A", "B", "C")), "B")
    assert game.may_start_next == ("A", "C")


def test_a_player_with_more_than_the_lowest_score_may_not_start() -> None:
    game = connect_hand(started(), "A")
    with pytest.raises(IllegalAction, match=r"A may not play first: .* expected one of B"):
        play(game, DealHand("A", EXAMPLE_DECK.cards))


def test_the_lowest_scoring_team_starts_the_next_hand() -> None:
    game = connect_hand(started(("A", "B", "C", "D"), teams=True), "A")
    assert game.may_start_next == ("B", "D")


def test_a_deal_during_a_hand_is_refused() -> None:
    game = deal(started(), "A", [(*CONNECTING, "ME"), OTHERS[0]], ("CT", "DE"))
    with pytest.raises(IllegalAction, match="hand 1 is still being played"):
        play(game, DealHand("A", EXAMPLE_DECK.cards))


def test_a_turn_between_hands_is_refused_naming_the_deal() -> None:
    with pytest.raises(IllegalAction, match=r"expected the deal of hand 1 \(states.deal\)"):
        play(started(), Draw("A", Source.DECK))


def test_a_deal_naming_an_unknown_first_player_is_refused() -> None:
    with pytest.raises(InvalidInput, match="unknown player 'Z'"):
        play(started(), DealHand("Z", EXAMPLE_DECK.cards))


# --- The end of the game -----------------------------------------------------------------------


def test_the_first_side_to_reach_15_wins_the_game() -> None:
    game = replace(started(), scores=(12, 3))
    game = connect_hand(game, "A", first="B")
    assert game.scores == (16, 3)
    assert game.champion == "A"
    assert game.phase == "over"


def test_a_game_short_of_15_goes_on() -> None:
    game = connect_hand(replace(started(), scores=(10, 3)), "A", first="B")
    assert game.champion is None
    assert game.phase == "deal"


def test_the_alternate_game_is_won_at_75() -> None:
    game = replace(started(scoring=Scoring.ALTERNATE), scores=(60, 0))
    game = connect_hand(game, "A", first="B")
    assert game.scores[0] >= 75
    assert game.champion == "A"


def test_a_team_reaching_15_wins_the_game() -> None:
    game = replace(started(("A", "B", "C", "D"), teams=True), scores=(0, 14))
    game = connect_hand(game, "D", first="A")
    assert game.champion == "B & D"


def test_two_sides_level_at_the_top_past_15_play_on() -> None:
    """Only a tied knock can lift two sides past the target at once (R316)."""
    # green 10 knocks; blue 9 + 8 and red 8 + 7 + 2 tie at 17
    hands = [("MO", "IA", "OK", "CO"), ("ME", "WA", "FL", "GA"), ("RI", "CT", "PA", "SC")]
    game = replace(started(("A", "B", "C")), scores=(0, 13, 13))
    game = deal(game, "A", hands, ("VT", "MA"), ("NJ", "KY"))
    game = play(game, Knock("A"), *turn("B", "NJ"), *turn("C", "KY"))
    assert game.played[-1].end.winners == ("B", "C")
    assert game.scores == (0, 16, 16)
    assert game.champion is None


def test_a_finished_game_accepts_no_more_actions() -> None:
    game = connect_hand(replace(started(), scores=(12, 3)), "A", first="B")
    with pytest.raises(GameOver, match="the game is over \\(A won\\)"):
        play(game, DealHand("B", EXAMPLE_DECK.cards))


def test_water_cards_are_dealt_like_any_card() -> None:
    game = deal(started(), "A", [("UT", "CO", WATER, WATER), OTHERS[0]], ("CT", "DE"))
    assert game.hand is not None
    assert game.hand.held_by("A").count(WATER) == 2
