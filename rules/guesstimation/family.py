"""Guesstimation's registration with the rules registry (``rules/families.py``)."""

from __future__ import annotations

from rules.family import RulesFamily
from rules.guesstimation.actions import StartGuesstimation
from rules.guesstimation.replay import apply, start, summary

FAMILY = RulesFamily(
    name="guesstimation",
    starts=(StartGuesstimation,),
    start=start,
    apply=apply,
    summary=summary,
)
