"""For the tournament day's tests: a broker with an account for every table of a hall, the hub
run as ``gametable hub run`` runs it (its page on the same loop, the wall clock), and a hall of
simulated tables that report their matches over the delivery protocol.

A simulated table is the lightest thing that says what a real table says to the hub: its
status (retained, with its last will), its state, and its decisions from one journal, each
chained to the one before (seq, prev) and sent with its match's session, as
``firmware_py/table/uplink.py`` sends them; it learns its match from the pairings the hub
publishes, as a table does. It plays no game: the points it reports are the test's.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from paho.mqtt.client import MQTTMessageInfo

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.passwords import hashed
from firmware_py.director.hub.wire.service import Hub, HubBroker, utc_now
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import (
    EVERY_ROUNDS_PAIRINGS,
    OFFLINE,
    ONLINE,
    Decision,
    TableMatch,
    events_topic,
    pairings_topic,
    parse_pairings,
    state_topic,
    status_topic,
)
from tests.hub_helpers import Broker, Peer, password_of
from tests.hub_page_helpers import state
from tests.hub_table_helpers import until


def hall_broker(directory: Path, tables: int) -> Broker:
    """The shipped broker config with the hub's account and tables 1 to ``tables``'; its
    password file written at once in mosquitto's own form (not by a run of mosquitto_passwd
    per table), started."""
    accounts = ("hub", *(str(number) for number in range(1, tables + 1)))
    broker = Broker(directory, accounts=accounts)
    directory.mkdir()
    broker.password_file.write_text(
        "".join(f"{account}:{hashed(password_of(account))}\n" for account in accounts),
        encoding="utf-8",
    )
    broker.start()
    return broker


@asynccontextmanager
async def hub_as_run(broker: Broker, record_path: Path) -> AsyncIterator[DirectorPage]:
    """The hub and its page on this loop, wired as ``gametable hub run`` wires them (the
    hub's board, refusals and clock; a change on the page published at once)."""
    with TournamentDB.open(record_path) as record:
        record.upgrade_for_hub()
        hub = Hub(record, HubBroker("127.0.0.1", broker.port, "hub", password_of("hub")))
        page = DirectorPage(
            listen("127.0.0.1", 0),
            record,
            hub.board,
            utc_now,
            after_change=hub.record_changed,
            refusals=hub.refusals,
        )
        hub.on_board = page.changed
        await page.start()
        task = asyncio.create_task(hub.run())
        try:
            await until(lambda: hub.connected, "the hub to connect")
            yield page
        finally:
            hub.stop()
            await task
            await page.stop()


class SimulatedTable:
    """Table ``number`` as the hub hears it."""

    def __init__(self, broker: Broker, number: int) -> None:
        self.number = number
        self.peer = Peer(broker, str(number), will=(status_topic(number), OFFLINE))
        self.peer.subscribe(EVERY_ROUNDS_PAIRINGS)
        self.journal = uuid.uuid4().hex  # its journal's id, as Journal.identity() makes one
        self.seq = 0  # the last decision's place in the journal

    def match(self, round_number: int) -> TableMatch | None:
        """This table's match in the round's latest pairings from the hub (None before they
        come, or once they are withdrawn: an empty payload)."""
        payloads = self.peer.payloads(pairings_topic(round_number))
        if not payloads or not payloads[-1]:
            return None
        return parse_pairings(payloads[-1]).at(self.number)

    def online(self) -> list[MQTTMessageInfo]:
        return [self._send(status_topic(self.number), ONLINE.encode(), retain=True)]

    def report(self, round_number: int, a_points: int, b_points: int) -> list[MQTTMessageInfo]:
        """The match's end: its state (the final score on the screen), its last score and its
        result, two decisions of the journal, chained."""
        session = {"action": "match.start", "round": round_number, "minutes": 20,
                   "on_time_up": "abandon"}  # fmt: skip
        screen: dict[str, object] = {
            "title": "Match over",
            "big": f"{a_points}:{b_points}",
            "lines": [],
            "footer": "",
            "alert": None,
        }
        shown = state(
            self.number,
            session=session,
            game="G1 Border-Up",
            in_game=False,
            screen=screen,
            scores={"A": a_points, "B": b_points},
            clock="0:00",
        )
        winner = "A" if a_points > b_points else "B" if b_points > a_points else None
        sent = [self._send(state_topic(self.number), shown, retain=True)]
        for event in (
            {"t": 1202.0, "event": "score", "A": a_points, "B": b_points},
            {"t": 1202.0, "event": "match_result", "winner": winner, "A": a_points,
             "B": b_points},
        ):  # fmt: skip
            sent.append(self._send(events_topic(self.number), self._decision(session, event)))
        return sent

    def _decision(self, session: dict[str, object], event: dict[str, object]) -> bytes:
        prev, self.seq = self.seq, self.seq + 1
        wall = datetime.now(UTC).isoformat(timespec="milliseconds")
        return Decision(self.journal, self.seq, wall, session, event, prev).to_bytes()

    def _send(self, topic: str, payload: bytes, *, retain: bool = False) -> MQTTMessageInfo:
        return self.peer.client.publish(topic, payload, qos=1, retain=retain)

    def close(self) -> None:
        self.peer.close()


class Hall:
    """Tables 1 to ``tables``, each on its own account and connection."""

    def __init__(self, broker: Broker, tables: int) -> None:
        self.tables = {n: SimulatedTable(broker, n) for n in range(1, tables + 1)}

    async def online(self) -> None:
        await _acknowledged([info for t in self.tables.values() for info in t.online()])

    async def paired(self, round_number: int) -> dict[int, TableMatch]:
        """Every table's match in the round, once each table has heard the round's pairings."""
        await until(
            lambda: all(t.match(round_number) is not None for t in self.tables.values()),
            f"round {round_number}'s pairings at every table",
        )
        found = {n: t.match(round_number) for n, t in self.tables.items()}
        return {n: match for n, match in found.items() if match is not None}

    async def withdrawn(self, round_number: int) -> None:
        """Once every table has heard the round's pairing withdrawn (an empty payload)."""
        await until(
            lambda: all(t.match(round_number) is None for t in self.tables.values()),
            f"round {round_number}'s pairings withdrawn at every table",
        )

    async def report(self, round_number: int, points: Mapping[int, tuple[int, int]]) -> None:
        """Each table in ``points`` reports its match's result, all at once."""
        sent = [
            info
            for number, (a, b) in points.items()
            for info in self.tables[number].report(round_number, a, b)
        ]
        await _acknowledged(sent)

    def close(self) -> None:
        for table in self.tables.values():
            table.close()


async def _acknowledged(sent: list[MQTTMessageInfo]) -> None:
    """Wait for the broker's acknowledgement of every publish (QoS 1)."""
    await until(lambda: all(info.is_published() for info in sent), "the broker's acknowledgements")


def round_points(seed: int, tables: int) -> dict[int, tuple[int, int]]:
    """Points a Combo 4 match may score (multiples of 5), drawn from ``seed``, by table."""
    draw = random.Random(seed)
    return {n: (5 * draw.randint(2, 12), 5 * draw.randint(2, 12)) for n in range(1, tables + 1)}
