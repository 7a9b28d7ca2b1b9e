"""How tightly a result sheet is set so that it prints on one page of A4 and of Letter (R969).

As the Pentathlon's score card does (R841), a sheet's length is estimated from what it holds
(the tournament's name, the two teams' names, schools and players, the result's versions and
the signatures' line naming the match), and the sheet is set at the first density that holds
it: ``normal`` (the sheet as it prints for usual names), ``compact`` (smaller type, shorter game
and signature lines) and ``dense`` (the players on one wrapped line per team, the smallest
type). What each density holds was measured in chromium printing to PDF on A4 (the narrower
paper) and Letter (18 mm shorter), with forty-character names, schools and six players of
thirty characters a team, and is kept short of it (``HOLDS``). Nothing is cut: a name wraps
where it must.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil

from firmware_py.director.hub.page.provenance import ResultVersion
from rules.tournament import Entrant

NORMAL, COMPACT, DENSE = "sheet-normal", "sheet-compact", "sheet-dense"
# The lines (as ``sheet_length`` counts them) each density holds on both papers, measured in
# chromium with the longest names and kept about a line short of it (R969).
HOLDS = {NORMAL: 8, COMPACT: 17}

# Characters a line holds where each part prints, at the normal density on A4's width.
_FULL_LINE = 70  # the facts, the signatures' line
_HALF_LINE = 30  # a team's heading or player, in its half of the page
_COLUMN_LINE = 22  # a team's name heading a column of the games or the result
_REASON_LINE = 60  # a version's reason, in its column
# A result amended three times is what a sheet is set to hold (R983); a longer history takes the
# result, its versions and the signatures on to a page of their own, together.
_VERSIONS_HELD = 4


def _lines(said: str, per_line: int) -> int:
    return max(1, ceil(len(said) / per_line))


def sheet_length(
    title: str, a: Entrant, b: Entrant, versions: Sequence[ResultVersion], signed_for: str
) -> int:
    """The sheet's variable length in lines: what grows with its names and its versions."""

    def team(entrant: Entrant) -> int:
        heading = f"A: {entrant.name} ({entrant.school})"
        players = sum(_lines(player, _HALF_LINE) for player in entrant.players) or 4
        return _lines(heading, _HALF_LINE) + players

    columns = max(_lines(f"A: {a.name}", _COLUMN_LINE), _lines(f"B: {b.name}", _COLUMN_LINE))
    history = (
        0 if len(versions) < 2 else 1 + sum(_lines(v.reason or "", _REASON_LINE) for v in versions)
    )
    return (
        _lines(title, _FULL_LINE)
        + max(team(a), team(b))
        + 2 * columns  # the games' table and the result's
        + history
        + _lines(signed_for, _FULL_LINE)
    )


def sheet_density(length: int) -> str:
    """The first density that holds a sheet of ``length`` lines (``dense`` past them all)."""
    return next((density for density, holds in HOLDS.items() if length <= holds), DENSE)
