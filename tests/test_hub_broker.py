"""The tournament broker's access control, as shipped (systemd/mosquitto/): every client logs in,
a table writes only its own topics, the hub reads everything and writes only the tournament's
(the pairings, its confirmations and its status). Each
is tried by a client that misbehaves, on a real mosquitto."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.director.hub.passwords import set_password
from firmware_py.table.hub_wire import Decision
from tests.hub_helpers import ACCOUNTS, Broker, Peer, password_of, wait_for

DECISION = Decision(
    journal="5f1c0e7a9b2d4c1e8f3a6b7c9d0e1f2a",
    seq=1,
    wall="2026-05-09T09:00:00.000+00:00",
    session={"action": "match.start", "round": 1},
    event={"event": "score", "A": 10, "B": 0},
).to_bytes()


def _watching(broker: Broker, topic: str) -> Peer:
    hub = Peer(broker, "hub")
    hub.subscribe(topic)
    return hub


def test_a_table_writes_its_own_topics(broker: Broker) -> None:
    watcher = _watching(broker, "tables/#")
    table = Peer(broker, "7")
    assert not table.publish("tables/7/events", DECISION).is_failure
    wait_for(lambda: watcher.payloads("tables/7/events") == [DECISION], "the hub to see it")


@pytest.mark.parametrize("topic", ["tables/8/events", "tables/8/status", "tables/8/state"])
def test_a_table_cannot_write_another_tables_topics(broker: Broker, topic: str) -> None:
    watcher = _watching(broker, "tables/#")
    table = Peer(broker, "7")
    answer = table.publish(topic, DECISION)
    assert answer.is_failure and str(answer) == "Not authorized"
    assert table.publish("tables/7/state", b"{}").is_failure is False  # the next one arrives
    wait_for(lambda: watcher.payloads("tables/7/state") == [b"{}"], "the table's own state")
    assert watcher.payloads(topic) == []


@pytest.mark.parametrize(
    "topic", ["tournament/rounds/1/pairings", "tournament/applied/7", "tournament/hub"]
)
def test_a_table_cannot_write_the_hubs_topics(broker: Broker, topic: str) -> None:
    """Not the pairings, nor a confirmation that would empty its own outbox, nor the hub's
    status that tells the tables when to send again."""
    table = Peer(broker, "7")
    assert str(table.publish(topic, b"{}", retain=True)) == "Not authorized"


def test_a_table_reads_the_hubs_confirmation_and_status(broker: Broker) -> None:
    hub = Peer(broker, "hub")
    assert not hub.publish("tournament/applied/7", b"{}", retain=True).is_failure
    assert not hub.publish("tournament/hub", b"{}", retain=True).is_failure
    table = Peer(broker, "7")
    table.subscribe("tournament/applied/7")
    table.subscribe("tournament/hub")
    wait_for(
        lambda: (
            table.payloads("tournament/applied/7") == table.payloads("tournament/hub") == [b"{}"]
        ),
        "the hub's confirmation and status",
    )


def test_a_table_reads_the_pairings(broker: Broker) -> None:
    hub = Peer(broker, "hub")
    assert not hub.publish("tournament/rounds/1/pairings", b"{}", retain=True).is_failure
    table = Peer(broker, "7")
    table.subscribe("tournament/rounds/+/pairings")
    wait_for(lambda: table.payloads("tournament/rounds/1/pairings") == [b"{}"], "the pairings")


def test_the_hub_cannot_write_a_tables_topics(broker: Broker) -> None:
    hub = Peer(broker, "hub")
    assert str(hub.publish("tables/7/status", b"offline", retain=True)) == "Not authorized"


def test_an_anonymous_client_is_refused(broker: Broker) -> None:
    stranger = Peer(broker, None)
    assert not stranger.accepted
    stranger.close()


def test_a_wrong_password_is_refused(broker: Broker) -> None:
    impostor = Peer(broker, "7", password=password_of("8"))
    assert not impostor.accepted
    impostor.close()


def test_mosquitto_reads_the_password_file_gametable_writes_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no mosquitto_passwd to be found
    broker = Broker(tmp_path / "broker")
    broker.directory.mkdir()
    writers = {set_password(broker.password_file, a, password_of(a))[1] for a in ACCOUNTS}
    assert writers == {"gametable (no mosquitto_passwd)"}
    monkeypatch.undo()
    broker.start()
    try:
        table = Peer(broker, "7")
        assert table.accepted
        table.close()
    finally:
        broker.stop()
