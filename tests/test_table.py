"""The table controller driven through MockFactory pins on virtual time: the dealer's flow
for each game with six buttons, the count, shouts, LEDs, the OLED screen and UNDO."""

from __future__ import annotations

from typing import Any

import pytest

from drivers.leds import SeatLight
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.headless import VirtualTable
from tests.screens import assert_fits_the_oled


class Table:
    def __init__(self, **settings: Any) -> None:
        self.events: list[dict[str, Any]] = []
        self.virtual = VirtualTable(table_settings(**settings), self.events.append)
        self.t = 0.0
        self.controller = self.virtual.controller

    def at(self, t: float) -> Table:
        self.t = t
        self.controller.advance(t)
        assert_fits_the_oled(self.controller)
        return self

    def press(self, name: str, *, hold: float = 0.1) -> Table:
        self.t += 1.0
        self.controller.advance(self.t)
        self.virtual.drive(name, True, self.t)
        self.controller.advance(self.t + hold)
        self.virtual.drive(name, False, self.t + hold)
        assert_fits_the_oled(self.controller)
        return self

    def buttons(self, *names: str) -> Table:
        for name in names:
            self.press(f"console.{name}")
        return self

    def set(self, name: str, active: bool) -> Table:
        self.t += 0.5
        self.controller.advance(self.t)
        self.virtual.drive(name, active, self.t)
        return self

    def count(self) -> Table:
        self.buttons("count")
        return self.at(self.t + 5.0)

    def actions(self) -> list[str]:
        return [e["action"] for e in self.events if e["event"] == "action"]

    def last(self, kind: str) -> dict[str, Any]:
        return [e for e in self.events if e["event"] == kind][-1]

    @property
    def prompt(self) -> str:
        return self.controller.prompt.text


# --- the count and plunges -----------------------------------------------------------------


def test_count_ticks_at_absolute_deadlines_from_the_press() -> None:
    table = Table(game=1, count_cadence=0.75).buttons("count").at(20.0)
    ticks = [e["t"] for e in table.events if e["event"] == "count"]
    start = ticks[0]
    assert ticks == [start + n * 0.75 for n in range(5)]


def test_count_shows_on_the_oled_as_a_big_number() -> None:
    table = Table(game=1).buttons("count").at(2.5)
    assert table.controller.view().screen.big == "2"


def test_both_standing_at_5_is_both_plunging() -> None:
    table = Table(game=1).set("A.stand", True).set("B.stand", True).count()
    assert table.last("plunge")["plunging"] == ["A", "B"]


def test_standing_up_after_5_is_too_late() -> None:
    table = Table(game=1).buttons("count").at(6.2).set("A.stand", True).at(12.0)
    assert table.last("plunge")["plunging"] == []


def test_plunging_team_led_is_lit_for_the_game() -> None:
    table = Table(game=1).set("A.stand", True).count().set("A.stand", False)
    assert table.controller.view().lights == {"A": SeatLight.PLUNGING, "B": SeatLight.OFF}


def test_standing_shows_on_the_team_led_before_the_count() -> None:
    table = Table(game=1).set("B.stand", True)
    assert table.controller.view().lights["B"] is SeatLight.STANDING


def test_undo_during_the_count_stops_it() -> None:
    table = Table(game=1).buttons("count", "undo").at(10.0)
    assert not [e for e in table.events if e["event"] == "plunge"]
    assert table.controller.prompt.key == "bu/plunge"


# --- shouts -----------------------------------------------------------------------------------


def _race(table: Table) -> Table:
    return table.count().buttons("go")


def test_callbacks_in_the_opposite_order_of_their_edges() -> None:
    table = _race(Table(game=1))
    controller = table.controller
    t = table.t + 5.0
    # B's edge is later but its callback is delivered first
    controller.on_edge("B.shout", t + 0.030, True, now=t + 0.031)
    controller.on_edge("A.shout", t + 0.010, True, now=t + 0.032)
    table.at(t + 1.0)
    shout = table.last("shout")
    assert (shout["first"], shout["margin_ms"]) == ("A", 20.0)


