"""The ``gametable`` command's entry point: nothing is imported before the handling of Ctrl-C
is in place, so a Ctrl-C while the program loads (the families, GPIO, the drivers: the first
part of a table's start) is one line, never a traceback (R904; issue 25, finding 7)."""

from __future__ import annotations

import sys

INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it


def main() -> int:
    try:
        from firmware_py.cli import main as command

        return command()
    except KeyboardInterrupt:
        print("gametable: error: interrupted (Ctrl-C)", file=sys.stderr)
        return INTERRUPTED
