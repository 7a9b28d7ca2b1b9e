"""Issue 25's walk, as a dealer and a director take it (FINDINGS-i25-dealer-walk.md): real
processes on 127.0.0.1 (the shipped mosquitto config, ``gametable hub run``, table 1 played by
a dealer on mock pins, tests/hall_table.py). Table 1 plays with the hub; the hub is stopped, so
the decisions that follow wait in the table's outbox; the plug is pulled (kill -9); the dealer
starts the next match as docs/durability.md says, with the real ``gametable run
--new-journal``; the hub comes back. Every decision of both journals must be in the record."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from firmware_py.table.journal import Journal
from tests.hall_campaign import CLI, DIE_WITH_CAMPAIGN, ROOT, Hall, History, Plan
from tests.hall_checker import check, deliveries, journal_files, read_table, reading
from tests.hub_helpers import wait_for

WAITING_BEFORE_THE_PLUG = 5  # decisions left undelivered in the outbox when the plug is pulled


def _delivered(hall: Hall) -> int:
    """How far the hub's ledger has confirmed table 1's first journal."""
    with reading(hall.record) as record:
        held = deliveries(record) or {}
    return max((seq for (table, _), seq in held.items() if table == 1), default=0)


def _undelivered(path: Path) -> int:
    """The decisions in the outbox of the journal at ``path`` (0 before it exists)."""
    if not path.exists():
        return 0
    journal = Journal.open_read_only(path)
    try:
        return journal.undelivered()
    finally:
        journal.close()


def test_a_plug_pulled_with_the_hub_down_then_a_new_journal_loses_no_decision(
    tmp_path: Path,
) -> None:
    hall = Hall(tmp_path, Plan(rounds=3), History((tmp_path / "history.jsonl").open("w")))
    journal = hall.journal(1)
    dealer_output = tmp_path / "gametable-run.log"
    started: subprocess.Popen[bytes] | None = None
    try:
        hall.set_up()
        hall.start_broker()
        hall.configure_tables()
        hall.start_hub()
        hall.start_table(1)
        wait_for(lambda: _delivered(hall) > 0, "the hub to record table 1's first decisions")
        hall.signal(hall.hub, signal.SIGTERM)
        wait_for(
            lambda: _undelivered(journal) >= WAITING_BEFORE_THE_PLUG,
            "decisions to wait in table 1's outbox while the hub is down",
        )
        hall.signal(hall.tables[1], signal.SIGKILL)  # the plug pulled
        with dealer_output.open("wb") as output:
            started = subprocess.Popen(
                [
                    *DIE_WITH_CAMPAIGN,
                    *CLI,
                    *("run", "--config", str(journal.parent / "table.toml")),
                    *("--journal", str(journal), "--new-journal"),
                ],
                stdout=output,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"},
            )
        wait_for(lambda: len(journal_files(journal)) == 2, "the old journal moved aside")
        wait_for(lambda: _undelivered(journal) > 0, "the undelivered carried to the new one")
        hall.start_hub()
        wait_for(lambda: _undelivered(journal) == 0, "the carried decisions to reach the hub")
        verdict = check({1: journal}, hall.record)
        started.send_signal(signal.SIGTERM)
        stopped = started.wait(timeout=10)
    finally:
        if started is not None and started.poll() is None:
            started.kill()
            started.wait()
        hall.stop_all()
    said = dealer_output.read_text(encoding="utf-8")
    assert (verdict.lost, verdict.doubled, verdict.waiting) == (0, 0, 0), verdict.lost_examples
    assert stopped == 0, said
    assert "Traceback" not in said, said
    assert "event=journal_carried" in said and " lost=0" in said, said
    assert read_table(1, journal).journals == 2
    assert verdict.checked > WAITING_BEFORE_THE_PLUG
