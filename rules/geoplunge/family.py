"""GeoPlunge's registration with the rules registry (``rules/families.py``)."""

from __future__ import annotations

from rules.family import RulesFamily
from rules.geoplunge.replay import STARTS, apply_any_session, start_any_session, summary

FAMILY = RulesFamily(
    name="geoplunge",
    starts=STARTS,
    start=start_any_session,
    apply=apply_any_session,
    summary=summary,
)
