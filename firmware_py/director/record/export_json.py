"""The whole record as JSON-ready data, every part's history with it: what ``export`` (the
command's and the page's download) writes for the tournament, read from each concern's module.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from firmware_py.director.record import attendance as record_attendance
from firmware_py.director.record import closing as record_closing
from firmware_py.director.record import (
    founding,
    playoff,
    protests,
    results,
    rounds,
    table_events,
    venue,
)
from firmware_py.director.record import rooms as record_rooms
from firmware_py.director.record.upgrades import schema_version


def record_json(db: sqlite3.Connection, path: Path) -> dict[str, Any]:
    """Config, teams, rounds with every result version, playoff (voided games too), champion
    history and protests; the pairings undone, the tables' reports, attendance and rooms."""
    head = founding.created(db)
    return {
        "schema": schema_version(db),
        "created_at": head["created_at"],
        "created_by": head["created_by"],
        "config": founding.config(db, path).to_json(),
        "teams": _teams(db),
        "rounds": _rounds(db),
        "playoff_games": playoff.all_playoff_games(db),
        "playoff_voids": playoff.playoff_voids(db),
        "settings": venue.settings_history(db),
        "champions": playoff.all_champions(db),
        "reopenings": [reopened.to_json() for reopened in record_closing.reopenings(db)],
        "protests": [protest.to_json() for protest in protests.protests(db)],
        "withdrawn_rounds": [undone.to_json() for undone in rounds.withdrawn_rounds(db)],
        "table_events": [event.to_json() for event in table_events.in_order(db)],
        **record_attendance.export(db),
        "rooms": record_rooms.history(db),
    }


def _teams(db: sqlite3.Connection) -> list[dict[str, Any]]:
    shorts = founding.short_names(db)
    return [
        {
            "name": e.name,
            "school": e.school,
            "players": list(e.players),
            "short": shorts.get(e.name, ""),  # R832: given, or derived
        }
        for e in founding.entrants(db)
    ]


def _rounds(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Each round not withdrawn: its plan, its pairings with every version of their results,
    and its bye."""
    plans = rounds.round_plans(db)
    return [
        {
            "round": rnd.round,
            "kind": plans[rnd.round]["kind"],
            "minutes": plans[rnd.round]["minutes"],
            "paired_at": plans[rnd.round]["paired_at"],
            "paired_by": plans[rnd.round]["paired_by"],
            "pairings": [
                {
                    "table": m.table,
                    "A": m.a,
                    "B": m.b,
                    "results": [
                        e.to_json() for e in results.result_history(db, rnd.round, m.table)
                    ],
                }
                for m in rnd.matches
            ],
            "bye": rnd.bye,
        }
        for rnd in rounds.rounds(db)
    ]
