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

import contextlib
import enum
import math
import queue
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

import serial  # type: ignore[import-untyped]

__all__ = [
    "CANCEL_LINE",
    "MESSAGE_MAX",
    "Link",
    "Scoreboard",
    "ScoreboardError",
    "encode_clock",
    "encode_count",
    "encode_message",
    "encode_scores",
]

MESSAGE_MAX = 32
_KINDS = ("SCORE", "CLOCK", "COUNT", "MSG")  # resend order
# CAN ("the data before are in error") ends a line a write left torn: the board drops it whole.
CANCEL_LINE = b"\x18\n"
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)  # between tries of a stalled or lost port


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


class Link(enum.Enum):
    """How the port is taking the lines."""

    OK = "ok"  # every value handed to the port
    STALLED = "stalled"  # open, but nothing reads it (a full buffer): the newest values wait
    LOST = "lost"  # the port failed (the USB adapter pulled out): it is being reopened


class Scoreboard:
    """One scoreboard on one serial URL.

    The methods that set a value (:meth:`scores`, :meth:`clock`, ...) only keep the newest line
    of each kind and wake a writer thread: they never block and never raise, whatever the port
    does, so the scoreboard can never stop the table. The writer hands the changed lines to
    pyserial with a ``write_timeout``. A write that times out or finds the buffer full (a pty or
    ``loop://`` nobody reads, a board holding CTS) leaves its lines waiting, and the next try
    sends only the newest value of each kind: a stale frame is dropped, never queued. A port
    that fails otherwise (a USB adapter pulled out) is closed and reopened with backoff, then
    sent every current value. :attr:`link` and :attr:`problem` say how it is going.

    Only the port is touched by the writer thread; the values are kept under a lock.
    """

    def __init__(
        self,
        *,
        url: str,
        baudrate: int = 9600,
        write_timeout: float = 1.0,
        retry_seconds: Sequence[float] = RETRY_SECONDS,
    ) -> None:
        self._url = url
        self._baudrate = baudrate
        self._write_timeout = write_timeout
        self._retry = tuple(retry_seconds)
        self._port: Any = _open(url, baudrate, write_timeout)  # a bad URL fails here, at start
        self._current: dict[str, bytes] = {}  # kind -> the line that shows the current value
        self._dirty: set[str] = set()  # kinds whose current line the port has not taken
        self._torn = False  # a write stopped part-way: the next one ends that line first
        self._reopen = False
        self._closed = False
        self._busy = False  # the writer holds lines it has taken but not yet written
        self._link = Link.OK
        self._problem = ""
        self._wake = threading.Condition()
        self._writer = threading.Thread(target=self._run, name=f"scoreboard {url}", daemon=True)
        self._writer.start()

    @property
    def url(self) -> str:
        return self._url

    @property
    def link(self) -> Link:
        return self._link

    @property
    def problem(self) -> str:
        """What is wrong with the port, in one line ("" while the link is OK)."""
        return self._problem

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
        with self._wake:
            self._dirty.update(self._current)
            self._wake.notify()

    def reconnect(self) -> None:
        """Close and reopen the URL (a replugged USB adapter), then resend the current state."""
        with self._wake:
            self._reopen = True
            self._wake.notify()

    def drain(self, timeout: float) -> bool:
        """Wait until the port has taken every current value; False if it has not in time."""
        deadline = time.monotonic() + timeout
        with self._wake:
            while self._dirty or self._busy or self._reopen:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(min(left, 0.05))
        return True

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        with contextlib.suppress(Exception):
            self._port.cancel_write()  # a write waiting for room gives up at once
        self._writer.join(self._write_timeout + 1.0)
        with contextlib.suppress(Exception):
            self._port.close()

    def _update(self, kind: str, line: bytes) -> None:
        with self._wake:
            if self._current.get(kind) == line:
                return
            self._current[kind] = line
            self._dirty.add(kind)
            self._wake.notify()

    # --- the writer thread ----------------------------------------------------------------

    def _run(self) -> None:
        failures = 0
        while True:
            with self._wake:
                while not (self._dirty or self._reopen or self._closed):
                    self._wake.wait()
                if self._closed:
                    return
                reopen, self._reopen = self._reopen, False
                kinds = [kind for kind in _KINDS if kind in self._dirty]
                frame = b"".join(self._current[kind] for kind in kinds)
                if self._torn:
                    frame = CANCEL_LINE + frame
                self._dirty.clear()
                self._busy = True
            try:
                if reopen or self._link is Link.LOST:
                    self._reopen_port()
                    with self._wake:  # a new port: every value again, newest first taken
                        self._dirty.update(self._current)
                        self._torn = False
                    self._settle(Link.OK, "")
                    failures = 0
                    continue
                written = self._port.write(frame)
                if isinstance(written, int) and written < len(frame):
                    raise serial.SerialTimeoutException(f"{written} of {len(frame)} bytes taken")
                with self._wake:
                    self._torn = False
                self._settle(Link.OK, "")
                failures = 0
            except (serial.SerialTimeoutException, queue.Full) as exc:
                # nothing reads the port: these lines wait, and only the newest go next time
                with self._wake:
                    self._dirty.update(kinds)
                    self._torn = True
                why = "its buffer is full" if isinstance(exc, queue.Full) else _one_line(exc)
                self._settle(Link.STALLED, f"nothing reads it ({why})")
                failures = self._pause(failures)
            except Exception as exc:  # whatever the port raised: it is gone, reopen it
                with self._wake:
                    self._dirty.update(kinds)
                if self._link is not Link.LOST:
                    with contextlib.suppress(Exception):
                        self._port.close()
                    self._settle(Link.LOST, _one_line(exc))
                failures = self._pause(failures)
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()

    def _reopen_port(self) -> None:
        with contextlib.suppress(Exception):
            self._port.close()
        self._port = _open(self._url, self._baudrate, self._write_timeout)

    def _settle(self, link: Link, problem: str) -> None:
        self._link, self._problem = link, problem

    def _pause(self, failures: int) -> int:
        """Back off before the next try; close() cuts the pause short."""
        delay = self._retry[min(failures, len(self._retry) - 1)]
        with self._wake:
            if not self._closed:
                self._wake.wait_for(lambda: self._closed or self._reopen, delay)
        return failures + 1


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