def test_a_bounce_storm_is_one_press() -> None:
    table = _race(Table(game=1))
    base = table.t + 1.0
    for i in range(12):  # chatter every 1 ms
        table.virtual.drive("A.shout", i % 2 == 0, base + i * 0.001)
    table.at(base + 1.0)
    presses = [e for e in table.events if e["event"] == "press"]
    assert [p["ticks"] for p in presses] == [round(base, 6)]


def test_shout_winner_led_won_and_other_locked_until_the_dealer_answers() -> None:
    table = _race(Table(game=1)).press("B.shout")
    table.at(table.t + 1.0)
    assert table.controller.view().lights == {"A": SeatLight.LOCKED, "B": SeatLight.WON}
    table.buttons("no")
    assert table.controller.view().lights == {"A": SeatLight.OFF, "B": SeatLight.OFF}


def test_a_shout_before_go_does_not_count() -> None:
    table = Table(game=1).count().press("A.shout").at(40.0)
    assert not [e for e in table.events if e["event"] == "shout"]


def test_a_stuck_buzzer_is_shown_on_the_oled() -> None:
    table = Table(game=1).count().set("A.shout", True).buttons("go")
    assert table.controller.view().screen.alert == "STUCK A.shout"
    table.set("A.shout", False)
    assert table.controller.view().screen.alert is None


# --- each game's flow -------------------------------------------------------------------------


def test_border_up_threeoplunge_valid_wins_with_bonus() -> None:
    table = _race(Table(game=1)).press("A.shout").at(40.0).buttons("yes", "yes")
    result = table.last("game_result")
    assert (result["winner"], result["bonus"], result["points"]) == ("A", True, {"A": 20, "B": 0})


def test_state_iq_flow_draw_count_clue_order_and_guesses() -> None:
    table = Table(game=2).buttons("next", "yes")  # the draw: Team B's card
    table.count().buttons("next", "next", "yes")  # letters: ABC, ACB, BAC
    assert table.last("action") == {
        "t": table.t, "event": "action", "action": "state_iq.power", "clue_order": "BAC"
    }  # fmt: skip
    assert table.prompt == "B guess 1, clue B: right?"
    table.buttons("yes")
    assert table.prompt.startswith("Deal A a card.")
    table.buttons("yes", "yes", "no")  # B 3 of 3; A misses: cannot catch up
    result = table.last("game_result")
    assert (result["winner"], result["bonus"]) == ("B", True)


def test_dashing_states_race_3_asks_for_the_power_card_category() -> None:
    table = Table(game=3).count()
    table.buttons("go").press("A.shout").at(table.t + 1).buttons("yes")  # race 1: A
    table.buttons("go").press("B.shout").at(table.t + 1).buttons("yes")  # race 2: B
    assert table.prompt == "Race 3: Power card category"
    table.buttons("next", "yes")  # statehood
    assert table.prompt == "Race 3: statehood ranking, 1 first"
    table.buttons("go").press("A.shout").at(table.t + 1).buttons("yes")
    result = table.last("game_result")
    assert (result["winner"], result["bonus"]) == ("A", False)


def test_chummy_a_shout_during_the_reading_stops_it() -> None:
    table = Table(game=5).count().buttons("yes", "yes")  # seated, red question: reading
    table.press("B.shout").at(table.t + 1)
    assert "chummy.shout" in table.actions()
    assert "chummy.read" not in table.actions()
    assert table.prompt == "Team B answered right?"


def test_chummy_15_seconds_count_down_on_the_oled() -> None:
    table = Table(game=5).count().buttons("yes", "yes", "go")
    table.at(table.t + 5.5)
    assert table.controller.view().screen.big == "10"


def test_game4_ptr1_set_up_and_dealer_judged_tricks() -> None:
    table = Table(game=4).buttons("yes")  # version PTR1
    table.buttons("yes")  # draw: Team A leads
    table.buttons("yes", "next", "yes", "next", "next", "yes")  # Power cards 1, 20, 50
    table.buttons("yes")  # A: Cards, so B is the Call team
    table.buttons("next", "yes")  # B keeps 1 then 50
    assert table.last("action")["bases"] == [1, 50]
    table.buttons("yes", "no", "no")  # 2 BUR cards dealt; nobody pulls
    table.count().buttons("yes")  # nobody plunges; GeoStar: state name
    for trick in range(1, 7):  # A plays its Power cards on the first two tricks and wins six
        plays = ("next", "yes") if trick <= 2 else ("yes",)
        table.buttons(*plays, "yes")
    result = table.last("game_result")
    assert (result["winner"], result["bonus"]) == ("A", True)


