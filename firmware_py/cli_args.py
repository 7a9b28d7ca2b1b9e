"""What every command's parser shares: argument types and the one error line."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

# An error line echoes what it refuses; a value longer than this (a path on the Pi is shorter)
# is cut to its first KEPT characters, and a line to MAX_LINE.
MAX_ECHOED = 100
KEPT = 60
MAX_LINE = 1000
_CLOSING = ":;,.'\")]}"
_LONG_WORD = re.compile(rf"\S{{{MAX_ECHOED + 1},}}")


def file_path(text: str) -> Path:
    """A path argument; an empty one is refused (``Path("")`` would quietly mean ".")."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a file path, got {text!r}")
    if not text.isprintable():
        raise argparse.ArgumentTypeError(
            f"expected a file path without control characters, got {text!r}"
        )
    return Path(text)


# A whole number on the command line (a round, a table, points, a level, a seed, a port) has at
# most this many digits: int() reads "1_000", " 3" and "٣" as numbers and 5,000 digits not at
# all, and SQLite holds none past 19 digits (R941).
MAX_DIGITS = 9


def number_error(text: str) -> str | None:
    """What is wrong with ``text`` as a whole number, in words, or None when it is one: ASCII
    digits, a leading minus allowed, at most MAX_DIGITS of them."""
    digits = text.removeprefix("-")
    if digits.isascii() and digits.isdecimal() and len(digits) <= MAX_DIGITS:
        return None
    if digits.isascii() and digits.isdecimal():
        return f"expected a whole number of at most {MAX_DIGITS} digits, got {len(digits)} digits"
    return f"expected a whole number like 3 (digits 0-9 only), got {text!r}"


def whole_number(text: str) -> int:
    """An option's whole number (``type=whole_number``), or argparse's one error line naming
    the option and what it expected."""
    error = number_error(text)
    if error is not None:
        raise argparse.ArgumentTypeError(error)
    return int(text)


def printable(message: str) -> str:
    """The message with control and format characters escaped, so that it stays one line and a
    path or a name typed with an escape sequence cannot repaint the terminal."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in message
    )


def shortened(message: str) -> str:
    """The message with every echoed value (a run without spaces: a number, a name, a path) of
    more than MAX_ECHOED characters cut to its start and its length, and the whole line kept
    to MAX_LINE by leaving out its middle: what is wrong and what was expected (the line's
    start and end) stay readable, however long the value given (R703)."""
    message = _LONG_WORD.sub(_cut, message)
    if len(message) <= MAX_LINE:
        return message
    left_out = len(message) - MAX_LINE
    head, tail = message[: MAX_LINE // 2], message[-MAX_LINE // 2 :]
    return f"{head}...({left_out} characters left out)...{tail}"


def _cut(word: re.Match[str]) -> str:
    value = word[0].rstrip(_CLOSING)  # the colon or quote after a value stays
    if len(value) <= MAX_ECHOED:
        return word[0]
    return f"{value[:KEPT]}...({len(value)} characters){word[0][len(value) :]}"


def print_error(message: object) -> None:
    """The one line a command gives when it refuses its input or cannot go on."""
    print(f"gametable: error: {shortened(printable(str(message)))}", file=sys.stderr)
