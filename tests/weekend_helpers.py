"""For the weekend's browser test (tests/test_day_weekend_browser.py, issue 27): two halls, each
a mosquitto of its own bridged to the central one as the shipped gametable-hall.conf bridges
it, through a link the test can cut (a TCP relay on 127.0.0.1 between the hall's bridge and the
central broker: what a cable pulled between two buildings does to the bridge), the hub run as
``gametable hub run --day`` runs (a process), real ``gametable run`` tables (tests/hall_table.py,
played by a dealer) and simulated tables that follow their event's rounds.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
from pathlib import Path

from firmware_py.table.hub_wire import (
    EVERY_EVENTS_ROUNDS_PAIRINGS,
    TableMatch,
    event_pairings_topic,
    parse_pairings,
    state_topic,
)
from tests.hall_campaign import CLI, DIE_WITH_CAMPAIGN, ROOT, TABLE, table_config
from tests.hub_hall_helpers import SimulatedTable
from tests.hub_helpers import Broker
from tests.hub_page_helpers import state

RELAY_CHUNK = 65536


class Link:
    """A TCP relay from a port of its own to ``target``: the wire between a hall's bridge and
    the central broker. ``cut()`` drops every connection and refuses new ones (the bridge
    retries, as across a pulled cable); ``heal()`` listens again on the same port."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self.heal()

    def heal(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(8)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            sockets, self._open = self._open, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                far = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                near.close()
                continue
            with self._lock:
                self._open += [near, far]
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(RELAY_CHUNK):
            sink.sendall(chunk)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


class DayTable(SimulatedTable):
    """A simulated table of a day: it hears every event's rounds (as a table does, R1131) and
    tells its match in its own event's round."""

    def __init__(self, broker: Broker, number: int, event: str) -> None:
        super().__init__(broker, number)
        self.event = event
        self.peer.subscribe(EVERY_EVENTS_ROUNDS_PAIRINGS)

    def match(self, round_number: int) -> TableMatch | None:
        payloads = self.peer.payloads(event_pairings_topic(self.event, round_number))
        if not payloads or not payloads[-1]:
            return None
        return parse_pairings(payloads[-1]).at(self.number)

    def heard(self, round_number: int) -> bool:
        """Whether the round's pairings of its event have come (a match here or not)."""
        payloads = self.peer.payloads(event_pairings_topic(self.event, round_number))
        return bool(payloads and payloads[-1])

    def playing(self, round_number: int) -> None:
        """The table's state once its match is under way: in a game, its clock running."""
        session = {"action": "match.start", "round": round_number, "minutes": 20}
        shown = state(self.number, session=session, in_game=True, clock="19:58")
        self.peer.client.publish(state_topic(self.number), shown, qos=1, retain=True)


def real_table(
    folder: Path, table: int, broker: Broker, leave_when: Path, *, lifetime: float
) -> subprocess.Popen[bytes]:
    """``gametable run``'s table ``table`` on mock pins, logged in to its hall's ``broker``, a
    dealer playing it (tests/hall_table.py) until ``leave_when`` exists."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "table.toml"
    config.write_text(
        table_config("combo4", table, broker.port, broker.secret_file(str(table))),
        encoding="utf-8",
    )
    log = (folder / "table.log").open("ab")
    try:
        return subprocess.Popen(
            [
                *DIE_WITH_CAMPAIGN,
                *TABLE,
                *("--config", str(config), "--journal", str(folder / "journal.db")),
                *("--seed", str(table), "--lifetime", str(lifetime)),
                *("--leave-when", str(leave_when)),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    finally:
        log.close()


def gametable(*argv: str, stdin: str | None = None) -> str:
    """A ``gametable`` command as the director types it; what it printed."""
    done = subprocess.run(
        [*CLI, *argv], input=stdin, capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, f"gametable {' '.join(argv)}: {done.stderr}"
    return done.stdout.strip()


def hub_run(day: Path, broker: Broker, page_port: int, log: Path) -> subprocess.Popen[bytes]:
    """``gametable hub run --day`` on the central ``broker``, its page on ``page_port``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                *DIE_WITH_CAMPAIGN,
                *CLI,
                *("hub", "run", "--day", str(day), "--host", "127.0.0.1"),
                *("--port", str(broker.port), "--page", f"127.0.0.1:{page_port}"),
                *("--password-file", str(broker.secret_file("hub"))),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