def test_game4_power_card_choices_stop_when_a_team_has_none_left() -> None:
    table = Table(game=4).buttons("yes", "yes", "yes", "next", "yes", "next", "next", "yes")
    table.buttons("yes", "next", "yes", "yes", "no", "no").count().buttons("yes")
    table.buttons("next", "yes", "yes")  # trick 1: lead A's Power card, A wins
    table.buttons("next", "yes", "yes")  # trick 2: A's second
    labels = [option.label for option in table.controller.prompt.options]
    assert labels == ["no Power card", "other's"]


def test_game4_border_zap_tricks_by_yes_and_no() -> None:
    table = Table(game=4).buttons("next", "next", "yes", "yes").count()  # PTB, A leads
    table.buttons("yes", "yes", "yes", "no", "yes", "yes")  # A, A, A; B zaps; B, B
    result = table.last("game_result")
    assert (result["winner"], result["reason"]) == ("B", "3 tricks each: team B won the last trick")


def test_call_match_takes_both_teams_secret_picks() -> None:
    table = Table(round=2).buttons("next", "yes")  # A: games 1 + 3
    table.buttons("next", "next", "next", "next", "yes")  # B: games 2 + 3
    assert table.last("action") == {
        "t": table.t, "event": "action", "action": "match.picks", "a": [1, 3], "b": [2, 3]
    }  # fmt: skip
    assert table.prompt == "Round 2 Call match, games 1-2-3"


def test_go_starts_the_match_clock_and_game_1() -> None:
    table = Table().buttons("go")
    assert table.last("clock")["minutes"] == 20
    assert table.controller.view().screen.title == "G1 BORDER-UP 20:00"


def test_match_clock_runs_out_and_the_match_ends() -> None:
    table = Table(minutes=1).buttons("go").at(70.0)
    assert table.last("timeout")["timer"] == "match"
    assert table.last("match_result")["winner"] is None


def test_undo_takes_back_the_last_decision() -> None:
    table = Table(game=2).buttons("yes").count()
    assert table.controller.prompt.key == "iq/power"
    table.buttons("undo")
    assert table.last("undo")["what"] == "plunge"
    assert table.controller.prompt.key == "iq/plunge"


def test_scoreboard_view_carries_scores_clock_and_count() -> None:
    table = Table().buttons("go", "count")
    board = table.controller.view().scoreboard
    assert (dict(board.scores), board.count) == ({"A": 0, "B": 0}, 1)
    assert board.clock == pytest.approx(20 * 60 - 1.1)


def test_mock_pin_edges_whose_callbacks_arrive_in_the_opposite_order() -> None:
    """Through TimedMockPin: B's callback fires first with the later edge time."""
    table = _race(Table(game=1))
    t = table.t + 5.0
    table.virtual.drive("B.shout", True, t + 0.032)
    table.virtual.drive("A.shout", True, t + 0.002)
    table.at(t + 1.0)
    shout = table.last("shout")
    assert (shout["first"], shout["result"], shout["margin_ms"]) == ("A", "A", 30.0)
    presses = [e["input"] for e in table.events if e["event"] == "press"]
    assert presses == ["B.shout", "A.shout"]  # delivered B first


def test_the_shout_margin_is_shown_until_the_dealer_answers() -> None:
    table = _race(Table(game=1))
    t = table.t + 5.0
    table.virtual.drive("B.shout", True, t)
    table.virtual.drive("A.shout", True, t + 0.018)
    table.at(t + 1.0)
    assert table.controller.view().screen.big == "B +18ms"
    table.buttons("no")
    assert table.controller.view().screen.big != "B +18ms"


def test_a_tied_shout_shows_its_margin() -> None:
    table = _race(Table(game=1))
    t = table.t + 5.0
    table.virtual.drive("A.shout", True, t)
    table.virtual.drive("B.shout", True, t + 0.0042)
    table.at(t + 1.0)
    assert table.controller.view().screen.big == "TIE 4.2ms"


