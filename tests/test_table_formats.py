"""Every GeoPlunge format at the table (rulings R150-R158): Combo 3 matches with the Level 3
flows, the Combo 3 championship, and the next round's match started from the console."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_py.families.geoplunge.options import parse_options
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.family import FamilyOptionsError, PairedMatch
from firmware_py.table.headless import VirtualTable
from firmware_py.table.journal import Journal
from tests.test_table import Table


def border_up(table: Table, team: str) -> Table:
    table.count().buttons("go").press(f"{team}.shout").at(table.t + 1)
    return table.buttons("no", "yes")


def over(table: Table) -> Table:
    """Let the match clock run out (the game in progress is abandoned)."""
    return table.at(table.t + 2 * 60 * 60)


def screen(table: Table) -> Any:
    return table.controller.view().screen


def kinds(table: Table, *names: str) -> list[dict[str, Any]]:
    return [e for e in table.events if e["event"] in names]


# --- the format option --------------------------------------------------------------------------


def test_format_combo3_starts_a_combo3_match_of_the_round() -> None:
    table = Table(format="combo3", round=2)
    assert table.controller.log[0].kind == "match3.start"
    assert table.prompt == "Round 2 morning, games 1-2-3-4-5"


def test_format_championship_starts_the_championship() -> None:
    table = Table(format="championship")
    assert table.controller.log[0].kind == "championship.start"
    assert table.prompt == "Championship, games 1-2-3-4"
    assert screen(table).title == "CHAMP A0 B0"


def test_format_defaults_to_combo4() -> None:
    assert Table().controller.log[0].kind == "match.start"


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"format": "combo5"}, "format: expected one of combo4, combo3, championship"),
        (
            {"format": "combo3", "round": 9},
            "round: expected a whole number from 1 to 8 (a Combo 3 round), got 9",
        ),
        (
            {"format": "combo4", "round": 100},
            "round: expected a whole number from 1 to 99, got 100",
        ),
        ({"format": "championship", "round": 1}, "round: expected none (the championship"),
        ({"format": "championship", "minutes": 20}, "minutes: expected none (the championship"),
    ],
)
def test_a_bad_format_option_is_named(options: dict[str, Any], names: str) -> None:
    with pytest.raises(FamilyOptionsError) as raised:
        parse_options(options)
    assert str(raised.value).startswith(names)


# --- R155: one game on its own at the format's level -----------------------------------------


@pytest.mark.parametrize("table_format", ["combo3", "championship"])
def test_r155_a_game_on_its_own_is_played_at_level_3(table_format: str) -> None:
    table = Table(format=table_format, game=5).count().buttons("yes")
    assert table.controller.log[0].kind == "game.start"
    assert table.controller.session.level == 3
    assert [o.label for o in table.controller.prompt.options] == ["red", "blue"]


# --- the Level 3 flows --------------------------------------------------------------------------


def test_r63_level3_state_iq_deals_no_card_after_a_right_guess() -> None:
    table = Table(format="combo3", game=2).buttons("yes").count().buttons("yes")
    table.buttons("no", "yes")  # A: wrong, then right on guess 2: A's turn is over
    assert table.prompt == "B guess 1, clue A: right?"
    table.buttons("yes")  # B on guess 1: fewer guesses
    result = table.last("game_result")
    assert (result["winner"], result["bonus"], result["level"]) == ("B", True, 3)


def test_r65_level3_dashing_states_race_3_sorts_like_race_1_with_no_category() -> None:
    table = Table(format="combo3", game=3).count()
    table.buttons("go").press("A.shout").at(table.t + 1).buttons("yes")
    table.buttons("go").press("B.shout").at(table.t + 1).buttons("yes")
    assert table.prompt == "Race 3: state name, A to Z"
    assert "dashing.category" not in table.actions()


def test_r69_level3_play_the_ranks_takes_two_power_cards_equal_allowed() -> None:
    table = Table(format="combo3", game=4).buttons("yes", "yes")  # PTR1; A leads
    assert table.prompt == "Power card 1 of 2: left number"
    table.buttons("next", "next", "yes", "next", "next", "yes")  # 20, then 20 again
    assert table.last("action")["bases"] == [20, 20]
    assert table.controller.prompt.key == "g4/plunge"


def test_r66_level3_play_the_ranks_goes_from_the_plunge_to_the_tricks() -> None:
    table = Table(format="combo3", game=4).buttons("yes", "yes", "yes", "yes").count()
    assert table.prompt == "Trick 1: Power cards played?"
    assert not {"game4.role", "game4.bur_dealt", "game4.pull"} & set(table.actions())


def test_r68_level3_play_the_ranks_ends_at_6_tricks_won_by_default() -> None:
    table = Table(format="combo3", game=4).buttons("yes", "yes", "yes", "yes").count()
    for _ in range(6):  # A wins six tricks without a Power card: the game ends, as at Level 4
        table.buttons("yes", "yes")
    assert table.prompt == "Game over"


def test_r68_level3_play_the_ranks_plays_all_8_tricks_when_configured() -> None:
    table = Table(format="combo3", game=4, ptr_early_end=False)
    table.buttons("yes", "yes", "yes", "yes").count()
    for _ in range(6):  # the other reading: all 8 tricks are played
        table.buttons("yes", "yes")
    assert table.prompt == "Trick 7: Power cards played?"


def test_r73_level3_chummy_asks_the_square_red_or_blue() -> None:
    table = Table(format="combo3", game=5).count().buttons("yes")
    assert table.prompt == "Question colour (Power card square)"
    table.buttons("next", "yes")
    assert table.last("action") == {
        "t": table.t, "event": "action", "action": "l3.chummy.question", "square": "blue"
    }  # fmt: skip


def test_level3_border_up_plays_the_level4_flow() -> None:
    table = border_up(Table(format="combo3", game=1), "A")
    assert table.actions() == ["plunge", "border_up.shout", "border_up.verdict"]
    assert table.last("game_result")["level"] == 3


# --- Combo 3 matches ----------------------------------------------------------------------------


def test_r153_a_combo3_morning_clock_is_20_minutes_and_an_afternoon_one_12() -> None:
    morning = Table(format="combo3", round=4).buttons("go")
    assert morning.last("clock")["minutes"] == 20
    afternoon = Table(format="combo3", round=5).buttons("yes", "yes", "next", "yes", "go")
    assert afternoon.last("clock")["minutes"] == 12
    assert screen(afternoon).title == "G1 BORDER-UP 12:00"


def test_r153_a_configured_length_applies_to_every_combo3_round() -> None:
    table = Table(format="combo3", round=4, minutes=15).buttons("go")
    assert table.last("clock")["minutes"] == 15
    over(table).buttons("go", "go")
    assert table.controller.session.minutes == 15


def test_r152_the_afternoon_draw_and_picks_come_before_the_clock() -> None:
    table = Table(format="combo3", round=6)
    assert table.prompt == "Round 6 draw: closer to statehood 1?"
    table.buttons("next", "yes")  # Team B's card is closer
    assert table.prompt == "Team B (draw winner) picks a game"
    table.buttons("next", "next", "yes")  # game 3
    assert table.prompt == "Team A picks another game"
    table.buttons("yes")  # game 1
    assert table.last("action") == {
        "t": table.t, "event": "action", "action": "match3.afternoon_picks", "first": 3, "second": 1
    }  # fmt: skip
    assert table.prompt == "Round 6 afternoon, games 3-1"
    assert table.controller.clock_deadline is None
    table.buttons("go")
    assert screen(table).title == "G3 DASHING 12:00"


def test_r152_the_other_team_is_offered_only_a_different_game() -> None:
    table = Table(format="combo3", round=5).buttons("yes", "next", "yes")  # A picks game 2
    labels = [option.label for option in table.controller.prompt.options]
    assert labels == ["1 BORDER-UP", "3 DASHING", "4 GAME 4", "5 CHUMMY"]


def test_r152_undo_after_the_first_pick_takes_back_only_the_pick() -> None:
    table = Table(format="combo3", round=5).buttons("yes", "next", "yes", "undo")
    assert table.prompt == "Team A (draw winner) picks a game"
    assert table.actions() == ["draw_winner"]


def test_a_combo3_match_reports_level3_titles_scores_and_the_result() -> None:
    table = Table(format="combo3", round=1).buttons("go")
    border_up(table, "B")
    assert table.last("game_result")["title"] == "Border-Up"
    assert table.last("score") == {"t": table.t, "event": "score", "A": 0, "B": 10}
    over(table)
    assert table.last("match_result")["winner"] == "B"
    assert screen(table).big == "MATCH: B 0-10"


# --- R150: the next match from the console ----------------------------------------------------


def test_r150_go_at_match_over_shows_the_next_round_before_starting_it() -> None:
    table = over(Table(format="combo3", round=4).buttons("go"))
    assert table.prompt == "Match over. Shuffle every deck"
    table.buttons("go")
    assert table.prompt == "Next: round 5 afternoon match"
    assert screen(table).footer == "GO: start  UNDO: back"
    assert len(table.controller.finished) == 0


def test_r150_go_again_starts_the_next_round_in_the_same_journal() -> None:
    table = over(Table(format="combo3", round=4).buttons("go")).buttons("go", "go")
    (session,) = kinds(table, "session")
    assert (session["number"], session["action"], session["round"]) == (2, "match3.start", 5)
    assert len(table.controller.finished) == 1
    assert table.controller.finished[0][0].kind == "match3.start"
    assert table.prompt == "Round 5 draw: closer to statehood 1?"
    assert screen(table).title == "MATCH A0 B0"


def test_r150_combo4_next_match_alternates_all_and_call() -> None:
    table = over(Table(round=1).buttons("go")).buttons("go")
    assert table.prompt == "Next: round 2 Call match"
    table.buttons("go")
    assert table.prompt == "Team A's 2 secret games"


def test_r150_undo_on_the_confirm_step_goes_back_to_match_over() -> None:
    table = over(Table(format="combo3", round=4).buttons("go")).buttons("go", "undo")
    assert table.prompt == "Match over. Shuffle every deck"
    assert table.controller.session.over  # the finished match is untouched
    assert table.last("undo")["what"] == "answer"


def test_r150_undo_right_after_the_next_match_starts_does_not_reach_back() -> None:
    table = over(Table(format="combo3", round=4).buttons("go")).buttons("go", "go")
    finished = list(table.controller.finished[0])
    table.buttons("undo", "undo")
    assert table.controller.finished[0] == finished
    assert table.prompt == "Round 5 draw: closer to statehood 1?"
    assert not kinds(table, "undo")  # there was nothing in the new match to take back


def test_r150_the_next_match_waits_for_its_own_go_to_start_the_clock() -> None:
    table = over(Table(round=1).buttons("go")).buttons("go", "go")
    assert table.controller.clock_deadline is None
    table.buttons("yes", "yes")  # both teams' picks
    table.buttons("go")
    assert table.last("clock")["minutes"] == 20


# --- R190: the round the hub paired this table in -----------------------------------------------


def paired(table: Table, round_number: int, a: str = "Rivers", b: str = "Borders") -> Table:
    """The hub's pairing for this table arrives (the daemon hands it over as an input)."""
    table.t += 1.0
    table.virtual.pair(PairedMatch(round_number, a, b), table.t)
    return table


