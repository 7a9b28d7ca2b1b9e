"""The director's page behind a real mosquitto (tests/hub_helpers.py): a table's state and its
last will, published to the broker, reach the page's event stream through the hub; a table
sending nonsense changes nothing and the hub carries on. The hub and the page share one asyncio
loop, as in ``gametable hub run``; the broker is its own process."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.hub.wire.service import Hub, HubBroker
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import state_topic, status_topic
from tests.hub_helpers import WAIT_SECONDS, Broker, Peer, password_of
from tests.hub_page_helpers import NOW, cookie_of_login, make_record, state


@asynccontextmanager
async def hub_with_page(broker: Broker, record_path: Path) -> AsyncIterator[DirectorPage]:
    with TournamentDB.open(record_path) as record:
        record.upgrade_for_hub()
        board = LiveBoard()
        page = DirectorPage(listen("127.0.0.1", 0), record, board, lambda: NOW)
        hub = Hub(
            record,
            HubBroker("127.0.0.1", broker.port, "hub", password_of("hub")),
            board=board,
            on_board=page.changed,
        )
        page.after_change = hub.record_changed
        await page.start()
        task = asyncio.create_task(hub.run())
        try:
            yield page
        finally:
            hub.stop()
            await task
            await page.stop()


async def read_until(stream: Any, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first table row on the event stream that ``wanted`` accepts."""
    async with asyncio.timeout(WAIT_SECONDS):
        while True:
            chunk = await stream.content.readuntil(b"\n\n")
            if chunk.startswith(b"data: "):
                for row in json.loads(chunk[6:])["rows"]:
                    if wanted(row):
                        return dict(row)


def test_a_state_published_to_the_broker_reaches_the_pages_event_stream(
    broker: Broker, tmp_path: Path
) -> None:
    table = Peer(broker, "7", will=(status_topic(7), "offline"))

    async def scenario() -> list[dict[str, Any]]:
        async with (
            hub_with_page(broker, make_record(tmp_path / "t.db")) as page,
            ClientSession() as client,
        ):
            staff = await cookie_of_login(client, page.port)
            stream = await client.get(f"http://127.0.0.1:{page.port}/api/events", headers=staff)
            await asyncio.to_thread(table.publish, status_topic(7), "online", retain=True)
            await asyncio.to_thread(table.publish, state_topic(7), state(7), retain=True)
            seen = [await read_until(stream, lambda row: row["game"] == "G3 Border-Up")]
            await asyncio.to_thread(
                table.publish, state_topic(7), state(7, clock="12:40"), retain=True
            )
            seen.append(await read_until(stream, lambda row: row["clock"] == "12:40"))
            vanished = table.client.socket()
            assert vanished is not None
            vanished.close()  # the table vanishes: the broker sends its last will
            seen.append(await read_until(stream, lambda row: row["online"] is False))
            stream.close()
            return seen

    first, second, gone = asyncio.run(scenario())
    assert (first["table"], first["online"], first["scores"]) == (7, True, {"A": 20, "B": 10})
    assert second["clock"] == "12:40"
    assert (gone["online"], gone["clock"]) == (False, "12:40")


def test_a_table_sending_nonsense_changes_nothing_and_the_hub_carries_on(
    broker: Broker, tmp_path: Path
) -> None:
    table = Peer(broker, "8")

    async def scenario() -> dict[str, Any]:
        async with (
            hub_with_page(broker, make_record(tmp_path / "t.db")) as page,
            ClientSession() as client,
        ):
            staff = await cookie_of_login(client, page.port)
            stream = await client.get(f"http://127.0.0.1:{page.port}/api/events", headers=staff)
            for nonsense in (b"\xff\xfe", b"[1, 2]", b'{"family": 3}', b"x" * 20_000):
                await asyncio.to_thread(table.publish, state_topic(8), nonsense)
            await asyncio.to_thread(table.publish, state_topic(8), state(8, game="G1 Dashing"))
            row = await read_until(stream, lambda row: row["table"] == 8)
            stream.close()
            return row

    row = asyncio.run(scenario())
    assert (row["game"], row["updates"]) == ("G1 Dashing", 1)
