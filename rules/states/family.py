"""STATES's registration with the rules registry (``rules/families.py``): a log is a game with
every card known (``states.start``) or a game in table mode (``states.table_start``, R320)."""

from __future__ import annotations

from typing import Any

from rules.actions import Action
from rules.family import RulesFamily
from rules.states import replay, table_replay
from rules.states.actions import StartStates
from rules.states.table_actions import StartTable
from rules.states.table_game import TableGame


def _start(action: Action) -> Any:
    if isinstance(action, StartTable):
        return table_replay.start(action)
    return replay.start(action)


def _apply(session: Any, action: Action) -> Any:
    if isinstance(session, TableGame):
        return table_replay.apply(session, action)
    return replay.apply(session, action)


def _summary(session: Any) -> dict[str, Any]:
    if isinstance(session, TableGame):
        return table_replay.summary(session)
    return replay.summary(session)


FAMILY = RulesFamily(
    name="states",
    starts=(StartStates, StartTable),
    start=_start,
    apply=_apply,
    summary=_summary,
)
