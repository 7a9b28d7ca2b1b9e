"""What the bench reads from the installed unit (systemd/gametable.service), so that it measures
the daemon the way systemd runs it: the scheduling policy of its loop (R1083).

systemd applies ``CPUSchedulingPolicy=``/``CPUSchedulingPriority=`` to the daemon's process before
it starts; its threads inherit it. The bench, root here as systemd is, applies the same to the
thread that waits for the deadlines, and only while it measures: the busy loops it competes with
are started before, as ordinary processes.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "gametable.service"

# systemd's names for the policies (systemd.exec(5), CPUSchedulingPolicy=)
POLICIES = {
    "other": os.SCHED_OTHER,
    "batch": os.SCHED_BATCH,
    "idle": os.SCHED_IDLE,
    "fifo": os.SCHED_FIFO,
    "rr": os.SCHED_RR,
}
REALTIME = {"fifo", "rr"}


def unit_value(unit_text: str, key: str) -> str:
    """The value of a ``Key=value`` line of the unit (the last one, as systemd reads it)."""
    found = None
    for line in unit_text.splitlines():
        name, _, value = line.partition("=")
        if name.strip() == key:
            found = value.strip()
    if found is None:
        raise LookupError(f"{key} is not set in the unit")
    return found


@dataclass(frozen=True, slots=True)
class Scheduling:
    policy: str  # systemd's name: rr, fifo, other, ...
    priority: int

    def __str__(self) -> str:
        return f"SCHED_{self.policy.upper()} {self.priority}"


def unit_scheduling(unit_text: str) -> Scheduling:
    """The unit's ``CPUSchedulingPolicy=`` and ``CPUSchedulingPriority=``."""
    policy = unit_value(unit_text, "CPUSchedulingPolicy")
    if policy not in POLICIES:
        raise ValueError(
            f"CPUSchedulingPolicy={policy}: expected one of {', '.join(sorted(POLICIES))}"
        )
    raw = unit_value(unit_text, "CPUSchedulingPriority")
    lowest = 1 if policy in REALTIME else 0
    highest = 99 if policy in REALTIME else 0
    if not raw.isdigit() or not lowest <= int(raw) <= highest:
        raise ValueError(f"CPUSchedulingPriority={raw}: expected {lowest}-{highest} for {policy}")
    return Scheduling(policy, int(raw))


@contextlib.contextmanager
def scheduled(scheduling: Scheduling) -> Iterator[None]:
    """The calling thread under ``scheduling`` (a realtime policy needs root or CAP_SYS_NICE:
    PermissionError otherwise), and back to what it was afterwards."""
    policy, param = os.sched_getscheduler(0), os.sched_getparam(0)
    os.sched_setscheduler(0, POLICIES[scheduling.policy], os.sched_param(scheduling.priority))
    try:
        yield
    finally:
        os.sched_setscheduler(0, policy, param)
