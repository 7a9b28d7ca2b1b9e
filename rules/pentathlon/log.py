"""A Pentathlon game's log: JSON Lines of actions, the first ``pentathlon.start``.

Replaying the log rebuilds the same state, and so the same record. A fault names its line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from rules.actions import Action, decode, encode
from rules.errors import InvalidLog, RuleError
from rules.pentathlon.monitor import PentathlonGame, apply, start

START_KIND = "pentathlon.start"


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
            raise InvalidLog(f"line {number}: not JSON this table can read") from None
        try:
            actions.append(decode(data))
        except RuleError as error:
            raise _located(error, f"line {number}") from None
    return actions


def _located(error: RuleError, where: str) -> RuleError:
    error.args = (f"{where}: {error}",)
    return error


def replay(actions: Iterable[Action]) -> PentathlonGame:
    iterator = iter(actions)
    first = next(iterator, None)
    if first is None:
        raise InvalidLog(f"the log is empty: expected {START_KIND} first")
    state = start(first)
    for action in iterator:
        state = apply(state, action)
    return state


def replay_log(lines: Iterable[str]) -> PentathlonGame:
    """Replay a log, naming the action the rules refuse."""
    actions = parse_log(lines)
    if not actions:
        raise InvalidLog(f"the log is empty: expected {START_KIND} first")
    try:
        state = start(actions[0])
    except RuleError as error:
        raise _located(error, "action 1") from None
    for number, action in enumerate(actions[1:], start=2):
        try:
            state = apply(state, action)
        except RuleError as error:
            raise _located(error, f"action {number} ({action.kind})") from None
    return state


def dump_log(actions: Iterable[Action]) -> str:
    return "".join(json.dumps(encode(action), ensure_ascii=False) + "\n" for action in actions)
