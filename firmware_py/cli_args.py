"""What every command's parser shares: argument types and the one error line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def file_path(text: str) -> Path:
    """A path argument; an empty one is refused (``Path("")`` would quietly mean ".")."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected a file path, got {text!r}")
    if not text.isprintable():
        raise argparse.ArgumentTypeError(
            f"expected a file path without control characters, got {text!r}"
        )
    return Path(text)


def printable(message: str) -> str:
    """The message with control and format characters escaped, so that it stays one line and a
    path or a name typed with an escape sequence cannot repaint the terminal."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in message
    )


def print_error(message: object) -> None:
    """The one line a command gives when it refuses its input or cannot go on."""
    print(f"gametable: error: {printable(str(message))}", file=sys.stderr)
