"""STATES at the table: shouts, knocks, page entries and the dealer's console, through the
kernel on virtual time. Every screen is checked to fit the OLED (tests/screens.py)."""

from __future__ import annotations

import pytest

from firmware_py.table.family import FamilyOptionsError, family
from firmware_py.table.web.snapshot import snapshot
from tests.states_table_helpers import StatesTable

CONNECTS = "UT,CO,KS,OK"
APART = "UT,CO,KS,TX"


@pytest.fixture
def table() -> StatesTable:
    return StatesTable().begin("Ann")


def _scored(table: StatesTable, ak: str = "nobody", hi: str = "nobody") -> StatesTable:
    return table.pick(ak).pick(hi)


def test_the_rulebooks_connection_typed_on_the_page_wins_4_points(table: StatesTable) -> None:
    table.shout("A")
    assert table.enter("A", "claim", CONNECTS) is None
    assert table.text == "Ann\nrules say YES. Agree?"
    _scored(table.buttons("yes"))
    assert table.game.scores == (4, 0)
    assert table.named("hand_result")[-1]["how"] == "connect"


def test_a_wrong_claim_scores_nothing_and_the_hand_plays_on(table: StatesTable) -> None:
    table.shout("A")
    table.enter("A", "claim", APART)
    table.buttons("yes")
    assert table.game.phase == "play"
    assert table.game.scores == (0, 0)
    assert table.named("claim")[-1]["connects"] is False
    table.shout("B")  # the shout window is open again
    assert table.text == "Bo\nSTATES! Connect?"


def test_the_dealer_overrules_the_rules_with_a_reason(table: StatesTable) -> None:
    table.shout("A")
    table.enter("A", "claim", CONNECTS)
    table.buttons("no")  # overrule
    table.pick("not in hand")
    (action,) = table.actions("table_claim")
    assert action["overruled"] == "not in hand"
    assert table.game.scores == (0, 0)


def test_without_the_page_the_dealer_judges_yes_or_no(table: StatesTable) -> None:
    table.shout("B").buttons("yes")
    _scored(table)
    assert table.game.scores == (0, 4)


def test_the_alternate_scoring_asks_the_dealer_for_the_four_cards_values() -> None:
    table = StatesTable(scoring="alternate").begin("Ann")
    table.shout("A").buttons("yes")
    assert table.text == "Ann\n4 cards' values?"
    table.number(6)
    _scored(table)
    assert table.game.scores == (16, 0)


def test_the_first_shout_by_edge_time_claims(table: StatesTable) -> None:
    t = table.t + 1.0
    table.virtual.advance(t)
    table.virtual.drive("B.shout", True, t)
    table.virtual.drive("A.shout", True, t + 0.030)  # 30 ms later: outside the tie window
    table.virtual.advance(t + 0.5)
    assert table.named("shout")[-1]["result"] == "B"
    assert table.text == "Bo\nSTATES! Connect?"


def test_tied_shouts_leave_the_dealer_to_hear_one_claim_first(table: StatesTable) -> None:
    t = table.t + 1.0
    table.virtual.advance(t)
    table.virtual.drive("A.shout", True, t)
    table.virtual.drive("B.shout", True, t + 0.004)
    table.virtual.advance(t + 0.5)
    assert table.text == "A tie: whose claim\nis heard first?"
    table.pick("B: Bo")
    assert table.text == "Bo\nSTATES! Connect?"


def test_the_rulebooks_knock_typed_on_the_page_is_worth_19_and_wins(table: StatesTable) -> None:
    table.knock("A")
    assert table.enter("A", "knock", "DE,OR,NM,water") is None
    assert table.game.phase == "last_round"
    table.buttons("go")  # the last round is over: nobody connected
    assert table.enter("B", "cards", "RI,CT,ID,water") is None
    _scored(table)
    (result,) = table.named("hand_result")
    assert result["winners"] == ["Ann"] and result["points"] == {"Ann": 3, "Bo": 0}
    assert table.game.played[-1].won.showdown is not None
    assert table.game.played[-1].won.showdown.best_of("Ann").total == 19


