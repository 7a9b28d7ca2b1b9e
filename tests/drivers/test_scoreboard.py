"""The scoreboard line protocol, through pyserial's loop:// and through a real pty."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Iterator

import pytest

from drivers.scoreboard import (
    Scoreboard,
    ScoreboardError,
    encode_clock,
    encode_count,
    encode_message,
    encode_scores,
)

# -- encoders --------------------------------------------------------------------------------


def test_scores_list_the_seats_in_order() -> None:
    assert encode_scores({"B": 30, "A": 20}) == b"SCORE B=30 A=20\n"


def test_a_seat_name_that_would_break_the_line_is_refused() -> None:
    with pytest.raises(ValueError, match="letters or digits"):
        encode_scores({"A B": 1})


def test_clock_shows_minutes_and_seconds() -> None:
    assert encode_clock(899) == b"CLOCK 14:59\n"


def test_clock_rounds_up_so_zero_means_time_is_up() -> None:
    assert encode_clock(899.2) == b"CLOCK 15:00\n"
    assert encode_clock(0.01) == b"CLOCK 0:01\n"
    assert encode_clock(0) == b"CLOCK 0:00\n"


def test_clock_never_goes_below_zero() -> None:
    assert encode_clock(-3.5) == b"CLOCK 0:00\n"


def test_stopped_clock_is_dashes() -> None:
    assert encode_clock(None) == b"CLOCK --:--\n"


def test_count_and_cleared_count() -> None:
    assert encode_count(3) == b"COUNT 3\n"
    assert encode_count(None) == b"COUNT -\n"


def test_message_is_upper_case_ascii_and_at_most_32_characters() -> None:
    assert encode_message("a wins") == b"MSG A WINS\n"
    assert encode_message("caf\u00e9\nok") == b"MSG CAF??OK\n"
    assert encode_message("x" * 40) == b"MSG " + b"X" * 32 + b"\n"


def test_empty_message_clears_it() -> None:
    assert encode_message("") == b"MSG\n"


# -- through loop:// -------------------------------------------------------------------------


@pytest.fixture
def board() -> Iterator[Scoreboard]:
    scoreboard = Scoreboard(url="loop://")
    yield scoreboard
    scoreboard.close()


def sent(board: Scoreboard) -> bytes:
    """What the board received: loop:// hands back what was written, on the same port."""
    port = board._port
    return bytes(port.read(port.in_waiting))


def test_lines_arrive_exactly(board: Scoreboard) -> None:
    board.scores({"A": 20, "B": 30})
    board.clock(899.2)
    board.count(3)
    board.message("A wins")
    assert sent(board) == b"SCORE A=20 B=30\nCLOCK 15:00\nCOUNT 3\nMSG A WINS\n"


def test_an_unchanged_value_is_not_sent_again(board: Scoreboard) -> None:
    board.clock(899.2)
    board.clock(899.9)  # still shows 15:00
    board.scores({"A": 20, "B": 30})
    board.scores({"A": 20, "B": 30})
    assert sent(board) == b"CLOCK 15:00\nSCORE A=20 B=30\n"


def test_a_changed_value_is_sent(board: Scoreboard) -> None:
    board.clock(900)
    board.clock(899)
    assert sent(board) == b"CLOCK 15:00\nCLOCK 14:59\n"


def test_resend_sends_every_current_value_again(board: Scoreboard) -> None:
    board.message("ready")
    board.count(None)
    board.scores({"A": 0, "B": 10})
    board.clock(None)
    sent(board)
    board.resend()
    assert sent(board) == b"SCORE A=0 B=10\nCLOCK --:--\nCOUNT -\nMSG READY\n"


def test_reconnect_reopens_the_port_and_resends(board: Scoreboard) -> None:
    board.scores({"A": 20, "B": 30})
    board.reconnect()  # a new loop:// port: only what was sent after reopening is there
    assert sent(board) == b"SCORE A=20 B=30\n"


# -- through a real pty ----------------------------------------------------------------------


def read_master(fd: int, expected: int, timeout: float = 2.0) -> bytes:
    received = b""
    deadline = time.monotonic() + timeout
    while len(received) < expected and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            received += os.read(fd, 1024)
    return received


def test_lines_arrive_exactly_through_a_pty() -> None:
    master, slave = os.openpty()
    try:
        board = Scoreboard(url=os.ttyname(slave), baudrate=9600)
        try:
            board.scores({"A": 20, "B": 30})
            board.clock(59.5)
            board.clock(59.9)  # unchanged: 1:00 either way
            board.count(5)
            expected = b"SCORE A=20 B=30\nCLOCK 1:00\nCOUNT 5\n"
            assert read_master(master, len(expected)) == expected
        finally:
            board.close()
    finally:
        os.close(slave)
        os.close(master)


# -- opening errors --------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["nosuch://board", "/dev/no-such-scoreboard"])
def test_a_bad_url_fails_with_one_line_naming_it(url: str) -> None:
    with pytest.raises(ScoreboardError) as caught:
        Scoreboard(url=url)
    message = str(caught.value)
    assert message.startswith(f"scoreboard {url} cannot be opened (")
    assert "\n" not in message
