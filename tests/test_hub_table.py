"""The table on the tournament hub (docs/hub.md): it plays on with the broker gone and sends what
it decided once the broker is back; ``gametable run`` says "online" when it connects, its last
will says "offline" when it vanishes, and what it shows (its next pairing between matches
included) is on its retained state topic."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from drivers.inputs import InputSpec
from drivers.mockpins import mock_factory
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import CONSOLE
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.hub_wire import (
    HUB_STATUS,
    HubStatus,
    RoundPairings,
    TableMatch,
    pairings_topic,
    parse_decision,
)
from firmware_py.table.journal import Journal
from firmware_py.table.uplink import Broker as TableBroker
from firmware_py.table.uplink import HubLink
from tests.hub_helpers import Broker, Peer, free_port, password_of, wait_for
from tests.journal_helpers import CLI, MOCK_TABLE, own_process

NAMES = [f"{s}.{w}" for s in "AB" for w in ("stand", "shout")] + [f"console.{b}" for b in CONSOLE]


def _specs() -> list[InputSpec]:
    return [InputSpec(name=name, pin=pin) for pin, name in enumerate(NAMES, start=2)]


def test_the_table_plays_on_with_the_broker_down_and_sends_it_all_once_it_is_up(
    tmp_path: Path,
) -> None:
    broker = Broker(tmp_path / "broker", port=free_port())  # not started: nothing listens yet
    broker.directory.mkdir()
    journal = Journal.open(tmp_path / "journal.db", outbox=True)
    link = HubLink(TableBroker("127.0.0.1", broker.port, 1, password_of("1")), journal=journal)
    events: list[dict[str, Any]] = []
    daemon = TableDaemon(
        settings=table_settings(game=1, count_cadence=0.02),
        factory=mock_factory(),
        input_specs=_specs(),
        led_pins={"A": 20, "B": 21},
        journal=journal,
        on_event=events.append,
        hub=link,
    )

    async def scenario() -> tuple[list[int], set[int]]:
        task = asyncio.create_task(daemon.run())
        while daemon.recorded is None or not hasattr(daemon, "bank"):
            await asyncio.sleep(0.01)
        daemon.bank.pin("console.count").drive_low()  # the dealer's COUNT, no broker anywhere
        for _ in range(500):
            if any(event["event"] == "plunge" for event in events):
                break
            await asyncio.sleep(0.01)
        waiting = [item.seq for item in journal.outgoing(after=0, limit=10_000)]
        broker.start()
        hub = Peer(broker, "hub")
        hub.subscribe("tables/1/events")
        # the hub online: the table sends it all (again), whenever it connected
        hub.publish(HUB_STATUS, HubStatus(True, "a-record").to_bytes(), retain=True)
        for _ in range(1500):
            if {parse_decision(p).seq for p in hub.payloads("tables/1/events")} >= set(waiting):
                break
            await asyncio.sleep(0.02)
        received = {parse_decision(p).seq for p in hub.payloads("tables/1/events")}
        hub.close()
        daemon.stop()
        await task
        return waiting, received

    try:
        waiting, received = asyncio.run(scenario())
        assert [e["plunging"] for e in events if e["event"] == "plunge"] == [[]]
        assert waiting  # decided and committed while the broker was down
        assert received >= set(waiting)  # and sent once it was up
    finally:
        broker.stop()


# --- gametable run on the hub ------------------------------------------------------------------


def _config(tmp_path: Path, broker: Broker, table: int = 7) -> Path:
    config = tmp_path / "table.toml"
    config.write_text(
        MOCK_TABLE
        + f'[hub]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\ntable = {table}\n'
        + f'password_file = "{broker.secret_file(str(table))}"\n'
    )
    return config


@pytest.fixture
def watcher(broker: Broker) -> Iterator[Peer]:
    """The hub's account, watching table 7's topics."""
    peer = Peer(broker, "hub")
    peer.subscribe("tables/7/#")
    yield peer
    peer.close()


@pytest.fixture
def table(tmp_path: Path, broker: Broker) -> Iterator[subprocess.Popen[str]]:
    """``gametable run`` as table 7 on mock pins."""
    process = subprocess.Popen(
        [
            *CLI,
            "run",
            "--config",
            str(_config(tmp_path, broker)),
            "--journal",
            str(tmp_path / "j.db"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    yield process
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=10)


def _shown(state: dict[str, Any]) -> tuple[str, str]:
    """The OLED's title row and the row under it, as the table publishes its screen."""
    return state["screen"]["title"], state["screen"]["subtitle"]


def _states(watcher: Peer) -> list[dict[str, Any]]:
    return [json.loads(payload) for payload in watcher.payloads("tables/7/state")]


def test_a_table_on_the_hub_says_online_and_shows_what_it_shows(
    watcher: Peer, table: subprocess.Popen[str]
) -> None:
    wait_for(lambda: watcher.payloads("tables/7/status")[-1:] == [b"online"], "its birth")
    wait_for(lambda: bool(_states(watcher)), "its state")
    state = _states(watcher)[-1]
    assert (state["table"], state["family"], state["session"]["action"]) == (
        7,
        "geoplunge",
        "match.start",
    )
    assert state["scores"] == {"A": 0, "B": 0}
    assert state["screen"]["title"] == "MATCH A0 B0"


