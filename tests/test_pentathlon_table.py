"""The Mathematics Pentathlon monitor's table (issue 11): the game, who begins, the flag card,
the turn's menu and each game's moves, challenges and opinions, three I/IA, the time limit and
the result, on the six console buttons and the players' inputs. Rulings R250-R259."""

from __future__ import annotations

import pytest

from drivers.leds import SeatLight
from firmware_py.families.pentathlon.flows import prompt as flow_prompt
from firmware_py.families.pentathlon.flows.common import SCRATCH_MENU
from firmware_py.families.pentathlon.options import FLOW, parse_options
from tests.pentathlon_table_helpers import (
    PTable,
    begin,
    challenge,
    deal_cards,
    playing,
    record_chip,
)

# --- which game, who begins ------------------------------------------------------------------


def test_without_a_configured_game_the_monitor_chooses_it_first() -> None:
    table = PTable()
    assert table.prompt == "Which game?"
    assert table.labels == ["Contig 60", "Fab-a-Diffy", "Juggle", "Queens & Guards", "Stars & Bars"]


def test_keeping_the_game_goes_on_to_who_begins() -> None:
    table = PTable().buttons("yes")
    assert table.prompt == "A's die toss"
    assert table.controller.finished == []


def test_choosing_another_game_sets_the_table_for_it_and_keeps_no_empty_game() -> None:
    table = PTable().choose("Stars & Bars")
    assert table.game.settings.game.value == "stars-bars"
    assert table.controller.finished == []


def test_one_yes_on_another_game_goes_on_to_who_begins() -> None:
    table = PTable().buttons("next", "yes")  # NEXT to Fab-a-Diffy, YES (the guide's words)
    assert table.game.settings.game.value == "fab-a-diffy"
    assert table.prompt == "A's strip"


def test_undo_after_choosing_another_game_asks_which_game_again_with_it_first() -> None:
    table = PTable().choose("Stars & Bars").buttons("undo")
    assert table.prompt == "Which game?"
    assert table.labels[0] == "Stars & Bars"


def test_a_configured_game_skips_the_choice() -> None:
    assert PTable(game="juggle").prompt == "A's die toss"


@pytest.mark.parametrize(
    ("game", "first", "action"),
    [
        ("contig-60", "A's die toss", {"action": "pentathlon.die_toss", "a": 2, "b": 1}),
        ("fab-a-diffy", "A's strip", {"action": "pentathlon.strip_draw", "a": "1/2", "b": "1/3"}),
        ("juggle", "A's die toss", {"action": "pentathlon.die_toss", "a": 2, "b": 1}),
        (
            "queens-guards",
            "Who names the starting colour?",
            {"action": "pentathlon.chip_in_hand", "named_by": "B", "picked_starting": False},
        ),
        (
            "stars-bars",
            "Who draws first?",
            {"action": "pentathlon.star_card", "first": "B", "draw": 1},
        ),
    ],
)
def test_the_start_is_entered_as_the_game_makes_it(
    game: str, first: str, action: dict[str, object]
) -> None:
    """Rulebook (each game's START): the tosses, the strips, the chip in hand, the first star
    card are entered, and the rules say who begins (R788)."""
    table = PTable(game=game)
    assert table.prompt == first
    begin(table, "B")
    assert table.actions()[-1] == action
    assert table.game.on_turn is not None and table.game.on_turn.value == "B"


def test_equal_tosses_are_recorded_and_tossed_again() -> None:
    """Rulebook: "The player with the lower toss ... begins": equal tosses begin nothing, and
    the card shows them (R788)."""
    table = PTable(game="contig-60").enter(3).enter(3)
    assert table.actions()[-1] == {"action": "pentathlon.die_toss", "a": 3, "b": 3}
    assert table.prompt == "A's die toss again"
    assert table.named("clock") == []  # the game's clock waits for the start
    begin(table, "A")
    assert table.game.on_turn is not None and table.game.on_turn.value == "A"


def test_who_begins_starts_the_game_clock_with_the_game_s_time_limit() -> None:
    table = begin(PTable(game="juggle", minutes={"juggle": 25}), "A")
    assert table.named("clock")[-1]["minutes"] == 25
    assert table.screen.title == "JUGGLE R1 25:00"


# --- the flag card ---------------------------------------------------------------------------


