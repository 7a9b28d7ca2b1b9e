"""Two machines answering to one table number (R1002, R1003): each table's state names the
machine it runs on; the hub's board, hearing two within the window, puts a problem on the
director's queue and gives the hub one line to log, once. A state without the machine (a table
before R1003) is read as before."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from firmware_py.director.hub.page.problems import Hall, Problem, find_problems
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.hub.wire.machines import WINDOW_SECONDS
from firmware_py.table.hub_wire import Machine, WireError, parse_machine
from firmware_py.table.machine import host_name, this_machine
from tests.hub_page_helpers import state

HALL_A = Machine("pi-hall-a", "0a1b2c3d4e5f")
HALL_B = Machine("pi-hall-b", "9f8e7d6c5b4a")
T0 = 1_780_000_000.0
MAC = 0xDCA632010203  # a Raspberry Pi's network address (its multicast bit clear)
NO_ROUND = Hall(None, None, {}, frozenset(), {}, (), {})


def _state(machine: Machine | None, **changes: Any) -> bytes:
    data = json.loads(state(14, **changes))
    if machine is not None:
        data["machine"] = machine.to_json()
    return json.dumps(data).encode()


# --- the wire ------------------------------------------------------------------------------------


def test_a_state_names_its_machine() -> None:
    assert parse_machine({"machine": {"host": "pi-hall-a", "id": "0a1b"}}) == Machine(
        "pi-hall-a", "0a1b"
    )


def test_a_state_without_a_machine_is_read_as_before() -> None:
    assert parse_machine({"table": 14}) is None


@pytest.mark.parametrize(
    "machine",
    [
        "pi-hall-a",
        {"id": "0a1b"},
        {"host": "", "id": ""},
        {"host": "pi hall a", "id": ""},
        {"host": "p" * 65, "id": ""},
        {"host": "pi-hall-a", "id": "0A1B"},
        {"host": "pi-hall-a", "id": "0" * 13},
        {"host": "pi-hall-a", "id": 7},
    ],
    ids=["text", "no-host", "empty", "space", "too-long", "upper-hex", "long-id", "id-number"],
)
def test_a_machine_that_is_not_a_host_name_and_a_digest_is_refused_in_one_line(
    machine: object,
) -> None:
    with pytest.raises(WireError, match=r"^machine: expected a host name of 1 to 64 letters"):
        parse_machine({"machine": machine})


# --- the table: which machine it is ------------------------------------------------------------


def test_a_machine_is_its_host_name_and_a_digest_of_its_id_and_address(tmp_path: Path) -> None:
    machine_id = tmp_path / "machine-id"
    machine_id.write_text("4c4c4544003a3510804ab4c04f4e4d32\n")
    made = this_machine("pi-hall-a", (machine_id,), MAC)
    seed = f"4c4c4544003a3510804ab4c04f4e4d32|{MAC:012x}".encode()
    assert made == Machine("pi-hall-a", hashlib.sha256(seed).hexdigest()[:12])
    assert parse_machine({"machine": made.to_json()}) == made


def test_two_pis_cloned_from_one_card_differ_by_their_address(tmp_path: Path) -> None:
    machine_id = tmp_path / "machine-id"
    machine_id.write_text("4c4c4544003a3510804ab4c04f4e4d32\n")
    one = this_machine("gametable", (machine_id,), MAC)
    other = this_machine("gametable", (machine_id,), MAC + 1)
    assert one.host == other.host and one.id != other.id


def test_an_address_python_made_up_is_not_the_machines(tmp_path: Path) -> None:
    """uuid.getnode() sets the multicast bit on a random number when it finds no address: a
    new one at each start, which would make one machine look like two."""
    made_up = MAC | (1 << 40)
    assert this_machine("pi-7", (tmp_path / "none",), made_up) == Machine("pi-7", "")


def test_a_host_name_is_cleaned_for_the_wire() -> None:
    assert host_name("pi hall/a") == "pi-hall-a"
    assert host_name("  ") == "unnamed"
    assert len(host_name("p" * 200)) == 64


# --- the board and the queue ---------------------------------------------------------------------


def test_two_machines_on_one_number_are_a_problem_in_words() -> None:
    board = LiveBoard()
    board.take_state(14, _state(HALL_A), T0)
    board.take_state(14, _state(HALL_B), T0 + 30)
    (problem,) = [p for p in _problems(board, T0 + 40) if p.kind == "machines"]
    assert problem.what == "Table 14 is answered by two machines, pi-hall-a and pi-hall-b"
    assert problem.todo.startswith("Give one of them another number")
    assert problem.table == 14 and problem.since == T0 + 30


def test_the_hub_is_given_the_line_to_log_once() -> None:
    board = LiveBoard()
    taken = [board.take_state(14, _state(m), T0 + i) for i, m in enumerate([HALL_A, HALL_B] * 3)]
    assert [t.notice for t in taken if t.notice] == [
        "table 14 is answered by two machines, pi-hall-a and pi-hall-b: give one of them "
        "another number"
    ]


def test_one_machine_is_no_problem() -> None:
    board = LiveBoard()
    for second in range(5):
        assert board.take_state(14, _state(HALL_A), T0 + second).notice is None
    assert _problems(board, T0 + 10) == []


def test_states_without_a_machine_are_read_as_before_and_make_no_problem() -> None:
    board = LiveBoard()
    assert board.take_state(14, _state(None), T0).changed
    board.take_state(14, _state(HALL_A), T0 + 1)
    board.take_state(14, _state(None, clock="12:40"), T0 + 2)
    row = board.row(14)
    assert row is not None and row.clock == "12:40" and row.machines == ()


def test_a_machine_not_heard_within_the_window_is_forgotten() -> None:
    board = LiveBoard()
    board.take_state(14, _state(HALL_A), T0)
    board.take_state(14, _state(HALL_B), T0 + WINDOW_SECONDS + 1)
    assert _problems(board, T0 + WINDOW_SECONDS + 2) == []


def test_a_pi_replaced_after_its_table_went_offline_is_no_problem() -> None:
    board = LiveBoard()
    board.take_state(14, _state(HALL_A), T0)
    board.take_status(14, b"offline", T0 + 5)
    board.take_status(14, b"online", T0 + 60)
    assert board.take_state(14, _state(HALL_B), T0 + 61).notice is None
    assert [p.kind for p in _problems(board, T0 + 70)] == []


def test_two_machines_of_one_host_name_are_told_apart_by_their_ids() -> None:
    board = LiveBoard()
    board.take_state(14, _state(Machine("gametable", "0a1b2c3d4e5f")), T0)
    taken = board.take_state(14, _state(Machine("gametable", "9f8e7d6c5b4a")), T0 + 1)
    assert taken.notice == (
        "table 14 is answered by two machines, gametable (id 0a1b2c3d4e5f) and gametable "
        "(id 9f8e7d6c5b4a): give one of them another number"
    )


def test_a_state_with_a_malformed_machine_is_ignored_and_named() -> None:
    board = LiveBoard()
    bad = json.loads(state(14))
    bad["machine"] = {"host": "pi hall"}
    taken = board.take_state(14, json.dumps(bad).encode(), T0)
    assert not taken.changed
    assert taken.complaint is not None and taken.complaint.startswith("machine: expected")


def test_the_row_tells_the_page_which_machines() -> None:
    board = LiveBoard()
    board.take_state(14, _state(HALL_A), T0)
    board.take_state(14, _state(HALL_B), T0 + 1)
    row = board.row(14)
    assert row is not None
    assert row.to_json()["machines"] == ["pi-hall-a", "pi-hall-b"]


def _problems(board: LiveBoard, now: float) -> list[Problem]:
    """The queue of a hall with no round paired yet: the board's problems alone."""
    return find_problems(NO_ROUND, board.rows(), (), now)