def test_r190_the_next_match_offered_is_the_round_the_hub_paired_this_table_in() -> None:
    table = paired(over(Table(round=1).buttons("go")), 3).buttons("go")
    assert table.prompt == "Next: R3 All\nRivers v Borders"  # A v B, as the hub paired them


def test_r190_go_starts_the_paired_round() -> None:
    table = paired(over(Table(round=1).buttons("go")), 3).buttons("go", "go")
    (session,) = kinds(table, "session")
    assert (session["number"], session["action"], session["round"]) == (2, "match.start", 3)


def test_r190_a_pairing_arriving_on_the_confirm_screen_changes_what_it_offers() -> None:
    table = over(Table(format="combo3", round=4).buttons("go")).buttons("go")
    assert table.prompt == "Next: round 5 afternoon match"
    paired(table, 6, "Peaks", "Capitals")
    assert table.prompt == "Next: R6 afternoon\nPeaks v Capitals"


def test_r190_a_pairing_for_the_round_just_played_offers_the_next_round() -> None:
    table = paired(over(Table(format="combo3", round=4).buttons("go")), 4).buttons("go")
    assert table.prompt == "Next: round 5 afternoon match"


def test_r190_a_pairing_past_the_formats_last_round_is_not_offered() -> None:
    table = paired(over(Table(format="combo3", round=4).buttons("go")), 9).buttons("go")
    assert table.prompt == "Next: round 5 afternoon match"


