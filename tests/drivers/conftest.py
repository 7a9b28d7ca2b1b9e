"""Shared fixtures: a fresh gpiozero MockFactory (TimedMockPin pins) per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from drivers.mockpins import mock_factory


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    pin_factory = mock_factory()
    yield pin_factory
    pin_factory.close()
