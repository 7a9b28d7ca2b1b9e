"""Every test sees the game families registered, as the program's entry points do, and no
GPIOZERO_PIN_FACTORY from the shell it was started in (it would override every test config's
pin factory: R750); the hub's tests get a mosquitto of their own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py import families
from tests.hub_helpers import Broker

families.install()


@pytest.fixture(autouse=True)
def _no_pin_factory_from_the_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """The shipped broker config on a free loopback port (tests/hub_helpers.py), with the
    accounts of the hub and tables 1, 2, 3, 7 and 8; stopped after the test."""
    running = Broker(tmp_path / "broker")
    running.directory.mkdir()
    running.start()
    try:
        yield running
    finally:
        running.stop()
