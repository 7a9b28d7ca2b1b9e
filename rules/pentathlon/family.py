"""The Pentathlon's registration with the rules registry (``rules/families.py``)."""

from __future__ import annotations

from rules.family import RulesFamily
from rules.pentathlon.monitor import apply, start
from rules.pentathlon.monitor_actions import StartPentathlon
from rules.pentathlon.record import record

FAMILY = RulesFamily(
    name="pentathlon",
    starts=(StartPentathlon,),
    start=start,
    apply=apply,
    summary=record,
)
