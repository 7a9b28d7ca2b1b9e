"""``gametable sim`` (``make run``): the table in a terminal, on gpiozero's MockFactory pins.

Keys press the console buttons and the seats' buttons and toggle the seats' sensors (the
family says which inputs are levels, and what it calls them); the OLED's real
frames (the images a luma device receives) are drawn pixel for pixel, fitted to the terminal and
redrawn when it is resized, with the team LEDs, the scoreboard line and the key map beneath.
Plain ANSI, so it works over SSH and inside tmux. When the terminal goes away (its window closed,
the tmux session killed, SSH dropped: SIGHUP, or end of input or an I/O error on it) the
simulator stops, as it does on Ctrl-C.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import termios
import threading
import tty
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from PIL import Image

from drivers.inputs import InputSpec
from drivers.mockpins import mock_factory
from drivers.oled import Oled
from drivers.scoreboard import Scoreboard
from drivers.terminal_oled import Fit, TerminalPanel, cells, encode, fit
from firmware_py.table.controller import CONSOLE, Event, TableSettings, TableView, format_clock
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.family import family

# One row of keys per seat: a level (GeoPlunge's stand-up sensor) toggles, a button is pressed
# for a moment. No seat's key is a console key: with four seats, seat D's ``n`` once took NO
# from the console (R771).
SEAT_KEYS = {
    "A": ("a", "s"),
    "B": ("k", "l"),
    "C": ("z", "x"),
    "D": ("v", "b"),
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
    "\n": "next",  # Enter: the terminal's ICRNL (kept in cbreak mode) turns its CR into LF
    " ": "next",
}
SHOUT_HOLD = 0.15  # seconds a shout key holds the buzzer down


def key_map(seats: tuple[str, ...]) -> dict[str, str]:
    keys = {key: f"console.{button}" for key, button in CONSOLE_KEYS.items()}
    for seat in seats:
        stand, shout = SEAT_KEYS[seat]
        keys[stand] = f"{seat}.stand"
        keys[shout] = f"{seat}.shout"
    return keys


def help_line(seats: tuple[str, ...], words: Mapping[str, str] | None = None) -> str:
    said = {"stand": "stand", "shout": "shout", **(words or {})}
    teams = "  ".join(
        f"{s}: {SEAT_KEYS[s][0]}={said['stand']} {SEAT_KEYS[s][1]}={said['shout']}" for s in seats
    )
    return f"c=COUNT g=GO y=YES n=NO u=UNDO enter=NEXT  {teams}  ctrl-c=quit"


def wrap_words(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` characters, broken between the help line's fields."""
    lines: list[str] = []
    for part in text.split("  "):
        if lines and len(lines[-1]) + 2 + len(part) <= width:
            lines[-1] += "  " + part
        else:
            lines.append(part[:width])
    return lines


STATUS_LINES = 3  # the LEDs, the scoreboard and the OLED's text; the key map wraps beneath


def too_small_line(need: tuple[int, int], have: tuple[int, int]) -> str:
    """What a terminal too small for the picture says: the longest wording that fits, each
    shorter one keeping the size needed whole (never "66x2" for "66x24"); "" if none fits."""
    needed = f"{need[0]}x{need[1]}"
    wordings = (
        f"terminal too small for the OLED: need {needed}, have {have[0]}x{have[1]}",
        f"too small: need {needed}, have {have[0]}x{have[1]}",
        f"too small: need {needed}",
        f"need {needed}",
        needed,
    )
    return next((line for line in wordings if len(line) <= have[0]), "")


