"""The fault campaign of issue 17: the hall under faults, nothing lost (docs/hub.md).

Jepsen's way, with real processes on 127.0.0.1 in a temporary directory: the shipped mosquitto
config with persistence (tests/hub_helpers.py ``Broker``), ``gametable hub run`` on a tournament
record made with ``gametable tournament``, and a table process per table (tests/hall_table.py:
``gametable run``'s daemon on mock pins, with its journal and its hub link, played by a
dealer) playing every family that reports to the hub: Combo 4 matches (their results go to the
record), a Combo 3 table (its results are "not recorded" in a Combo 4 tournament), Pentathlon
tables seated in the record's Pentathlon event (their games' results go to it), Guesstimation
and STATES.

A **nemesis** injects faults at random times, each on a part that is up: kill -9 of a table, of
the hub or of the broker (its persistence file deleted on half of its restarts), SIGSTOP of the
hub or the broker for seconds (a stalled or cut-off part) then SIGCONT, copies of decisions the
record already holds published again as their table (duplicates of recent ones, stale ones from
long ago or from a journal set aside, out of order), and a table restarted with
``--new-journal`` mid-match. A **director** races the tables: it amends a match's result with a
reason, enters a result the table has not reported yet, and pairs the next round once every
result of the last one is in (``gametable tournament result|pair``, as the director would).

Every fault and every director's command is written with its time to ``history.jsonl``.
At the end the dealers leave (they press nothing more), every part is healed (continued,
restarted), and the campaign waits for every outbox to empty; then it stops each table, and
one whose outbox is not empty once it has stopped (a clock ran out just then) is started again
and waited for. Then everything stops, and the **checker** (tests/hall_checker.py) reads the
durable facts only: every table's journals and the record.

``python -m tests.hall_campaign`` runs it and prints faults, decisions checked, lost and
doubled (``make soak``: at length); tests/test_hall_campaign.py runs a short one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from firmware_py import families
from firmware_py.table.family import FamilyOptionsError, family
from firmware_py.table.hub_wire import Decision, events_topic
from firmware_py.table.journal import Journal, JournalError
from firmware_py.table.journal_file import connect_read_only
from firmware_py.table.recorder import settings_from_json
from rules.actions import encode
from tests.hall_checker import (
    GAME_OVER,
    MATCH_RESULT,
    PENTATHLON,
    Verdict,
    check,
    deliveries,
    journal_files,
    reading,
)
from tests.hub_helpers import Broker, central_acl, hall_bridge, password_of

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "firmware_py.cli"]
TABLE = [sys.executable, "-m", "tests.hall_table"]
# The kinds of table at the end of the hall; the rest play Combo 4 (at least 3 of them).
TAIL = ("combo3", "pentathlon:queens-guards", "pentathlon:contig-60", "guesstimation", "states")
MIN_TABLES = 8
# The nemesis's faults and how often each is drawn.
WEIGHTS = {
    "kill table": 3.0,
    "kill hub": 2.0,
    "kill broker": 2.0,
    "stop hub": 1.5,
    "stop broker": 1.5,
    "copies": 2.0,
    "new journal": 1.0,
}
# With --halls, the halls' brokers too: each bridged to the central broker, the hub's. A hall's
# broker killed is started again without its persistence (its queue for the centre, its
# sessions and its retained messages gone: only the tables' outboxes remain).
HALL_WEIGHTS = {"kill hall": 2.0, "stop hall": 1.5}
# The first faults of a campaign with halls, whatever the draw: each way a bridge is cut, a
# hall's broker killed (its persistence gone) and the central broker stopped under its bridges.
HALL_OPENING = ("kill hall", "stop broker")
STOP_SECONDS = (1.0, 6.0)  # how long a SIGSTOP lasts
RETRY_LIMIT = 30.0  # a fault no part was up for is tried again, at most this long past the end
DOWN_SECONDS = {
    "table": (0.2, 2.0),
    "hub": (0.5, 4.0),
    "broker": (0.5, 3.0),
    "hall": (0.5, 3.0),
}
DIRECTOR_SECONDS = (2.0, 5.0)  # between two of the director's commands
COMMAND_SECONDS = 60.0  # the longest a director's command may take (the record busy: 5 s)
STOP_WAIT = 10.0
# Every process the campaign starts is killed by the kernel when the campaign ends, however it
# ends (util-linux's setpriv sets the parent-death signal, then runs the command).
DIE_WITH_CAMPAIGN = ("setpriv", "--pdeathsig", "KILL", "--")


@dataclass(frozen=True, slots=True)
class Plan:
    tables: int = MIN_TABLES
    faults: int = 55
    seconds: float = 100.0  # the faults are spread over this long, the dealers playing
    # The longest wait, once healed, for every outbox to empty: beyond a table's resend of
    # what the hub has not confirmed for a minute (uplink.RESEND_SECONDS).
    drain: float = 75.0
    seed: int = 17
    rounds: int = 40  # the tournament's rounds (a table plays about one a minute)
    page: int | None = None  # the director's page on 127.0.0.1 at this port, to watch it
    # 0: every table on the hub's broker; N: N halls, each with a broker of its own bridged to
    # the central one, the hub's (the shipped gametable-hall.conf), the tables shared among them
    halls: int = 0

    def hall_names(self) -> list[str]:
        return [f"hall-{n}" for n in range(1, self.halls + 1)]

    def hall_of(self, table: int) -> str | None:
        """The hall whose broker table ``table`` logs in to; None without halls."""
        names = self.hall_names()
        return names[(table - 1) % len(names)] if names else None

    def weights(self) -> dict[str, float]:
        return {**WEIGHTS, **(HALL_WEIGHTS if self.halls else {})}

    def opening(self) -> tuple[str, ...]:
        return HALL_OPENING if self.halls else ()

    def kinds(self) -> dict[int, str]:
        if self.tables < MIN_TABLES:
            raise ValueError(f"a hall of at least {MIN_TABLES} tables, not {self.tables}")
        if not 0 <= self.halls <= self.tables:
            raise ValueError(
                f"0 to {self.tables} halls (one table each at least), not {self.halls}"
            )
        combo = self.tables - len(TAIL)
        return {n: kind for n, kind in enumerate(("combo4",) * combo + TAIL, start=1)}


@dataclass(frozen=True, slots=True)
class Report:
    faults: Counter[str]
    director: Counter[str]
    verdict: Verdict
    drained: bool
    seconds: float
    # from every part healed (the dealers gone) to every outbox first empty; None: never
    catch_up: float | None
    halls: int = 0

    @property
    def entries_made(self) -> int:
        """The director's result commands the record accepted (amendments and first entries)."""
        return self.director["amend"] + self.director["enter"]

    @property
    def sound(self) -> bool:
        """Nothing lost, nothing doubled, every outbox empty, every director's entry there and
        standing."""
        return self.verdict.sound and self.drained and self.verdict.amendments == self.entries_made

    def lines(self) -> list[str]:
        by_kind = ", ".join(f"{kind} {n}" for kind, n in sorted(self.faults.items()))
        orders = ", ".join(f"{kind} {n}" for kind, n in sorted(self.director.items()))
        return [
            f"faults: {sum(self.faults.values())} ({by_kind})",
            f"director: {orders or 'nothing'} ({self.entries_made} results entered)",
            *self.verdict.lines(),
            *([f"halls: {self.halls}, each bridged to the central broker"] if self.halls else []),
            f"drained: {'yes' if self.drained else 'no'} in {self.seconds:.0f} s in all",
            (
                f"caught up: {self.catch_up:.1f} s from every part healed to every outbox empty"
                if self.catch_up is not None
                else "caught up: never (an outbox still held decisions)"
            ),
            *(f"  lost: {example}" for example in self.verdict.lost_examples),
        ]


