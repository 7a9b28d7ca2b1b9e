"""A game family's rules as replay sees them: which start actions begin its logs, how a
session starts, takes an action and sums itself up. ``rules/families.py`` lists the families."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.actions import Action


@dataclass(frozen=True, slots=True)
class RulesFamily:
    name: str
    starts: tuple[type[Action], ...]  # the actions that begin one of its logs
    start: Callable[[Action], Any]  # a start action -> the session (RuleError if refused)
    apply: Callable[[Any, Action], Any]  # session, action -> session (RuleError if refused)
    summary: Callable[[Any], dict[str, Any]]  # the session's standing, plain JSON
