"""Two machines answering to one table number (R1003): each table's state names the machine it
runs on; a number heard from two machines within a window is a problem for the director (two
halls bridged to the hub gave one number twice: R1002), which the hub logs once. Pure: the
board hands in what each state named and when it arrived.

A machine seen last before the window, or before the number's last "offline" (a Pi replaced by
a spare says goodbye, or its will does, before the spare answers), is forgotten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from firmware_py.table.hub_wire import Machine

# Two tables on one number each send a state at least every few minutes while they play (their
# clocks tick each second), and both at every connection; a machine silent this long is gone.
WINDOW_SECONDS = 600.0


@dataclass(frozen=True, slots=True)
class Sighting:
    machine: Machine
    heard: float  # seconds since the epoch


def sighted(seen: Sequence[Sighting], machine: Machine, heard: float) -> tuple[Sighting, ...]:
    """The machines heard on a number within the window up to ``heard``, ``machine`` last."""
    kept = tuple(s for s in seen if s.machine != machine and heard - s.heard <= WINDOW_SECONDS)
    return (*kept, Sighting(machine, heard))


def machine_names(seen: Sequence[Sighting]) -> tuple[str, ...]:
    """How a person tells the machines apart, sorted: their host names, each with its id when
    two share one (cards cloned from one image)."""
    hosts = [s.machine.host for s in seen]
    return tuple(
        sorted(
            s.machine.host
            if hosts.count(s.machine.host) == 1
            else f"{s.machine.host} (id {s.machine.id or 'none'})"
            for s in seen
        )
    )


def answered_by(table: int, names: Sequence[str]) -> str:
    """ "table 14 is answered by two machines, pi-hall-a and pi-hall-b"."""
    count = "two" if len(names) == 2 else str(len(names))
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"table {table} is answered by {count} machines, {listed}"


def two_machines_line(table: int, names: Sequence[str]) -> str:
    """The hub's log line, and what the director is told to do."""
    which = "one of them" if len(names) == 2 else "all of them but one"
    return f"{answered_by(table, names)}: give {which} another number"
