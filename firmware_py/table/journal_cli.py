"""``gametable journal show|export``: the record of a match, for people and for replay."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from firmware_py.table.controller import TableSettings
from firmware_py.table.journal import Journal, JournalError
from firmware_py.table.recorder import RecordedTable, settings_to_json
from rules.actions import encode

EXPORT_FORMAT = "gametable-journal-export"


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


def export_data(path: Path) -> dict[str, Any]:
    journal, table = _load(path)
    try:
        decisions = [
            {"seq": e.seq, "wall": e.wall, **e.body} for e in journal.entries() if e.kind == "event"
        ]
        return {
            "format": EXPORT_FORMAT,
            "version": 1,
            "journal": str(path),
            "settings": settings_to_json(table.controller.settings),
            "actions": [encode(action) for action in table.controller.log],
            "decisions": decisions,
            "result": table.controller.game.summary(table.controller.session),
        }
    finally:
        journal.close()


def show(path: Path, *, as_json: bool) -> int:
    data = export_data(path)
    if as_json:
        for decision in data["decisions"]:
            print(json.dumps(decision))
        return 0
    result = data["result"]
    print(f"journal {path}: {len(data['actions'])} actions, {len(data['decisions'])} entries")
    for decision in data["decisions"]:
        if decision["event"] in ("prompt", "press", "window", "count", "action"):
            continue
        fields = " ".join(
            f"{k}={v}" for k, v in decision.items() if k not in ("seq", "wall", "event", "t")
        )
        print(f"{decision['wall'][11:23]}  {decision['event']:<13} {fields}")
    scores = result.get("scores") or result.get("points")
    print(f"now: {result['phase']}" + (f", score {scores}" if scores else ", no score yet"))
    return 0


def export(path: Path, out: Path | None) -> int:
    data = json.dumps(export_data(path), indent=1)
    if out is None:
        sys.stdout.write(data + "\n")
    else:
        out.write_text(data + "\n", encoding="utf-8")
        print(f"wrote {out}")
    return 0
