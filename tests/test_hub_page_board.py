"""The live board (firmware_py/director/hub/wire/board.py): every table's latest status and
state, as the director's grid shows them; a bad message changes nothing and is named once."""

from __future__ import annotations

import json

from firmware_py.director.hub.wire.board import MAX_STATE_BYTES, LiveBoard
from tests.hub_page_helpers import state


def test_a_tables_state_is_kept_with_when_it_arrived() -> None:
    board = LiveBoard()
    taken = board.take_state(7, state(7), heard=100.0)
    row = board.row(7)
    assert taken.changed and taken.complaint is None
    assert row is not None
    assert (row.family, row.format, row.round, row.game) == (
        "geoplunge",
        "combo4",
        1,
        "G3 Border-Up",
    )
    assert (row.clock, dict(row.scores), row.heard, row.updates) == (
        "12:41",
        {"A": 20, "B": 10},
        100.0,
        1,
    )


def test_the_latest_state_wins() -> None:
    board = LiveBoard()
    board.take_state(7, state(7), heard=1.0)
    board.take_state(7, state(7, clock="12:40", scores={"A": 30, "B": 10}), heard=2.0)
    row = board.row(7)
    assert row is not None
    assert (row.clock, row.scores["A"], row.updates) == ("12:40", 30, 2)


def test_the_last_will_marks_a_table_offline_and_keeps_its_last_state() -> None:
    board = LiveBoard()
    board.take_status(7, b"online")
    board.take_state(7, state(7), heard=1.0)
    board.take_status(7, b"offline")
    row = board.row(7)
    assert row is not None
    assert row.online is False
    assert row.game == "G3 Border-Up"


def test_a_stuck_buzzer_and_a_failing_journal_are_on_the_row() -> None:
    board = LiveBoard()
    screen = {"title": "G1", "big": "", "lines": [], "footer": "", "alert": "STUCK A.stand"}
    board.take_state(3, state(3, screen=screen, saved=False), heard=1.0)
    row = board.row(3)
    assert row is not None
    assert (row.alert, row.saved) == ("STUCK A.stand", False)


def test_the_format_comes_from_the_sessions_start_action() -> None:
    board = LiveBoard()
    board.take_state(1, state(1, session={"action": "match3.start", "round": 5}), heard=1.0)
    board.take_state(2, state(2, session={"action": "game.start", "game": 2}), heard=1.0)
    first, second = board.row(1), board.row(2)
    assert first is not None and second is not None
    assert (first.format, first.round) == ("combo3", 5)
    assert (second.format, second.round) == ("game.start", None)


def test_rows_come_in_table_order_and_only_the_changed_ones_after_a_version() -> None:
    board = LiveBoard()
    for table in (9, 2, 5):
        board.take_state(table, state(table), heard=1.0)
    seen = board.version
    board.take_state(5, state(5, clock="1:00"), heard=2.0)
    assert [row.table for row in board.rows()] == [2, 5, 9]
    assert [row.table for row in board.changed_since(seen)] == [5]


def test_a_state_that_is_not_json_is_ignored_and_named() -> None:
    board = LiveBoard()
    board.take_state(7, state(7), heard=1.0)
    taken = board.take_state(7, b"\xff not json", heard=2.0)
    assert not taken.changed
    assert taken.complaint == "a state that is not JSON: expected a JSON object"
    row = board.row(7)
    assert row is not None and row.heard == 1.0


def test_an_oversized_state_is_ignored_and_named() -> None:
    huge = state(7, game="x" * 10, padding="y" * MAX_STATE_BYTES)
    taken = LiveBoard().take_state(7, huge, heard=1.0)
    assert not taken.changed
    assert taken.complaint is not None and f"expected at most {MAX_STATE_BYTES}" in taken.complaint


def test_the_same_fault_from_the_same_table_is_named_once() -> None:
    board = LiveBoard()
    first = board.take_state(7, b"[]", heard=1.0)
    again = board.take_state(7, b"[]", heard=2.0)
    other_table = board.take_state(8, b"[]", heard=2.0)
    assert first.complaint is not None
    assert again.complaint is None and not again.changed
    assert other_table.complaint == first.complaint


def test_a_good_message_lets_the_fault_be_named_again() -> None:
    board = LiveBoard()
    board.take_state(7, b"[]", heard=1.0)
    board.take_state(7, state(7), heard=2.0)
    assert board.take_state(7, b"[]", heard=3.0).complaint is not None


def test_fields_of_the_wrong_kind_are_refused_naming_them() -> None:
    board = LiveBoard()
    cases = {
        "scores": state(7, scores={"A": "ten"}),
        "saved, in_game": state(7, saved="yes"),
        "game": state(7, game=["G1"]),
        "session and screen": state(7, session=None),
    }
    for name, payload in cases.items():
        taken = board.take_state(7, payload, heard=1.0)
        assert taken.complaint is not None and name in taken.complaint, name
    assert board.row(7) is None


def test_a_state_beyond_what_a_table_can_show_is_ignored_and_named_once() -> None:
    board = LiveBoard()
    board.take_state(2, state(2), heard=1.0)
    cases = {
        "scores: expected at most 8 seats, each with whole points from -99999 to 99999": state(
            2, scores={"A": 10**3000, "B": 0}
        ),
        "session.round: expected a round from 1 to 99": state(
            2, session={"action": "match.start", "round": 10**30}
        ),
        "clock: expected at most 8 characters, like 12:41": state(2, clock="1" * 40),
    }
    for complaint, payload in cases.items():
        taken = board.take_state(2, payload, heard=2.0)
        assert (taken.changed, taken.complaint) == (False, complaint)
        assert board.take_state(2, payload, heard=3.0).complaint is None  # named once
    row = board.row(2)
    assert row is not None and (row.heard, row.round, dict(row.scores)) == (
        1.0,
        1,
        {"A": 20, "B": 10},
    )


def test_a_status_neither_online_nor_offline_is_ignored() -> None:
    board = LiveBoard()
    board.take_status(7, b"online")
    taken = board.take_status(7, b"sideways")
    row = board.row(7)
    assert taken.complaint == "expected online or offline, got b'sideways'"
    assert row is not None and row.online is True


def test_a_row_is_plain_json() -> None:
    board = LiveBoard()
    board.take_status(4, b"online")
    row = board.row(4)
    assert row is not None
    assert json.loads(json.dumps(row.to_json()))["online"] is True
