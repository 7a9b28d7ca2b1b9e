"""A tiny ``gametable`` with only the tournament commands, as firmware_py/cli.py wires them."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from firmware_py import tournament_cli
from firmware_py.cli import BAD_INPUT, OneLineParser, UsageError

NOW = "2026-05-09T09:00:00+00:00"


def main(argv: Sequence[str], now: str = NOW) -> int:
    parser = OneLineParser(prog="gametable")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    tournament_cli.add_parser(commands)
    try:
        args = parser.parse_args(argv)
    except UsageError as error:
        print(f"gametable: error: {error}", file=sys.stderr)
        return BAD_INPUT
    return tournament_cli.run(args, now=now)
