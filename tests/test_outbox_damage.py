"""A damaged outbox row (issue 25, finding 7; R905): sending to the hub stops at that row (the
hub applies a table's decisions in the order they were decided, R710), but never silently and
never before it: every decision before the damaged row is still sent, and the OLED's alert row
says so for the rest of the run."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from drivers.inputs import InputSpec
from drivers.mockpins import mock_factory
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import CONSOLE
from firmware_py.table.daemon import OUTBOX_DAMAGED, TableDaemon
from firmware_py.table.delivery import Deliveries
from firmware_py.table.journal import Journal, JournalCorrupt
from firmware_py.table.uplink import Broker as TableBroker
from firmware_py.table.uplink import HubLink


def _three_decisions_the_second_damaged(path: Path) -> Journal:
    journal = Journal.open(path, outbox=True)
    for n in range(3):
        journal.add("event", float(n), {"event": "count", "n": n + 1}, session={"action": "x"})
        journal.commit()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE outbox SET crc = crc + 1 WHERE seq = 2")
    db.close()
    return journal


def test_the_decisions_before_a_damaged_outbox_row_are_still_sent(tmp_path: Path) -> None:
    journal = _three_decisions_the_second_damaged(tmp_path / "journal.db")
    try:
        deliveries = Deliveries(journal)
        assert [item.seq for item in deliveries.next_batch(10)] == [1]
        with pytest.raises(JournalCorrupt, match="entry 2's session"):
            deliveries.next_batch(10)  # sending stops at the damaged row
    finally:
        journal.close()


def test_a_damaged_outbox_row_is_said_on_the_oled_alert_row(tmp_path: Path) -> None:
    journal = _three_decisions_the_second_damaged(tmp_path / "journal.db")
    link = HubLink(TableBroker("127.0.0.1", 1, 1, "pw"), journal=journal)
    views: list[Any] = []
    names = [f"{s}.{w}" for s in "AB" for w in ("stand", "shout")] + [
        f"console.{b}" for b in CONSOLE
    ]
    daemon = TableDaemon(
        settings=table_settings(game=1),
        factory=mock_factory(),
        input_specs=[InputSpec(name=name, pin=pin) for pin, name in enumerate(names, start=2)],
        led_pins={"A": 20, "B": 21},
        hub=link,
        on_view=views.append,
    )

    async def scenario() -> None:
        task = asyncio.create_task(daemon.run())

        async def until(condition: Callable[[], bool]) -> None:
            for _ in range(300):
                if task.done():
                    task.result()  # a crash fails the test instead of hanging it
                if condition():
                    return
                await asyncio.sleep(0.01)

        try:
            await until(lambda: bool(views))
            assert views and views[-1].screen.alert is None
            link.connected = True  # as if the broker had answered: the outbox is read
            link.pump()
            await until(lambda: views[-1].screen.alert == OUTBOX_DAMAGED)
        finally:
            daemon.stop()
            await task

    try:
        asyncio.run(scenario())
    finally:
        journal.close()
    assert views[-1].screen.alert == OUTBOX_DAMAGED