# --- the hall's configuration ---------------------------------------------------------------

SEATS_OF_THREE = "".join(
    f"[seats.{seat}]\nstand = {{ pin = {stand} }}\nshout = {{ pin = {shout} }}\nled = {led}\n"
    for seat, stand, shout, led in (("A", 5, 6, 13), ("B", 19, 26, 12), ("C", 4, 14, 16))
)


def table_config(kind: str, table: int, port: int, password_file: Path) -> str:
    """A table's config: mock pins, no panel, its hub link; matches of a minute, quick counts."""
    timing = "[timing]\ncount_cadence_s = 0.2\n"
    if kind in ("combo4", "combo3"):
        section = (
            f'[table]\nfamily = "geoplunge"\nformat = "{kind}"\nround = 1\nmatch_minutes = 1\n'
        )
        timing += "chummy_seconds = 1.0\n"
    elif kind.startswith(PENTATHLON):
        game = kind.split(":")[1]
        section = (
            f'[table]\nfamily = "pentathlon"\n[pentathlon]\ngame = "{game}"\n'
            f"[pentathlon.minutes]\n{game} = 1\n"
        )
    elif kind == "guesstimation":
        section = (
            '[table]\nfamily = "guesstimation"\n[guesstimation]\ndeck = "sample"\nfinish = 3\n'
            f'players = ["Ann", "Bo", "Cy"]\n{SEATS_OF_THREE}'
        )
    else:
        section = '[table]\nfamily = "states"\n[states]\nplayers = ["Ann", "Bo"]\n'
    return (
        f"{section}{timing}"
        '[gpio]\npin_factory = "mock"\n[oled]\nenabled = false\n[scoreboard]\nenabled = false\n'
        '[log]\nlevel = "INFO"\n'
        f'[hub]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\ntable = {table}\n'
        f'password_file = "{password_file}"\n'
    )