def test_the_holder_s_flag_button_passes_the_flag() -> None:
    table = playing().flag("A")
    assert table.actions()[-1] == {"action": "pentathlon.pass_flag", "player": "A"}
    assert table.key == "p/turn2"
    assert table.prompt == "B on turn, round 1"


def test_the_other_player_s_flag_button_does_nothing() -> None:
    table = playing().flag("B")
    assert table.kinds() == ["die_toss"]
    assert table.key == "p/turn1"


def test_go_passes_the_flag_for_the_holder() -> None:
    table = playing().buttons("go")
    assert table.actions()[-1] == {"action": "pentathlon.pass_flag", "player": "A"}


def test_the_holder_s_led_is_lit_and_the_other_is_off() -> None:
    table = playing()
    assert table.lights == {"A": SeatLight.PLUNGING, "B": SeatLight.OFF}
    table.flag("A")
    assert table.lights == {"A": SeatLight.OFF, "B": SeatLight.PLUNGING}


def test_the_turn_screen_counts_the_minute_down() -> None:
    table = playing().wait(15.5)
    screen = table.screen
    assert (screen.big, screen.lines, screen.footer) == (
        "45",
        ("A on turn, round 1",),
        "YES:menu NO:challenge",
    )


def test_a_round_is_the_beginner_s_turn_and_the_second_player_s() -> None:
    table = playing(begins="B").flag("B").flag("A")
    assert table.prompt == "B on turn, round 2"
    assert table.screen.title.startswith("CONTIG60 R2")


# --- the turn's menu and each game's moves ----------------------------------------------------


def test_yes_opens_the_menu_of_what_the_rules_take_now() -> None:
    table = playing().buttons("yes")
    assert table.prompt == "A on turn: record"
    # no pass to capture; a win may always be declared: the challenge decides (R780)
    assert table.labels == [
        "Chip placed",
        "Win: 5 in a row",
        "Win: 0 or less",
        "Infraction: A",
        "Infraction: B",
        "Flag passes",
    ]


def test_undo_closes_the_menu_and_takes_nothing_back() -> None:
    table = playing().buttons("yes", "undo")
    assert table.key == "p/turn1"
    assert table.kinds() == ["die_toss"]


def test_contig60_a_chip_s_points_are_entered_and_subtracted() -> None:
    table = record_chip(playing(), 12)
    assert table.actions()[-1] == {"action": "pentathlon.contig.play", "score": 12}
    assert table.controller.view().scoreboard.scores == {"A": 48, "B": 60}
    assert table.key == "p/turn1"  # the turn goes on until the flag passes


def test_contig60_a_pass_can_be_captured_in_the_next_turn() -> None:
    table = playing().flag("A")  # A passed without a chip
    table.buttons("yes")
    assert "Capture" in table.labels
    table.choose("Capture").enter(5)
    assert table.actions()[-1] == {"action": "pentathlon.contig.capture", "score": 5}
    assert table.controller.view().scoreboard.scores == {"A": 60, "B": 50}


def test_contig60_a_wrong_declaration_is_recorded_as_declared() -> None:
    """Rulebook: "CHALLENGING A DECLARED WIN ... If CORRECT, a win is granted to the
    challenger": the monitor records what the player declared, though A has placed 1 chip
    (R780)."""
    table = record_chip(playing(), 3).buttons("yes")
    table.choose("Win: 5 in a row")
    assert table.actions()[-1] == {
        "action": "pentathlon.declare_win",
        "player": "A",
        "goal": "five-in-a-row",
        "by_monitor": False,
    }
    assert table.game.phase == "result"
    challenge(table, "B", "five in a row").choose("C: correct")
    assert table.game.play is not None and table.game.play.pending is not None
    assert table.game.play.pending.winner is not None
    assert table.game.play.pending.winner.value == "B"


def test_a_journal_of_the_flow_before_issue_20_keeps_its_menu() -> None:
    """A table whose settings name no flow (a journal written before) offers a win only where
    the record allows it, as it did, so the journal replays alike (R786)."""
    before = parse_options({"game": "contig-60"})  # a journal's settings before issue 20
    assert (
        before.flow,
        parse_options(PTable(game="contig-60").controller.settings.options).flow,
    ) == (1, FLOW)
    game = playing().game
    menu = flow_prompt(game, {SCRATCH_MENU: True}, before)
    assert [option.label for option in menu.options] == ["Chip placed", "Flag passes"]


