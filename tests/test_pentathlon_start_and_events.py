"""The start as entered, and the events the rulebook names that are not moves: a Code of
Conduct infraction, Queens & Guards' trap penalty, a Stars & Bars stack-count request (issue 20,
findings 6 and 7). Each is recorded, replays from the log, and is on the record for the card."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.log import dump_log, replay_log
from rules.pentathlon.monitor import start
from rules.pentathlon.monitor_actions import (
    Challenge,
    ChipInHand,
    Confirm,
    DieToss,
    DirectorResult,
    Infraction,
    PassFlag,
    StarCard,
    StripDraw,
    start_action,
)
from rules.pentathlon.play import RULINGS_BEFORE_ISSUE_20, RULINGS_ISSUE_20
from rules.pentathlon.queens_guards import MovePiece, TrapPenalty
from rules.pentathlon.record import record
from rules.pentathlon.results import How, Result
from rules.pentathlon.stars_bars import PlaceCard, StackCount
from tests.pentathlon_helpers import MINUTES, A, B, game_of, play


def test_the_start_s_tosses_re_tosses_included_are_on_the_record() -> None:
    """Rulebook: "Players each toss one of the die. The player with the lower toss receives
    Scoring Flag Card and begins": the start is on the card, equal tosses too (R788)."""
    state = game_of(Game.CONTIG_60, DieToss(3, 3), DieToss(5, 2))
    assert record(state)["start"] == [
        "Die toss: A 3, B 3: equal, tossed again",
        "Die toss: A 5, B 2: B has the lower toss and begins",
    ]


def test_the_strips_drawn_are_on_the_record() -> None:
    """Rulebook: "Both players draw a strip from the deck. Lower value begins"."""
    state = game_of(Game.FAB_A_DIFFY, StripDraw("1/2", "2/4"), StripDraw("3/4", "1/3"))
    assert record(state)["start"] == [
        "Strips drawn: A 1/2, B 2/4: equal, drawn again",
        "Strips drawn: A 3/4, B 1/3: B has the lower and begins",
    ]


def test_queens_and_guards_the_picker_of_the_starting_colour_begins() -> None:
    """Rulebook: "Ask one player to determine what the starting color will be and ask the
    other player to pick a hand. Player who has starting color receives the flag card"."""
    assert game_of(Game.QUEENS_AND_GUARDS, ChipInHand(A, picked_starting=True)).on_turn is B
    state = game_of(Game.QUEENS_AND_GUARDS, ChipInHand(A, picked_starting=False))
    assert state.on_turn is A
    assert record(state)["start"] == [
        "Chip in hand: A named the starting colour, B picked a hand that did not hold it: A begins"
    ]


def test_stars_and_bars_the_first_to_draw_a_star_card_begins() -> None:
    """Rulebook: "The beginning player is determined by the first to draw a card with stars.
    Players alternate drawing"."""
    assert game_of(Game.STARS_AND_BARS, StarCard(A, 1)).on_turn is A
    assert game_of(Game.STARS_AND_BARS, StarCard(A, 4)).on_turn is B
    with pytest.raises(InvalidInput, match="star card on draw 0: expected 1 to 99"):
        game_of(Game.STARS_AND_BARS, StarCard(A, 0))


def test_the_start_replays_from_the_log() -> None:
    actions = [start_action(Game.CONTIG_60, MINUTES, chips=20), DieToss(2, 2), DieToss(1, 4)]
    state = replay_log(dump_log(actions).splitlines())
    assert (state.on_turn, len(state.start_entries)) == (A, 2)


def test_a_code_of_conduct_infraction_is_recorded_with_the_directors_decision() -> None:
    """Rulebook: "Any infraction of this Code ... will be handled by the Tournament Director.
    Such infractions can result in 0 points and/or being required to leave the tournament
    site" (R789)."""
    state = game_of(Game.CONTIG_60, DieToss(1, 2), Infraction(B, zero_points=True))
    assert state.zero_points(B) and not state.zero_points(A)
    assert state.phase == "play"  # the game goes on: the Director's decision is recorded
    assert record(state)["events"] == [
        {
            "turn": 1,
            "kind": "pentathlon.infraction",
            "player": "B",
            "zero_points": True,
            "removal": False,
            "text": "Code of Conduct infraction by B, handled by the Tournament Director: 0 points",
        }
    ]