# --- the history ----------------------------------------------------------------------------


@dataclass(slots=True)
class History:
    """JSON lines: every fault, every director's command, with its time since the start."""

    file: TextIO
    started: float = field(default_factory=time.monotonic)

    def write(self, what: str, **details: Any) -> None:
        line = {"t": round(time.monotonic() - self.started, 3), "what": what, **details}
        self.file.write(json.dumps(line) + "\n")
        self.file.flush()


# --- the hall -------------------------------------------------------------------------------


@dataclass(slots=True)
class Process:
    """A part of the hall: up, down (killed, its restart due) or stopped (SIGSTOP)."""

    name: str
    process: subprocess.Popen[bytes] | None = None
    state: str = "down"


class Hall:
    """The broker, the hub and the tables, as processes the nemesis kills and restarts."""

    def __init__(self, directory: Path, plan: Plan, history: History) -> None:
        self.directory = directory
        self.plan = plan
        self.history = history
        self.kinds = plan.kinds()
        self.record = directory / "tournament.db"
        halls = plan.hall_names()
        # the hub's broker: with halls the central one, whose accounts are the halls' bridges
        self.broker = Broker(
            directory / "broker",
            autosave_seconds=10,  # the shipped config's: a kill -9 loses up to 10 s
            accounts=(
                "hub",
                *(f"bridge-{hall}" for hall in halls),
                *(() if halls else (str(n) for n in self.kinds)),
            ),
            wrapper=DIE_WITH_CAMPAIGN,
        )
        self.broker_part = Process("broker")
        self.hall_brokers = {
            hall: Broker(
                directory / hall,
                autosave_seconds=10,
                accounts=tuple(str(n) for n in self.kinds if plan.hall_of(n) == hall),
                wrapper=DIE_WITH_CAMPAIGN,
            )
            for hall in halls
        }
        self.hall_parts = {hall: Process(hall) for hall in halls}
        self.hub = Process("hub")
        self.tables = {n: Process(f"table {n}") for n in self.kinds}
        self.starts: Counter[int] = Counter()

    def journal(self, table: int) -> Path:
        return self.directory / "tables" / str(table) / "journal.db"

    # -- setting up --

    def set_up(self) -> None:
        self.broker.directory.mkdir(parents=True)
        if self.hall_brokers:
            self.broker.acl = central_acl(self.broker.directory, tuple(self.hall_brokers))
        for broker in self.hall_brokers.values():
            broker.directory.mkdir()
        self._make_record()

    def broker_of(self, table: int) -> tuple[Broker, Process]:
        """The broker table ``table`` logs in to: its hall's, or the hub's."""
        hall = self.plan.hall_of(table)
        if hall is None:
            return self.broker, self.broker_part
        return self.hall_brokers[hall], self.hall_parts[hall]

    def configure_tables(self) -> None:
        """Each table's config, naming the broker's port (a free one, chosen as it starts)."""
        for table, kind in self.kinds.items():
            folder = self.journal(table).parent
            folder.mkdir(parents=True)
            broker, _ = self.broker_of(table)
            secret = broker.secret_file(str(table))
            (folder / "table.toml").write_text(
                table_config(kind, table, broker.port, secret), encoding="utf-8"
            )

    def _make_record(self) -> None:
        combo = [n for n, kind in self.kinds.items() if kind == "combo4"]
        teams = self.directory / "teams.csv"
        teams.write_text(
            "name,school,players\n"
            + "".join(f"Team {i},School {i},\n" for i in range(1, 2 * len(combo) + 1)),
            encoding="utf-8",
        )
        pentathlon = {n: kind.split(":")[1] for n, kind in self.kinds.items() if ":" in kind}
        players = self.directory / "pentathletes.csv"
        players.write_text(
            "name,division,school\n"
            + "".join(f"Player {i},I,School {i}\n" for i in range(1, 2 * len(pentathlon) + 1)),
            encoding="utf-8",
        )
        db = ["--db", str(self.record)]
        rounds, seed = str(self.plan.rounds), str(self.plan.seed)
        commands = [
            [
                *("tournament", "new", "--format", "combo4", "--teams", str(teams)),
                *("--rounds", rounds, "--seed", seed),
            ],
            ["tournament", "pair", "--round", "1"],
            ["tournament", "pentathlon", "new", "--players", str(players)],
        ]
        for place, (table, game) in enumerate(sorted(pentathlon.items())):
            a, b = f"Player {2 * place + 1}", f"Player {2 * place + 2}"
            commands.append(
                [
                    *("tournament", "pentathlon", "seat", "--round", "1", "--table", str(table)),
                    *("--game", game, "--a", a, "--b", b),
                ]
            )
        for command in commands:
            subprocess.run([*CLI, *command, *db], check=True, capture_output=True, cwd=ROOT)

    # -- the parts --

    def start_broker(self, *, forget: bool = False) -> None:
        _start(self.broker, self.broker_part, forget=forget)

    def start_hall_broker(self, hall: str, *, forget: bool = False) -> None:
        """A hall's broker with its bridge to the central one (on its port, chosen already)."""
        broker = self.hall_brokers[hall]
        broker.bridge = hall_bridge(hall, self.broker.port)
        _start(broker, self.hall_parts[hall], forget=forget)

    def start_hub(self) -> None:
        log = (self.directory / "hub.log").open("ab")
        self.hub.process = subprocess.Popen(
            [
                *DIE_WITH_CAMPAIGN,
                *CLI,
                *("hub", "run", "--db", str(self.record), "--host", "127.0.0.1"),
                *("--port", str(self.broker.port)),
                *("--page", "off" if self.plan.page is None else f"127.0.0.1:{self.plan.page}"),
                *("--password-file", str(self.broker.secret_file("hub"))),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
        log.close()
        self.hub.state = "up"

    def start_table(self, table: int, *, new_journal: bool = False) -> None:
        folder = self.journal(table).parent
        self.starts[table] += 1
        seed = self.plan.seed * 100_000 + table * 1000 + self.starts[table]
        log = (folder / "table.log").open("ab")
        self.tables[table].process = subprocess.Popen(
            [
                *DIE_WITH_CAMPAIGN,
                *TABLE,
                *("--config", str(folder / "table.toml"), "--journal", str(self.journal(table))),
                *("--seed", str(seed), "--lifetime", str(3 * self.plan.seconds + self.plan.drain)),
                *(["--new-journal"] if new_journal else []),
                *("--leave-when", str(self.dealers_leave)),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
        log.close()
        self.tables[table].state = "up"

    def part(self, name: str) -> Process:
        if name == "broker":
            return self.broker_part
        if name == "hub":
            return self.hub
        if name in self.hall_parts:
            return self.hall_parts[name]
        return self.tables[int(name.split()[1])]

    def restart(self, name: str, **options: bool) -> None:
        if name == "broker":
            self.start_broker(**options)
        elif name == "hub":
            self.start_hub()
        elif name in self.hall_parts:
            self.start_hall_broker(name, **options)
        else:
            self.start_table(int(name.split()[1]), **options)

    def signal(self, part: Process, sig: signal.Signals) -> None:
        if part.process is not None and part.process.poll() is None:
            part.process.send_signal(sig)
        if sig in (signal.SIGKILL, signal.SIGTERM):
            if part.process is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    part.process.wait(timeout=STOP_WAIT)
                if part.process.poll() is None:
                    part.process.kill()
                    part.process.wait()
            part.process = None
            part.state = "down"
            if part is self.broker_part:
                self.broker.process = None
            for hall, hall_part in self.hall_parts.items():
                if part is hall_part:
                    self.hall_brokers[hall].process = None

    @property
    def dealers_leave(self) -> Path:
        """Once this file exists the dealers press nothing more."""
        return self.directory / "dealers-leave"

    def stop_all(self) -> None:
        for part in [*self.tables.values(), self.hub, *self.hall_parts.values(), self.broker_part]:
            if part.state == "stopped":
                self.signal(part, signal.SIGCONT)
            self.signal(part, signal.SIGTERM)


def _start(broker: Broker, part: Process, *, forget: bool) -> None:
    """Start a broker, after deleting its persistence file (``forget``: what a disk lost, or a
    broker started afresh, has)."""
    if forget:
        for name in ("mosquitto.db", "mosquitto.db.new"):
            with contextlib.suppress(FileNotFoundError):
                (broker.directory / name).unlink()
    broker.start()
    part.process = broker.process
    part.state = "up"


# --- what the nemesis and the director do ---------------------------------------------------


@dataclass(slots=True)
class Nemesis:
    hall: Hall
    rng: random.Random
    history: History
    due: list[tuple[float, str, Callable[[], None]]] = field(default_factory=list)
    done: Counter[str] = field(default_factory=Counter)
    opening: list[str] = field(default_factory=list)  # struck first, in order, before any draw

    def later(self, seconds: float, what: str, action: Callable[[], None]) -> None:
        self.due.append((time.monotonic() + seconds, what, action))

    def run_due(self, *, everything: bool = False) -> None:
        now = time.monotonic()
        ready = [item for item in self.due if everything or item[0] <= now]
        self.due = [item for item in self.due if item not in ready]
        for _, what, action in sorted(ready, key=lambda item: item[0]):
            action()
            self.history.write(what)

    def strike(self) -> bool:
        """One fault, on a part that is up: the opening's next, else the first kind drawn that
        has one; False when no part is up for it (every one down or stopped just then)."""
        if self.opening:
            if not self._strike(self.opening[0]):
                return False  # its part is not up just now: tried again a moment later
            self.done[self.opening.pop(0)] += 1
            return True
        weights = self.hall.plan.weights()
        kinds = list(weights)
        while kinds:
            kind = self.rng.choices(kinds, [weights[k] for k in kinds])[0]
            kinds.remove(kind)
            if self._strike(kind):
                self.done[kind] += 1
                return True
        return False

    def _strike(self, kind: str) -> bool:
        hall = self.hall
        up_tables = [n for n, part in hall.tables.items() if part.state == "up"]
        if kind in ("kill table", "new journal"):
            if not up_tables:
                return False
            table = self.rng.choice(up_tables)
            part = hall.tables[table]
            if kind == "kill table":
                self._kill(part, "table")
            else:
                how = self.rng.choice((signal.SIGTERM, signal.SIGKILL))
                hall.signal(part, how)
                down = self.rng.uniform(*DOWN_SECONDS["table"])
                self.history.write("new journal", part=part.name, stopped_by=how.name, down=down)
                self.later(down, f"restart {part.name} --new-journal", self._new_journal(table))
            return True
        if kind in ("kill hub", "kill broker", "stop hub", "stop broker"):
            verb, name = kind.split()
            part = hall.part(name)
            if part.state != "up":
                return False
            if verb == "kill":
                self._kill(part, name)
            else:
                self._stop(part, name)
            return True
        if kind in HALL_WEIGHTS:
            return self._strike_hall(kind)
        table = self.rng.choice(sorted(hall.kinds))
        if hall.broker_of(table)[1].state != "up" or not up_tables:
            return False
        sent = publish_copies(hall, table, self.rng)
        self.history.write("copies", part=f"table {table}", **sent)
        return bool(sent.get("published"))

    def _strike_hall(self, kind: str) -> bool:
        """A hall's broker killed (started again without its persistence) or stopped: its
        tables and its bridge to the centre cut off together."""
        up = [name for name, part in self.hall.hall_parts.items() if part.state == "up"]
        if not up:
            return False
        name = self.rng.choice(up)
        part = self.hall.hall_parts[name]
        if kind == "kill hall":
            self._kill(part, "hall")
        else:
            self._stop(part, name)
        return True

    def _stop(self, part: Process, name: str) -> None:
        seconds = self.rng.uniform(*STOP_SECONDS)
        self.hall.signal(part, signal.SIGSTOP)
        part.state = "stopped"
        self.history.write("sigstop", part=name, seconds=round(seconds, 2))
        self.later(seconds, f"sigcont {name}", self._continue(part))

    def _kill(self, part: Process, kind: str) -> None:
        self.hall.signal(part, signal.SIGKILL)
        down = self.rng.uniform(*DOWN_SECONDS[kind])
        forget = kind == "hall" or (kind == "broker" and self.rng.random() < 0.5)
        self.history.write("kill -9", part=part.name, down=round(down, 2), forget=forget)
        what = f"restart {part.name}" + (" (persistence deleted)" if forget else "")
        options = {"forget": forget} if kind in ("broker", "hall") else {}
        self.later(down, what, lambda: self.hall.restart(part.name, **options))

    def _new_journal(self, table: int) -> Callable[[], None]:
        return lambda: self.hall.start_table(table, new_journal=True)

    def _continue(self, part: Process) -> Callable[[], None]:
        def cont() -> None:
            if part.state == "stopped":
                self.hall.signal(part, signal.SIGCONT)
                part.state = "up"

        return cont


def publish_copies(hall: Hall, table: int, rng: random.Random) -> dict[str, Any]:
    """Copies of decisions the record already holds, published again as the table: recent
    ones (a duplicate) and old ones, from a journal set aside too (stale), in a shuffled order.
    Only what the record holds: a copy must never deliver what the table has not."""
    problems: list[str] = []
    held = _held_decisions(hall, table, problems)
    if not held:
        return {"published": 0, "problems": problems}
    recent = held[-30:]
    chosen = [rng.choice(recent) for _ in range(rng.randint(1, 4))]
    chosen += [rng.choice(held) for _ in range(rng.randint(0, 3))]
    rng.shuffle(chosen)
    broker, _ = hall.broker_of(table)
    published = _publish(broker, table, [decision.to_bytes() for decision in chosen])
    return {
        "published": published,
        "copies": [f"{decision.journal[:8]}/{decision.seq}" for decision in chosen],
        "problems": problems,
    }


def _held_decisions(hall: Hall, table: int, problems: list[str]) -> list[Decision]:
    """The table's decisions the record holds, each as it was sent, its current journal's last."""
    try:
        with reading(hall.record) as record:
            applied = {
                (str(journal), int(seq))
                for journal, seq in record.execute(
                    "SELECT journal, seq FROM table_events WHERE table_number = ?", (table,)
                )
            }
            through = deliveries(record)
    except (sqlite3.Error, JournalError) as error:
        problems.append(f"the record: {error}")
        return []
    held: list[Decision] = []
    for path in reversed(journal_files(hall.journal(table))):  # the asides are older
        try:
            sent = list(_sent_decisions(path))
        except (JournalError, FamilyOptionsError, KeyError, ValueError) as error:
            problems.append(f"{path.name}: {error!r}")
            continue
        for decision, bears, waiting in sent:
            if bears and (decision.journal, decision.seq) not in applied:
                continue
            if not bears and waiting:
                continue
            if through is not None and decision.seq > through.get((table, decision.journal), 0):
                continue
            held.append(decision)
    return held


def _sent_decisions(path: Path) -> Iterator[tuple[Decision, bool, bool]]:
    """Each decision of a journal as its table sends it (its session's start rebuilt from the
    journal), whether it bears on the record, and whether it still waits in the outbox."""
    journal = Journal.open_read_only(path)
    try:
        identity = journal.identity()
        entries = list(journal.entries())
        waiting = {item.seq for item in journal.outgoing(after=0, limit=10**9)}
    finally:
        journal.close()
    if not entries:
        return
    settings = settings_from_json(entries[0].body["settings"])
    game = family(settings.family).game(settings.options, settings.seats)
    session = encode(game.first_action())
    for entry in entries:
        if entry.kind != "event":
            continue
        event = entry.body
        if event.get("event") == "session":
            session = {k: v for k, v in event.items() if k not in ("t", "event", "number")}
        name = event.get("event")
        bears = name == MATCH_RESULT or (
            name == GAME_OVER and session.get("action") == "pentathlon.start"
        )
        yield (
            Decision(identity, entry.seq, entry.wall, dict(session), event),
            bears,
            entry.seq in waiting,
        )


def _publish(broker: Broker, table: int, payloads: list[bytes]) -> int:
    """Publish as the table (its own account, another client id), QoS 1; how many the broker
    took. Bounded: a broker that does not answer within seconds gets fewer."""
    acked: set[int] = set()
    connected = threading.Event()
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=f"hall-copies-{table}",
        protocol=MQTTProtocolVersion.MQTTv5,
    )
    client.username_pw_set(str(table), password_of(str(table)))

    def on_connect(*args: Any) -> None:
        connected.set()

    def on_publish(
        client: Any, data: Any, mid: int, reason: ReasonCode, props: Properties | None
    ) -> None:
        if not reason.is_failure:
            acked.add(mid)

    client.on_connect = on_connect
    client.on_publish = on_publish
    try:
        client.connect("127.0.0.1", broker.port, keepalive=10)
    except OSError:
        return 0
    client.loop_start()
    try:
        if not connected.wait(3.0):
            return 0
        mids = [client.publish(events_topic(table), payload, qos=1).mid for payload in payloads]
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline and not set(mids) <= acked:
            time.sleep(0.02)
        return len(set(mids) & acked)
    finally:
        client.disconnect()
        client.loop_stop()


@dataclass(slots=True)
class Director:
    """The director's commands, one at a time, racing the tables' results."""

    hall: Hall
    rng: random.Random
    history: History
    done: Counter[str] = field(default_factory=Counter)
    running: tuple[subprocess.Popen[bytes], str, list[str]] | None = None
    next_at: float = 0.0
    started: float = 0.0  # when the running command was started
    amendments: int = 0

    def tick(self) -> None:
        if self.running is not None:
            process, kind, command = self.running
            if process.poll() is None:
                if time.monotonic() - self.started < COMMAND_SECONDS:
                    return
                process.kill()  # bounded: a command that hangs is ended (and counted refused)
                process.wait()
            said = (process.stdout.read() if process.stdout else b"").decode(errors="replace")
            self.history.write(
                "director", kind=kind, command=command, rc=process.returncode, said=said.strip()
            )
            if process.stdout:
                process.stdout.close()
            self.done[kind if process.returncode == 0 else f"{kind} refused"] += 1
            self.running = None
            self.next_at = time.monotonic() + self.rng.uniform(*DIRECTOR_SECONDS)
        if time.monotonic() < self.next_at:
            return
        chosen = self._choose()
        if chosen is None:
            self.next_at = time.monotonic() + self.rng.uniform(*DIRECTOR_SECONDS)
            return
        kind, command = chosen
        self.started = time.monotonic()
        self.running = (
            subprocess.Popen(
                [*DIE_WITH_CAMPAIGN, *CLI, *command, "--db", str(self.hall.record)],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            ),
            kind,
            command,
        )

    def _choose(self) -> tuple[str, list[str]] | None:
        latest, results = self._latest_round()
        if latest is None:
            return None
        if all(results.values()) and latest < self.hall.plan.rounds:
            return "pair", ["tournament", "pair", "--round", str(latest + 1)]
        table = self.rng.choice(sorted(results))
        a, b = (5 * self.rng.randint(0, 40) for _ in range(2))
        where = ["--round", str(latest), "--table", str(table)]
        points = ["--a-points", str(a), "--b-points", str(b), "--director"]
        if results[table] and self.rng.random() < 0.6:
            self.amendments += 1
            reason = f"the score sheet says {a}-{b} (campaign amendment {self.amendments})"
            return "amend", ["tournament", "result", *where, *points, "--amend", "--reason", reason]
        if not results[table] and self.rng.random() < 0.3:
            return "enter", ["tournament", "result", *where, *points]
        return None

    def _latest_round(self) -> tuple[int | None, dict[int, bool]]:
        """The latest round paired, and for each of its tables whether it has a result."""
        try:
            with reading(self.hall.record) as record:
                row = record.execute("SELECT MAX(number) FROM rounds").fetchone()
                if row is None or row[0] is None:
                    return None, {}
                latest = int(row[0])
                rows = record.execute(
                    """SELECT p.table_number,
                              EXISTS (SELECT 1 FROM results r WHERE r.pairing = p.id)
                       FROM pairings p WHERE p.round = ?""",
                    (latest,),
                ).fetchall()
        except (sqlite3.Error, JournalError):
            return None, {}
        return latest, {int(table): bool(has) for table, has in rows}


# --- the campaign ---------------------------------------------------------------------------


def run_campaign(plan: Plan, directory: Path) -> Report:
    families.install()  # the journals' families, to rebuild their sessions' starts
    started = time.monotonic()
    rng = random.Random(plan.seed)
    with (directory / "history.jsonl").open("w", encoding="utf-8") as file:
        history = History(file)
        hall = Hall(directory, plan, history)
        hall.set_up()
        nemesis = Nemesis(hall, rng, history, opening=list(plan.opening()))
        director = Director(hall, random.Random(plan.seed + 1), history)
        try:
            hall.start_broker()
            for name in hall.hall_brokers:
                hall.start_hall_broker(name)
            hall.configure_tables()
            hall.start_hub()
            for table in hall.kinds:
                hall.start_table(table)
            history.write("hall up", tables=hall.kinds)
            _fault_phase(plan, hall, nemesis, director, history)
            drained, catch_up = _heal_and_drain(plan, hall, nemesis, director, history)
        finally:
            hall.stop_all()
            history.write("stopped")
    verdict = check({table: hall.journal(table) for table in hall.kinds}, hall.record)
    seconds = time.monotonic() - started
    return Report(
        nemesis.done, director.done, verdict, drained, seconds, catch_up, halls=plan.halls
    )


def _fault_phase(
    plan: Plan, hall: Hall, nemesis: Nemesis, director: Director, history: History
) -> None:
    start = time.monotonic()
    moments = sorted(start + nemesis.rng.uniform(2.0, plan.seconds) for _ in range(plan.faults))
    while moments or time.monotonic() < start + plan.seconds:
        now = time.monotonic()
        nemesis.run_due()
        if moments and moments[0] <= now:
            moments.pop(0)
            if not nemesis.strike() and now < start + plan.seconds + RETRY_LIMIT:
                moments.insert(0, now + 0.5)  # every fault planned is struck, a moment later
        director.tick()
        _restart_the_fallen(hall, history)
        time.sleep(0.05)


def _restart_the_fallen(hall: Hall, history: History, only: set[int] | None = None) -> None:
    """A table that ended by itself (its journal refused, a crash) is started again."""
    for table, part in hall.tables.items():
        if (
            (only is None or table in only)
            and part.state == "up"
            and part.process is not None
            and part.process.poll() is not None
        ):
            history.write("exited", part=part.name, rc=part.process.returncode)
            hall.start_table(table)
    hub = hall.hub
    if hub.state == "up" and hub.process is not None and hub.process.poll() is not None:
        history.write("exited", part="hub", rc=hub.process.returncode)
        hall.start_hub()


def _heal_and_drain(
    plan: Plan, hall: Hall, nemesis: Nemesis, director: Director, history: History
) -> tuple[bool, float | None]:
    """The dealers gone and every part up again: wait for every outbox to empty, then stop
    each table; one that decided something as it stopped (a clock ran out) is started again.
    Whether it drained, and how long after the healing every outbox was first empty (the
    catch-up: every bridge reconnected, every queue delivered, every table confirmed)."""
    hall.dealers_leave.touch()
    nemesis.run_due(everything=True)
    while director.running is not None:
        director.next_at = float("inf")  # the last command finishes; no new one
        director.tick()
        time.sleep(0.05)
    history.write("healed, the dealers gone")
    healed = time.monotonic()
    caught_up: float | None = None
    deadline = healed + plan.drain
    running = set(hall.kinds)
    waiting: dict[int, int] = {}
    while time.monotonic() < deadline:
        _restart_the_fallen(hall, history, only=running)
        waiting = {table: _waiting(hall, table) for table in hall.kinds}
        if not any(waiting.values()):
            if caught_up is None:
                caught_up = time.monotonic() - healed
                history.write("caught up", seconds=round(caught_up, 1))
            for table in sorted(running):
                hall.signal(hall.tables[table], signal.SIGTERM)
                running.discard(table)
                if _waiting(hall, table):
                    history.write("decided as it stopped", part=f"table {table}")
                    hall.start_table(table)
                    running.add(table)
            if not running:
                history.write("drained")
                return True, caught_up
        time.sleep(0.5)
    history.write("not drained", waiting=waiting)
    return False, caught_up


def _waiting(hall: Hall, table: int) -> int:
    """How many decisions wait in the table's journal (its outbox, and what it carried over
    from the journals moved aside before it: R713), read as the checker reads them (nothing
    written)."""
    path = hall.journal(table)
    if not path.exists():
        return 0
    try:
        connection, release = connect_read_only(path)
    except JournalError:
        return 0
    try:
        (count,) = connection.execute(
            "SELECT (SELECT count(*) FROM outbox) + (SELECT count(*) FROM carried)"
        ).fetchone()
        return int(count)
    except sqlite3.Error:
        return 0
    finally:
        connection.close()
        release()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.hall_campaign", description="the hall under faults (issue 17)"
    )
    defaults = Plan()
    parser.add_argument("--tables", type=int, default=defaults.tables)
    parser.add_argument("--faults", type=int, default=defaults.faults)
    parser.add_argument("--seconds", type=float, default=defaults.seconds)
    parser.add_argument("--drain", type=float, default=defaults.drain)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--keep", type=Path, help="run in this new directory and keep it")
    parser.add_argument("--page", type=int, help="serve the director's page on this port")
    parser.add_argument(
        "--halls",
        type=int,
        default=defaults.halls,
        help="N halls, each with a broker bridged to the central one (default 0: one broker)",
    )
    args = parser.parse_args(argv)
    plan = Plan(
        tables=args.tables,
        faults=args.faults,
        seconds=args.seconds,
        drain=args.drain,
        seed=args.seed,
        page=args.page,
        halls=args.halls,
    )
    if args.keep is not None:
        args.keep.mkdir(parents=True)
        report = run_campaign(plan, args.keep)
    else:
        with tempfile.TemporaryDirectory(prefix="hall-campaign-") as directory:
            report = run_campaign(plan, Path(directory))
    for line in report.lines():
        print(line)
    return 0 if report.sound else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())