@pytest.mark.parametrize(("game", "score"), [("contig-60", 60), ("stars-bars", 0)])
def test_the_scoreboard_shows_the_starting_running_scores_before_the_start(
    game: str, score: int
) -> None:
    """Contig 60's score card: "Running Score 60" for each player before the first turn;
    Stars & Bars' running scores count up from 0."""
    table = PTable(game=game)
    assert table.game.phase == "begin"
    assert table.controller.view().scoreboard.scores == {"A": score, "B": score}


def test_fab_a_diffy_records_strips_tricks_and_the_end_of_a_game() -> None:
    """END OF EACH GAME "when a player is unable to place a strip into the SHOW BOX": the
    menu offers Deck out only once the deck cannot give a strip to show (R746)."""
    table = playing("fab-a-diffy")
    assert "Deck out" not in table.buttons("yes").labels
    table.choose("Strip shown")
    table.buttons("yes").choose("Trick taken")
    assert table.controller.view().scoreboard.scores == {"A": 1, "B": 0}
    seat = "A"
    for _ in range(21):  # B shows 3 (face up again), then 20 turns of 1 strip: 4 + 3 + 20 = 27
        assert "Deck out" not in table.flag(seat).buttons("yes").labels
        table.choose("Strip shown")
        seat = "B" if seat == "A" else "A"
    menu = table.flag(seat).buttons("yes").labels
    assert "Deck out" in menu and "Strip shown" not in menu
    table.choose("Deck out")
    assert table.kinds()[-1] == "fab.deck_out"
    assert table.screen.title.startswith("FAB G2 R1")


def test_queens_and_guards_moves_ties_and_the_monitor_s_award() -> None:
    table = playing("queens-guards").buttons("yes")
    assert table.labels == [
        "Piece moved",
        "Tie: agreed",
        "Tie: 6 guards",
        "Win: Queen",
        "Award win: A",
        "Award win: B",
        "Infraction: A",
        "Infraction: B",
        "Flag passes",
    ]
    table.choose("Award win: B")
    assert table.actions()[-1] == {
        "action": "pentathlon.declare_win",
        "player": "B",
        "goal": "queen-surrounded",
        "by_monitor": True,
    }


def test_stars_and_bars_stack_points_are_asked_one_by_one() -> None:
    table = deal_cards(playing("stars-bars"), 6).buttons("yes").choose("Stack points")
    assert table.prompt == "CPA stacks turned over"
    table.enter(1)  # 3 CPA stacks not turned over: no removal to ask about
    assert table.prompt == "OPA stacks removed"
    table.enter(2)
    assert table.actions()[-1] == {
        "action": "pentathlon.sb.stacks",
        "cpa_turned": 1,
        "cpa_removed": False,
        "opa_removed": 2,
    }
    assert table.controller.view().scoreboard.scores == {"A": 6, "B": 0}


def test_a_code_of_conduct_infraction_is_recorded_from_the_menu() -> None:
    """Rulebook: "Any infraction of this Code ... will be handled by the Tournament Director.
    Such infractions can result in 0 points and/or being required to leave" (R789)."""
    table = playing().buttons("yes").choose("Infraction: B")
    assert table.prompt == "0 points (the Director)?"
    table.buttons("yes")
    assert table.prompt == "Must leave the site?"
    table.buttons("no")
    assert table.actions()[-1] == {
        "action": "pentathlon.infraction",
        "player": "B",
        "zero_points": True,
        "removal": False,
    }
    assert table.key == "p/turn1"  # play goes on


def test_the_result_the_director_gives_is_recorded_from_the_menu_and_reported() -> None:
    """R789: "the Director may stop the game; the monitor then records the result the
    Director gives": offered once an infraction is recorded, confirmed and reported as any
    result (R748)."""
    table = playing()
    assert not [label for label in table.buttons("yes").labels if "Director" in label]
    table.choose("Infraction: B").buttons("no", "yes")  # removal
    assert table.key == "p/removed"  # B plays no more: the Director's result remains (R987)
    labels = table.labels
    assert labels[:3] == ["Director: A win", "Director: B win", "Director: tie"]
    table.choose("Director: A win")
    assert table.actions()[-1] == {"action": "pentathlon.director_result", "winner": "A"}
    assert table.prompt == "Director: A wins"  # the OLED's two lines (R840)
    table.buttons("yes")
    assert table.game.phase == "over"
    over = table.named("game_over")[-1]
    assert (over["winner"], over["how"]) == ("A", "director")