def test_the_winners_light_comes_on_when_the_last_team_presses_not_after_the_wait() -> None:
    table = _race(Table(game=1))
    t = table.t + 5.0
    table.virtual.drive("B.shout", True, t)
    table.virtual.drive("A.shout", True, t + 0.020)
    assert table.last("shout")["t"] == pytest.approx(t + 0.020)
    assert table.controller.view().lights["B"] is SeatLight.WON


# --- buttons that mean nothing now do nothing ------------------------------------------------


def _game_1_won_by_a(table: Table) -> Table:
    table.count().buttons("go").press("A.shout")
    return table.at(table.t + 1.0).buttons("no", "yes")  # no ThreeOPlunge; groups valid


def _match_start() -> Table:
    return Table()


def _between_games() -> Table:
    return _game_1_won_by_a(Table().buttons("go"))


def _match_over() -> Table:
    return Table(minutes=1).buttons("go").at(70.0)


def _game_over() -> Table:
    return _game_1_won_by_a(Table(game=1))


def _next_match() -> Table:
    return _match_over().buttons("go")


def _championship_start() -> Table:
    return Table(format="championship")


SCREENS = {
    "match/start": _match_start,
    "match/between/1": _between_games,
    "match/over": _match_over,
    "match/next": _next_match,
    "game/over": _game_over,
    "champ/start": _championship_start,
}
MEANINGLESS = {
    "match/start": ("yes", "no", "next", "count"),
    "match/between/1": ("yes", "no", "go", "count"),
    "match/over": ("yes", "no", "next", "count"),
    "match/next": ("yes", "no", "next", "count"),
    "game/over": ("yes", "no", "next", "go", "count"),
    "champ/start": ("yes", "no", "next", "count"),
}


@pytest.mark.parametrize(
    ("key", "button"), [(key, button) for key, buttons in MEANINGLESS.items() for button in buttons]
)
def test_a_button_that_means_nothing_on_a_screen_without_options_does_nothing(
    key: str, button: str
) -> None:
    table = SCREENS[key]()
    assert table.controller.prompt.key == key
    events, log = list(table.events), list(table.controller.log)
    table.buttons(button)
    assert table.events == events
    assert table.controller.log == log
    assert table.controller.prompt.key == key


def test_the_screens_without_options_say_what_the_buttons_do() -> None:
    hints = {key: make().controller.view().screen.footer for key, make in SCREENS.items()}
    assert hints == {
        "match/start": "GO: clock + game 1",
        "match/between/1": "NEXT: next game",
        "match/over": "GO: next match",
        "match/next": "GO: start  UNDO: back",
        "game/over": "UNDO: take back",
        "champ/start": "GO: start game 1",
    }


def test_next_between_games_starts_the_next_game() -> None:
    table = _between_games().buttons("next")
    assert table.last("action")["action"] == "match.next_game"
    assert table.controller.prompt.key == "iq/draw"


def test_a_second_go_in_a_race_keeps_the_shout_it_holds() -> None:
    table = _race(Table(game=1))
    t = table.t + 1.0
    table.virtual.drive("B.shout", True, t)
    table.controller.on_edge("console.go", t + 0.010, True, now=t + 0.010)
    table.at(t + 1.0)
    assert table.last("shout")["first"] == "B"
    assert not [e for e in table.events if e["event"] == "stuck"]


def test_the_option_on_show_is_an_event_so_a_journal_keeps_it() -> None:
    table = Table(game=2).buttons("next")
    assert table.last("option") == {
        "t": table.t, "event": "option", "key": "iq/draw", "shown": "Team B"
    }  # fmt: skip


def test_a_timer_held_after_a_restart_takes_only_yes_or_no() -> None:
    table = Table(game=5).count().buttons("yes", "yes", "go")  # the 15 s running
    stopped = table.t
    table.t += 60.0
    table.controller.resume(table.t, stopped_at=stopped, elapsed_known=True)
    assert table.controller.prompt.key == "recover/chummy"
    events, log = list(table.events), list(table.controller.log)
    table.buttons("undo", "count", "go", "next")
    assert (table.events, table.controller.log) == (events, log)
    assert table.controller.view().screen.footer == "YES: over NO: restart"
    table.buttons("yes")
    assert table.last("action")["action"] == "chummy.timeout"
