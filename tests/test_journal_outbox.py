"""The journal's outbox (docs/hub.md): a table on the tournament hub queues each decision in the
same transaction that records it, and a decision leaves the outbox only once the broker has
acknowledged it. Journals of schema 2 (before the outbox) stay readable, and get their outbox
when a table records to them again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import run_script
from firmware_py.table.journal import (
    SCHEMA_VERSION,
    Journal,
    JournalCorrupt,
    JournalWriteError,
)
from firmware_py.table.recorder import RecordedTable
from tests.journal_helpers import SCRIPTS, fingerprint, make_journal, own_process


def _played(path: Path, script: str = "plunge", *, outbox: bool = True) -> Journal:
    """A journal with a script played into it, open to record to."""
    lines = (SCRIPTS / f"{script}.jsonl").read_text().splitlines()
    journal = Journal.open(path, outbox=outbox)
    run_script(lines, TableSettings(), lambda event: None, journal=journal)
    return journal


def _event_seqs(journal: Journal) -> list[int]:
    return [entry.seq for entry in journal.entries() if entry.kind == "event"]


def _as_schema_2(path: Path) -> None:
    """The journal as a gametable before the outbox wrote it."""
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE carried")
        db.execute("DROP TABLE outbox")
        db.execute("DELETE FROM meta WHERE key = 'id'")
        db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    db.close()


def _schema(path: Path) -> str:
    with sqlite3.connect(path) as db:
        (value,) = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    db.close()
    return str(value)


def test_every_decision_of_a_table_on_the_hub_waits_in_the_outbox(tmp_path: Path) -> None:
    journal = _played(tmp_path / "j.db")
    try:
        waiting = journal.outgoing(after=0, limit=10_000)
        assert [item.seq for item in waiting] == _event_seqs(journal)
        assert journal.undelivered() == len(waiting)
    finally:
        journal.close()


def test_inputs_never_wait_in_the_outbox(tmp_path: Path) -> None:
    journal = _played(tmp_path / "j.db")
    try:
        inputs = {entry.seq for entry in journal.entries() if entry.kind != "event"}
        assert inputs
        assert not inputs & {item.seq for item in journal.outgoing(after=0, limit=10_000)}
    finally:
        journal.close()


def test_a_table_off_the_hub_queues_nothing(tmp_path: Path) -> None:
    journal = _played(tmp_path / "j.db", outbox=False)
    try:
        assert _event_seqs(journal)
        assert journal.undelivered() == 0
    finally:
        journal.close()


def test_each_waiting_decision_carries_the_start_of_its_session(tmp_path: Path) -> None:
    journal = _played(tmp_path / "j.db", "combo4-match")
    try:
        waiting = journal.outgoing(after=0, limit=10_000)
        assert {item.session["action"] for item in waiting} == {"match.start"}
        assert {item.session["round"] for item in waiting} == {1}
        (result,) = [item for item in waiting if item.event["event"] == "match_result"]
        assert result.event["A"] + result.event["B"] > 0
    finally:
        journal.close()


def test_the_outbox_is_read_in_order_a_page_at_a_time(tmp_path: Path) -> None:
    journal = _played(tmp_path / "j.db")
    try:
        every = [item.seq for item in journal.outgoing(after=0, limit=10_000)]
        first = journal.outgoing(after=0, limit=3)
        rest = journal.outgoing(after=first[-1].seq, limit=10_000)
        assert [item.seq for item in [*first, *rest]] == every
    finally:
        journal.close()


def test_a_decision_the_hub_confirmed_leaves_the_outbox_and_stays_in_the_record(
    tmp_path: Path,
) -> None:
    journal = _played(tmp_path / "j.db")
    try:
        entries = list(journal.entries())
        waiting = [item.seq for item in journal.outgoing(after=0, limit=10_000)]
        journal.confirmed(through=waiting[1])
        assert [item.seq for item in journal.outgoing(after=0, limit=10_000)] == waiting[2:]
        assert list(journal.entries()) == entries
    finally:
        journal.close()


def test_a_decision_and_its_place_in_the_outbox_are_committed_together(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    journal = _played(path)
    before = list(journal.entries())
    waiting = journal.undelivered()
    with sqlite3.connect(path) as db:  # the outbox's insert fails, as a full disk would
        db.execute(
            "CREATE TRIGGER outbox_full BEFORE INSERT ON outbox "
            "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    db.close()
    try:
        journal.add("event", 99.0, {"event": "note"}, session={"action": "game.start"})
        with pytest.raises(JournalWriteError, match="disk is full"):
            journal.commit()
        assert list(journal.entries()) == before
        assert journal.undelivered() == waiting
    finally:
        journal.close()


def test_a_damaged_outbox_row_is_refused_never_sent(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    journal = _played(path)
    first = journal.outgoing(after=0, limit=1)[0].seq
    with sqlite3.connect(path) as db:
        db.execute(
            'UPDATE outbox SET session = \'{"action":"match.start","round":9}\' WHERE seq = ?',
            (first,),
        )
    db.close()
    try:
        with pytest.raises(JournalCorrupt, match=f"entry {first}'s session"):
            journal.outgoing(after=0, limit=10)
    finally:
        journal.close()


def test_every_journal_has_an_id_of_its_own(tmp_path: Path) -> None:
    first = Journal.open(make_journal(tmp_path / "a.db"))
    second = Journal.open(make_journal(tmp_path / "b.db"))
    try:
        assert first.identity() != second.identity()
        assert len(first.identity()) == 32
    finally:
        first.close()
        second.close()


def test_a_new_journal_is_of_the_carried_decisions_schema(tmp_path: Path) -> None:
    path = make_journal(tmp_path / "j.db")
    assert _schema(path) == str(SCHEMA_VERSION) == "4"


def test_a_schema_2_journal_is_shown_as_it_is_and_left_untouched(tmp_path: Path) -> None:
    path = make_journal(tmp_path / "j.db")
    shown_before = own_process("journal", "show", "--json", str(path))
    _as_schema_2(path)
    before = fingerprint(tmp_path)
    shown = own_process("journal", "show", "--json", str(path))
    assert shown.code == 0, shown.stderr
    assert shown.stdout == shown_before.stdout
    assert fingerprint(tmp_path) == before


def test_a_schema_2_journal_opened_to_record_gets_an_empty_outbox_and_plays_on(
    tmp_path: Path,
) -> None:
    path = make_journal(tmp_path / "j.db")
    _as_schema_2(path)
    journal = Journal.open(path, outbox=True)
    try:
        entries = list(journal.entries())
        assert _schema(path) == "4"
        assert journal.undelivered() == 0
        assert len(journal.identity()) == 32
        table = RecordedTable.start(
            journal=journal, settings=TableSettings(), now=0.0, read_pin=lambda name: False
        )
        assert table.committed == [entry.body for entry in entries if entry.kind == "event"]
    finally:
        journal.close()
