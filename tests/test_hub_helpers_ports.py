"""The test brokers under parallel workers (``make test`` runs pytest-xdist): a free port is only
free for a moment, so a broker that loses its port to another process chooses again, and is
never fooled into taking another process's listener for its own."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import hub_helpers
from tests.hub_helpers import Broker, Peer


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A loopback port another process (here: this one) listens on; it speaks no MQTT."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


def test_a_broker_whose_chosen_port_is_taken_first_chooses_another(
    tmp_path: Path, taken_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    choices = iter([taken_port])
    chosen_freely = hub_helpers.free_port
    monkeypatch.setattr(hub_helpers, "free_port", lambda: next(choices, None) or chosen_freely())
    broker = Broker(tmp_path / "broker")
    broker.directory.mkdir()
    broker.start()
    try:
        assert broker.port != taken_port
        table = Peer(broker, "7")
        assert table.accepted  # the broker it reaches is its own mosquitto
        table.close()
    finally:
        broker.stop()


def test_a_broker_given_a_taken_port_fails_naming_it(tmp_path: Path, taken_port: int) -> None:
    broker = Broker(tmp_path / "broker", port=taken_port)
    broker.directory.mkdir()
    with pytest.raises(AssertionError, match=f"did not start on port {taken_port}: .*in use"):
        broker.start()
    assert broker.process is None
