"""A Pentathlon table, a real mosquitto and the hub together (R268): the game the monitor
confirms at table 1 reaches the record's Pentathlon event at the seat of that table, once,
whether the hub is there while it is played or comes later; the same journal sent again after
the table's restart counts once."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from firmware_py.director.record.pentathlon import PentathlonEntry, PentathlonRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.journal_format import encode_body, outbox_checksum
from firmware_py.table.uplink import Broker as TableBroker
from firmware_py.table.uplink import HubLink
from rules.actions import encode
from rules.pentathlon.catalogue import Game
from rules.tournament.pentathlon import Pentathlete, PentathlonPoints
from tests.hub_helpers import Broker, password_of
from tests.hub_table_helpers import until
from tests.pentathlon_table_helpers import PTable, begin
from tests.test_hub_end_to_end import running_hub

NOW = "2026-05-09T09:00:00+00:00"


@pytest.fixture
def record_path(tmp_path: Path) -> Path:
    """A Pentathlon event: Ann v Ben seated at table 1 for Queens & Guards in round 1."""
    path = tmp_path / "tournament.db"
    players = (Pentathlete("Ann", "III"), Pentathlete("Ben", "III"))
    with PentathlonRecord.start(path, PentathlonPoints(), players, now=NOW, by="director") as made:
        event = PentathlonRecord(made)
        with made.writing():
            seat = event.event().seat(1, 1, Game.QUEENS_AND_GUARDS, "Ann", "Ben")
            event.add_seat(seat, now=NOW, by="director")
    return path


class Table:
    """Table 1: a Queens & Guards game on virtual time, journaled with its outbox, linked."""

    def __init__(self, broker: Broker, path: Path) -> None:
        self.table = PTable(journal=path, outbox=True, game="queens-guards")
        assert self.table.journal is not None
        self.journal = self.table.journal
        self.broker = broker
        self.link = self.new_link()

    def new_link(self) -> HubLink:
        return HubLink(
            TableBroker("127.0.0.1", self.broker.port, 1, password_of("1")), journal=self.journal
        )

    def play_a_tie(self) -> None:
        """B begins; a tie by agreement; the monitor confirms it."""
        begin(self.table, "B").buttons("yes").choose("Tie: agreed").buttons("yes")
        assert self.table.game.phase == "over"
        self.link.pump()

    def delivered(self) -> bool:
        self.link.pump()
        return self.journal.undelivered() == 0

    def close(self) -> None:
        self.table.close()


@asynccontextmanager
async def linked(link: HubLink) -> AsyncIterator[HubLink]:
    link.start()
    try:
        yield link
    finally:
        await link.stop()


def _results(path: Path) -> tuple[PentathlonEntry, ...]:
    with TournamentDB.open(path) as record:
        return PentathlonRecord(record).history(1, 1)


def test_a_game_confirmed_at_the_table_reaches_the_record(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table.link) as link:
            await until(lambda: link.connected, "the table to connect")
            table.play_a_tie()
            await until(lambda: table.delivered() and bool(_results(record_path)), "the result")

    asyncio.run(scenario())
    (entry,) = _results(record_path)
    assert (entry.result.winner, entry.result.how.value) == (None, "agreement")
    assert (entry.entered_by, entry.result.seat.a, entry.result.seat.b) == ("table 1", "Ann", "Ben")
    with TournamentDB.open(record_path) as record:
        (event,) = record.table_events()
        assert (event.table, event.round, event.outcome) == (1, 1, "recorded")
    table.close()


def test_a_game_played_while_the_hub_is_away_catches_up(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")
    table.play_a_tie()  # no link yet: the table plays on without the hub
    assert table.journal.undelivered() > 0

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table.link):
            await until(lambda: table.delivered() and bool(_results(record_path)), "the result")

    asyncio.run(scenario())
    assert len(_results(record_path)) == 1
    table.close()


def test_the_game_sent_again_after_the_table_s_restart_counts_once(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> dict[str, int]:
        async with running_hub(broker, record_path) as hub:
            async with linked(table.link):
                table.play_a_tie()
                await until(lambda: table.delivered() and bool(_results(record_path)), "it")
            _requeue_the_game_over(table)
            table.link = table.new_link()  # the table restarted: its link starts from the outbox
            async with linked(table.link):
                await until(table.delivered, "the outbox sent again")
                # at least once: the link may send it again when the hub comes online too
                await until(lambda: hub.tally["duplicate"] >= 1, "the hub to see it again")
            return dict(hub.tally)

    tally = asyncio.run(scenario())
    assert set(tally) <= {"recorded", "duplicate"} and tally["recorded"] == 1
    assert len(_results(record_path)) == 1
    table.close()


def _requeue_the_game_over(table: Table) -> None:
    """The game_over back in the outbox, as if the broker's acknowledgement had not reached
    the journal before the table stopped."""
    (seq,) = [
        entry.seq
        for entry in table.journal.entries()
        if entry.kind == "event" and entry.body["event"] == "game_over"
    ]
    session = encode_body(encode(table.table.controller.log[0]))
    connection = sqlite3.connect(table.journal.path)
    try:
        connection.execute(
            "INSERT INTO outbox (seq, session, crc) VALUES (?, ?, ?)",
            (seq, session, outbox_checksum(seq, session)),
        )
        connection.commit()
    finally:
        connection.close()
