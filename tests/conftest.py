"""Every test sees the game families registered, as the program's entry points do, and no
GPIOZERO_PIN_FACTORY from the shell it was started in (it would override every test config's
pin factory: R750); the hub's tests get a mosquitto of their own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from firmware_py import families
from tests.hub_helpers import Broker

families.install()

# Timings are never asserted in unit tests (make bench measures them): on parallel workers on a
# busy machine, Hypothesis's 200 ms deadline and its too-slow health check failed tests whose
# rules held. Loaded before any test module is imported, so every @settings inherits it.
settings.register_profile("gametable", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gametable")


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