def test_a_knock_that_is_not_one_colour_is_refused_in_one_line(table: StatesTable) -> None:
    table.knock("A")
    refused = table.enter("A", "knock", "DE,OR,CO,water")
    assert (
        refused == "Ann cannot knock with DE, OR, CO, water: expected 3 or 4 states of one colour"
    )
    assert table.game.hand is not None and table.game.hand.knocker is None


def test_a_knock_and_the_best_totals_on_the_console(table: StatesTable) -> None:
    table.knock("B")
    table.number(12)
    assert table.text == "Bo\n4 cards one colour?"
    table.buttons("yes")  # a 4-card knock
    table.buttons("go")
    table.number(11)  # Ann's best total
    _scored(table)
    assert table.game.scores == (0, 4)


def test_a_shout_in_the_last_round_can_still_win_the_hand(table: StatesTable) -> None:
    table.knock("A").number(19).buttons("no")
    table.shout("B").buttons("yes")
    _scored(table)
    assert table.game.scores == (0, 4)


def test_the_knockers_shout_in_the_last_round_is_not_a_claim(table: StatesTable) -> None:
    table.knock("A").number(19).buttons("no")
    table.shout("A")
    assert table.text == "Ann\nknocked: last round"
    table.shout("B")  # the window opened again
    assert table.text == "Bo\nSTATES! Connect?"


def test_the_knock_input_means_nothing_when_knocking_is_off() -> None:
    table = StatesTable(knocking=False, deck=None).begin("Ann")
    table.knock("A")
    assert table.text == "Hand 1\nSTATES!"


def test_the_dealers_menu_claims_for_a_seat_without_buttons(table: StatesTable) -> None:
    table.buttons("next")
    table.pick("B: STATES!")
    assert table.text == "Bo\nSTATES! Connect?"


def test_undo_takes_back_a_claim_being_judged(table: StatesTable) -> None:
    table.shout("A").buttons("undo")
    assert table.text == "Hand 1\nSTATES! or knock"


def test_the_winners_bonus_state_scores_one_more(table: StatesTable) -> None:
    table.shout("A").buttons("yes")
    _scored(table, ak="Ann")
    assert table.game.scores == (5, 0)


def test_the_lowest_score_is_offered_to_play_first_next(table: StatesTable) -> None:
    _scored(table.shout("A").buttons("yes"))
    assert [option.label for option in table.controller.prompt.options] == ["Bo"]


def test_the_champion_is_shown_and_go_starts_a_new_game() -> None:
    table = StatesTable(target=4).begin("Ann")
    _scored(table.shout("A").buttons("yes"))
    assert table.text == "Ann\nwins the game!"
    assert table.named("game_result")[-1]["winner"] == "Ann"
    table.buttons("go")
    assert table.game.scores == (0, 0) and len(table.controller.finished) == 1


def test_two_teams_score_together() -> None:
    table = StatesTable(players=["Ann", "Bo", "Cy", "Di"], teams=True).begin("Ann")
    _scored(table.shout("C").buttons("yes"))
    assert table.controller.view().scoreboard.scores == {"A": 4, "B": 0, "C": 4, "D": 0}


def test_an_entry_from_a_seat_that_did_not_shout_is_refused(table: StatesTable) -> None:
    table.shout("A")
    assert table.enter("B", "claim", CONNECTS) == "seat B has no claim to enter now"


def test_the_table_starts_with_the_shipped_deck_and_knocking_on() -> None:
    table = StatesTable(deck=None).begin("Ann")
    assert table.game.knocking and table.game.phase == "play"


def test_the_alternate_scoring_with_an_incomplete_deck_is_refused_naming_the_cards() -> None:
    with pytest.raises(
        FamilyOptionsError,
        match=r'deck: the alternate scoring needs .*AL, AR, AZ.*set scoring = "standard"',
    ):
        family("states").game({"deck": None, "scoring": "alternate"}, ("A", "B"))


