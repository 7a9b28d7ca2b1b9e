"""``gametable journal show|export``: the record of a table's sessions, for people and replay.

A journal holds every session the table played (a match, then the next round's match started
from the console, ...): the export lists them in order, each with its rules actions (its replay
log) and its result, beside the decisions of the whole journal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from firmware_py.table.controller import TableController, TableSettings
from firmware_py.table.journal import Journal, JournalError
from firmware_py.table.recorder import RecordedTable, settings_to_json
from rules.actions import Action, encode

EXPORT_FORMAT = "gametable-journal-export"
EXPORT_VERSION = 2  # 2: "sessions" (each with "actions" and "result"); 1 had one session
QUIET = ("prompt", "press", "window", "count", "action")  # what ``show`` leaves out


def _load(path: Path) -> tuple[Journal, RecordedTable]:
    if not path.exists():
        raise JournalError(f"journal {path} does not exist")
    journal = Journal.open(path)
    if journal.is_empty():
        journal.close()
        raise JournalError(f"journal {path} holds no match yet")

    def no_pins(name: str) -> bool:
        raise JournalError(f"journal {path}: a pin read is missing")

    # the settings are the journal's own (from its session); these are never used
    return journal, RecordedTable.start(
        journal=journal, settings=TableSettings(), now=0.0, read_pin=no_pins
    )


def sessions(controller: TableController) -> list[dict[str, Any]]:
    """Every session of the table, finished ones first, each with its actions and result."""
    found = []
    for number, log in enumerate([*controller.finished, controller.log], start=1):
        found.append(
            {
                "number": number,
                "actions": [encode(action) for action in log],
                "result": controller.game.summary(_replayed(controller, log)),
            }
        )
    return found


def _replayed(controller: TableController, log: list[Action]) -> Any:
    if log is controller.log:
        return controller.session
    session = controller.game.start(log[0])
    for action in log[1:]:
        session = controller.game.apply(session, action)
    return session


def export_data(path: Path) -> dict[str, Any]:
    journal, table = _load(path)
    try:
        decisions = [
            {"seq": e.seq, "wall": e.wall, **e.body} for e in journal.entries() if e.kind == "event"
        ]
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "journal": str(path),
            "settings": settings_to_json(table.controller.settings),
            "sessions": sessions(table.controller),
            "decisions": decisions,
        }
    finally:
        journal.close()


def standing(result: dict[str, Any]) -> str:
    """A session's result in a few words: its phase and its score (or games won)."""
    if result.get("championship"):
        wins = result["wins"]
        champion = result["champion"]
        won = f"games won A {wins['A']} B {wins['B']}"
        return f"{result['phase']}, {won}" + (f", champion {champion}" if champion else "")
    scores = result.get("scores") or result.get("points")
    return f"{result['phase']}" + (f", score {scores}" if scores else ", no score yet")


def show(path: Path, *, as_json: bool) -> int:
    data = export_data(path)
    if as_json:
        for decision in data["decisions"]:
            print(json.dumps(decision))
        return 0
    played = data["sessions"]
    actions = sum(len(session["actions"]) for session in played)
    count = "1 session" if len(played) == 1 else f"{len(played)} sessions"
    print(f"journal {path}: {count}, {actions} actions, {len(data['decisions'])} entries")
    for decision in data["decisions"]:
        if decision["event"] in QUIET:
            continue
        fields = " ".join(
            f"{k}={v}" for k, v in decision.items() if k not in ("seq", "wall", "event", "t")
        )
        print(f"{decision['wall'][11:23]}  {decision['event']:<13} {fields}")
    for session in played:
        start = session["actions"][0]
        what = " ".join(f"{k}={v}" for k, v in start.items() if k != "action" and v is not None)
        now = "now" if session is played[-1] else "was"
        print(
            f"session {session['number']} ({start['action']} {what}".rstrip()
            + f") {now}: {standing(session['result'])}"
        )
    return 0


def export(path: Path, out: Path | None) -> int:
    data = json.dumps(export_data(path), indent=1)
    if out is None:
        sys.stdout.write(data + "\n")
    else:
        out.write_text(data + "\n", encoding="utf-8")
        print(f"wrote {out}")
    return 0
