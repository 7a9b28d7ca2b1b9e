"""systemd notify and watchdog, against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from firmware_py.table.notify import Notifier, WatchdogPinger


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A bound datagram socket and the NOTIFY_SOCKET value naming it."""
    path = tmp_path / "notify"
    receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    receiver.bind(str(path))
    receiver.settimeout(2)
    yield receiver, str(path)
    receiver.close()


def received(receiver: socket.socket) -> list[str]:
    """Every datagram waiting, each split into its assignments."""
    messages = []
    receiver.setblocking(False)
    try:
        while True:
            messages.append(receiver.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        receiver.settimeout(2)
    return messages


def notifier_for(address: str, **environ: str) -> Notifier:
    return Notifier.from_environ({"NOTIFY_SOCKET": address, **environ})


class Stop(Exception):
    """Ends a pinger's loop from a fake sleep."""


def fake_sleep(delays: list[float], *, times: int) -> Callable[[float], Awaitable[None]]:
    """Records each delay instead of sleeping; the (times+1)th call ends the loop."""

    async def sleep(delay: float) -> None:
        if len(delays) == times:
            raise Stop
        delays.append(delay)

    return sleep


# Notifier


def test_ready_sends_ready_with_status_in_one_datagram(systemd: tuple[socket.socket, str]) -> None:
    receiver, address = systemd
    assert notifier_for(address).ready("4 seats, oled ok") is True
    assert receiver.recv(4096) == b"READY=1\nSTATUS=4 seats, oled ok"


def test_ready_without_status_sends_only_ready(systemd: tuple[socket.socket, str]) -> None:
    receiver, address = systemd
    notifier_for(address).ready()
    assert receiver.recv(4096) == b"READY=1"


def test_status_is_kept_to_one_line(systemd: tuple[socket.socket, str]) -> None:
    receiver, address = systemd
    notifier_for(address).status("game 2\nREADY=1")
    assert receiver.recv(4096) == b"STATUS=game 2 READY=1"


def test_watchdog_sends_watchdog_1(systemd: tuple[socket.socket, str]) -> None:
    receiver, address = systemd
    notifier_for(address).watchdog()
    assert receiver.recv(4096) == b"WATCHDOG=1"


def test_stopping_sends_stopping_1(systemd: tuple[socket.socket, str]) -> None:
    receiver, address = systemd
    notifier_for(address).stopping()
    assert receiver.recv(4096) == b"STOPPING=1"


def test_an_abstract_socket_name_starting_with_at_is_reached() -> None:
    name = f"gametable-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as receiver:
        receiver.bind(b"\0" + name.encode())
        receiver.settimeout(2)
        notifier_for("@" + name).ready()
        assert receiver.recv(4096) == b"READY=1"


def test_without_notify_socket_every_call_is_a_no_op() -> None:
    notifier = Notifier.from_environ({"WATCHDOG_USEC": "10000000"})
    assert notifier.enabled is False
    assert notifier.watchdog_interval is None
    assert [
        notifier.ready("x"),
        notifier.status("x"),
        notifier.watchdog(),
        notifier.stopping(),
    ] == [False] * 4


def test_an_empty_notify_socket_is_no_socket() -> None:
    assert Notifier.from_environ({"NOTIFY_SOCKET": ""}).enabled is False


def test_a_non_unix_notify_socket_is_ignored_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING):
        notifier = notifier_for("vsock:2:1234")
    assert notifier.enabled is False
    assert notifier.ready() is False
    assert "not an AF_UNIX socket" in caplog.text


def test_a_vanished_socket_does_not_raise_and_is_logged_once(
    systemd: tuple[socket.socket, str], caplog: pytest.LogCaptureFixture
) -> None:
    receiver, address = systemd
    receiver.close()
    os.unlink(address)
    notifier = notifier_for(address)
    with caplog.at_level(logging.WARNING):
        assert notifier.ready() is False
        assert notifier.watchdog() is False
    assert len(caplog.records) == 1
    assert address in caplog.records[0].getMessage()