def test_r190_a_pairing_withdrawn_offers_the_next_round_again() -> None:
    table = paired(over(Table(round=1).buttons("go")), 3).buttons("go")
    table.virtual.pair(None, table.t + 1)
    assert table.prompt == "Next: round 2 Call match"


def test_r190_the_pairing_decides_nothing_by_itself() -> None:
    table = over(Table(round=1).buttons("go"))
    before = list(table.events)
    paired(table, 3)
    assert table.events == before
    assert table.prompt == "Match over. Shuffle every deck"


def test_r190_the_pairing_is_journaled_and_a_restart_offers_the_same_round(
    tmp_path: Path,
) -> None:
    def table() -> VirtualTable:
        return VirtualTable(table_settings(round=1), lambda event: None, journal=journal)

    def press(live: VirtualTable, t: float) -> None:
        live.drive("console.go", True, t)
        live.drive("console.go", False, t + 0.1)

    journal = Journal.open(tmp_path / "journal.db")
    live = table()
    press(live, 1.0)  # the clock and game 1
    live.advance(7200.0)  # time up: the match is over
    press(live, 7201.0)  # GO: next match
    live.pair(PairedMatch(3, "Rivers", "Borders"), 7202.0)
    shown = live.controller.prompt.text
    live.close()
    journal.close()
    journal = Journal.open(tmp_path / "journal.db")
    rebuilt = table()
    assert rebuilt.controller.prompt.text == shown == "Next: R3 All\nRivers v Borders"
    press(rebuilt, 7203.0)
    assert (rebuilt.controller.log[0].kind, rebuilt.controller.session.round) == ("match.start", 3)
    rebuilt.close()
    journal.close()