def test_a_table_that_vanishes_is_offline_by_its_last_will(
    watcher: Peer, table: subprocess.Popen[str]
) -> None:
    wait_for(lambda: watcher.payloads("tables/7/status")[-1:] == [b"online"], "its birth")
    table.send_signal(signal.SIGKILL)  # no goodbye: the broker speaks for it
    wait_for(lambda: watcher.payloads("tables/7/status")[-1:] == [b"offline"], "its last will")


def test_a_table_stopped_by_systemd_says_offline_itself(
    watcher: Peer, table: subprocess.Popen[str]
) -> None:
    wait_for(lambda: watcher.payloads("tables/7/status")[-1:] == [b"online"], "its birth")
    table.send_signal(signal.SIGTERM)
    assert table.wait(timeout=10) == 0
    assert watcher.payloads("tables/7/status")[-1:] == [b"offline"]


def test_a_table_shows_its_next_pairing_before_the_match(
    broker: Broker, watcher: Peer, table: subprocess.Popen[str]
) -> None:
    wait_for(lambda: bool(_states(watcher)), "its state")
    round_1 = RoundPairings(1, "all", 20, (TableMatch(7, "Owls", "Hawks"),), "Ravens")
    assert not watcher.publish(pairings_topic(1), round_1.to_bytes(), retain=True).is_failure
    wait_for(
        lambda: _shown(_states(watcher)[-1]) == ("Round 1  Table 7", "Owls v Hawks"),
        "the pairing on its title row and the row under it",
    )


def test_a_table_journals_the_pairing_the_hub_gives_it(
    tmp_path: Path, broker: Broker, watcher: Peer, table: subprocess.Popen[str]
) -> None:
    """An input like a button's (R190): a replay offers the next match the live table did."""
    wait_for(lambda: bool(_states(watcher)), "its state")
    round_3 = RoundPairings(3, "all", 20, (TableMatch(7, "Owls", "Hawks"),), None)
    assert not watcher.publish(pairings_topic(3), round_3.to_bytes(), retain=True).is_failure
    wait_for(lambda: _shown(_states(watcher)[-1])[0] == "Round 3  Table 7", "the pairing")
    table.send_signal(signal.SIGTERM)
    assert table.wait(timeout=10) == 0
    journal = Journal.open_read_only(tmp_path / "j.db")
    pairings = [e.body["pairing"] for e in journal.entries() if "pairing" in e.body]
    journal.close()
    assert [p["match"] for p in pairings] == [[3, "Owls", "Hawks"]]


def test_a_table_not_in_the_round_says_so(
    broker: Broker, watcher: Peer, table: subprocess.Popen[str]
) -> None:
    wait_for(lambda: bool(_states(watcher)), "its state")
    round_2 = RoundPairings(2, "call", 20, (TableMatch(1, "Owls", "Hawks"),), None)
    assert not watcher.publish(pairings_topic(2), round_2.to_bytes(), retain=True).is_failure
    wait_for(
        lambda: _shown(_states(watcher)[-1]) == ("Round 2  Table 7", "no match this round"),
        "that it has no match",
    )


def test_a_table_whose_hub_password_file_cannot_be_read_is_one_line(
    tmp_path: Path, broker: Broker
) -> None:
    config = _config(tmp_path, broker)
    broker.secret_file("7").unlink()
    done = own_process("run", "--config", str(config), "--journal", str(tmp_path / "j.db"))
    assert done.code == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("gametable: error: ")
    assert "hub.password_file: cannot read" in done.stderr
    assert not (tmp_path / "j.db").exists()


def _listening_sockets_of(pid: int) -> set[str]:
    """The inodes of the process's sockets that listen (TCP) or wait unconnected (UDP)."""
    sockets = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(FileNotFoundError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                sockets.add(target[8:-1])
    listening = set()
    for table in ("tcp", "tcp6", "udp", "udp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] in ("0A", "07"):  # LISTEN (tcp), an unconnected bound socket (udp)
                listening.add(fields[9])
    return sockets & listening


def test_a_table_on_the_hub_is_only_a_client(watcher: Peer, table: subprocess.Popen[str]) -> None:
    wait_for(lambda: watcher.payloads("tables/7/status")[-1:] == [b"online"], "its birth")
    assert _listening_sockets_of(table.pid) == set()


def test_a_damaged_outbox_stops_the_sending_not_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.db"
    journal = Journal.open(path, outbox=True)
    journal.add("event", 1.0, {"event": "score", "A": 10, "B": 0}, session={"action": "x"})
    journal.commit()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE outbox SET crc = crc + 1")
    db.close()
    link = HubLink(TableBroker("127.0.0.1", 1, 1, "pw"), journal=journal)
    link.connected = True  # as if the broker had answered: the outbox is read (never started)
    link.pump()
    link.pump()
    assert [r.message for r in caplog.records if "hub_outbox_error" in r.message] == [
        f"event=hub_outbox_error error=journal {path} is damaged (outbox: entry 1's session "
        "does not match its checksum); it was left as it is"
    ]
    journal.close()
