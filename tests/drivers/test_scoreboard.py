"""The scoreboard line protocol, through pyserial's loop:// and through a real pty; a port that
nobody reads or that goes away never blocks or stops the table (R740)."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from drivers.scoreboard import (
    CANCEL_LINE,
    Link,
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
    assert board.drain(timeout=5.0)  # the writer thread has handed every value to the port
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
    assert sent(board) == b"CLOCK 15:00\n"
    board.clock(899.9)  # still shows 15:00
    board.scores({"A": 20, "B": 30})
    assert sent(board) == b"SCORE A=20 B=30\n"
    board.scores({"A": 20, "B": 30})
    assert sent(board) == b""


def test_a_changed_value_is_sent(board: Scoreboard) -> None:
    board.clock(900)
    assert sent(board) == b"CLOCK 15:00\n"
    board.clock(899)
    assert sent(board) == b"CLOCK 14:59\n"


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


# -- a port nobody reads, a port that goes away (R740) ------------------------------------------


def fast_board(url: str) -> Scoreboard:
    """A board that gives up on a write after 0.2 s and tries again after 0.05 s."""
    return Scoreboard(url=url, write_timeout=0.2, retry_seconds=(0.05,))


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def fill_until_stalled(board: Scoreboard, limit: int = 20_000) -> int:
    """Send one clock line after another, each taken before the next, until the port stops
    taking them; the number of seconds shown on the way."""
    for seconds in range(limit):
        board.clock(seconds)
        board.drain(timeout=0.5)
        if board.link is Link.STALLED:
            return seconds
    raise AssertionError(f"the port took {limit} lines without stalling")


def test_an_unread_loop_port_neither_blocks_nor_raises() -> None:
    board = fast_board("loop://")  # loop:// holds 4096 bytes, then is full
    try:
        fill_until_stalled(board)
        started = time.monotonic()
        for seconds in range(600):  # ten minutes of clock lines more, at once
            board.clock(seconds)
            board.message(f"line {seconds}")
        assert time.monotonic() - started < 1.0  # never waits for the port (0.2 s a write)
        assert board.link is Link.STALLED and "nothing reads it" in board.problem
    finally:
        board.close()


def read_all(fd: int, quiet: float = 0.3) -> bytes:
    """Everything the pty's other end can read until it has been quiet for ``quiet`` s."""
    received = b""
    while select.select([fd], [], [], quiet)[0]:
        received += os.read(fd, 65536)
    return received


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    yield master, os.ttyname(slave)
    os.close(slave)
    os.close(master)


def test_a_full_buffer_keeps_only_the_newest_values(pty_pair: tuple[int, str]) -> None:
    master, path = pty_pair
    board = fast_board(path)
    try:
        fill_until_stalled(board)
        for n in range(100):  # stale values while nobody reads
            board.message(f"stale {n}")
        board.message("newest")
        received = read_all(master)  # the board reads again: the backlog, then the newest
        assert board.drain(timeout=5.0)
        received += read_all(master)
        assert b"STALE" not in received
        assert received.endswith(b"MSG NEWEST\n") and received.count(b"MSG") == 1
        assert board.link is Link.OK
    finally:
        board.close()


def test_a_line_torn_by_a_full_buffer_is_cancelled(pty_pair: tuple[int, str]) -> None:
    master, path = pty_pair
    board = fast_board(path)
    try:
        fill_until_stalled(board)
        board.message("after")
        received = read_all(master)
        assert board.drain(timeout=5.0)
        received += read_all(master)
        lines = received.split(b"\n")[:-1]
        assert any(CANCEL_LINE[:1] in line for line in lines)
        # every line the board would take as a value is a whole one: the torn one ends in CAN
        valid = {encode_clock(s) for s in range(20_000)} | {encode_message("after")}
        assert all(line + b"\n" in valid for line in lines if CANCEL_LINE[:1] not in line)
    finally:
        board.close()


def test_a_port_that_goes_away_is_reopened_and_sent_everything(tmp_path: Path) -> None:
    link = tmp_path / "scoreboard"
    master, slave = os.openpty()
    link.symlink_to(os.ttyname(slave))
    board = fast_board(str(link))
    try:
        board.scores({"A": 0, "B": 0})
        assert board.drain(timeout=5.0)
        os.close(master)  # the USB adapter is pulled out
        os.close(slave)
        link.unlink()
        board.message("after")
        wait_for(lambda: board.link is Link.LOST)
        assert board.problem  # one line saying why, for the log
        master, slave = os.openpty()  # plugged back in
        link.symlink_to(os.ttyname(slave))
        wait_for(lambda: board.link is Link.OK)
        assert board.drain(timeout=5.0)
        assert read_all(master) == b"SCORE A=0 B=0\nMSG AFTER\n"  # the whole state again
    finally:
        board.close()
        os.close(master)
        os.close(slave)


def test_closing_a_stalled_board_returns_promptly() -> None:
    board = fast_board("loop://")
    fill_until_stalled(board)
    started = time.monotonic()
    board.close()
    assert time.monotonic() - started < 2.0