def test_queens_and_guards_the_trap_penalty_is_on_the_opponent_s_turn_menu() -> None:
    """Rulebook: "the opponent may pick up the piece and place it onto a space along the
    outermost band. This is NOT a challengeable situation" (R790)."""
    table = playing("queens-guards").buttons("yes").choose("Piece moved").flag("A")
    table.buttons("yes").choose("Trap penalty")
    assert table.actions()[-1] == {"action": "pentathlon.qg.trap_penalty", "player": "A"}
    assert table.game.challenges == ()


def test_stars_and_bars_a_stack_count_is_recorded_from_the_menu() -> None:
    """Rulebook: "A player may ask Monitor to report the number of cards in any stack" (R791)."""
    table = playing("stars-bars").buttons("yes").choose("Card placed").enter(3)
    table.buttons("yes").choose("Count: B asked").enter(2)
    assert table.actions()[-1] == {
        "action": "pentathlon.sb.stack_count",
        "asked_by": "B",
        "cards": 2,
    }


def test_the_turn_reminds_the_holder_to_announce_a_changed_running_score() -> None:
    """Rulebook (Contig 60): "If the Running Score has changed on the Scoring Flag Card, a
    player MUST announce the new total before ending the turn"; (Stars & Bars) "MUST ANNOUNCE
    total points gained during a turn AND their accumulated total" (R792)."""
    table = playing()
    assert table.prompt == "A on turn, round 1"
    record_chip(table, 12)
    assert table.prompt == "A: announce 48, round 1"
    table = playing("stars-bars").buttons("yes").choose("Card placed").enter(7)
    assert table.prompt == "A: announce +7, 7, round 1"


def test_stars_and_bars_the_cpa_removal_is_asked_once_all_four_are_turned_over() -> None:
    """Rulebook: "4 points for removing the four 4 stacks that are turned over in the CPA"."""
    table = deal_cards(playing("stars-bars"), 10).buttons("yes").choose("Stack points")
    table.enter(4)
    assert table.prompt == "4 CPA stacks removed?"
    table.buttons("yes").enter(0)
    assert table.actions()[-1] == {
        "action": "pentathlon.sb.stacks",
        "cpa_turned": 4,
        "cpa_removed": True,
        "opa_removed": 0,
    }
    assert table.controller.view().scoreboard.scores == {"A": 12, "B": 0}


def test_stars_and_bars_a_stack_entry_goes_no_higher_than_the_board_allows() -> None:
    """Rulebook: "2 points for removing a 4 or more card stack in the OPA": the entry stops at
    the stacks the cards on the board can make (R783)."""
    table = deal_cards(playing("stars-bars"), 2).buttons("yes").choose("Stack points")
    assert table.buttons("next", "next", "next").controller.number == 1  # 8 cards: one stack


def test_stars_and_bars_stack_points_are_offered_only_once_a_stack_can_exist() -> None:
    """Rulebook: "2 points for turning over a 4 or more card stack in the CPA": the CPA's 4
    starting cards make no stack, so the first turns' menus offer no Stack points (a scoring
    of nothing); 3 cards placed make 7, a CPA stack of 4 beside 3 starting cards (R749)."""
    table = playing("stars-bars")
    assert "Stack points" not in table.buttons("yes").labels
    table.choose("Card placed").enter(0)
    table.flag("A")
    assert "Stack points" not in table.buttons("yes").labels  # B: 5 cards
    table.choose("Card placed").enter(0)
    table.flag("B")
    assert "Stack points" not in table.buttons("yes").labels  # A: 6 cards
    table.choose("Card placed").enter(0)
    table.flag("A")
    assert "Stack points" in table.buttons("yes").labels  # B: 7 cards
    assert "sb.stacks" not in table.kinds()


def test_stars_and_bars_a_round_ends_with_the_monitor_s_award() -> None:
    table = playing("stars-bars")
    table.buttons("yes").choose("Card placed").enter(45)
    table.flag("A").flag("B")  # the end of round 1: A is more than 40 ahead
    assert table.game.phase == "result"
    assert table.screen.alert == "A WINS"


def test_juggle_has_no_moves_to_record_but_the_declared_win() -> None:
    table = playing("juggle").buttons("yes")
    assert table.labels == ["Win: covered", "Infraction: A", "Infraction: B", "Flag passes"]


# --- one-minute turns ------------------------------------------------------------------------


