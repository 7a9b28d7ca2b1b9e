"""systemd's notify protocol and watchdog, without libsystemd.

The protocol is one datagram per message to the AF_UNIX socket named by $NOTIFY_SOCKET (a path,
or an abstract name written with a leading '@'), holding newline-separated assignments such as
READY=1, STATUS=..., WATCHDOG=1, STOPPING=1 (sd_notify(3)). The watchdog is on when
$WATCHDOG_USEC is set and $WATCHDOG_PID is unset or ours (sd_watchdog_enabled(3)); the service
must then send WATCHDOG=1 at least that often, and sd_watchdog_enabled(3) recommends every half.

Sending never raises and never blocks: the daemon must not die, or stall its event loop, because
the service manager is slow or gone. A failure is logged once until a send succeeds again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends notifications to the service manager; without $NOTIFY_SOCKET every call is a no-op."""

    def __init__(self, *, address: str | None, watchdog_usec: int | None = None) -> None:
        """`address` is $NOTIFY_SOCKET as given ('/path' or '@abstract'); `watchdog_usec` is the
        interval already checked against $WATCHDOG_PID (from_environ does both)."""
        self._address = address
        self._target: bytes | None = None
        if address is not None and address[:1] == "/":
            self._target = os.fsencode(address)
        elif address is not None and address[:1] == "@" and len(address) > 1:
            self._target = b"\0" + os.fsencode(address[1:])  # the abstract namespace
        elif address is not None:
            # vsock: and anything newer would need more than AF_UNIX; better silent than dead.
            log.warning("NOTIFY_SOCKET=%r is not an AF_UNIX socket; not notifying systemd", address)
        self._watchdog_usec = watchdog_usec if self._target is not None else None
        self._socket: socket.socket | None = None
        self._failing = False

    @classmethod
    def from_environ(
        cls, environ: Mapping[str, str] = os.environ, *, pid: int | None = None
    ) -> Notifier:
        """Read NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID; `pid` defaults to ours."""
        address = environ.get("NOTIFY_SOCKET") or None
        return cls(
            address=address,
            watchdog_usec=_watchdog_usec(environ, os.getpid() if pid is None else pid),
        )

    @property
    def enabled(self) -> bool:
        """True when a service manager is listening."""
        return self._target is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds within which systemd expects WATCHDOG=1, or None when there is no watchdog."""
        return None if self._watchdog_usec is None else self._watchdog_usec / 1_000_000

    def ready(self, status: str | None = None) -> bool:
        """Startup is finished (Type=notify waits for this), with an optional status line."""
        return self.send("READY=1", *_status(status))

    def status(self, text: str) -> bool:
        """The one-line status `systemctl status` shows."""
        return self.send(*_status(text))

    def watchdog(self) -> bool:
        """The keep-alive ping."""
        return self.send("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        """Shutdown has begun."""
        return self.send("STOPPING=1", *_status(status))

    def send(self, *assignments: str) -> bool:
        """Send one datagram of assignments; True if it was handed to the kernel."""
        if self._target is None or not assignments:
            return False
        message = "\n".join(assignments).encode("utf-8", "replace")
        try:
            if self._socket is None:
                self._socket = socket.socket(
                    socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                )
                # A full receive queue must drop the message, not stall the event loop.
                self._socket.setblocking(False)
            self._socket.sendto(message, self._target)
        except OSError as error:
            if not self._failing:
                log.warning(
                    "cannot notify systemd at %s: %s (not logged again until a send succeeds)",
                    self._address,
                    error,
                )
                self._failing = True
            return False
        if self._failing:
            log.info("notifying systemd at %s works again", self._address)
            self._failing = False
        return True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _status(text: str | None) -> tuple[str, ...]:
    # STATUS= is a single line: a newline would start a new (bogus) assignment.
    return () if text is None else ("STATUS=" + " ".join(text.splitlines()),)


def _watchdog_usec(environ: Mapping[str, str], pid: int) -> int | None:
    owner = environ.get("WATCHDOG_PID")
    if owner is not None and owner.strip() != str(pid):
        return None  # set for another process up the tree (sd_watchdog_enabled(3))
    raw = environ.get("WATCHDOG_USEC")
    if raw is None:
        return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a number of microseconds", raw)
        return None
    return usec if usec > 0 else None


class WatchdogPinger:
    """Pings the watchdog at half its interval, but only while `healthy()` says so.

    Running on the event loop is the point: if the loop stalls the pings stop, and if the daemon
    reports itself unhealthy the pings stop, and either way systemd restarts the service after
    WatchdogSec=. A daemon has one of these, started once it has sent READY=1.
    """

    def __init__(
        self,
        *,
        notifier: Notifier,
        healthy: Callable[[], bool],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._notifier = notifier
        self._healthy = healthy
        self._sleep = sleep

    async def run(self) -> None:
        """Ping forever (cancel to stop); returns at once when no watchdog is configured."""
        interval = self._notifier.watchdog_interval
        if interval is None:
            return
        period = interval / 2
        was_healthy = True
        while True:
            await self._sleep(period)
            healthy = self._healthy()
            if healthy:
                self._notifier.watchdog()
            if healthy != was_healthy:
                if healthy:
                    log.info("healthy again: watchdog pings resumed")
                else:
                    log.error(
                        "unhealthy: watchdog pings stopped, systemd restarts within %gs", interval
                    )
                was_healthy = healthy
