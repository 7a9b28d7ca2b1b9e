"""A process's CPU time and memory, read from Linux's /proc."""

from __future__ import annotations

import os
from pathlib import Path

CLOCK_TICK = os.sysconf("SC_CLK_TCK")  # utime/stime are in these (100 per second, usually)


def cpu_seconds(pid: int) -> float:
    """utime + stime of every thread of ``pid`` (fields 14 and 15 of /proc/PID/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat.rpartition(")")[2].split()  # the command name may hold spaces
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / CLOCK_TICK


def rss_bytes(pid: int) -> int:
    """VmRSS from /proc/PID/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise LookupError(f"no VmRSS for process {pid}")