def test_at_the_minute_the_oled_the_led_and_the_scoreboard_remind() -> None:
    table = playing().wait(61)
    assert table.kinds()[-1] == "turn_timeout"
    assert table.named("reminder")[-1]["player"] == "A"
    assert table.screen.alert == "A: MINUTE UP"
    assert table.lights["A"] is SeatLight.WON  # the fast blink
    assert table.controller.view().scoreboard.message == "A: minute up, take the turn"
    assert table.screen.footer == "YES:forfeit NO:finish"


def test_yes_forfeits_the_late_turn_and_the_flag_passes() -> None:
    table = playing().wait(61).buttons("yes")
    assert table.kinds()[-2:] == ["turn_timeout", "forfeit_turn"]
    assert table.prompt == "B on turn, round 1"
    assert table.game.play is not None and table.game.play.forfeited == (1, 0)


def test_no_lets_the_late_turn_finish() -> None:
    table = playing().wait(61).buttons("no")
    assert table.prompt == "A: minute up, round 1"
    assert table.screen.alert == "A: MINUTE UP"
    record_chip(table, 4).flag("A")
    assert table.kinds()[-2:] == ["contig.play", "pass_flag"]


def test_a_turn_played_after_the_reminder_cannot_be_forfeited() -> None:
    table = playing().wait(61).buttons("no")
    record_chip(table, 4).buttons("yes")
    assert "Forfeit turn" not in table.labels


def test_the_minute_is_held_off_while_the_monitor_enters_a_move() -> None:
    table = playing().wait(50).buttons("yes").choose("Chip placed").wait(20)
    assert "turn_timeout" not in table.kinds()  # the entry is not cut short
    table.enter(3)
    table.wait(0.1)
    assert table.kinds()[-2:] == ["contig.play", "turn_timeout"]  # due, it comes now


def test_the_minute_counts_from_the_flag_not_from_the_last_screen() -> None:
    table = playing().wait(20).buttons("yes", "undo").wait(30)
    assert table.screen.big == str(60 - 20 - 2 - 30)


def test_r252_undo_takes_the_reminder_back_and_the_minute_does_not_run_out_again() -> None:
    table = record_chip(playing(), 8).wait(61).buttons("undo").wait(120)
    assert table.kinds() == ["die_toss", "contig.play", "turn_timeout"]
    assert table.game.play is not None and not table.game.play.overtime
    table.buttons("undo")  # and the chip before it
    assert table.controller.view().scoreboard.scores == {"A": 60, "B": 60}


def test_r256_a_flag_press_while_the_monitor_enters_a_move_does_nothing() -> None:
    table = playing().buttons("yes").choose("Chip placed").flag("A")
    assert table.kinds() == ["die_toss"]
    assert table.key == "p/entry1/contig.play/0"


# --- challenges --------------------------------------------------------------------------------


def test_a_challenge_input_opens_the_entry_with_that_player_as_challenger() -> None:
    table = playing().challenge_input("B")
    assert table.prompt == "B challenges: rule?"
    assert table.labels[:3] == ["recording", "announcing", "placing"]


def test_no_opens_a_challenge_entered_from_the_console() -> None:
    table = playing().buttons("no")
    assert table.prompt == "Who challenges?"
    table.choose("B")
    assert table.prompt == "B challenges: rule?"


def test_a_challenge_of_several_rules_is_one_record_per_rule_in_the_order_announced() -> None:
    table = challenge(playing(), "B", "scoring", "announcing")
    assert table.actions()[-1] == {
        "action": "pentathlon.challenge",
        "challenger": "B",
        "rules": ["scoring", "announcing"],
    }
    assert [record.rule for record in table.game.challenges] == ["scoring", "announcing"]
    assert table.prompt == "Challenge 1: B on scoring"


@pytest.mark.parametrize(
    ("topic", "reason"),
    [
        ("start", "Start: the Monitor oversees them"),
        ("flag passing", "Flag passing: the Monitor oversees it"),
        ("time", "Time: the Monitor oversees it"),
    ],
)
def test_a_topic_nobody_may_challenge_is_refused_with_the_reason(topic: str, reason: str) -> None:
    table = playing().challenge_input("B").choose(topic)
    assert table.prompt == reason
    assert table.screen.alert == "NOT CHALLENGEABLE"
    table.buttons("yes")
    assert table.prompt == "B challenges: rule?"
    assert table.kinds() == ["die_toss"]  # nothing recorded


