"""Which machine a table runs on (R1003): its host name, and a digest of its /etc/machine-id and
network address, sent with its state so that the hub sees two machines answering to one table
number (two halls that gave one number twice: R1002).

Read once when the table's link to the hub is made; nothing here is secret (the digest names no
address), and a machine that has neither id sends its host name alone.
"""

from __future__ import annotations

import hashlib
import re
import socket
import uuid
from collections.abc import Sequence
from pathlib import Path

from firmware_py.table.hub_wire import MACHINE_ID_DIGITS, MAX_HOST, Machine

MACHINE_ID_FILES = (Path("/etc/machine-id"), Path("/var/lib/dbus/machine-id"))
_MACHINE_ID_BYTES = 64  # a machine id is 32 hex digits and a line break
_MULTICAST_BIT = 1 << 40  # set in the number uuid.getnode() makes up when it finds no address


def this_machine(
    host: str | None = None,
    id_files: Sequence[Path] = MACHINE_ID_FILES,
    node: int | None = None,
) -> Machine:
    """This machine (``host``, ``id_files`` and ``node``, the network address, given in tests)."""
    name = host_name(socket.gethostname() if host is None else host)
    machine_id = _machine_id(id_files)
    address = uuid.getnode() if node is None else node
    hardware = "" if address & _MULTICAST_BIT else f"{address:012x}"  # made up: not this one's
    if not machine_id and not hardware:
        return Machine(name)
    digest = hashlib.sha256(f"{machine_id}|{hardware}".encode()).hexdigest()
    return Machine(name, digest[:MACHINE_ID_DIGITS])


def host_name(text: str) -> str:
    """A host name as the wire carries it: letters, digits, '.', '-' and '_', at most MAX_HOST
    characters; anything else becomes '-' ("unnamed" for none)."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", text.strip())[:MAX_HOST]
    return cleaned or "unnamed"


def _machine_id(files: Sequence[Path]) -> str:
    for path in files:
        try:
            with path.open("rb") as opened:
                text = opened.read(_MACHINE_ID_BYTES).decode("ascii", "replace").strip()
        except OSError:
            continue
        if text:
            return text
    return ""