def test_notifying_recovers_when_the_socket_returns(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "notify"
    notifier = notifier_for(str(path))
    assert notifier.watchdog() is False
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as receiver:
        receiver.bind(str(path))
        receiver.settimeout(2)
        with caplog.at_level(logging.INFO):
            assert notifier.watchdog() is True
        assert receiver.recv(4096) == b"WATCHDOG=1"
    assert "works again" in caplog.text


def test_a_full_queue_drops_the_message_instead_of_blocking(
    systemd: tuple[socket.socket, str],
) -> None:
    _, address = systemd
    notifier = notifier_for(address)
    # Nobody reads: the receive queue fills up and sends must fail fast, not block.
    results = [notifier.status("x" * 1000) for _ in range(10_000)]
    assert results[0] is True
    assert results[-1] is False


# the watchdog interval


def test_watchdog_interval_is_watchdog_usec_in_seconds(systemd: tuple[socket.socket, str]) -> None:
    _, address = systemd
    assert notifier_for(address, WATCHDOG_USEC="10000000").watchdog_interval == 10.0


def test_watchdog_pid_of_this_process_keeps_the_watchdog(
    systemd: tuple[socket.socket, str],
) -> None:
    _, address = systemd
    notifier = notifier_for(address, WATCHDOG_USEC="4000000", WATCHDOG_PID=str(os.getpid()))
    assert notifier.watchdog_interval == 4.0


def test_watchdog_pid_of_another_process_disables_the_watchdog(
    systemd: tuple[socket.socket, str],
) -> None:
    _, address = systemd
    notifier = notifier_for(address, WATCHDOG_USEC="4000000", WATCHDOG_PID=str(os.getpid() + 1))
    assert notifier.watchdog_interval is None


def test_a_zero_or_garbled_watchdog_usec_means_no_watchdog(
    systemd: tuple[socket.socket, str],
) -> None:
    _, address = systemd
    assert notifier_for(address, WATCHDOG_USEC="0").watchdog_interval is None
    assert notifier_for(address, WATCHDOG_USEC="10s").watchdog_interval is None


def test_no_watchdog_usec_means_no_watchdog(systemd: tuple[socket.socket, str]) -> None:
    _, address = systemd
    assert notifier_for(address).watchdog_interval is None


# WatchdogPinger


def test_the_pinger_pings_at_half_the_interval_while_healthy(
    systemd: tuple[socket.socket, str],
) -> None:
    receiver, address = systemd
    notifier = notifier_for(address, WATCHDOG_USEC="10000000")
    delays: list[float] = []
    pinger = WatchdogPinger(
        notifier=notifier, healthy=lambda: True, sleep=fake_sleep(delays, times=3)
    )
    with pytest.raises(Stop):
        asyncio.run(pinger.run())
    assert delays == [5.0, 5.0, 5.0]
    assert received(receiver) == ["WATCHDOG=1"] * 3


def test_the_pinger_stops_pinging_while_unhealthy(systemd: tuple[socket.socket, str]) -> None:
    receiver, address = systemd
    notifier = notifier_for(address, WATCHDOG_USEC="2000000")
    health = iter([True, False, False, True])
    pinger = WatchdogPinger(
        notifier=notifier,
        healthy=lambda: next(health),
        sleep=fake_sleep([], times=4),
    )
    with pytest.raises(Stop):
        asyncio.run(pinger.run())
    assert received(receiver) == ["WATCHDOG=1", "WATCHDOG=1"]  # the 1st and the 4th


def test_the_pinger_logs_when_health_changes(
    systemd: tuple[socket.socket, str], caplog: pytest.LogCaptureFixture
) -> None:
    _, address = systemd
    notifier = notifier_for(address, WATCHDOG_USEC="2000000")
    health = iter([False, False, True])
    pinger = WatchdogPinger(
        notifier=notifier,
        healthy=lambda: next(health),
        sleep=fake_sleep([], times=3),
    )
    with caplog.at_level(logging.INFO), pytest.raises(Stop):
        asyncio.run(pinger.run())
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert messages[0].startswith("unhealthy: watchdog pings stopped")
    assert messages[1].startswith("healthy again")


def test_the_pinger_returns_at_once_without_a_watchdog(
    systemd: tuple[socket.socket, str],
) -> None:
    receiver, address = systemd
    delays: list[float] = []
    pinger = WatchdogPinger(
        notifier=notifier_for(address),
        healthy=lambda: True,
        sleep=fake_sleep(delays, times=1),
    )
    asyncio.run(pinger.run())
    assert delays == []
    assert received(receiver) == []


def test_the_pinger_is_silent_on_a_real_clock_until_half_the_interval(
    systemd: tuple[socket.socket, str],
) -> None:
    receiver, address = systemd
    notifier = notifier_for(address, WATCHDOG_USEC="400000")  # 0.4 s: a ping every 0.2 s

    async def run_briefly() -> None:
        task = asyncio.create_task(WatchdogPinger(notifier=notifier, healthy=lambda: True).run())
        await asyncio.sleep(0.05)
        assert received(receiver) == []
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run_briefly())
    assert received(receiver).count("WATCHDOG=1") >= 1
