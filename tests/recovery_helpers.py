"""For the recovery tests: a table on the hub killed as kill -9 leaves it (its journal's -wal and
-shm beside it, its outbox full), a kill at a chosen step of a recovery, and what a journal and
its carried decisions hold afterwards (R900)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import run_script
from firmware_py.table.journal import Journal
from tests.journal_helpers import CLI, SCRIPTS


def killed_on_the_hub(path: Path, script: str = "plunge", *, at: float | None = None) -> list[Any]:
    """A table on the hub (its outbox in use) playing ``script`` into ``path``, killed with
    SIGKILL ``at`` seconds after its first decision (None: once it has played the whole script,
    before it closes its journal). The decisions it had shown (committed) before it died."""
    lines = (SCRIPTS / f"{script}.jsonl").read_text().splitlines()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        journal = Journal.open(path, outbox=True)

        def shown(event: dict[str, Any]) -> None:
            os.write(writer, (json.dumps(event) + "\n").encode())

        run_script(lines, TableSettings(), shown, journal=journal)
        os.write(writer, b"played\n")
        time.sleep(60)  # killed here: no close, no checkpoint
        os._exit(0)
    os.close(writer)
    lines_read: list[bytes] = []
    with os.fdopen(reader, "rb") as pipe:
        if at is None:
            while (line := pipe.readline()) and line != b"played\n":
                lines_read.append(line)
        else:  # from its first decision: a table killed before it has nothing to recover
            lines_read.append(pipe.readline())
            time.sleep(at)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        lines_read += pipe.read().splitlines()
    output = [json.loads(line) for line in lines_read if line.strip() and line != b"played"]
    return [event for event in output if event["event"] != "entry_refused"]


def decisions(path: Path) -> list[dict[str, Any]]:
    """Every decision the journal at ``path`` holds, read as ``journal show`` reads it."""
    journal = Journal.open_read_only(path)
    try:
        return [entry.body for entry in journal.entries() if entry.kind == "event"]
    finally:
        journal.close()


def waiting(path: Path) -> set[tuple[str, int]]:
    """The decisions the journal at ``path`` holds for the hub, its own and those it carries:
    (journal id, seq)."""
    journal = Journal.open_read_only(path)
    try:
        found: set[tuple[str, int]] = set()
        for stream in journal.streams():
            after = 0
            while batch := journal.outgoing(after=after, limit=500, journal=stream):
                found |= {(item.journal, item.seq) for item in batch}
                after = batch[-1].seq
        return found
    finally:
        journal.close()


def in_a_killed_process(step: Callable[[], object]) -> None:
    """``step`` run in a process of its own, which dies by SIGKILL wherever ``step`` makes it
    call ``kill_here`` (or once ``step`` returns)."""
    pid = os.fork()
    if pid == 0:
        try:
            step()
        finally:
            os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(pid, 0)


def kill_here() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def run_until_ready(config: Path, *argv: str, timeout: float = 30) -> tuple[int, str, str]:
    """``gametable run`` with ``argv``, stopped by SIGTERM once it tells systemd it is ready (or
    as it exits by itself): its status, stdout and stderr."""
    place = tempfile.TemporaryDirectory(prefix="gt-notify-")  # short: a socket's path is
    address = str(Path(place.name) / "notify")  # at most 108 bytes
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(0.2)
    env = {**os.environ, "NOTIFY_SOCKET": address}
    process = subprocess.Popen(
        [*CLI, "run", "--config", str(config), *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + timeout
    try:
        while process.poll() is None and time.monotonic() < deadline:
            try:
                if listener.recv(4096).startswith(b"READY=1"):
                    process.send_signal(signal.SIGTERM)
                    break
            except TimeoutError:
                continue
        out, err = process.communicate(timeout=timeout)
    finally:
        process.kill()
        listener.close()
        place.cleanup()
    return process.returncode, out, err
