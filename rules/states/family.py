"""STATES's registration with the rules registry (``rules/families.py``)."""

from __future__ import annotations

from rules.family import RulesFamily
from rules.states.actions import StartStates
from rules.states.replay import apply, start, summary

FAMILY = RulesFamily(
    name="states",
    starts=(StartStates,),
    start=start,
    apply=apply,
    summary=summary,
)