def test_a_game_s_own_unchallengeable_topic_is_refused_too() -> None:
    table = playing("stars-bars").challenge_input("A").choose("draw card")
    assert table.prompt == "Draw card: the Monitor reminds the player"


def test_a_challenge_is_a_time_out_the_clocks_stand_still() -> None:
    table = challenge(playing().wait(10), "B", "scoring")
    clock = table.screen
    table.wait(300)
    assert table.screen.alert == "TIME OUT: B CHALLENGES"
    assert table.controller.clock_deadline is None
    assert "turn_timeout" not in table.kinds()
    assert clock == table.screen


def test_the_challenger_s_led_pulses_while_the_monitor_rules() -> None:
    table = challenge(playing(), "B", "scoring")
    assert table.lights == {"A": SeatLight.OFF, "B": SeatLight.LOCKED}


def test_the_monitor_rules_c_i_or_ia() -> None:
    table = challenge(playing(), "B", "scoring")
    assert table.labels == ["C: correct", "I: incorrect", "IA: inapprop."]
    table.choose("IA: inapprop.")
    assert table.actions()[-1] == {"action": "pentathlon.rule", "ruling": "IA"}


def test_a_rule_with_one_ruling_offers_only_it() -> None:
    table = challenge(playing("stars-bars"), "B", "stack unturned")
    assert table.labels == ["IA: inapprop."]


def test_after_the_ruling_the_screen_says_what_it_did_and_warns_after_a_first_i() -> None:
    table = challenge(playing(), "B", "scoring").choose("I: incorrect")
    assert table.prompt.startswith("Ch 1 I: loss of turn: B loses the next turn")
    assert table.screen.alert == "B: 1 I/IA - WARNING"
    assert table.named("warning")[-1]["i_ia"] == 1


def test_the_time_out_lasts_until_the_monitor_lets_play_go_on() -> None:
    table = challenge(playing().wait(10), "B", "scoring")
    began, announced = table.named("action")[0]["t"], table.named("action")[-1]["t"]
    table.choose("IA: inapprop.").wait(120)
    assert table.controller.clock_deadline is None
    table.buttons("yes")
    assert table.key == "p/turn1"
    assert table.named("clock")[-1]["resumed"] is True
    # A's turn goes on with the time it had when the challenge was announced
    assert table.screen.big == str(60 - round(announced - began))


def test_a_correct_challenger_begins_a_turn_with_a_fresh_minute() -> None:
    table = record_chip(playing(), 9).flag("A").wait(30)
    challenge(table, "B", "scoring").choose("C: correct").buttons("yes")
    assert table.game.play is not None
    assert table.controller.view().scoreboard.scores == {"A": 60, "B": 58}
    assert table.screen.big == "60"


def test_either_player_may_ask_the_game_leader_then_the_tournament_director() -> None:
    table = challenge(playing(), "B", "scoring").choose("I: incorrect")
    table.buttons("no").choose("B asks").choose("C: correct")
    assert table.actions()[-1] == {
        "action": "pentathlon.opinion",
        "challenge": 1,
        "asked_by": "B",
        "ruling": "C",
    }
    table.buttons("no")
    assert table.prompt == "Who asks the Tournament Director?"
    table.choose("A asks").choose("IA: inapprop.")
    assert [r.by.value for r in table.game.challenges[0].rulings] == [
        "monitor",
        "game-leader",
        "tournament-director",
    ]
    assert table.screen.footer == "YES: play on"  # the third opinion was final


def test_once_play_resumes_a_ruling_can_no_longer_change() -> None:
    table = challenge(playing(), "A", "scoring").choose("I: incorrect")
    table.buttons("yes")  # play on: B is on turn (A lost the turn)
    table.flag("B")
    assert table.game.challenges[0].final
    assert table.key.startswith("p/turn")


def test_three_i_or_ia_end_the_game_as_a_loss_declared_by_the_table() -> None:
    table = playing()
    for _ in range(3):
        challenge(table, "B", "other").choose("IA: inapprop.")
        if table.game.phase == "play":
            table.buttons("yes")
    assert table.screen.alert == "B: 3 I/IA - LOSS"
    table.buttons("yes")  # no more opinions asked: the result
    assert table.prompt == "A wins: B has three I/IA rulings: the game is a loss for B"
    assert table.screen.alert == "A WINS"


