"""A round of one event of a day placed at the tables that play for the event (issue 27,
R1165). Pure: the day says which tables those are; the pairing numbers its matches 1 up."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from rules.errors import IllegalAction
from rules.tournament.records import RoundPairing, spell_tables


def placed_at_tables(pairing: RoundPairing, tables: Collection[int], event: str) -> RoundPairing:
    """``pairing`` with its matches at ``tables``, lowest first, in the pairing's order (its
    table 1 at the event's lowest table). Refused in words, nothing placed, when fewer tables
    play for ``event`` than the round has matches."""
    ordered = sorted(tables)
    needed = len(pairing.matches)
    if len(ordered) < needed:
        playing = (
            f"no table plays for {event}"
            if not ordered
            else f"only table {ordered[0]} plays for {event}"
            if len(ordered) == 1
            else f"only {len(ordered)} play for {event} (tables {spell_tables(ordered)})"
        )
        raise IllegalAction(
            f"round {pairing.round} needs {needed} tables and {playing}: give it "
            f"{needed - len(ordered)} more on the day page (or 'gametable day assign'), then "
            "pair again"
        )
    matches = tuple(
        replace(match, table=table) for match, table in zip(pairing.matches, ordered, strict=False)
    )
    return replace(pairing, matches=matches)