@dataclass(slots=True)
class TerminalScreen:
    """The OLED's real frame above, the LEDs, scoreboard and keys below, drawn row by row at
    explicit cursor positions, so nothing depends on where the terminal wraps a line. Frames
    come from the OLED's thread, the status from the loop: one lock keeps their writes whole.
    A terminal too small for the picture and the status lines shows one line saying so, and
    nothing else."""

    seats: tuple[str, ...]
    words: Mapping[str, str] = field(default_factory=dict)  # the family's names of the inputs
    lights: Mapping[str, str] = field(default_factory=dict)  # the family's names of the lights
    counts: bool = True  # the family has the dealer's 5-count (the scoreboard's COUNT)
    panel: tuple[int, int] = (128, 64)
    on_gone: Callable[[], None] = lambda: None  # the terminal cannot be written to any more
    size: tuple[int, int] = (80, 24)  # columns, rows
    _frame: Image.Image | None = None
    _status: list[str] = field(default_factory=list)
    _last_view: TableView | None = None  # the status is drawn again from it at a new size
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def status_lines(self, view: TableView) -> list[str]:
        lights = "  ".join(
            f"{seat}:{self.lights.get(light.value, light.value):<8}"
            for seat, light in view.lights.items()
        )
        board = view.scoreboard
        scores = " ".join(f"{seat}={points}" for seat, points in board.scores.items())
        clock = "--:--" if board.clock is None else format_clock(board.clock)
        count = f"  COUNT {board.count or '-'}" if self.counts else ""
        width = self.size[0]
        lines = [
            f"LEDs  {lights}",
            f"board SCORE {scores}  CLOCK {clock}{count}  MSG {board.message[:32]}",
            f"OLED  {view.screen.title} | {view.screen.big} | {' / '.join(view.screen.lines)}",
        ]
        return [line[:width] for line in lines] + self._key_lines(width)

    def _key_lines(self, width: int) -> list[str]:
        return wrap_words(help_line(self.seats, self.words), width)

    def needed(self) -> tuple[int, int]:
        """The smallest terminal that shows everything: the braille picture, and beneath it the
        status lines as they wrap at the picture's width (a wider terminal wraps them into no
        more lines, so this one figure holds for every width)."""
        columns, rows = cells("braille", *self.panel)
        return columns, rows + STATUS_LINES + len(self._key_lines(columns))

    def layout(self) -> Fit | None:
        """The picture's encoding for this terminal, leaving room for the status lines."""
        columns, rows = self.size
        reserved = STATUS_LINES + len(self._key_lines(columns))
        return fit(*self.panel, columns=columns, rows=rows - reserved)

    def frame(self, image: Image.Image) -> None:
        with self._lock:
            self._frame = image.copy()
            self._write(self._picture())

    def view(self, view: TableView) -> None:
        with self._lock:
            self._last_view = view
            self._status = self.status_lines(view)
            self._write(self._status_rows())

    def resize(self, columns: int, rows: int) -> None:
        """A new terminal size (SIGWINCH): the whole screen again, fitted to it."""
        with self._lock:
            self.size = (columns, rows)
            if self._last_view is not None:  # whole again when the terminal grows back
                self._status = self.status_lines(self._last_view)
            self._write("\x1b[2J" + self._picture() + self._status_rows())

    def _picture(self) -> str:
        chosen = self.layout()
        if chosen is None:
            line = too_small_line(self.needed(), self.size)
            return f"\x1b[1;1H\x1b[2K{line}"
        if self._frame is None:
            return ""
        picture = encode(self._frame, chosen.encoding)
        return "".join(f"\x1b[{n};1H\x1b[2K{row}" for n, row in enumerate(picture, start=1))

    def _status_rows(self) -> str:
        chosen = self.layout()
        if chosen is None:  # the one line saying the terminal is too small stands alone
            return ""
        top = chosen.rows + 1
        return "".join(f"\x1b[{top + n};1H\x1b[2K{line}" for n, line in enumerate(self._status))

    def _write(self, text: str) -> None:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError:  # EIO: the terminal hung up
            self.on_gone()


def terminal_size() -> tuple[int, int]:
    """The terminal's size; a terminal that reports none (0x0, a bare pty) is taken as 80x24."""
    size = os.get_terminal_size(sys.stdout.fileno())
    return size.columns or 80, size.lines or 24


def _resumed(stdin: int, terminal: TerminalScreen) -> None:
    """``fg`` after Ctrl-Z: the shell had the terminal back in line mode meanwhile, so the
    simulator's mode and its whole screen are set again."""
    with contextlib.suppress(OSError, termios.error):
        tty.setcbreak(stdin)
    terminal.resize(*terminal_size())


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
            sys.stdout.write("\x1b[999;1H\x1b[0m\x1b[?25h\n")  # the prompt below the screen
            sys.stdout.flush()
        except (OSError, termios.error):
            # The terminal is gone: nothing to restore. Whatever is still buffered for it
            # (and luma's clean-up at exit) goes nowhere instead of failing at exit.
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until the process ends


@contextlib.contextmanager
def quiet_log() -> Iterator[None]:
    """No log lines on the terminal: it is the table's picture, and a line (the unread loop://
    scoreboard's "stalled") would tear it. The picture's scoreboard line shows the board."""
    quiet = logging.NullHandler()
    logger = logging.getLogger("gametable")
    logger.addHandler(quiet)
    try:
        yield
    finally:
        logger.removeHandler(quiet)


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
    plugged = family(settings.family)
    terminal = TerminalScreen(
        settings.seats,
        plugged.words,
        plugged.lights,
        counts=plugged.counts,
        size=terminal_size(),
    )
    oled = Oled(device=TerminalPanel(on_frame=terminal.frame))
    board = Scoreboard(url="loop://")
    events: list[Event] = []
    daemon = TableDaemon(
        settings=settings,
        factory=factory,
        input_specs=sim_specs(settings.seats),
        led_pins=led_pins,
        oled=oled,
        scoreboard=board,
        on_event=events.append,
        on_view=terminal.view,
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
        if name.partition(".")[2] in plugged.levels:
            # a level (a stand-up sensor): each key press stands up or sits down
            pin.drive_high() if pin.state == 0 else pin.drive_low()
        else:
            pin.drive_low()  # pulled up: pressed is low
            loop.call_later(SHOUT_HOLD, pin.drive_high)

    terminal.on_gone = hang_up
    with quiet_log(), raw_terminal():
        loop.add_reader(stdin, on_key)
        loop.add_signal_handler(signal.SIGHUP, hang_up)
        loop.add_signal_handler(signal.SIGQUIT, hang_up)  # Ctrl-\: as Ctrl-C, modes restored
        loop.add_signal_handler(signal.SIGWINCH, lambda: terminal.resize(*terminal_size()))
        loop.add_signal_handler(signal.SIGCONT, lambda: _resumed(stdin, terminal))
        try:
            return await daemon.run()
        finally:
            loop.remove_signal_handler(signal.SIGCONT)
            loop.remove_signal_handler(signal.SIGQUIT)
            loop.remove_signal_handler(signal.SIGWINCH)
            loop.remove_signal_handler(signal.SIGHUP)
            loop.remove_reader(stdin)
