"""A table journal written before issue 20 (its settings name no ``flow``) replays with the
screens it was written with, so its recorded decisions come back (R786)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from firmware_py.families.pentathlon.options import table_settings
from firmware_py.table.controller import TableSettings
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable, settings_to_json


def _before_issue_20() -> TableSettings:
    settings = table_settings(game="contig-60")
    return replace(settings, options={k: v for k, v in settings.options.items() if k != "flow"})


def _open(path: Path, settings: TableSettings) -> tuple[Journal, RecordedTable]:
    journal = Journal.open(path)
    table = RecordedTable.start(
        journal=journal, settings=settings, now=0.0, read_pin=lambda name: False
    )
    return journal, table


def _press(table: RecordedTable, button: str, t: float) -> None:
    table.advance(t)
    table.edge(f"console.{button}", t, True, t)
    table.edge(f"console.{button}", t + 0.1, False, t + 0.1)
    table.advance(t + 0.1)


def test_a_journal_of_the_earlier_flow_replays_to_its_decisions(tmp_path: Path) -> None:
    path, settings = tmp_path / "journal.db", _before_issue_20()
    journal = Journal.open(path)
    journal.add("session", 0.0, {"settings": settings_to_json(settings)})
    journal.commit()
    journal.close()
    journal, table = _open(path, settings)
    assert table.controller.prompt.text == "Who begins? (lower die toss)"  # flow 1's screen
    for t, button in enumerate(("yes", "yes"), start=1):  # A begins; the turn's menu
        _press(table, button, float(t))
    labels = [option.label for option in table.controller.prompt.options]
    assert labels == ["Chip placed", "Flag passes"]  # no win offered: flow 1's menu
    expected = (list(table.controller.log), table.controller.prompt.key)
    journal.close()
    journal, rebuilt = _open(path, settings)  # replays the presses: no JournalMismatch
    journal.close()
    assert (list(rebuilt.controller.log), rebuilt.controller.prompt.key) == expected