# --- R151: no next match ----------------------------------------------------------------------


def test_r151_no_next_match_after_combo3_round_8() -> None:
    table = over(Table(format="combo3", round=8).buttons("yes", "yes", "next", "yes", "go"))
    assert table.prompt == "Round 8 was the last round: no next match"
    assert screen(table).footer == "Report the result"  # UNDO cannot take back the time-up
    table.buttons("go", "go")
    assert not kinds(table, "session")


def test_r151_no_next_match_after_combo4_round_99() -> None:
    table = over(Table(round=99).buttons("go")).buttons("go")
    assert table.prompt == "Round 99 was the last round: no next match"


def test_r151_no_next_match_after_a_game_on_its_own() -> None:
    table = border_up(Table(game=1), "A").buttons("go", "go")
    assert table.prompt == "Game over"
    assert not kinds(table, "session")


# --- R154: the championship at the table ------------------------------------------------------


def test_r154_the_championship_counts_games_won_not_points() -> None:
    table = Table(format="championship").buttons("go")
    table.set("A.stand", True)
    border_up(table, "A")
    result = table.last("game_result")
    assert (result["winner"], result["points"], result["tiebreaker"]) == ("A", None, False)
    assert table.last("wins") == {"t": table.t, "event": "wins", "A": 1, "B": 0}
    assert not kinds(table, "score")
    assert screen(table).title == "CHAMP A1 B0"
    assert table.controller.view().scoreboard.scores == {"A": 1, "B": 0}


