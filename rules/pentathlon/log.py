"""A Pentathlon game's log: JSON Lines of actions, the first ``pentathlon.start``.

Replaying the log rebuilds the same state, and so the same record. A fault names its line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import partial

from rules.actions import Action, encode
from rules.errors import RuleError
from rules.log import located, parse_log, replay_actions
from rules.pentathlon.monitor import PentathlonGame, apply, start
from rules.pentathlon.play import RULINGS

START_KIND = "pentathlon.start"


def replay(actions: Iterable[Action], *, rulings: int = RULINGS) -> PentathlonGame:
    """The game the actions make, under ``rulings`` (a table journal's flow's, R796)."""
    return replay_actions(actions, partial(start, rulings=rulings), apply, START_KIND)


def replay_log(lines: Iterable[str]) -> PentathlonGame:
    """Replay a log, naming the action the rules refuse."""
    return replay_actions(parse_log(lines), _start_located, apply, START_KIND, locate=True)


def _start_located(action: Action) -> PentathlonGame:
    try:
        return start(action)
    except RuleError as error:
        raise located(error, "action 1") from None


def dump_log(actions: Iterable[Action]) -> str:
    return "".join(json.dumps(encode(action), ensure_ascii=False) + "\n" for action in actions)
