"""``gametable run`` as systemd starts it, on MockFactory: start-to-ready, memory, idle CPU.

Each start gets a fresh fake $NOTIFY_SOCKET (an AF_UNIX datagram socket bound in a temp dir)
and a config with the mock pin factory, no OLED and a ``loop://`` scoreboard.
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.figures import Figure, Section
from bench.procfs import CLOCK_TICK, cpu_seconds, rss_bytes

STARTS = 3
SETTLE = 0.5  # after READY=1, before the idle window opens
IDLE_WINDOW = 8.0
READY_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0
MB, MIB = 1000 * 1000, 1024 * 1024

CONFIG = """\
[gpio]
pin_factory = "mock"
[oled]
enabled = false
[scoreboard]
url = "loop://"
[log]
level = "INFO"
"""


def gametable_command(config: Path) -> list[str]:
    """The installed console script next to this Python (.venv/bin/gametable)."""
    script = Path(sys.executable).parent / "gametable"
    journal = ["--journal", str(config.with_name("journal.db")), "--new-journal"]
    if script.exists():
        return [str(script), "run", "--config", str(config), *journal]
    return [sys.executable, "-m", "firmware_py.cli", "run", "--config", str(config), *journal]


@dataclass(frozen=True, slots=True)
class Run:
    ready_after: float  # Popen -> READY=1 received
    rss_at_ready: int
    rss_after_idle: int | None
    idle_cpu: float | None  # fraction of one core over the idle window
    exit_code: int
    stop_after: float  # SIGTERM -> exited


def _await_ready(listener: socket.socket, process: subprocess.Popen[str], since: float) -> None:
    while True:
        left = READY_TIMEOUT - (time.perf_counter() - since)
        if left <= 0 or process.poll() is not None:
            raise RuntimeError(f"gametable run did not notify READY=1 (exit {process.poll()})")
        listener.settimeout(left)
        if listener.recv(4096).startswith(b"READY=1"):
            return


def _stop(process: subprocess.Popen[str]) -> tuple[int, float]:
    started = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return -signal.SIGKILL, time.perf_counter() - started
    if process.returncode != 0:
        print(f"gametable run exited {process.returncode}: {err.strip()}", file=sys.stderr)
    return process.returncode, time.perf_counter() - started


def _idle(pid: int) -> float:
    """CPU time over wall time for the idle window, from utime + stime in /proc/PID/stat."""
    time.sleep(SETTLE)
    cpu_before, wall_before = cpu_seconds(pid), time.monotonic()
    time.sleep(IDLE_WINDOW)
    return (cpu_seconds(pid) - cpu_before) / (time.monotonic() - wall_before)


def start_once(workdir: Path, config: Path, measure_idle: bool) -> Run:
    path = workdir / "notify"
    path.unlink(missing_ok=True)
    env = {**os.environ, "NOTIFY_SOCKET": str(path)}
    for name in ("WATCHDOG_USEC", "WATCHDOG_PID"):
        env.pop(name, None)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(path))
        started = time.perf_counter()
        process = subprocess.Popen(
            gametable_command(config),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            _await_ready(listener, process, started)
            ready_after = time.perf_counter() - started
            rss_at_ready = rss_bytes(process.pid)
            idle = _idle(process.pid) if measure_idle else None
            rss_after = rss_bytes(process.pid) if measure_idle else None
        finally:
            exit_code, stop_after = _stop(process)
    return Run(ready_after, rss_at_ready, rss_after, idle, exit_code, stop_after)


def daemon_figures() -> Section:
    with tempfile.TemporaryDirectory(prefix="gametable-bench-") as tmp:
        workdir = Path(tmp)
        config = workdir / "table.toml"
        config.write_text(CONFIG)
        runs = [start_once(workdir, config, measure_idle=i == STARTS - 1) for i in range(STARTS)]
    ready = statistics.median(run.ready_after for run in runs)
    rss = max(
        [run.rss_at_ready for run in runs] + [r.rss_after_idle for r in runs if r.rss_after_idle]
    )
    idle = next(run.idle_cpu for run in runs if run.idle_cpu is not None)
    resolution = 100.0 / CLOCK_TICK / IDLE_WINDOW
    clean = all(run.exit_code == 0 for run in runs)
    figures = [
        Figure(
            f"daemon start -> READY=1, median of {STARTS}",
            f"{ready:.3f} s",
            "<= 1 s",
            ready <= 1.0,
        ),
        Figure(
            f"  each start ({', '.join(f'{run.ready_after:.3f}' for run in runs)} s)",
            f"max {max(run.ready_after for run in runs):.3f} s",
            "-",
            None,
        ),
        Figure(
            "daemon RSS (VmRSS), largest sample",
            f"{rss / MB:.1f} MB ({rss / MIB:.1f} MiB)",
            "<= 40 MB",
            rss <= 40 * MB,
        ),
        Figure(
            f"daemon idle CPU over {IDLE_WINDOW:g} s",
            f"{idle * 100:.2f} % (+-{resolution:.2f})",
            "<= 0.5 %",
            idle <= 0.005,
        ),
        Figure(
            f"daemon exits 0 on SIGTERM ({STARTS} starts)",
            f"{'yes' if clean else 'no'}, <= {max(run.stop_after for run in runs):.2f} s",
            "exit 0",
            clean,
        ),
    ]
    how = (
        f"'{Path(gametable_command(config)[0]).name} run --config' (mock pin factory, OLED "
        "off, scoreboard loop://) started with subprocess.Popen and a fake NOTIFY_SOCKET "
        f"(AF_UNIX SOCK_DGRAM in a temp dir), {STARTS} times, one after another. Start -> "
        "ready = time.perf_counter from before Popen to the READY=1 datagram. RSS = VmRSS of "
        "/proc/PID/status (MB = 10^6 bytes) right after READY=1 on every start and after the "
        f"idle window; the largest is reported. Idle CPU on the last start, {SETTLE:g} s after "
        f"READY=1: (utime + stime of /proc/PID/stat, all threads) over {IDLE_WINDOW:g} s of "
        f"wall time, no input, no CPU load; those counters tick {CLOCK_TICK} times a second, "
        "hence the +- one tick. Then SIGTERM, and the exit is waited for (killed after "
        f"{STOP_TIMEOUT:g} s)."
    )
    return Section("daemon process (gametable run on MockFactory)", how, figures)
