"""JSON Lines action logs, for every family: decode with the line of any fault named."""

from __future__ import annotations

import json
from collections.abc import Iterable

from rules.actions import Action, decode, encode
from rules.errors import InvalidLog, RuleError


def parse_log(lines: Iterable[str]) -> list[Action]:
    """Decode JSON Lines, naming the line of any fault. Blank lines are skipped."""
    actions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise InvalidLog(f"line {number}: not JSON ({error.msg})") from None
        except (ValueError, RecursionError):
            raise InvalidLog(
                f"line {number}: not JSON this table can read (too deep or too long)"
            ) from None
        try:
            actions.append(decode(data))
        except RuleError as error:
            raise located(error, f"line {number}") from None
    return actions


def located(error: RuleError, where: str) -> RuleError:
    """The same typed error, its one line prefixed with where it happened."""
    error.args = (f"{where}: {error}",)
    return error


def dump_log(actions: Iterable[Action]) -> str:
    return "".join(json.dumps(encode(action)) + "\n" for action in actions)