def test_a_player_removed_from_the_site_has_no_further_infraction() -> None:
    state = game_of(Game.CONTIG_60, DieToss(1, 2), Infraction(A, removal=True))
    with pytest.raises(IllegalAction, match="A has been removed"):
        game_of(
            Game.CONTIG_60,
            DieToss(1, 2),
            Infraction(A, removal=True),
            Infraction(A),
        )
    assert state.removed == (A,)


def test_the_result_the_director_gives_is_recorded_and_confirmed() -> None:
    """R789: "the Director may stop the game; the monitor then records the result the Director
    gives": after an infraction with removal, the Director's result is the game's (R748)."""
    actions = [
        start_action(Game.CONTIG_60, MINUTES, chips=20),
        DieToss(1, 2),
        Infraction(B, removal=True),
        DirectorResult(A),
    ]
    state = replay_log(dump_log(actions).splitlines())
    assert state.phase == "result"
    state = play(state, Confirm())
    assert state.result == Result(
        A, How.DIRECTOR, "the Tournament Director stopped the game: A wins"
    )
    assert record(state)["result"]["how"] == "director"


def test_the_director_may_give_a_tie() -> None:
    """R789: "the monitor then records the result the Director gives" (R748)."""
    state = game_of(Game.JUGGLE, DieToss(1, 2), Infraction(A), DirectorResult(None), Confirm())
    assert state.result is not None and state.result.winner is None


def test_the_director_stops_a_game_for_an_infraction_recorded_first() -> None:
    """Code of Conduct: "Any infraction of this Code ... will be handled by the Tournament
    Director" (R748)."""
    with pytest.raises(IllegalAction, match="record the infraction first"):
        game_of(Game.CONTIG_60, DieToss(1, 2), DirectorResult(A))


@pytest.mark.parametrize("rulings", [RULINGS_BEFORE_ISSUE_20, RULINGS_ISSUE_20])
def test_a_game_under_earlier_rulings_has_no_director_s_result(rulings: int) -> None:
    """The Director's result came with rulings 3 (R748): a journal of flow 1 or 2 never held
    one, so a game played under their rulings refuses it, and its menu never offers it (R796)."""
    before = start(start_action(Game.JUGGLE, MINUTES), rulings=rulings)
    state = play(before, DieToss(1, 2), Infraction(A))
    with pytest.raises(IllegalAction, match=f"under rulings {rulings}, which had none"):
        play(state, DirectorResult(A))


def test_after_the_director_s_result_the_monitor_only_confirms_it() -> None:
    """R789: the Director gives the result; no play, challenge or second result follows
    (R748)."""
    state = game_of(Game.CONTIG_60, DieToss(1, 2), Infraction(B), DirectorResult(A))
    for action in (PassFlag(A), Challenge(B, ("other",)), DirectorResult(B)):
        with pytest.raises(IllegalAction, match="the Tournament Director has given the result"):
            play(state, action)


def test_queens_and_guards_a_move_into_a_trap_is_recorded_not_challenged() -> None:
    """Rulebook: "If a player moves ... a Queen or Guard into a trap ... the opponent may pick up
    the piece and place it onto a space along the outermost band. This is NOT a challengeable
    situation and not recorded on Challenge Record Sheet. The opponent then completes a
    regular turn" (R790)."""
    state = game_of(
        Game.QUEENS_AND_GUARDS,
        ChipInHand(B, picked_starting=True),
        MovePiece(),
        PassFlag(A),
        TrapPenalty(A),
        MovePiece(),
    )
    assert state.challenges == ()
    assert record(state)["events"][0]["text"].startswith("A moved a piece into a trap")
    with pytest.raises(IllegalAction, match="B holds the flag card"):
        game_of(
            Game.QUEENS_AND_GUARDS,
            ChipInHand(B, picked_starting=True),
            MovePiece(),
            PassFlag(A),
            TrapPenalty(B),
        )


def test_stars_and_bars_a_stack_count_request_is_recorded_within_the_cards_on_the_board() -> None:
    """Rulebook: "A player may ask Monitor to report the number of cards in any stack" (R791)."""
    state = game_of(Game.STARS_AND_BARS, StarCard(A, 1), PlaceCard(3), StackCount(B, 2))
    assert record(state)["events"][0]["text"] == ("B asked the number of cards in a stack: 2")
    with pytest.raises(InvalidInput, match="a stack of 6 cards: expected 1 to 5"):
        game_of(Game.STARS_AND_BARS, StarCard(A, 1), PlaceCard(3), StackCount(B, 6))
