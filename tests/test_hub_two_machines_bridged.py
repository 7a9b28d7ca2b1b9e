"""Two halls bridged to the central broker, each with a table numbered 7 (R1002, R1003): the
hub hears both machines on tables/7/state, puts "table 7 is answered by two machines" on the
director's queue (/api/problems) and logs it once; and a table's link sends its machine with
its state. Real mosquittos on 127.0.0.1, bridged as shipped (tests/hub_helpers.py)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession

from firmware_py.table.hub_wire import Machine, parse_machine, state_topic
from firmware_py.table.uplink import Broker as TableBroker
from firmware_py.table.uplink import HubLink
from tests.hub_helpers import WAIT_SECONDS, Broker, Peer, central_acl, hall_bridge, password_of
from tests.hub_page_helpers import cookie_of_login, make_record, problem_once_heard, state
from tests.hub_table_helpers import until
from tests.test_hub_page_broker import hub_with_page

HALLS = ("east", "west")
MACHINES = {"east": Machine("pi-east-7", "0a1b2c3d4e5f"), "west": Machine("pi-west-7", "")}


@pytest.fixture
def central(tmp_path: Path) -> Iterator[Broker]:
    directory = tmp_path / "central"
    directory.mkdir()
    accounts = ("hub", *(f"bridge-{hall}" for hall in HALLS))
    broker = Broker(directory, accounts=accounts, acl=central_acl(directory, HALLS))
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def halls(tmp_path: Path, central: Broker) -> Iterator[dict[str, Broker]]:
    started: dict[str, Broker] = {}
    try:
        for hall in HALLS:
            directory = tmp_path / hall
            directory.mkdir()
            broker = Broker(directory, accounts=("7",), bridge=hall_bridge(hall, central.port))
            broker.start()
            started[hall] = broker
        yield started
    finally:
        for broker in started.values():
            broker.stop()


def _state_of(hall: str) -> bytes:
    data = json.loads(state(7))
    data["machine"] = MACHINES[hall].to_json()
    return json.dumps(data).encode()


def test_one_table_number_in_two_bridged_halls_is_put_on_the_queue_and_logged_once(
    central: Broker,
    halls: dict[str, Broker],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    tables = {hall: Peer(broker, "7") for hall, broker in halls.items()}

    def both_send() -> None:
        for hall, table in tables.items():
            table.publish(state_topic(7), _state_of(hall), retain=True)

    async def scenario() -> list[dict[str, Any]]:
        async with (
            hub_with_page(central, make_record(tmp_path / "t.db")) as page,
            ClientSession() as http,
        ):
            staff = await cookie_of_login(http, page.port)
            url = f"http://127.0.0.1:{page.port}/api/problems"
            async with asyncio.timeout(WAIT_SECONDS):
                return await problem_once_heard(http, url, staff, both_send, "machines")

    caplog.set_level(logging.WARNING, logger="gametable")
    (problem,) = asyncio.run(scenario())
    for table in tables.values():
        table.close()
    assert problem["what"] == "Table 7 is answered by two machines, pi-east-7 and pi-west-7"
    assert problem["table"] == 7
    logged = [r.getMessage() for r in caplog.records if "hub_two_machines" in r.getMessage()]
    assert logged == [
        "event=hub_two_machines table=7 problem=table 7 is answered by two machines, pi-east-7 "
        "and pi-west-7: give one of them another number"
    ]


def test_a_tables_link_sends_its_machine_with_every_state(broker: Broker) -> None:
    """The table's side: what it shows goes out with the machine it runs on (R1003), so a hub
    reads it without any change to the state the daemon makes."""
    link = HubLink(TableBroker("127.0.0.1", broker.port, 7, password_of("7")), journal=None,
                   machine=MACHINES["east"])  # fmt: skip
    watcher = Peer(broker, "hub")
    watcher.subscribe(state_topic(7))

    async def scenario() -> None:
        link.start()
        link.show(json.loads(state(7)))
        try:
            await until(lambda: bool(watcher.payloads(state_topic(7))), "the table's state")
        finally:
            await link.stop()

    asyncio.run(scenario())
    watcher.close()
    sent = json.loads(watcher.payloads(state_topic(7))[-1])
    assert parse_machine(sent) == MACHINES["east"]
    assert sent["game"] == "G3 Border-Up"
