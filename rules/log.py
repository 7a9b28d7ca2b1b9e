"""JSON Lines action logs, for every family: decode with the line of any fault named."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from rules.actions import Action, decode, encode
from rules.errors import InvalidLog, RuleError

Session = TypeVar("Session")
MAX_DIGITS = 18  # no count, score, rank or time in any game needs more


class _NotANumber(ValueError):
    """NaN, Infinity or a number too long: no action takes one."""


def _no_constants(name: str) -> Any:
    raise _NotANumber(f"{name} is not a number any action takes")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _NotANumber(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise _NotANumber(f"a number written with {len(text)} characters")
    return float(text)


def parse_log(lines: Iterable[str]) -> list[Action]:
    """Decode JSON Lines, naming the line of any fault. Blank lines are skipped."""
    actions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(
                line,
                parse_constant=_no_constants,
                parse_int=_bounded_int,
                parse_float=_bounded_float,
            )
        except _NotANumber as error:
            raise InvalidLog(f"line {number}: {error}") from None
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


def replay_actions(
    actions: Iterable[Action],
    start: Callable[[Action], Session],
    apply: Callable[[Session, Action], Session],
    first_line: str,
    *,
    locate: bool = False,
) -> Session:
    """A family's session rebuilt from its actions; ``locate`` names the action the rules
    refuse (``action 3 (plunge): ...``), as a log's reader wants it."""
    iterator = iter(actions)
    first = next(iterator, None)
    if first is None:
        raise InvalidLog(f"the log is empty: expected {first_line} first")
    session = start(first)
    for number, action in enumerate(iterator, start=2):
        try:
            session = apply(session, action)
        except RuleError as error:
            if not locate:
                raise
            raise located(error, f"action {number} ({action.kind})") from None
    return session


def dump_log(actions: Iterable[Action]) -> str:
    return "".join(json.dumps(encode(action)) + "\n" for action in actions)
