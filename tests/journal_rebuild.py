"""The property every table family's random scripts share: a script replayed with a journal
decides as the live table did, and the journal rebuilds the same table."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from firmware_py.table.controller import TableController, TableSettings
from firmware_py.table.headless import run_script
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable


def assert_the_journal_rebuilds_the_live_table(
    lines: Sequence[str],
    live_events: Sequence[dict[str, Any]],
    live: TableController,
    inputs: Sequence[str],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.db"
        journal = Journal.open(path)
        scripted: list[dict[str, Any]] = []
        try:
            run_script(lines, TableSettings(), scripted.append, journal=journal)
        finally:
            journal.close()
        # the first prompt, shown as the table is built, is not a decision: it is not recorded
        assert scripted == list(live_events[1:])
        # A restart: the table rebuilt from the journal, then the inputs' levels read from the
        # pins (an input that changed since the last decision is an edge now, as on a Pi).
        levels = {name: live.level(name) for name in inputs}
        journal = Journal.open(path)
        try:
            recorded = RecordedTable.start(
                journal=journal, settings=TableSettings(), now=0.0, read_pin=levels.__getitem__
            )
            recorded.prime(levels)
            recorded.advance(live.now)  # the live table's last instant
        finally:
            journal.close()
    rebuilt = recorded.controller
    assert rebuilt.log == live.log
    assert rebuilt.finished == live.finished
    assert rebuilt.session == live.session
    assert rebuilt.prompt.key == live.prompt.key
    assert rebuilt.view() == live.view()
