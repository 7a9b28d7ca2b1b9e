"""The hub under a hall's load: N simulated tables (default 500) each publishing its state 10
times a second for D seconds (default 60) through a real mosquitto (a temporary config on a free
loopback port), to ``gametable hub run`` as its own process with its director's page.

Two load processes (bench/hub_load.py) share the tables and stamp each state with the time it
was sent (``time.time()``: one clock for every process of the machine). A client follows the
page's event stream (/api/events) as the director's browser does. A state reached the hub's
board at the time the board stamped it (``heard``), which the stream carries: publish -> board
is heard minus sent; publish -> page adds the stream, to the moment the client read it. The
stream sends the latest row of each table that changed since its last message, so under load
some states are overtaken before they are sent: the latencies are those of the states the page
showed. Messages lost: states sent minus the states the hub's board took (its per-table count,
read from /api/board once the load is over). Hub CPU: its utime + stime over the load, as a
share of one core; RSS at the end. GAMETABLE_BENCH_HUB_TABLES and GAMETABLE_BENCH_HUB_SECONDS
set N and D.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from aiohttp import ClientResponse, ClientSession

from bench.figures import Figure, Section, ms, percentile
from bench.hub_load import run, sent_time
from bench.procfs import cpu_seconds, rss_bytes
from bench.staff_login import add_viewer, login_cookie
from firmware_py.director.record.tournament_db import TournamentDB
from rules.tournament import Entrant, TournamentFormat, new_config

RATE = 10.0  # states a second, per table
LOADERS = 2
TARGET_P99 = 0.100
PROBE_TABLE = 999  # published first: once the board has it, the hub is subscribed
MOSQUITTO = "/usr/sbin/mosquitto"
START_SECONDS = 20.0


def tables_and_seconds() -> tuple[int, float]:
    tables = int(os.environ.get("GAMETABLE_BENCH_HUB_TABLES", "500"))
    seconds = float(os.environ.get("GAMETABLE_BENCH_HUB_SECONDS", "60"))
    if not 1 <= tables < PROBE_TABLE or seconds <= 0:
        raise ValueError(f"expected 1 to {PROBE_TABLE - 1} tables and a positive duration")
    return tables, seconds


@dataclass
class Measured:
    sent: int = 0
    taken: int = 0
    to_board: list[float] = field(default_factory=list)
    to_page: list[float] = field(default_factory=list)
    cpu_share: float = 0.0
    rss: int = 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_listening(port: int) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"mosquitto did not listen on port {port}")
        time.sleep(0.02)


def _broker(directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    lines = [
        f"listener {port} 127.0.0.1",
        "allow_anonymous true",
        "persistence false",
        "max_queued_messages 1000000",
        f"log_dest file {directory / 'mosquitto.log'}",
    ]
    if os.geteuid() == 0:
        lines.append("user root")
    config = directory / "mosquitto.conf"
    config.write_text("\n".join(lines) + "\n")
    process = subprocess.Popen([MOSQUITTO, "-c", str(config)], stderr=subprocess.DEVNULL)
    return process, port


def _record(directory: Path) -> Path:
    path = directory / "tournament.db"
    config = new_config(TournamentFormat.COMBO4, seed=1, rounds=3)
    teams = tuple(Entrant(f"Team {i}") for i in range(4))
    TournamentDB.create(path, config, teams, now="2026-05-09T09:00:00+00:00", by="bench").close()
    add_viewer(path)  # the page's views are for staff (R816)
    return path


def _hub(
    directory: Path,
    broker_port: int,
    page_port: int,
    *,
    record: Path | None = None,
    log_level: str = "WARNING",
    stdout: int | IO[bytes] = subprocess.DEVNULL,
    stderr: int | IO[bytes] = subprocess.DEVNULL,
) -> subprocess.Popen[bytes]:
    """``gametable hub run`` on ``record`` (a new one in ``directory`` unless given: a hub
    started again keeps its record)."""
    password = directory / "hub-password"
    password.write_text("anything\n")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "firmware_py.cli",
            "hub",
            "run",
            "--db",
            str(record or _record(directory)),
            "--port",
            str(broker_port),
            "--password-file",
            str(password),
            "--page",
            f"127.0.0.1:{page_port}",
            "--log-level",
            log_level,
        ],
        stdout=stdout,
        stderr=stderr,
        env={**os.environ, "NOTIFY_SOCKET": ""},
    )


def _loaders(port: int, tables: int, seconds: float) -> list[subprocess.Popen[str]]:
    share = -(-tables // LOADERS)
    return [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.hub_load",
                str(port),
                str(first),
                str(min(tables, first + share - 1)),
                str(seconds),
                str(RATE),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for first in range(1, tables + 1, share)
    ]


async def _follow(
    base: str, broker_port: int, hub_pid: int, tables: int, seconds: float
) -> Measured:
    measured = Measured()
    port = int(base.rsplit(":", 1)[1])
    async with ClientSession() as client:
        deadline = time.monotonic() + START_SECONDS
        viewer: dict[str, str] = {}  # the board is for staff (R816): a viewer's session cookie
        while True:  # the page up, then the hub subscribed (the probe's state on its board)
            try:
                if not viewer:
                    cookie = await asyncio.to_thread(login_cookie, port)
                    if cookie is None:
                        raise OSError("the page does not take the login yet")
                    viewer["Cookie"] = cookie
                board = await (await client.get(f"{base}/api/board", headers=viewer)).json()
                if any(row["table"] == PROBE_TABLE for row in board["rows"]):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the hub did not show the probe table within 20 s")
            await asyncio.sleep(0.1)
        stream = await client.get(f"{base}/api/events", headers=viewer)
        await stream.content.readuntil(b"\n\n")  # every table as it is before the load
        cpu_before = cpu_seconds(hub_pid)
        started = time.monotonic()
        loaders = _loaders(broker_port, tables, seconds)
        reading = asyncio.create_task(_read(stream, measured))
        outputs = await asyncio.gather(*(asyncio.to_thread(p.communicate) for p in loaders))
        measured.cpu_share = (cpu_seconds(hub_pid) - cpu_before) / (time.monotonic() - started)
        measured.sent = sum(int(out.strip() or 0) for out, _ in outputs)
        last, steady = -1, 0
        while steady < 3:  # the board's count settles: whatever was on its way has arrived
            await asyncio.sleep(0.2)
            board = await (await client.get(f"{base}/api/board", headers=viewer)).json()
            taken = sum(row["updates"] for row in board["rows"] if row["table"] != PROBE_TABLE)
            steady = steady + 1 if taken == last else 0
            last = taken
        measured.taken = last
        measured.rss = rss_bytes(hub_pid)
        reading.cancel()
        stream.close()
    return measured


async def _read(stream: ClientResponse, measured: Measured) -> None:
    while True:
        chunk = await stream.content.readuntil(b"\n\n")
        read = time.time()
        if not chunk.startswith(b"data: "):
            continue
        for row in json.loads(chunk[6:])["rows"]:
            sent = sent_time(row["game"] or "")
            if sent is not None:
                measured.to_board.append(row["heard"] - sent)
                measured.to_page.append(read - sent)


def measure(tables: int, seconds: float) -> Measured:
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        broker, broker_port = _broker(directory)
        page_port = _free_port()
        hub = _hub(directory, broker_port, page_port)  # it connects once the broker listens
        try:
            _wait_listening(broker_port)
            run(broker_port, PROBE_TABLE, PROBE_TABLE, 1 / RATE, RATE)  # retained: kept for it
            return asyncio.run(
                _follow(f"http://127.0.0.1:{page_port}", broker_port, hub.pid, tables, seconds)
            )
        finally:
            for process in (hub, broker):
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()


def hub_page_load() -> Section:
    tables, seconds = tables_and_seconds()
    measured = measure(tables, seconds)
    lost = measured.sent - measured.taken
    board = measured.to_board or [float("nan")]
    page = measured.to_page or [float("nan")]
    p99 = percentile(board, 0.99)
    how = (__doc__ or "").replace("\n", " ").strip()
    return Section(
        f"the hub under {tables} tables x {RATE:g} states/s for {seconds:g} s",
        how + f" {len(measured.to_board)} states sampled on the page; {measured.sent} sent.",
        [
            Figure("states lost (sent - taken by the board)", str(lost), "0", lost == 0),
            Figure("publish -> hub's board (p50)", ms(percentile(board, 0.5), 1), "-", None),
            Figure(
                "publish -> hub's board (p99)",
                ms(p99, 1),
                f"<= {ms(TARGET_P99, 0)}",
                p99 <= TARGET_P99,
            ),
            Figure("publish -> director's page (p50)", ms(percentile(page, 0.5), 1), "-", None),
            Figure("publish -> director's page (p99)", ms(percentile(page, 0.99), 1), "-", None),
            Figure("hub CPU (share of one core)", f"{measured.cpu_share:.0%}", "-", None),
            Figure("hub RSS", f"{measured.rss / 2**20:.0f} MiB", "-", None),
        ],
    )