def test_r154_the_championship_has_no_clock() -> None:
    table = Table(format="championship").buttons("go")
    assert table.controller.clock_deadline is None
    assert screen(table).title == "G1 BORDER-UP"


def _three_wins_for_a() -> Table:
    table = Table(format="championship").buttons("go")
    border_up(table, "A").buttons("next")
    table.buttons("yes").count().buttons("yes", "yes", "no", "no", "no").buttons("next")  # A 3-0
    table.count()
    table.buttons("go").press("A.shout").at(table.t + 1).buttons("yes")
    return table.buttons("go").press("A.shout").at(table.t + 1).buttons("yes")


def test_r79_r154_the_championship_ends_early_and_names_the_games_not_played() -> None:
    table = _three_wins_for_a()
    assert table.last("match_result") == {
        "t": table.t, "event": "match_result", "champion": "A", "wins": {"A": 3, "B": 0},
        "not_played": [4],
    }  # fmt: skip
    assert table.prompt == "Champion: Team A. No next match"
    assert screen(table).big == "CHAMPION: A"


def test_r151_no_next_match_after_the_championship() -> None:
    table = _three_wins_for_a().buttons("go", "go", "next", "yes")
    assert not kinds(table, "session")
    assert table.prompt == "Champion: Team A. No next match"


# --- buttons that mean nothing do nothing ------------------------------------------------------


def _confirm_step() -> Table:
    return over(Table(format="combo3", round=4).buttons("go")).buttons("go")


STATES = {
    "match over": lambda: over(Table(format="combo3", round=4).buttons("go")),
    "next match": _confirm_step,
    "last round": lambda: over(Table(format="combo3", round=8).buttons("yes", "yes", "yes", "go")),
    "combo3 start": lambda: Table(format="combo3", round=1),
    "champion start": lambda: Table(format="championship"),
    "champion": _three_wins_for_a,
}
MEANINGLESS = {
    "match over": ("count", "yes", "no", "next"),
    "next match": ("count", "yes", "no", "next"),
    "last round": ("count", "go", "yes", "no", "next"),
    "combo3 start": ("count", "yes", "no", "next"),
    "champion start": ("count", "yes", "no", "next"),
    "champion": ("count", "go", "yes", "no", "next"),
}


@pytest.mark.parametrize("state", sorted(STATES))
def test_a_button_that_means_nothing_on_a_format_prompt_does_nothing(state: str) -> None:
    table = STATES[state]()
    key, events = table.controller.prompt.key, len(table.events)
    table.buttons(*MEANINGLESS[state])
    assert table.controller.prompt.key == key
    assert table.events[events:] == []


# --- R156: UNDO with answers pending -------------------------------------------------------------


def test_r156_undo_after_a_shout_takes_back_the_shout_not_the_plunge() -> None:
    table = Table(game=1).count().buttons("go").press("A.shout")
    table.at(table.t + 1)
    assert table.prompt == "Team A shouted ThreeOPlunge?"
    table.buttons("undo")
    assert table.prompt == "Ready, Set, GeoPlunge!"
    assert table.actions() == ["plunge"]
    assert table.last("undo")["undone"] == {"shouters": ["A"]}


# --- R157: UNDO cannot take back the clock's time-up -------------------------------------------


