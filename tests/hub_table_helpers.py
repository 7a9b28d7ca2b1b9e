"""For the hub's tests that play a match: table 1's Combo 4 round-1 match on virtual time,
recorded to a journal with its outbox, with its link to the broker, and waiting on the loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import ScriptStep, VirtualTable, parse_script
from firmware_py.table.journal import Journal
from firmware_py.table.uplink import Broker as TableBroker
from firmware_py.table.uplink import HubLink
from tests.hub_helpers import WAIT_SECONDS, Broker, password_of
from tests.journal_helpers import SCRIPTS


async def until(condition: Callable[[], bool], what: str) -> None:
    """Let the loop run until ``condition`` holds; fail naming ``what`` if it never does."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {WAIT_SECONDS:g} s for {what}")
        await asyncio.sleep(0.02)


class Table:
    """Table ``number``: a Combo 4 round-1 match on virtual time, recorded to a journal with
    its outbox, and its link to the broker."""

    def __init__(self, broker: Broker, path: Path, number: int = 1) -> None:
        lines = (SCRIPTS / "combo4-match.jsonl").read_text().splitlines()
        self.settings, self.steps = parse_script(lines, TableSettings())
        self.journal = Journal.open(path, outbox=True)
        self.virtual = VirtualTable(self.settings, lambda event: None, journal=self.journal)
        self.played = 0
        self.number = number
        self.relink(broker)

    def relink(self, broker: Broker) -> None:
        """A new link on the same journal, as after the table's restart."""
        self.link = HubLink(
            TableBroker("127.0.0.1", broker.port, self.number, password_of(str(self.number))),
            journal=self.journal,
        )

    def play(self, until_step: int | None = None) -> None:
        """Play the script on to ``until_step`` (the end when None), then hand the link what
        was committed, as the daemon does after each round of its loop."""
        end = len(self.steps) if until_step is None else until_step
        steps: list[ScriptStep] = self.steps[:end]
        self.virtual.play(steps, first=self.played)
        self.played = end
        self.link.pump()

    def result(self) -> tuple[int, dict[str, Any]]:
        """The journal id and body of the match's result."""
        (found,) = [
            (entry.seq, entry.body)
            for entry in self.journal.entries()
            if entry.kind == "event" and entry.body["event"] == "match_result"
        ]
        return found

    def delivered(self) -> bool:
        self.link.pump()  # as the daemon's loop does, at least every second
        return self.journal.undelivered() == 0

    def close(self) -> None:
        self.virtual.close()
        self.journal.close()


@asynccontextmanager
async def linked(table: Table) -> AsyncIterator[HubLink]:
    table.link.start()
    try:
        yield table.link
    finally:
        await table.link.stop()
