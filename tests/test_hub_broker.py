"""The tournament broker's access control, as shipped (systemd/mosquitto/): every client logs in,
a table writes only its own topics, the hub reads everything and writes only the tournament's
(the pairings, its confirmations and its status), and a client id belongs to its account (no
table can throw the hub or another table off, nor take or discard the hub's queue). Each is
tried by a client that misbehaves, on a real mosquitto."""

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


# --- a client id belongs to its account (R720) ---------------------------------------------------

HUBS_IDS = ["gametable-hub", "hub"]  # the id the hub asked for before R720, and asks for now


def _away_with_a_queue(broker: Broker, client_id: str) -> Peer:
    """The hub's persistent session with one decision of table 7 queued while it is away; the
    table that sent it."""
    hub = Peer(broker, "hub", client_id=client_id, keep_session=True)
    hub.subscribe("tables/+/events")
    table = Peer(broker, "7")

    def heard() -> bool:
        # said again until heard: the broker may take a publish before the subscription
        table.publish("tables/7/events", b"ready")
        return b"ready" in hub.payloads("tables/7/events")

    wait_for(heard, "the hub to hear table 7")
    hub.close()
    assert not table.publish("tables/7/events", DECISION).is_failure
    return table


@pytest.mark.parametrize("client_id", HUBS_IDS)
def test_a_table_asking_for_the_hubs_client_id_does_not_throw_the_hub_off(
    broker: Broker, client_id: str
) -> None:
    hub = Peer(broker, "hub", client_id=client_id, keep_session=True)
    hub.subscribe("tables/+/events")
    intruder = Peer(broker, "7", client_id=client_id)
    assert intruder.accepted  # as table 7, under table 7's own id
    assert not intruder.publish("tables/7/events", DECISION).is_failure
    wait_for(lambda: hub.payloads("tables/7/events") == [DECISION], "the hub to hear it")
    assert hub.thrown_off == []


@pytest.mark.parametrize("client_id", HUBS_IDS)
def test_a_table_asking_for_the_hubs_client_id_does_not_get_the_hubs_queue(
    broker: Broker, client_id: str
) -> None:
    _away_with_a_queue(broker, client_id)
    intruder = Peer(broker, "7", client_id=client_id, keep_session=True)
    assert intruder.session_present is False
    intruder.close()
    hub = Peer(broker, "hub", client_id=client_id, keep_session=True)
    assert hub.session_present is True
    wait_for(lambda: DECISION in hub.payloads("tables/7/events"), "the hub's queue")
    assert intruder.received == []


@pytest.mark.parametrize("client_id", HUBS_IDS)
def test_a_clean_start_under_the_hubs_client_id_does_not_discard_the_hubs_queue(
    broker: Broker, client_id: str
) -> None:
    _away_with_a_queue(broker, client_id)
    Peer(broker, "7", client_id=client_id).close()  # a clean start: were it the hub's, its end
    hub = Peer(broker, "hub", client_id=client_id, keep_session=True)
    assert hub.session_present is True
    wait_for(lambda: DECISION in hub.payloads("tables/7/events"), "the hub's queue")


def test_the_hubs_session_and_queue_survive_a_broker_restart(broker: Broker) -> None:
    """Keyed by its account ("hub"), the session is kept, and found again at the next login."""
    _away_with_a_queue(broker, "hub").close()
    broker.stop()  # a clean stop saves the session and its queue
    broker.start()
    hub = Peer(broker, "hub", client_id="hub", keep_session=True)
    assert hub.session_present is True
    wait_for(lambda: DECISION in hub.payloads("tables/7/events"), "the hub's queue")


@pytest.mark.parametrize("client_id", ["gametable-table-1", "1"])
def test_a_table_asking_for_another_tables_client_id_does_not_throw_it_off(
    broker: Broker, client_id: str
) -> None:
    watcher = _watching(broker, "tables/#")
    table_1 = Peer(broker, "1", client_id=client_id)  # the id table 1 asked for, before or now
    intruder = Peer(broker, "7", client_id=client_id)
    assert intruder.accepted
    assert not table_1.publish("tables/1/state", b"{}").is_failure
    wait_for(lambda: watcher.payloads("tables/1/state") == [b"{}"], "table 1, still on")
    assert table_1.thrown_off == []
