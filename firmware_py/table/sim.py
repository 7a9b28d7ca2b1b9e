"""``gametable sim`` (``make run``): the table in a terminal, on gpiozero's MockFactory pins.

Keys press the console buttons and buzzers and toggle the stand-up sensors; the real OLED frames
are drawn by luma.emulator's ``asciiblock`` device, with the team LEDs, the scoreboard line and
a key-map help line beneath. Plain ANSI, so it works over SSH and inside tmux. When the terminal
goes away (its window closed, the tmux session killed, SSH dropped: SIGHUP, or end of input or
an I/O error on it) the simulator stops, as it does on Ctrl-C.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import termios
import tty
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from drivers.inputs import InputSpec
from drivers.mockpins import mock_factory
from drivers.oled import Oled, open_emulator
from drivers.scoreboard import Scoreboard
from firmware_py.table.controller import CONSOLE, Event, TableSettings, TableView, format_clock
from firmware_py.table.daemon import TableDaemon

# One row of keys per seat: stand toggles, shout is pressed for a moment.
SEAT_KEYS = {
    "A": ("a", "s"),
    "B": ("k", "l"),
    "C": ("z", "x"),
    "D": ("n", "m"),
    "E": ("q", "w"),
    "F": ("o", "p"),
}
CONSOLE_KEYS = {
    "c": "count",
    "g": "go",
    "y": "yes",
    "n": "no",
    "u": "undo",
    "\r": "next",
    " ": "next",
}
SHOUT_HOLD = 0.15  # seconds a shout key holds the buzzer down
OLED_ROWS = 16  # terminal rows given to the OLED picture


def key_map(seats: tuple[str, ...]) -> dict[str, str]:
    keys = {key: f"console.{button}" for key, button in CONSOLE_KEYS.items()}
    if "n" in keys and "D" in seats:
        keys.pop("n")
    for seat in seats:
        stand, shout = SEAT_KEYS[seat]
        keys[stand] = f"{seat}.stand"
        keys[shout] = f"{seat}.shout"
    return keys


def help_line(seats: tuple[str, ...]) -> str:
    teams = "  ".join(f"{s}: {SEAT_KEYS[s][0]}=stand {SEAT_KEYS[s][1]}=shout" for s in seats)
    return f"c=COUNT g=GO y=YES n=NO u=UNDO enter=NEXT  {teams}  ctrl-c=quit"


class _FittedAsciiblock:
    """Keeps luma's asciiblock picture to OLED_ROWS rows so the status lines fit below it."""

    def __init__(self, device: Any) -> None:
        self._device = device
        device._terminal_size = lambda: (OLED_ROWS * 2, OLED_ROWS * 4, 0, 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._device, name)


@dataclass(slots=True)
class TerminalView:
    seats: tuple[str, ...]
    board: Scoreboard
    _lines: list[str]
    on_gone: Callable[[], None] = lambda: None  # the terminal cannot be written to any more

    def draw(self, view: TableView) -> None:
        lights = "  ".join(f"{seat}:{light.value:<8}" for seat, light in view.lights.items())
        board = view.scoreboard
        scores = " ".join(f"{seat}={points}" for seat, points in board.scores.items())
        clock = "--:--" if board.clock is None else format_clock(board.clock)
        self._lines[:] = [
            f"LEDs  {lights}",
            f"board SCORE {scores}  CLOCK {clock}  COUNT {board.count or '-'}"
            f"  MSG {board.message[:32]}",
            f"OLED  {view.screen.title} | {view.screen.big} | {' / '.join(view.screen.lines)}",
            help_line(self.seats),
        ]
        out = sys.stdout
        try:
            for offset, line in enumerate(self._lines):
                out.write(f"\x1b[{OLED_ROWS + 2 + offset};1H\x1b[2K{line}")
            out.flush()
        except OSError:  # EIO: the terminal hung up
            self.on_gone()


@contextlib.contextmanager
def raw_terminal() -> Iterator[None]:
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        sys.stdout.write("\x1b[?25l\x1b[2J")
        yield
    finally:
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            sys.stdout.write("\x1b[0m\x1b[?25h\n")
            sys.stdout.flush()
        except (OSError, termios.error):
            # The terminal is gone: nothing to restore. Whatever is still buffered for it
            # (and luma's clean-up at exit) goes nowhere instead of failing at exit.
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until the process ends


def sim_specs(seats: tuple[str, ...]) -> list[InputSpec]:
    names = [f"{seat}.{what}" for seat in seats for what in ("stand", "shout")]
    names += [f"console.{button}" for button in CONSOLE]
    return [InputSpec(name=name, pin=pin) for pin, name in enumerate(names, start=2)]


async def run_sim(settings: TableSettings) -> int:
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise SystemExit("gametable sim needs a terminal; use --headless --script FILE without one")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    factory = mock_factory()
    leds_start = 2 + len(sim_specs(settings.seats))
    led_pins: dict[str, int | str] = {seat: leds_start + i for i, seat in enumerate(settings.seats)}
    oled = Oled(device=_FittedAsciiblock(open_emulator("asciiblock")))
    board = Scoreboard(url="loop://")
    terminal = TerminalView(settings.seats, board, [])
    events: list[Event] = []
    daemon = TableDaemon(
        settings=settings,
        factory=factory,
        input_specs=sim_specs(settings.seats),
        led_pins=led_pins,
        oled=oled,
        scoreboard=board,
        on_event=events.append,
        on_view=terminal.draw,
    )
    keys = key_map(settings.seats)
    loop = asyncio.get_running_loop()
    stdin = sys.stdin.fileno()

    def hang_up() -> None:
        """The terminal went away: stop reading it (a dead terminal is always readable, and
        would spin the loop) and stop the table."""
        loop.remove_reader(stdin)
        daemon.stop()

    def on_key() -> None:
        try:
            data = os.read(stdin, 1)
        except OSError:  # EIO: the terminal hung up
            data = b""
        if not data:
            hang_up()
            return
        char = data.decode(errors="ignore")
        name = keys.get(char)
        if name is None:
            return
        pin = daemon.bank.pin(name)
        if name.endswith(".stand"):
            # a stand-up sensor is a level: each key press stands up or sits down
            pin.drive_high() if pin.state == 0 else pin.drive_low()
        else:
            pin.drive_low()  # pulled up: pressed is low
            loop.call_later(SHOUT_HOLD, pin.drive_high)

    terminal.on_gone = hang_up
    with raw_terminal():
        loop.add_reader(stdin, on_key)
        loop.add_signal_handler(signal.SIGHUP, hang_up)
        try:
            return await daemon.run()
        finally:
            loop.remove_signal_handler(signal.SIGHUP)
            loop.remove_reader(stdin)
