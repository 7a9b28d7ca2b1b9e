"""`gametable sim` (`make run`) in a real pseudo-terminal, as a person would use it: keys
answered, the picture redrawn, and the simulator gone with its terminal (closed window, killed
tmux session, dropped SSH), the terminal's modes restored when it is still there."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Iterator

import pytest

# Generous bounds for a loaded machine: these check that the simulator ends, not how fast.
START_SECONDS = 20.0
EXIT_SECONDS = 15.0
RAW_MODES = termios.ICANON | termios.ECHO  # what cbreak mode turns off
SIM = ("-m", "firmware_py.cli", "sim")
# Run in a session of its own (start_new_session), this takes the pty on its standard input as
# the session's controlling terminal, then becomes the simulator.
TAKE_TERMINAL = (
    "import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)


class PtySimulator:
    """The simulator on the child side of a pty; the test holds the master (the terminal)."""

    def __init__(self, *, game: int = 1, controlling: bool = False) -> None:
        self.main, child = pty.openpty()
        self.modes_before = termios.tcgetattr(self.main)[3] & RAW_MODES
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
        # with the pty as its controlling terminal the kernel sends it SIGHUP when the
        # terminal hangs up, as a closed terminal window or a killed tmux session does
        wrapper = ("-c", TAKE_TERMINAL) if controlling else ()
        self.process = subprocess.Popen(
            [sys.executable, *wrapper, *SIM, "--game", str(game)],
            stdin=child,
            stdout=child,
            stderr=child,
            env=env,
            close_fds=True,
            start_new_session=controlling,
        )
        os.close(child)
        self.seen = b""
        self.closed = False

    def read_for(self, seconds: float, *, until: bytes | None = None) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until in self.seen):
            ready, _, _ = select.select([self.main], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.main, 65536)
                except OSError:
                    return

    def started(self) -> None:
        self.read_for(START_SECONDS, until=b"c=COUNT")
        assert b"c=COUNT" in self.seen, self.seen[-2000:]  # the key-map help line

    def wait_draining(self, seconds: float) -> int | None:
        """Wait for the exit, draining the terminal (a full pty would block its writes)."""
        end = time.monotonic() + seconds
        while self.process.poll() is None and time.monotonic() < end:
            self.read_for(0.2)
        return self.process.poll()

    def close_terminal(self) -> None:
        os.close(self.main)
        self.closed = True

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if not self.closed:
            os.close(self.main)


@pytest.fixture
def simulator() -> Iterator[PtySimulator]:
    sim = PtySimulator()
    yield sim
    sim.stop()


def test_terminal_simulator_draws_and_answers_keys_in_a_pty(simulator: PtySimulator) -> None:
    simulator.started()
    os.write(simulator.main, b"a")  # Team A stands up
    simulator.read_for(5.0, until=b"A:standing")
    assert b"A:standing" in simulator.seen
    simulator.process.send_signal(signal.SIGINT)  # what ctrl-c sends from the terminal
    assert simulator.wait_draining(EXIT_SECONDS) == 0, simulator.seen[-2000:]
    assert b"Traceback" not in simulator.seen


def test_enter_is_next() -> None:
    sim = PtySimulator(game=2)  # State IQ opens on the draw: Team A or Team B
    try:
        sim.started()
        assert b"| Team A |" in sim.seen
        os.write(sim.main, b"\r")  # what the Enter key sends; the terminal makes it a LF
        sim.read_for(5.0, until=b"| Team B |")
        assert b"| Team B |" in sim.seen
    finally:
        sim.stop()


def test_pressing_every_key_in_the_simulator_never_crashes_it(simulator: PtySimulator) -> None:
    simulator.started()
    for _ in range(3):  # typed fast, in every state these reach
        os.write(simulator.main, b"cgyn\r auaskl")
        simulator.read_for(0.3)
    simulator.read_for(1.0)
    assert simulator.process.poll() is None, simulator.seen[-2000:]
    simulator.process.send_signal(signal.SIGINT)
    assert simulator.wait_draining(EXIT_SECONDS) == 0
    assert b"Traceback" not in simulator.seen


def test_closing_the_terminal_ends_the_simulator(simulator: PtySimulator) -> None:
    simulator.started()
    simulator.close_terminal()  # its input now fails with EIO, its output too
    try:
        code = simulator.process.wait(EXIT_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the simulator still runs {EXIT_SECONDS:g} s after its terminal closed")
    assert code == 0


def test_closing_its_controlling_terminal_ends_the_simulator() -> None:
    sim = PtySimulator(controlling=True)
    try:
        sim.started()
        sim.close_terminal()  # the kernel hangs up: SIGHUP, then EIO
        try:
            code = sim.process.wait(EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the simulator still runs {EXIT_SECONDS:g} s after its terminal closed")
        assert code == 0
    finally:
        sim.stop()


def test_sighup_ends_the_simulator_and_restores_the_terminal(simulator: PtySimulator) -> None:
    simulator.started()
    assert termios.tcgetattr(simulator.main)[3] & RAW_MODES == 0  # cbreak while it runs
    simulator.process.send_signal(signal.SIGHUP)
    assert simulator.wait_draining(EXIT_SECONDS) == 0, simulator.seen[-2000:]
    simulator.read_for(0.5)
    assert termios.tcgetattr(simulator.main)[3] & RAW_MODES == simulator.modes_before
    assert b"\x1b[?25h" in simulator.seen  # the cursor shown again
    assert b"Traceback" not in simulator.seen


def test_ctrl_backslash_ends_the_simulator_and_restores_the_terminal(
    simulator: PtySimulator,
) -> None:
    simulator.started()
    simulator.process.send_signal(signal.SIGQUIT)  # what Ctrl-\ sends from the terminal
    assert simulator.wait_draining(EXIT_SECONDS) == 0, simulator.seen[-2000:]
    simulator.read_for(0.5)
    assert termios.tcgetattr(simulator.main)[3] & RAW_MODES == simulator.modes_before
    assert b"Traceback" not in simulator.seen


def test_fg_after_ctrl_z_sets_the_terminal_again_and_redraws(simulator: PtySimulator) -> None:
    simulator.started()
    cooked = termios.tcgetattr(simulator.main)
    cooked[3] |= RAW_MODES  # what the shell leaves while the job is stopped
    termios.tcsetattr(simulator.main, termios.TCSANOW, cooked)
    simulator.seen = b""
    simulator.process.send_signal(signal.SIGCONT)  # fg
    simulator.read_for(5.0, until=b"c=COUNT")
    assert termios.tcgetattr(simulator.main)[3] & RAW_MODES == 0  # cbreak again
    assert b"\x1b[2J" in simulator.seen and b"c=COUNT" in simulator.seen  # the whole screen
