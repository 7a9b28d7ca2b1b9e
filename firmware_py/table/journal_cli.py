"""``gametable journal show|export``: the record of a table's sessions, for people and replay.

A journal holds every session the table played (a match, then the next round's match started
from the console, ...): the export lists them in order, each with its rules actions (its replay
log) and its result, beside the decisions of the whole journal. Both read the journal without
changing anything (R121); ``export --out`` writes a new file and never replaces one (R123).
"""

from __future__ import annotations

import contextlib
import json
import os
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
    journal = Journal.open_read_only(path)
    if journal.is_empty():
        journal.close()
        raise JournalError(f"journal {path} holds no match yet")

    def no_pins(name: str) -> bool:
        raise JournalError(f"journal {path}: a pin read is missing")

    # the settings are the journal's own (from its session); these are never used
    try:
        return journal, RecordedTable.start(
            journal=journal, settings=TableSettings(), now=0.0, read_pin=no_pins
        )
    except JournalError:
        journal.close()
        raise


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
    scores = result.get("scores") or result.get("points") or result.get("positions")
    return f"{result['phase']}" + (f", score {scores}" if scores else ", no score yet")


def show(path: Path, *, as_json: bool) -> int:
    data = export_data(path)
    if as_json:  # one JSON object, as every --json answer: each session's result, every decision
        results = [
            {
                "number": session["number"],
                "start": session["actions"][0],
                "result": session["result"],
            }
            for session in data["sessions"]
        ]
        print(json.dumps({"sessions": results, "decisions": data["decisions"]}))
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
    data = json.dumps(export_data(path), indent=1) + "\n"
    if out is None:
        sys.stdout.write(data)
    else:
        write_new_file(out, data)
        print(f"wrote {out}")
    return 0


def write_new_file(out: Path, text: str) -> None:
    """Write ``out``, which must not exist (the journal itself, by any name, always does): the
    name is claimed first (``O_EXCL``), the text written under a name of this process's own
    beside it and renamed over the claim, so ``out`` is never a half-written export, and a
    failure leaves nothing behind."""
    try:
        os.close(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except FileExistsError:
        raise JournalError(f"{out} already exists: export never replaces a file") from None
    except OSError as error:
        raise JournalError(f"cannot write {out}: {error.strerror}") from None
    made = [out]
    try:
        making = out.with_name(f".{out.name}.{os.getpid()}.writing")
        with open(making, "x", encoding="utf-8") as file:
            made.append(making)
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(making, out)
    except OSError as error:
        for leftover in made:
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise JournalError(f"cannot write {out}: {error.strerror}") from None