def test_r157_undo_at_match_over_does_not_take_back_the_time_up() -> None:
    table = over(Table(format="combo3", round=4).buttons("go")).buttons("undo")
    assert table.controller.session.over
    assert table.prompt == "Match over. Shuffle every deck"
    assert not kinds(table, "undo")


def test_r157_undo_after_the_time_up_takes_back_only_what_came_after_it() -> None:
    table = Table(round=1, on_time_up="finish").buttons("go").count()
    table.at(table.t + 30 * 60)  # time is up during Border-Up, which is played out (R9)
    table.buttons("go").press("A.shout").at(table.t + 1).buttons("no")  # a GeoPlunge shout
    table.buttons("undo")
    assert table.last("undo")["what"] == "border_up.shout"
    table.buttons("undo")
    assert table.controller.log[-1].kind == "match.time_up"
    assert table.last("undo")["what"] == "border_up.shout"  # the second UNDO took nothing


# --- R1175: a table moved to another event of the day between rounds --------------------------


def followed(
    table: Table, round_number: int, event: str, a: str = "Owls", b: str = "Hawks"
) -> Table:
    """The hub's pairing for this table in ``event``'s round (a table following a day's event)."""
    table.t += 1.0
    table.virtual.pair(PairedMatch(round_number, a, b, follows=event), table.t)
    return table


def test_r1175_a_table_moved_to_an_event_behind_it_offers_that_events_round() -> None:
    table = followed(Table(round=3), 3, "junior", "Rivers", "Borders")
    table = followed(over(table.buttons("go")), 2, "senior").buttons("go")
    assert table.prompt == "Next: R2 Call\nOwls v Hawks"


def test_r1175_go_starts_the_moved_tables_round_of_its_new_event() -> None:
    table = followed(Table(round=3), 3, "junior", "Rivers", "Borders")
    table = followed(over(table.buttons("go")), 2, "senior").buttons("go", "go")
    (session,) = kinds(table, "session")
    assert (session["action"], session["round"]) == ("match.start", 2)


def test_r1175_a_table_moved_after_its_events_last_round_offers_the_new_events() -> None:
    table = followed(Table(format="combo3", round=8), 8, "junior", "Rivers", "Borders")
    table = over(table.buttons("yes", "yes", "next", "yes", "go"))
    assert table.prompt == "Round 8 was the last round: no next match"
    table = followed(table, 3, "senior").buttons("go")
    assert table.prompt == "Next: R3 morning\nOwls v Hawks"


def test_r1175_a_pairing_of_the_same_event_for_an_earlier_round_is_not_taken() -> None:
    table = followed(Table(round=3), 3, "junior", "Rivers", "Borders")
    table = followed(over(table.buttons("go")), 2, "junior").buttons("go")
    assert table.prompt == "Next: round 4 Call match"


def test_r1175_the_event_followed_is_journaled_and_a_restart_offers_the_same_round(
    tmp_path: Path,
) -> None:
    def table() -> VirtualTable:
        return VirtualTable(table_settings(round=3), lambda event: None, journal=journal)

    def press(live: VirtualTable, t: float) -> None:
        live.drive("console.go", True, t)
        live.drive("console.go", False, t + 0.1)

    journal = Journal.open(tmp_path / "journal.db")
    live = table()
    live.pair(PairedMatch(3, "Rivers", "Borders", follows="junior"), 0.5)
    press(live, 1.0)  # the clock and game 1
    live.advance(7200.0)  # time up: the match is over
    press(live, 7201.0)  # GO: next match
    live.pair(PairedMatch(2, "Owls", "Hawks", follows="senior"), 7202.0)
    shown = live.controller.prompt.text
    live.close()
    journal.close()
    journal = Journal.open(tmp_path / "journal.db")
    rebuilt = table()
    assert rebuilt.controller.prompt.text == shown == "Next: R2 Call\nOwls v Hawks"
    rebuilt.close()
