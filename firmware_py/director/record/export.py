"""The tournament record as files to take away: the whole record as JSON (``gametable
tournament export``, and the page's download), and the standings and the results as CSV for a
spreadsheet (the page's downloads, R1060).

A CSV opened in a spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a
formula: a team named ``=HYPERLINK(...)`` would run on the director's laptop. Every text cell
that starts so is prefixed with ``'`` (R1061); the numbers are the record's own and stay numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.teams import team_edits
from firmware_py.director.record.tournament_db import TournamentDB

FORMULA_STARTS = ("=", "+", "-", "@")
STANDINGS_COLUMNS = (
    "rank",
    "team",
    "wins",
    "ties",
    "losses",
    "byes",
    "played",
    "points",
    "points_against",
    "opponents_wins",
)
RESULTS_COLUMNS = (
    "round",
    "table",
    "team_a",
    "team_b",
    "a_points",
    "b_points",
    "winner",
    "entered_by",
    "entered_at",
)


def record_json(record: TournamentDB) -> dict[str, Any]:
    """The whole record as ``gametable tournament export`` prints it: the tournament with its
    standings, a Pentathlon event under ``pentathlon``; a record of an event alone, that alone."""
    event = PentathlonRecord(record)
    data: dict[str, Any] = {}
    if record.has_tournament() or not event.has_event():
        data = record.export()
        data["standings"] = [row.to_json() for row in record.load().standings()]
        data["team_edits"] = [edit.to_json() for edit in team_edits(record)]  # R1067
    if event.has_event():
        data["pentathlon"] = event.export()
    return data


def spreadsheet_safe(cell: object) -> object:
    """``cell`` as a spreadsheet shows it and never runs it (R1061): text starting with a
    formula's first character is prefixed with ``'``; a number is left a number."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def standings_csv(record: TournamentDB) -> str:
    """The standings so far, a row a team in rank order (the CLI's ``standings`` columns)."""
    rows = (
        [standing.to_json()[column] for column in STANDINGS_COLUMNS]
        for standing in record.load().standings()
    )
    return _csv(STANDINGS_COLUMNS, rows)


def results_csv(record: TournamentDB) -> str:
    """Every match's current result, round by round and table by table: its two teams, their
    points, the winner ("" for a tie), who entered the result and when."""
    rows = []
    for result in sorted(record.results(), key=lambda r: (r.round, r.table)):
        entry = record.current_result(result.round, result.table)
        rows.append(
            [
                result.round,
                result.table,
                result.a,
                result.b,
                result.a_points,
                result.b_points,
                result.winner or "",
                entry.entered_by if entry is not None else "",
                entry.entered_at if entry is not None else "",
            ]
        )
    return _csv(RESULTS_COLUMNS, rows)


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return out.getvalue()