def test_the_oled_warns_after_the_second_i_or_ia() -> None:
    table = playing()
    for _ in range(2):
        challenge(table, "B", "other").choose("IA: inapprop.")
        table.buttons("yes")
    assert table.named("warning")[-1]["i_ia"] == 2
    challenge(table, "B", "other").choose("C: correct")
    assert table.screen.alert == "B: 2 I/IA - WARNING"


def test_a_correct_challenge_of_a_declared_win_gives_the_win_to_the_challenger() -> None:
    table = playing("juggle").flag("A").flag("B")
    table.buttons("yes").choose("Win: covered")  # A, the beginner: B completes a turn
    table.flag("A").buttons("yes").choose("Win: covered")  # both: a tie pending
    assert table.game.phase == "result"
    challenge(table, "A", "placement")
    assert table.prompt == "Challenge 1: A on placement (declared win)"
    table.choose("C: correct").buttons("yes")
    assert table.prompt.startswith("A wins: B's declared win was challenged Correct")


# --- the time limit, the result, the next game -----------------------------------------------


def test_time_called_with_the_beginner_not_yet_played_ends_the_game_at_once() -> None:
    table = playing(minutes={"contig-60": 1}).flag("A").wait(1).flag("B").wait(60)
    assert table.kinds()[-1] == "time_called"
    assert table.game.phase == "result"
    assert table.prompt == "Tie: time limit: the scores differ by less than 3 (A 60, B 60)"


def test_time_called_after_the_beginner_played_lets_both_complete_a_turn() -> None:
    table = playing(minutes={"contig-60": 1}, turn_seconds=120)
    record_chip(table, 10).wait(60)
    assert "time_called" in table.kinds()
    assert table.prompt == "A: announce 50, time called"  # the chip's 10 (R792)
    table.flag("A")
    assert table.game.phase == "play"  # B completes a turn
    table.flag("B")
    assert table.prompt.startswith("A wins: time limit: A has the lower score")


def test_a_round_game_finishes_the_round_at_time() -> None:
    table = playing("stars-bars", minutes={"stars-bars": 1}).wait(61)
    assert table.kinds()[-2:] == ["time_called", "turn_timeout"]
    table.buttons("no").flag("A")
    assert table.game.phase == "play"
    table.flag("B")
    assert table.game.phase == "result"


def test_r259_time_called_drops_the_monitor_s_entry_in_progress() -> None:
    table = playing("stars-bars", minutes={"stars-bars": 1}, turn_seconds=120)
    table.buttons("yes").choose("Card placed").buttons("next").wait(60)
    assert table.kinds()[-1] == "time_called"
    assert table.key == "p/turn1"  # the round goes on: the card is entered again
    assert table.controller.scratch == {}


def test_juggle_at_time_the_monitor_counts_the_empty_spaces() -> None:
    table = playing("juggle", minutes={"juggle": 1}).flag("A").wait(58)
    table.flag("B")
    assert table.prompt == "Time: count the empty spaces"
    table.buttons("yes").enter(2)
    table.enter(7)
    assert table.actions()[-1] == {"action": "pentathlon.juggle.count", "a": 2, "b": 7}
    assert table.prompt.startswith("A wins: time limit: empty spaces: A 2, B 7")


def test_the_monitor_confirms_the_result_and_the_game_is_over() -> None:
    table = challenge(playing(), "B", "other")
    for _ in range(2):
        table.choose("IA: inapprop.").buttons("yes")
        challenge(table, "B", "other")
    table.choose("IA: inapprop.").buttons("yes", "yes")
    assert table.kinds()[-1] == "confirm"
    assert table.game.phase == "over"
    assert table.named("game_over")[-1]["winner"] == "A"
    assert table.lights == {"A": SeatLight.PLUNGING, "B": SeatLight.OFF}
    assert table.screen.footer == "NEXT: next game"


def test_next_sets_the_table_for_the_next_game_and_keeps_the_finished_one() -> None:
    table = playing("queens-guards").buttons("yes").choose("Tie: agreed").buttons("yes")
    table.buttons("next")
    assert len(table.controller.finished) == 1
    assert table.game.phase == "begin"
    assert table.prompt == "Who names the starting colour?"
    assert table.named("session")[-1]["number"] == 2


def test_the_record_is_the_rules_record() -> None:
    table = playing("queens-guards").buttons("yes").choose("Tie: agreed").buttons("yes")
    summary = table.controller.game.summary(table.controller.session)
    assert summary["result"]["how"] == "agreement"
    assert summary["players"]["A"]["result"] == "tie"
