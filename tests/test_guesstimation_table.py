"""Guesstimation at the table: the options, the table's die, the players' buzzers, the question,
the guesses (from phones and on the console, hidden until all are in), the duel, the answer,
what the table announces and shows, and a journal that rebuilds the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from drivers.leds import SeatLight
from firmware_py.families.guesstimation.context import Table
from firmware_py.families.guesstimation.dice import card_order, die_roll
from firmware_py.families.guesstimation.flows import prompt_for
from firmware_py.families.guesstimation.options import fresh_options, parse_options
from firmware_py.families.guesstimation.table import FAMILY
from firmware_py.table.family import FamilyOptionsError, family
from firmware_py.table.journal import Journal
from firmware_py.table.prompts import Kind, Prompt
from firmware_py.table.recorder import RecordedTable
from rules.actions import decode
from rules.guesstimation.actions import ReadQuestion, RollDie
from tests.guesstimation_helpers import holding_chip, play
from tests.guesstimation_table_helpers import NAMES, SEATS, GuessTable, settings

FOUR = ("A", "B", "C", "D")
MEASURED_DECK = """
[[card]]
name = "Lengths"
""" + "".join(
    f"""
[[card.question]]
text = "In feet (meters), how long is thing {n}?"
answer = {{ us = "{n}0", metric = "{n}.5" }}
unit = {{ us = "feet", metric = "meters" }}
"""
    for n in range(1, 7)
)


def four_seat_table() -> Any:
    return family("guesstimation").game({}, FOUR)


def prompt_at(state: Any, scratch: dict[str, Any] | None = None) -> Prompt:
    """The step a four-seat table without a deck shows for a rules state."""
    return prompt_for(state, scratch or {}, Table(parse_options({}, FOUR), session=1))


# --- options ---------------------------------------------------------------------------------


def test_the_players_are_named_by_their_seats_unless_named() -> None:
    assert parse_options({}, SEATS).players == SEATS


def test_a_players_list_of_the_wrong_length_names_the_seats() -> None:
    with pytest.raises(FamilyOptionsError, match=r"players: expected 3 names, one per seat \(A"):
        parse_options({"players": ["Ann", "Bo"]}, SEATS)


def test_fewer_than_three_seats_is_refused_naming_the_seats() -> None:
    with pytest.raises(FamilyOptionsError, match="seats: Guesstimation is played by 3 to 6"):
        parse_options({}, ("A", "B"))


def test_a_name_the_rules_refuse_is_an_option_error_in_the_rules_words() -> None:
    with pytest.raises(FamilyOptionsError, match="players: player name 'A=B'"):
        parse_options({"players": ["A=B", "Bo", "Cy"]}, SEATS)


def test_an_unknown_option_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(FamilyOptionsError, match=r"colour: unknown \(expected players, finish"):
        parse_options({"colour": "red"}, SEATS)


def test_a_deck_that_cannot_be_read_names_the_deck_option(tmp_path: Path) -> None:
    with pytest.raises(FamilyOptionsError, match="deck: cannot read"):
        parse_options({"deck": str(tmp_path / "none.toml")}, SEATS)


def test_a_new_table_draws_its_seed_once_and_keeps_one_given() -> None:
    drawn = fresh_options({})["seed"]
    assert isinstance(drawn, int) and 0 <= drawn < 2**63
    assert fresh_options({"seed": 5})["seed"] == 5
    assert fresh_options(fresh_options({"seed": None}))["seed"] != fresh_options({})["seed"]


def test_a_new_table_keeps_its_deck_so_a_changed_file_cannot_change_a_replay(
    tmp_path: Path,
) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(MEASURED_DECK)
    options = fresh_options({"deck": str(path), "seed": 1})
    path.unlink()
    deck = parse_options(options, SEATS).deck
    assert deck is not None and deck.cards[0].questions[2].text.endswith("thing 3?")


def test_the_family_is_registered_with_what_its_seat_inputs_mean() -> None:
    assert family("guesstimation") is FAMILY
    assert FAMILY.roles["shout"].startswith("the player's die")


# --- the table's die ---------------------------------------------------------------------------


def test_a_roll_depends_only_on_the_seed_and_the_situation() -> None:
    assert die_roll(7, 1, "lead", 0, "Ann") == die_roll(7, 1, "lead", 0, "Ann")
    rolls = {die_roll(seed, 1, "question", "Ann") for seed in range(200)}
    assert rolls == {1, 2, 3, 4, 5, 6}


def test_the_table_rolls_what_the_seed_says_for_each_player() -> None:
    table = GuessTable().buttons("go", "go", "go")
    rolled = [(e["player"], e["value"]) for e in table.actions("roll")]
    assert rolled == [(name, die_roll(2026, 1, "lead", 0, name)) for name in NAMES]


def test_undo_of_a_roll_then_rolling_again_gives_the_same_number() -> None:
    table = GuessTable().buttons("go", "undo", "go")
    first, again = table.actions("roll")
    assert first["value"] == again["value"]
    assert table.named("undo")[0]["what"] == "guesstimation.roll"


def test_each_game_of_a_journal_shuffles_the_deck_anew() -> None:
    orders = {tuple(card_order(2026, session, 10)) for session in range(1, 6)}
    assert len(orders) > 1


# --- the buzzers roll --------------------------------------------------------------------------


def test_a_players_buzzer_rolls_for_them_when_it_is_their_turn() -> None:
    table = GuessTable().buzz("C")
    assert [(e["player"]) for e in table.actions("roll")] == ["Cy"]


def test_a_buzzer_out_of_turn_does_nothing() -> None:
    table = GuessTable().buzz("A", "A")
    assert len(table.actions("roll")) == 1
    assert not table.named("refused")


def test_go_rolls_for_the_first_player_still_to_roll() -> None:
    table = GuessTable().buzz("B").buttons("go")
    assert [e["player"] for e in table.actions("roll")] == ["Bo", "Ann"]


def test_only_the_round_leaders_buzzer_rolls_the_question_number() -> None:
    table = GuessTable().buttons("go", "go", "go")
    leader = table.state.current.leader
    others = [seat for seat, name in zip(SEATS, NAMES, strict=True) if name != leader]
    table.buzz(*others)
    assert table.phase == "question_roll"
    table.buzz(SEATS[NAMES.index(leader)])
    assert table.phase == "question"
    assert table.actions("roll")[-1]["player"] == leader


def test_the_lights_show_who_rolls_whose_guess_is_in_and_who_won() -> None:
    table = GuessTable()
    assert set(table.controller.view().lights.values()) == {SeatLight.STANDING}
    table.to_guessing().enter("A", "1950")
    lights = table.controller.view().lights
    assert (lights["A"], lights["B"], lights["C"]) == (
        SeatLight.PLUNGING,
        SeatLight.OFF,
        SeatLight.OFF,
    )
    table.guesses(B="1969", C="1990").buttons("yes")  # Apollo 11: 1969
    assert table.controller.view().lights["B"] is SeatLight.WON


# --- the question ------------------------------------------------------------------------------


def test_with_a_deck_yes_reads_the_question_the_die_picked() -> None:
    table = GuessTable().buttons("go", "go", "go", "go")
    current = table.state.current
    options = parse_options(settings(players=list(NAMES), deck="sample").options, SEATS)
    card = Table(options, 1).card(current)
    assert card is not None and current.die is not None
    table.buttons("yes")
    (read,) = table.actions("question")
    assert (read["card"], read["text"]) == (card.name, card.questions[current.die - 1].text)
    assert table.controller.prompt.page.lines[3].endswith(read["text"])


def test_without_a_deck_question_4_can_only_be_read_as_chip_possession() -> None:
    state = play(holding_chip("B"), RollDie("B", 4))
    prompt = prompt_at(state)
    assert [option.label for option in prompt.options] == ["chip", "chip US/metric"]


def test_without_a_deck_the_leader_says_how_another_question_is_asked() -> None:
    state = play(holding_chip("B"), RollDie("B", 2))
    labels = [option.label for option in prompt_at(state).options]
    assert labels == ["standard", "US/metric", "chip", "chip US/metric"]


def test_a_measured_question_waits_for_the_groups_units(tmp_path: Path) -> None:
    (tmp_path / "deck.toml").write_text(MEASURED_DECK)
    table = GuessTable(deck=str(tmp_path / "deck.toml"))
    while table.phase != "units":
        table.buttons("go" if table.phase != "question" else "yes")
    assert [o.label for o in table.controller.prompt.options] == ["US", "metric"]
    table.buttons("next", "yes")
    assert table.actions("units")[-1]["system"] == "metric"
    assert table.controller.prompt.entry is not None
    assert table.controller.prompt.entry.label == "Your guess, in meters"


# --- guesses -----------------------------------------------------------------------------------


def test_a_guess_from_a_phone_is_recorded_for_that_seats_player() -> None:
    table = GuessTable().to_guessing().enter("B", "1969.5")
    assert table.actions("guess") == [
        {"t": table.t, "event": "action", "action": "guesstimation.guess", "player": "Bo",
         "value": "1969.5"}
    ]  # fmt: skip


def test_a_guess_the_rules_refuse_changes_nothing_and_says_why_in_their_words() -> None:
    table = GuessTable().to_guessing()
    log = list(table.controller.log)
    table.enter("B", "29,029")
    (refused,) = table.named("entry_refused")
    assert refused["reason"].startswith("guess for Bo '29,029' is not a number: expected")
    assert table.controller.log == log


def test_a_second_guess_from_the_same_seat_is_refused() -> None:
    table = GuessTable().to_guessing().enter("A", "1").enter("A", "2")
    assert table.named("entry_refused")[0]["reason"] == "seat A has entered its guess already"
    assert [e["value"] for e in table.actions("guess")] == ["1"]


def test_a_guess_on_a_step_that_takes_none_is_refused_naming_the_step() -> None:
    table = GuessTable().enter("A", "5")
    (refused,) = table.named("entry_refused")
    assert refused["reason"] == ("the table takes no guess now: it shows 'Ann rolls for the lead'")


def test_the_console_enters_the_guess_of_the_next_player_in_speaking_order() -> None:
    table = GuessTable().to_guessing()
    first = table.state.current.guessers[0]
    table.buttons("next", "next", "yes")
    assert table.actions("guess")[0] | {"t": 0} == {
        "t": 0, "event": "action", "action": "guesstimation.guess", "player": first, "value": "2"
    }  # fmt: skip


def test_the_console_number_starts_at_zero_never_at_a_guess_already_in() -> None:
    table = GuessTable().to_guessing().enter("A", "1968").enter("B", "1971")
    assert table.controller.view().screen.big == "0"


def test_while_guesses_are_written_the_page_shows_who_guessed_never_what() -> None:
    table = GuessTable().to_guessing().enter("A", "1968").enter("C", "1971")
    page = table.controller.prompt.page
    shown = " ".join([*page.lines, *(cell for row in page.rows for cell in row)])
    assert "Guesses in: " in shown and "waiting for Bo" in shown
    assert "1968" not in shown and "1971" not in shown
    entry = table.controller.prompt.entry
    assert entry is not None and (entry.seats, sorted(entry.done)) == (("B",), ["A", "C"])


def test_once_every_guess_is_in_the_page_shows_them_in_speaking_order() -> None:
    table = GuessTable().to_guessing().enter("A", "1968").enter("C", "1971").enter("B", "1969")
    page = table.controller.prompt.page
    guessers = table.state.current.guessers
    values = {"Ann": "1968", "Bo": "1969", "Cy": "1971"}
    assert page.heading == ("Player", "Guess")
    assert page.rows == tuple((name, values[name]) for name in guessers)
    assert table.controller.prompt.entry is None


# --- the answer --------------------------------------------------------------------------------


def test_with_a_deck_yes_reveals_the_answer_in_the_groups_units(tmp_path: Path) -> None:
    (tmp_path / "deck.toml").write_text(MEASURED_DECK)
    table = GuessTable(deck=str(tmp_path / "deck.toml")).to_guessing()  # YES: US units
    die = table.state.current.die
    table.guesses(A="1", B="2", C="3").buttons("yes")
    assert table.actions("answer")[0]["value"] == f"{die}0"


def test_without_a_deck_no_phone_enters_the_answer_not_even_the_round_leaders() -> None:
    """R766: the Round Leader is a player, and a seat's phone is a player's."""
    table = GuessTable(deck=None).to_guessing().guesses(A="10", B="20", C="30")
    leader = table.state.current.leader
    seat = SEATS[NAMES.index(leader)]
    assert table.controller.prompt.entry is None
    table.enter(seat, "12", name="answer")
    assert table.named("entry_refused")[0]["reason"] == (
        "the table takes no answer now: it shows 'All guesses in: the answer?'"
    )
    assert table.actions("answer") == []
    table.dial(12)
    assert [e["value"] for e in table.actions("answer")] == ["12"]


def test_undo_of_the_answer_takes_its_result_off_the_oled_and_the_scoreboard() -> None:
    """Issue 19, finding 8: after UNDO the big line still said "B +3" while B had 0."""
    table = GuessTable().to_guessing().guesses(A="1968", B="1969", C="1990")
    before = table.controller.view()
    assert table.buttons("yes").controller.view().screen.big == "B +3"
    view = table.buttons("undo").controller.view()
    assert view.scoreboard.scores == {"A": 0, "B": 0, "C": 0}
    assert (view.screen.big, view.scoreboard.message) == (
        before.screen.big,
        before.scoreboard.message,
    )


def test_the_console_s_answer_entry_starts_at_0_not_at_a_guess() -> None:
    """Issue 19, finding 8 (R772): the answer is dialled from 0, as a guess is."""
    table = GuessTable(deck=None).to_guessing().guesses(A="10", B="20", C="30")
    assert (table.controller.prompt.kind, table.controller.number) == (Kind.NUMBER, 0)


# --- decimals on the console (R774) -----------------------------------------------------------


def test_the_console_takes_an_answer_of_0_45_without_a_phone() -> None:
    table = GuessTable(deck=None).to_guessing().guesses(A="0.4", B="0.5", C="0.45")
    table.buttons("go")  # 0.0: the first decimal place, open at 0
    assert (table.controller.view().screen.big, table.controller.view().screen.footer) == (
        "0.0",
        "NEXT+ NO- GO:. YES:ok",
    )
    table.buttons(*["next"] * 4, "go", *["next"] * 5)
    assert table.controller.view().screen.big == "0.45"
    table.buttons("yes")
    assert [e["value"] for e in table.actions("answer")] == ["0.45"]
    assert table.named("round_result")[0]["exact"] == ["Cy"]


def test_the_console_takes_a_guess_of_2_54_and_of_minus_3_75() -> None:
    table = GuessTable(deck=None).to_guessing()
    first, second = table.state.current.guessers[:2]
    table.dial_decimal("2.54").dial_decimal("-3.75")
    guesses = {g["player"]: g["value"] for g in table.actions("guess")}
    assert guesses == {first: "2.54", second: "-3.75"}


def test_undo_closes_the_last_decimal_place_and_takes_nothing_back() -> None:
    table = GuessTable(deck=None).to_guessing().buttons("next", "next", "go", "next")
    assert table.controller.view().screen.big == "2.1"
    log = list(table.controller.log)
    table.buttons("undo")
    assert (table.controller.view().screen.big, table.controller.log) == ("2", log)
    assert table.named("number")[-1]["value"] == 2


def test_a_decimal_entry_replays_from_the_journal_to_the_same_table(tmp_path: Path) -> None:
    journal = tmp_path / "journal.db"
    table = GuessTable(journal=journal, deck=None).to_guessing()
    table.dial_decimal("0.45").dial_decimal("2.5").buttons("go", "next")  # a place left open
    expected = (table.controller.log, table.controller.view(), table.controller.places)
    table.close()
    rebuilt = GuessTable(journal=journal, deck=None)
    try:
        got = (rebuilt.controller.log, rebuilt.controller.view(), rebuilt.controller.places)
    finally:
        rebuilt.close()
    assert got == expected


def test_the_page_shows_each_player_s_distance_to_finish() -> None:
    """R775: the page says how far each piece has to go, not only where it is."""
    table = GuessTable(finish=5).to_guessing().guesses(A="1968", B="1969", C="1990")
    assert "Spaces to Finish (5): Ann 5, Bo 5, Cy 5" in table.controller.prompt.page.lines
    table.buttons("yes")  # Bo exact: +3
    assert "Spaces to Finish (5): Ann 5, Bo 2, Cy 5" in table.controller.prompt.page.lines


def test_a_judged_round_announces_its_result_and_the_board() -> None:
    table = GuessTable().to_guessing().guesses(A="1968", B="1969", C="1990").buttons("yes")
    (result,) = table.named("round_result")
    assert (result["answer"], result["winners"], result["exact"], result["moves"]) == (
        "1969",
        ["Bo"],
        ["Bo"],
        {"Bo": 3},
    )
    assert table.named("score")[-1] | {"t": 0} == {"t": 0, "event": "score", "A": 0, "B": 3, "C": 0}
    assert table.controller.view().screen.big == "B +3"
    assert table.controller.prompt.page.rows[0][2:] in (("",), ("+3",))


# --- the duel ----------------------------------------------------------------------------------


def _standard_question_read(holder: str) -> Any:
    state = holding_chip(holder)
    assert state.current is not None
    return play(state, RollDie(state.current.leader, 2), ReadQuestion())


def test_the_chips_holder_is_offered_a_duel_before_the_first_guess() -> None:
    prompt = prompt_at(_standard_question_read("B"))
    assert (prompt.kind, prompt.text, prompt.entry) == (
        Kind.YES_NO,
        "B:\nduel with the chip?",
        None,
    )


def test_declining_the_duel_opens_the_guesses() -> None:
    prompt = prompt_at(_standard_question_read("B"), {"no_duel": True})
    assert prompt.kind is Kind.NUMBER and prompt.entry is not None


def test_a_duel_is_declared_with_its_opponent_and_wager_the_default_first() -> None:
    state = _standard_question_read("B")
    opponents = prompt_at(state, {"dueling": True})
    assert [option.label for option in opponents.options] == ["A", "C", "D"]
    wagers = prompt_at(state, {"dueling": True, "opponent": "D"})
    assert [option.label for option in wagers.options] == ["2 spaces", "1 space", "3 spaces"]
    action = wagers.options[2].action
    assert action == {"action": "guesstimation.duel", "dueler": "B", "opponent": "D", "wager": 3}
    assert decode(action)


def test_no_duel_is_offered_on_a_chip_possession_question() -> None:
    state = holding_chip("B")
    assert state.current is not None
    state = play(state, RollDie(state.current.leader, 4), ReadQuestion(chip=True))
    assert prompt_at(state).kind is Kind.NUMBER


def test_a_duel_at_the_table_from_the_offer_to_the_moves() -> None:
    # seed 8: Ann leads round 1 on question 4 (chip possession); Bo's 50 wins the chip
    table = GuessTable(seed=8, deck=None).to_guessing().guesses(A="10", B="50", C="90")
    assert table.state.current.question.chip
    table.dial(50).buttons("go", "yes")  # Bo rolls; a standard question
    assert (table.state.chip, table.text) == ("Bo", "Bo:\nduel with the chip?")
    table.enter("C", "200")  # no guess while the duel is being declared
    assert table.named("entry_refused")[-1]["reason"].startswith("the table takes no guess now")
    table.buttons("yes", "next", "yes", "next", "next", "yes")  # duel; Cy; 3 spaces
    assert table.actions("duel")[0] | {"t": 0} == {
        "t": 0, "event": "action", "action": "guesstimation.duel", "dueler": "Bo",
        "opponent": "Cy", "wager": 3,
    }  # fmt: skip
    table.guesses(A="1", B="110", C="200").dial(100)
    result = table.named("round_result")[-1]
    assert (result["winners"], result["moves"], result["chip"]) == (
        ["Bo"],
        {"Bo": 3, "Cy": -3},
        None,
    )
    assert table.controller.view().screen.big == "B +3 C -3"


# --- the game ------------------------------------------------------------------------------


def test_the_winner_is_announced_and_go_starts_a_new_game_in_the_same_journal() -> None:
    table = GuessTable(finish=2).to_guessing().guesses(A="1968", B="1969", C="1990")
    table.buttons("yes")
    assert table.named("game_result")[0]["winner"] == "Bo"
    assert (table.text, table.controller.view().screen.big) == ("Bo\nwins the game!", "B WINS")
    table.buttons("go")
    (session,) = table.named("session")
    assert (session["number"], session["action"]) == (2, "guesstimation.start")
    assert table.phase == "first_leader"


def test_every_screen_fits_the_oled_with_twenty_character_names() -> None:
    long_names = ["Alexandra Wellington", "Bartholomew Quincy-J", "Cassandra Montgomery"]
    table = GuessTable(players=long_names, deck=None)  # every press checks the OLED
    table.to_guessing().guesses(A="1", B="2", C="3").buttons("yes")
    assert table.named("round_result")


# --- the journal -------------------------------------------------------------------------------


def test_a_journaled_game_with_page_entries_rebuilds_the_same_table(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    table = GuessTable(journal=path).to_guessing().enter("C", "1970").enter("A", "oops")
    table.enter("A", "1968")
    live = (table.controller.log, table.controller.view(), table.controller.prompt.key)
    table.close()
    journal = Journal.open(path)
    try:
        rebuilt = RecordedTable.start(
            journal=journal, settings=settings(), now=0.0, read_pin=lambda name: False
        ).controller
        assert (rebuilt.log, rebuilt.view(), rebuilt.prompt.key) == live
    finally:
        journal.close()


def test_a_refused_entry_leaves_the_journal_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    table = GuessTable(journal=path).to_guessing()
    assert table.journal is not None
    before = [entry.seq for entry in table.journal.entries()]
    table.enter("A", "1e5").enter("A", "NaN")
    assert [entry.seq for entry in table.journal.entries()] == before
    table.close()
