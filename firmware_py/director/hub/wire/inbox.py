"""The hub's messages, handed from paho's thread to the loop and handled a slice at a time (R726).

A broker that kept the tables' decisions while the hub was away sends them all at once when it
comes back (mosquitto 2.0 lets each acknowledgement release a whole window more), and one
``call_soon_threadsafe`` per message would put tens of thousands of them before anything else
on the loop: the director's page would wait for all of them. Here they wait in a queue of their
own, and the loop handles them for at most ``SLICE_SECONDS`` at a time, then serves whatever
else is ready (a page's request) before the next slice. The order is kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

SLICE_SECONDS = 0.02  # the loop's other work waits at most this (and one message) for its turn


class Inbox:
    """Messages put on any thread, handled on the loop by ``handle``, in order, a slice at a
    time. Nothing is handled before ``open``; what is left at the end is dropped (an MQTT
    message not acknowledged is sent again)."""

    def __init__(
        self,
        handle: Callable[..., None],
        *,
        slice_seconds: float = SLICE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._handle = handle
        self._slice = slice_seconds
        self._clock = clock
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: deque[tuple[Any, ...]] = deque()
        self._lock = threading.Lock()
        self._scheduled = False  # a slice is due on the loop

    def open(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def put(self, *message: Any) -> None:
        """From any thread: the message is handled on the loop, after those put before it."""
        loop = self._loop
        if loop is None:
            return
        with self._lock:
            self._queue.append(message)
            if self._scheduled:
                return
            self._scheduled = True
        with contextlib.suppress(RuntimeError):  # the loop closed: the program is stopping
            loop.call_soon_threadsafe(self._slice_of_work)

    def __len__(self) -> int:
        return len(self._queue)

    def _slice_of_work(self) -> None:
        deadline = self._clock() + self._slice
        try:
            while self._queue:
                self._handle(*self._queue.popleft())
                if self._clock() >= deadline:
                    break
        finally:  # a handler's error is the loop's to log, as any callback's; the rest go on
            self._next_slice()

    def _next_slice(self) -> None:
        with self._lock:
            if not self._queue:
                self._scheduled = False
                return
        assert self._loop is not None
        self._loop.call_soon(self._slice_of_work)  # after what the loop has ready meanwhile
