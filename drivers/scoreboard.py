"""The serial LED scoreboard: a line protocol over pyserial's ``serial_for_url``.

The URL may be a device (``/dev/ttyUSB0``, ``/dev/serial0``), a pty path, ``loop://`` or
``socket://host:port``: whatever ``serial.serial_for_url`` opens. 9600 baud, 8N1 by default.

Protocol (see docs/scoreboard.md): ASCII lines, each ending in ``\\n``, one per message; the
board keeps the last value of each kind and ignores kinds it does not know::

    SCORE A=20 B=30     scores, seats in the table's order (any integer)
    CLOCK 14:59         game clock, minutes:seconds, rounded UP to whole seconds
    CLOCK --:--         clock stopped / no clock
    COUNT 3             the dealer's 5-count
    COUNT -             count cleared
    MSG A WINS          a message: upper case, at most 32 characters, printable ASCII
    MSG                 message cleared

The clock is a countdown, so it shows the ceiling: 14:59.2 left shows ``15:00``, and ``0:00``
appears only when time is really up. Minutes are not padded (``0:42``, ``14:59``).

:class:`Scoreboard` sends a line only when its value changed, and :meth:`Scoreboard.resend`
re-sends every current value, for a board that was power-cycled or a port reopened with
:meth:`Scoreboard.reconnect`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import serial  # type: ignore[import-untyped]

__all__ = [
    "MESSAGE_MAX",
    "Scoreboard",
    "ScoreboardError",
    "encode_clock",
    "encode_count",
    "encode_message",
    "encode_scores",
]

MESSAGE_MAX = 32
_KINDS = ("SCORE", "CLOCK", "COUNT", "MSG")  # resend order


class ScoreboardError(Exception):
    """The scoreboard cannot be opened or written; ``str()`` is one line naming the URL."""


def encode_scores(scores: Mapping[str, int]) -> bytes:
    """``SCORE A=20 B=30``, seats in the mapping's order."""
    parts = []
    for seat, points in scores.items():
        if not (seat.isascii() and seat.isalnum()):
            raise ValueError(f"scoreboard seat names are letters or digits, got {seat!r}")
        parts.append(f"{seat}={int(points)}")
    return _line("SCORE " + " ".join(parts))


def encode_clock(seconds: float | None) -> bytes:
    """``CLOCK m:ss`` with the seconds left rounded up; None (stopped) is ``CLOCK --:--``."""
    if seconds is None:
        return _line("CLOCK --:--")
    if not math.isfinite(seconds):
        raise ValueError(f"clock seconds must be finite, got {seconds!r}")
    whole = max(0, math.ceil(seconds))
    minutes, secs = divmod(whole, 60)
    return _line(f"CLOCK {minutes}:{secs:02d}")


def encode_count(n: int | None) -> bytes:
    """``COUNT n``; None (no count running) is ``COUNT -``."""
    if n is None:
        return _line("COUNT -")
    if n < 0:
        raise ValueError(f"count must be 0 or more, got {n}")
    return _line(f"COUNT {n}")


def encode_message(text: str) -> bytes:
    """``MSG TEXT``: upper case, non-printable or non-ASCII as "?", cut to 32; "" is ``MSG``."""
    clean = "".join(c if " " <= c <= "~" else "?" for c in text.upper())[:MESSAGE_MAX]
    return _line(f"MSG {clean}" if clean else "MSG")


def _line(text: str) -> bytes:
    return (text + "\n").encode("ascii")


class Scoreboard:
    """One scoreboard on one serial URL. Not thread-safe: call it from one thread."""

    def __init__(self, *, url: str, baudrate: int = 9600, write_timeout: float = 1.0) -> None:
        self._url = url
        self._baudrate = baudrate
        self._write_timeout = write_timeout
        self._current: dict[str, bytes] = {}  # kind -> the line that shows the current value
        self._port: Any = _open(url, baudrate, write_timeout)

    @property
    def url(self) -> str:
        return self._url

    def scores(self, scores: Mapping[str, int]) -> None:
        self._update("SCORE", encode_scores(scores))

    def clock(self, seconds: float | None) -> None:
        self._update("CLOCK", encode_clock(seconds))

    def count(self, n: int | None) -> None:
        self._update("COUNT", encode_count(n))

    def message(self, text: str) -> None:
        self._update("MSG", encode_message(text))

    def resend(self) -> None:
        """Send every current value again, in the order SCORE, CLOCK, COUNT, MSG."""
        lines = [self._current[kind] for kind in _KINDS if kind in self._current]
        if lines:
            self._write(b"".join(lines))

    def reconnect(self) -> None:
        """Close and reopen the URL (a replugged USB adapter), then resend the current state."""
        self._port.close()
        self._port = _open(self._url, self._baudrate, self._write_timeout)
        self.resend()

    def close(self) -> None:
        self._port.close()

    def _update(self, kind: str, line: bytes) -> None:
        if self._current.get(kind) == line:
            return
        # Kept before writing: after a failed write, reconnect()/resend() sends the new value.
        self._current[kind] = line
        self._write(line)

    def _write(self, data: bytes) -> None:
        try:
            self._port.write(data)
        except (serial.SerialException, OSError) as exc:
            raise ScoreboardError(
                f"scoreboard {self._url}: write failed ({_one_line(exc)})"
            ) from exc


def _open(url: str, baudrate: int, write_timeout: float) -> Any:
    try:
        return serial.serial_for_url(url, baudrate=baudrate, timeout=0, write_timeout=write_timeout)
    except (serial.SerialException, ValueError, OSError) as exc:
        reason = _one_line(exc)
        if isinstance(exc, PermissionError) or "Permission denied" in reason:
            fix = "add the service user to the 'dialout' group"
        else:
            fix = "check scoreboard.url (e.g. /dev/ttyUSB0, loop://, socket://host:port)"
        raise ScoreboardError(f"scoreboard {url} cannot be opened ({reason}): {fix}") from exc


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