def test_a_typed_knock_the_deck_cannot_judge_is_refused_and_changes_nothing() -> None:
    table = StatesTable(deck=None).begin("Ann").knock("A")
    assert table.text == "Ann knocks:\ntotal? deck lacks 45"
    refused = table.enter("A", "knock", "UT,CO,KS,DE")
    assert refused is not None and "no colour or value for UT, CO, KS;" in refused
    assert table.game.hand is not None and table.game.hand.knocker is None


def test_the_page_says_how_many_cards_the_deck_lacks_while_a_hand_is_played() -> None:
    table = StatesTable(deck=None).begin("Ann")
    (line,) = [line for line in table.controller.prompt.page.lines if "deck file" in line]
    assert line.startswith("The deck file lacks 45 cards' colours or values")


def test_a_knock_s_page_lists_every_card_the_deck_lacks() -> None:
    table = StatesTable(deck=None).begin("Ann").knock("B")
    (line,) = [line for line in table.controller.prompt.page.lines if "Cards the" in line]
    assert line.endswith(
        ": AL, AR, AZ, CA, CO, CT, FL, GA, IA, ID, IL, IN, KS, KY, LA, MA, MD, ME, "
        "MI, MN, MO, MS, MT, NC, ND, NE, NH, NJ, NV, NY, OH, OK, PA, RI, SC, SD, TN, TX, UT, VA, "
        "VT, WA, WI, WV, WY"
    )


def test_a_knock_on_the_console_is_accepted_with_the_shipped_deck() -> None:
    table = StatesTable(deck=None).begin("Ann").knock("B")
    table.number(12).buttons("no")  # 3 cards
    table.buttons("go").number(13)  # Ann's best total beats it
    _scored(table)
    assert table.game.scores == (3, 0)


def test_teams_need_four_seats() -> None:
    with pytest.raises(FamilyOptionsError, match="expected 4 seats for two teams, got 3"):
        family("states").game({"teams": True, "knocking": False}, ("A", "B", "C"))


def test_an_unknown_option_is_named() -> None:
    with pytest.raises(FamilyOptionsError, match="finish: unknown"):
        family("states").game({"finish": 20}, ("A", "B"))


def test_the_page_keeps_a_typed_knock_hidden_until_it_is_judged(table: StatesTable) -> None:
    table.knock("B").enter("B", "knock", "DE,OR,NM,water")
    shown = snapshot(table.controller, table.controller.view(), saved=True)
    assert not any("19" in line or "DE" in line for line in shown["lines"])
    assert "Bo knocked (last round)" in shown["lines"]
    table.buttons("go").enter("A", "cards", "RI,CT,ID,water")
    shown = snapshot(table.controller, table.controller.view(), saved=True)
    assert any("Bo 19" in line for line in shown["lines"])


def test_a_knock_total_dialled_on_the_console_is_on_the_oled_but_never_on_the_page(
    table: StatesTable,
) -> None:
    table.knock("B").buttons("next", "next", "next")
    dialled = str(table.controller.number)
    assert table.controller.view().screen.big == dialled  # the dealer sees what they dial
    shown = snapshot(table.controller, table.controller.view(), saved=True)
    assert shown["screen"]["big"] == "?"


def test_a_best_total_dialled_on_the_console_is_never_on_the_page_before_the_judgement(
    table: StatesTable,
) -> None:
    table.knock("B").number(19).buttons("yes", "go").buttons("next", "next", "next", "next")
    assert "best colour total" in table.text
    assert table.controller.view().screen.big == "4"
    shown = snapshot(table.controller, table.controller.view(), saved=True)
    assert shown["screen"]["big"] == "?"


def test_the_claimant_s_phone_is_asked_for_four_states(table: StatesTable) -> None:
    table.shout("A")
    shown = snapshot(table.controller, table.controller.view(), saved=True)
    assert shown["entry"]["name"] == "claim" and shown["entry"]["seats"] == ["A"]
