"""A Pentathlon game's log: JSON Lines of actions, the first ``pentathlon.start``.

Replaying the log rebuilds the same state, and so the same record. A fault names its line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from rules.actions import Action, encode
from rules.errors import InvalidLog, RuleError
from rules.log import located, parse_log
from rules.pentathlon.monitor import PentathlonGame, apply, start

START_KIND = "pentathlon.start"


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
        raise located(error, "action 1") from None
    for number, action in enumerate(actions[1:], start=2):
        try:
            state = apply(state, action)
        except RuleError as error:
            raise located(error, f"action {number} ({action.kind})") from None
    return state


def dump_log(actions: Iterable[Action]) -> str:
    return "".join(json.dumps(encode(action), ensure_ascii=False) + "\n" for action in actions)
