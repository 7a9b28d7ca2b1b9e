"""The reference scoreboard's protocol parser and display model (docs/scoreboard.md).

Pure Python that runs unchanged on MicroPython (a Raspberry Pi Pico) and on CPython (the
tests): no imports at all, no clock, no I/O, only builtins MicroPython has (no ``isalnum``, no
``dataclasses``, no ``typing``). The Pico's ``panel.py`` hands it the bytes its UART read and
draws :meth:`Board.rows` on the LED matrix; the tests hand it the bytes gametable's own
scoreboard driver wrote and check what it keeps and shows.

What the board keeps is the last value of each kind, as the protocol asks (a line is sent only
when its value changed):

- ``scores``: ``[(seat, points), ...]`` in the table's order;
- ``clock``: whole seconds left, or None for ``CLOCK --:--`` (and before any clock);
- ``count``: the dealer's count, or None for ``COUNT -``;
- ``message``: the text, "" when cleared.
"""

CAN = 0x18  # a line holding CAN is dropped whole: the table ends a torn line with CAN "\n"
NEWLINE = 0x0A
RETURN = 0x0D
MESSAGE_MAX = 32
# The longest line the table sends is under 50 bytes (six seats' scores); a line this long is
# noise on the wire, and is dropped up to its newline rather than kept growing in the Pico's RAM.
LINE_MAX = 120
KINDS = ("SCORE", "CLOCK", "COUNT", "MSG")

# The panel: three rows of eight 8x8 characters (64 x 24 LEDs, 24 MAX7219 modules; R1090).
WIDTH = 8
SCROLL_GAP = "   "  # between the end of a scrolling row and its start coming round again


class Board:
    """The board's state, fed the serial bytes as they come, in any pieces."""

    def __init__(self) -> None:
        self.scores: list[tuple[str, int]] = []
        self.clock: int | None = None
        self.count: int | None = None
        self.message = ""
        self._pending = bytearray()
        self._overflow = False  # the line being read grew past LINE_MAX: drop it at its newline

    # --- the wire --------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Take bytes off the wire; every line they complete is applied."""
        for byte in data:
            if byte == NEWLINE:
                line, overflow = bytes(self._pending), self._overflow
                self._pending = bytearray()
                self._overflow = False
                if not overflow:
                    self.apply_line(line)
            elif len(self._pending) >= LINE_MAX:
                self._overflow = True
            else:
                self._pending.append(byte)

    def apply_line(self, line: bytes) -> bool:
        """Apply one line (without its newline); False if it was dropped or ignored."""
        if line and line[-1] == RETURN:
            line = line[:-1]  # a hand-typed line from a terminal that sends "\r\n" (R1091)
        for byte in line:
            if byte < 0x20 or byte > 0x7E:
                return False  # CAN ends a torn line; anything else unprintable is noise (R1091)
        text = line.decode()
        parts = text.split(" ", 1)
        kind, rest = parts[0], parts[1] if len(parts) > 1 else ""
        if kind == "SCORE":
            return self._score(rest)
        if kind == "CLOCK":
            return self._clock(rest)
        if kind == "COUNT":
            return self._count(rest)
        if kind == "MSG":
            return self._message(rest)
        return False  # a kind this board does not know: the protocol grew

    def _score(self, rest: str) -> bool:
        scores = []
        for pair in rest.split():
            seat_points = pair.split("=")
            if len(seat_points) != 2:
                return False
            seat, points = seat_points
            if not (seat and _letters_or_digits(seat) and _integer(points)):
                return False
            scores.append((seat, int(points)))
        self.scores = scores
        return True

    def _clock(self, rest: str) -> bool:
        if rest == "--:--":
            self.clock = None
            return True
        minutes_seconds = rest.split(":")
        if len(minutes_seconds) != 2:
            return False
        minutes, seconds = minutes_seconds
        if not (_digits(minutes) and _digits(seconds) and len(seconds) == 2):
            return False
        if int(seconds) >= 60:
            return False
        self.clock = int(minutes) * 60 + int(seconds)
        return True

    def _count(self, rest: str) -> bool:
        if rest == "-":
            self.count = None
            return True
        if not _digits(rest):
            return False
        self.count = int(rest)
        return True

    def _message(self, rest: str) -> bool:
        # the table sends it upper case and cut already; a hand-typed line is shown the same way
        self.message = rest.upper()[:MESSAGE_MAX]
        return True

    # --- what the panel shows --------------------------------------------------------------

    def texts(self) -> tuple[str, str, str]:
        """The three rows' whole text: the scores, the clock and count, the message."""
        scores = " ".join(seat + str(points) for seat, points in self.scores)
        return scores, self.clock_text() + self.count_text(), self.message

    def clock_text(self) -> str:
        """``14:59``, or ``--:--`` when stopped: the form the table sent."""
        if self.clock is None:
            return "--:--"
        minutes, seconds = divmod(self.clock, 60)
        return str(minutes) + ":" + ("0" + str(seconds))[-2:]

    def count_text(self) -> str:
        """The count at the clock row's right end (blank when cleared)."""
        count = "" if self.count is None else str(self.count)
        return " " * max(1, WIDTH - len(self.clock_text()) - len(count)) + count

    def rows(self, tick: int = 0) -> list[str]:
        """The three rows as the panel shows them at scroll step ``tick``: each exactly
        :data:`WIDTH` characters; a longer row scrolls one character per tick."""
        return [window(text, tick) for text in self.texts()]


def window(text: str, tick: int) -> str:
    """``WIDTH`` characters of ``text``: padded if it fits, else scrolling round."""
    if len(text) <= WIDTH:
        return text + " " * (WIDTH - len(text))
    loop = text + SCROLL_GAP
    start = tick % len(loop)
    return (loop + loop)[start : start + WIDTH]


def _digits(text: str) -> bool:
    return bool(text) and all("0" <= c <= "9" for c in text)


def _integer(text: str) -> bool:
    return _digits(text[1:] if text.startswith("-") else text)


def _letters_or_digits(text: str) -> bool:
    return all("0" <= c <= "9" or "A" <= c <= "Z" or "a" <= c <= "z" for c in text)
