"""paho-mqtt on an asyncio loop: paho runs its network on a thread of its own, and every
callback it makes is handed to the loop here, so that the table's link and the tournament hub
do all their work on their one loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

log = logging.getLogger(__name__)


class _Broker(Protocol):
    @property
    def host(self) -> str: ...


class PahoOnLoop:
    """The connection callbacks of a paho client, run on the loop as ``_connected`` and
    ``_disconnected``. A subclass sets ``_loop`` when it starts (None: nothing is handed on)."""

    broker: _Broker
    _loop: asyncio.AbstractEventLoop | None
    _complaint: str | None

    # --- on the loop ----------------------------------------------------------------------

    def _connected(self, reason: ReasonCode) -> None:
        raise NotImplementedError

    def _disconnected(self, reason: str) -> None:
        raise NotImplementedError

    def _complain(self, line: str) -> None:
        """A warning once, not again while the same thing stays wrong (a broker down)."""
        if line != self._complaint:
            log.warning(line)
            self._complaint = line

    # --- on paho's thread: hand everything to the loop ------------------------------------

    def _to_loop(self, callback: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop closed: the program is stopping
            loop.call_soon_threadsafe(callback, *args)

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.ConnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self._to_loop(self._connected, reason)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        self._to_loop(self._complain, f"event=hub_unreachable broker={self.broker.host}")

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: mqtt.DisconnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self._to_loop(self._disconnected, str(reason))
