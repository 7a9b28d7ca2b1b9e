"""Every game family's rules, one registration line each: a log's first action names its
family, so ``gametable replay`` reads any family's log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.actions import Action
from rules.errors import InvalidLog, RuleError
from rules.family import RulesFamily
from rules.geoplunge.family import FAMILY as GEOPLUNGE
from rules.guesstimation.family import FAMILY as GUESSTIMATION
from rules.log import parse_log
from rules.pentathlon.family import FAMILY as PENTATHLON
from rules.states.family import FAMILY as STATES

FAMILIES: tuple[RulesFamily, ...] = (GEOPLUNGE, GUESSTIMATION, PENTATHLON, STATES)


def first_lines() -> str:
    kinds = [cls.kind for family in FAMILIES for cls in family.starts]
    return ", ".join(kinds[:-1]) + f" or {kinds[-1]}" if len(kinds) > 1 else kinds[0]


def family_for(first: Action) -> RulesFamily:
    for family in FAMILIES:
        if isinstance(first, family.starts):
            return family
    raise InvalidLog(f"a log starts with {first_lines()}, not {first.kind!r}")


def replay(actions: Iterable[Action]) -> tuple[RulesFamily, Any]:
    """Any family's log: its family and the session it rebuilds."""
    iterator = iter(actions)
    first = next(iterator, None)
    if first is None:
        raise InvalidLog(f"the log is empty: expected {first_lines()} first")
    family = family_for(first)
    session = family.start(first)
    for number, action in enumerate(iterator, start=2):
        if isinstance(action, tuple(cls for f in FAMILIES for cls in f.starts)):
            raise InvalidLog(f"action {number} ({action.kind}): {action.kind!r} only starts a log")
        try:
            session = family.apply(session, action)
        except RuleError as error:
            error.args = (f"action {number} ({action.kind}): {error}",)
            raise
    return family, session


def replay_log(lines: Iterable[str]) -> tuple[RulesFamily, Any]:
    """A JSON Lines log of any family, naming the line of any fault."""
    return replay(parse_log(lines))


def summary(lines: Iterable[str]) -> dict[str, Any]:
    """What ``gametable replay`` prints: the family and its session's standing."""
    family, session = replay_log(lines)
    return {"family": family.name, **family.summary(session)}
