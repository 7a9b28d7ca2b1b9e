"""The hub applying the tables' results into the record (R725): measured on results, the
decisions that are written into the record, not on the states the page shows.

1. Results applied per second, in-process on ``apply_result``, in records of 64, 256 and 512
   teams (512 is the most a tournament holds, R130): five rounds played (paired at random, their
   results entered by the director), the sixth paired; then the same 256 results at each size,
   8 from each of the same 32 tables (the first recorded, the rest amendments: each a write,
   committed), one size after the other for each result so that the machine's other work
   weighs on every size alike; then each delivered again (a duplicate). The per-result time at
   512 teams over that at 64 shows whether a result costs more as the record grows.
2. Publish -> record through a real mosquitto (a temporary config on a free loopback port) to
   ``gametable hub run`` as its own process with its director's page, for 500 tables: 250
   GeoPlunge matches of round 1 (500 teams) and 250 Pentathlon games of Contig 60, in one
   record. Two load processes (bench/hub_results_load.py) publish each table's decisions as its
   uplink does (QoS 1), one every 3 s (a Combo 4 match's pace) with one in 40 the table's
   result (every 2 minutes a table, a few times a match), for D seconds; then ten times as fast.
   Each decision carries the time it was sent, which the record keeps; the bench reads the
   record every 20 ms, so a latency includes up to 20 ms of that polling. The hub's CPU: its
   utime + stime while the tables publish, as a share of one core: a machine too busy to give
   it that much leaves it behind the tables.
3. Catching up after an outage: the hub stopped (its session kept on the broker), the decisions
   the tables make in 10 minutes at the first rate published, then the hub started again: the
   time from starting it until the record holds every result, while a client asks the page for
   /api/board every 100 ms (its worst answer, and how many it failed).

GAMETABLE_BENCH_RESULTS_SECONDS sets D (default 60).
"""

from __future__ import annotations

import http.client
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from bench.figures import Figure, Section, ms, percentile
from bench.hub_page import _broker, _free_port, _wait_listening
from bench.hub_results_load import RESULT_EVERY
from bench.procfs import cpu_seconds
from bench.staff_login import add_viewer, login_cookie
from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import DIRECTOR_SOURCE, TournamentDB
from firmware_py.table.hub_wire import (
    Decision,
    WireError,
    applied_topic,
    events_topic,
    parse_confirmation,
)
from rules.pentathlon.catalogue import Game
from rules.tournament import (
    Entrant,
    Match,
    RoundPairing,
    TournamentFormat,
    new_config,
    round_plan,
)
from rules.tournament.pentathlon import Pentathlete, PentathlonPoints

NOW = "2026-05-09T09:00:00+00:00"
SEED = 20261122
LOADERS = 2
PROBE_TABLE = 999  # its confirmation says the hub is subscribed and applying
START_SECONDS = 30.0
POLL_RECORD_SECONDS = 0.02
POLL_PAGE_SECONDS = 0.1
TARGET_RESULTS_PER_SECOND = 100.0
TARGET_GROWTH = 1.5  # per-result time at the largest record over the smallest
TARGET_P99 = 1.0
TARGET_CATCH_UP = 30.0
TARGET_PAGE_WORST = 1.0


@dataclass(frozen=True, slots=True)
class Plan:
    """What the section measures; the bench's own, or a few samples in the suite's quick form."""

    team_sizes: tuple[int, ...] = (64, 256, 512)
    rounds_played: int = 5
    reporting_tables: int = 32
    results_per_table: int = 8
    tables: int = 500
    decision_period: float = 3.0  # a table's decisions, one every this many seconds
    speedup: float = 10.0  # the second live rate, this many times the first
    live_seconds: float = 60.0
    outage_seconds: float = 600.0


def default_plan() -> Plan:
    seconds = float(os.environ.get("GAMETABLE_BENCH_RESULTS_SECONDS", "60"))
    if seconds <= 0:
        raise ValueError("GAMETABLE_BENCH_RESULTS_SECONDS: expected a positive duration")
    return Plan(live_seconds=seconds)


# --- 1. in-process: a result's cost against the record's size -----------------------------------


@dataclass(frozen=True, slots=True)
class Applying:
    teams: int
    result_seconds: list[float]
    duplicate_seconds: list[float]

    @property
    def results_per_second(self) -> float:
        return len(self.result_seconds) / sum(self.result_seconds)

    @property
    def duplicates_per_second(self) -> float:
        return len(self.duplicate_seconds) / sum(self.duplicate_seconds)


def _played_record(path: Path, teams: int, rounds_played: int) -> tuple[TournamentDB, int]:
    """A record of ``teams`` teams with ``rounds_played`` rounds and their results, and the next
    round paired: the record and that round."""
    config = new_config(TournamentFormat.COMBO4, seed=SEED, rounds=rounds_played + 1)
    names = [f"Team {i:03}" for i in range(teams)]
    record = TournamentDB.create(
        path, config, tuple(Entrant(name) for name in names), now=NOW, by="bench"
    )
    luck = random.Random(SEED)
    for number in range(1, rounds_played + 2):
        luck.shuffle(names)
        pairing = RoundPairing(
            number,
            tuple(Match(t + 1, names[2 * t], names[2 * t + 1]) for t in range(teams // 2)),
        )
        with record.writing():
            record.add_round(pairing, round_plan(config.format, number), now=NOW, by="bench")
        if number <= rounds_played:
            with record.transaction() as tournament:
                for match in pairing.matches:
                    points = luck.choice((0, 20, 40)), luck.choice((5, 25))
                    record.add_result(
                        tournament.result(number, match.table, *points),
                        now=NOW,
                        by="director",
                        source=DIRECTOR_SOURCE,
                    )
    return record, rounds_played + 1


def applying(directory: Path, plan: Plan) -> list[Applying]:
    """Each result applied to every size's record in turn, so that whatever else the machine
    does at a moment weighs on every size alike; then each again, as a duplicate."""
    played = [
        _played_record(directory / f"{teams}.db", teams, plan.rounds_played)
        for teams in plan.team_sizes
    ]
    said = [
        (table, RESULT_EVERY * (k + 1), 40 + 5 * (k % 2))
        for k in range(plan.results_per_table)
        for table in range(1, plan.reporting_tables + 1)
    ]
    timed: list[list[list[float]]] = [[[], []] for _ in played]
    try:
        for again in (False, True):
            for table, seq, points in said:
                for (record, number), took in zip(played, timed, strict=True):
                    session = {"action": "match.start", "round": number, "minutes": 20}
                    event = {"event": "match_result", "winner": "A", "A": points, "B": 20}
                    decision = Decision(f"bench-{table}", seq, NOW, session, event)
                    started = time.perf_counter()
                    applied = apply_result(record, table, decision, now=NOW)
                    took[again].append(time.perf_counter() - started)
                    if (applied.event is None) != again:
                        raise RuntimeError(f"table {table} seq {seq}: {applied}")
    finally:
        for record, _ in played:
            record.close()
    return [
        Applying(teams, results, duplicates)
        for teams, (results, duplicates) in zip(plan.team_sizes, timed, strict=True)
    ]


# --- 2 and 3: the hub in its own process --------------------------------------------------------


def _hall_record(path: Path, tables: int) -> int:
    """A record for ``tables`` tables: the first half (at most 256) a Combo 4 tournament's round
    1, the rest a Pentathlon event's round 1 of Contig 60. The last GeoPlunge table."""
    geoplunge = min(256, -(-tables // 2))
    config = new_config(TournamentFormat.COMBO4, seed=SEED, rounds=6)
    teams = tuple(Entrant(f"Team {i:03}", f"School {i % 40}") for i in range(2 * geoplunge))
    with (
        TournamentDB.create(path, config, teams, now=NOW, by="bench") as record,
        record.transaction() as tournament,
    ):
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="bench")
    add_viewer(path)  # the page's board is for staff (R816)
    players = tuple(Pentathlete(f"Player {i:03}", "III") for i in range(2 * geoplunge))
    with PentathlonRecord.start(path, PentathlonPoints(), players, now=NOW, by="bench") as record:
        event = PentathlonRecord(record)
        known = event.event()
        with record.writing():
            for table in range(geoplunge + 1, tables + 1):
                k = table - geoplunge - 1
                a, b = players[2 * k].name, players[2 * k + 1].name
                event.add_seat(known.seat(1, table, Game.CONTIG_60, a, b), now=NOW, by="bench")
    return geoplunge


@dataclass
class Hall:
    """mosquitto, the record and the hub (stopped and started again for the outage)."""

    directory: Path
    tables: int
    geoplunge_last: int = 0
    broker: subprocess.Popen[bytes] | None = None
    broker_port: int = 0
    page_port: int = 0
    hub: subprocess.Popen[bytes] | None = None

    @property
    def record(self) -> Path:
        return self.directory / "tournament.db"

    def start(self) -> None:
        self.geoplunge_last = _hall_record(self.record, self.tables)
        self.broker, self.broker_port = _broker(self.directory)
        self.page_port = _free_port()
        (self.directory / "hub-password").write_text("anything\n")
        _wait_listening(self.broker_port)
        self.start_hub()
        _until_the_hub_confirms(self.broker_port)

    def start_hub(self) -> None:
        self.hub = hub_process(
            ("--db", str(self.record)), self.broker_port, self.directory, self.page_port
        )

    def stop_hub(self) -> None:
        if self.hub is not None:
            _end(self.hub)
            self.hub = None

    def close(self) -> None:
        self.stop_hub()
        if self.broker is not None:
            _end(self.broker)

    def load(self, journal: str, period: float, seconds: float, *, live: bool) -> int:
        """The tables' decisions, published by LOADERS processes; the results among them."""
        share = -(-self.tables // LOADERS)
        loaders = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bench.hub_results_load",
                    str(self.broker_port),
                    str(first),
                    str(min(self.tables, first + share - 1)),
                    str(self.geoplunge_last),
                    str(period),
                    str(seconds),
                    journal,
                    "live" if live else "at-once",
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            for first in range(1, self.tables + 1, share)
        ]
        results = 0
        for loader in loaders:
            out, _ = loader.communicate()
            if loader.returncode != 0:
                raise RuntimeError(f"a load process failed (exit {loader.returncode})")
            results += int(out.split()[1])
        return results


def _end(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _until_the_hub_confirms(port: int) -> None:
    """A probe table's decision, sent until the hub confirms it: the hub has subscribed (its
    session on the broker keeps what comes while it is away) and applies."""
    confirmed = threading.Event()
    journal = f"probe-{time.time():.0f}"

    def on_message(client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        try:
            if parse_confirmation(bytes(message.payload)).journal == journal:
                confirmed.set()
        except WireError:
            pass

    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    client.on_message = on_message
    client.connect("127.0.0.1", port, keepalive=30)
    client.subscribe(applied_topic(PROBE_TABLE), qos=1)
    client.loop_start()
    try:
        deadline = time.monotonic() + START_SECONDS
        seq = 0
        while not confirmed.wait(1.0):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the hub did not confirm a decision within {START_SECONDS} s")
            seq += 1
            probe = Decision(journal, seq, NOW, {"action": "solo.start"}, {"event": "probe"})
            client.publish(events_topic(PROBE_TABLE), probe.to_bytes(), qos=1)
    finally:
        client.disconnect()
        client.loop_stop()


@dataclass
class RecordWatch:
    """The record read every POLL_RECORD_SECONDS: when each result of a journal appeared."""

    path: Path
    journal: str
    latencies: list[float] = field(default_factory=list)
    _last_id: int = 0

    def poll(self, connection: sqlite3.Connection) -> None:
        rows = connection.execute(
            "SELECT id, journal, decided_at FROM table_events WHERE id > ? ORDER BY id",
            (self._last_id,),
        ).fetchall()
        seen = time.time()
        for row_id, journal, decided_at in rows:
            self._last_id = row_id
            if journal.startswith(f"{self.journal}-"):
                self.latencies.append(seen - float(decided_at))

    def until(self, results: int, done: threading.Event | None, seconds: float) -> bool:
        """Poll until ``results`` results are seen (True), or ``seconds`` after ``done`` is set
        (None: from now)."""
        connection = sqlite3.connect(f"{self.path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            deadline = None if done is not None else time.monotonic() + seconds
            while len(self.latencies) < results:
                self.poll(connection)
                if deadline is None and done is not None and done.is_set():
                    deadline = time.monotonic() + seconds
                if deadline is not None and time.monotonic() > deadline:
                    return False
                time.sleep(POLL_RECORD_SECONDS)
        finally:
            connection.close()
        return True


@dataclass(frozen=True, slots=True)
class Live:
    results: int
    recorded: int
    latencies: list[float]
    cpu_share: float  # the hub's utime + stime while the tables published, of one core


def live(hall: Hall, journal: str, period: float, seconds: float) -> Live:
    assert hall.hub is not None
    watch = RecordWatch(hall.record, journal)
    cpu_before, started = cpu_seconds(hall.hub.pid), time.monotonic()
    loaded = threading.Event()
    expected: list[int] = []

    def load() -> None:
        try:
            expected.append(hall.load(journal, period, seconds, live=True))
        finally:
            loaded.set()

    loading = threading.Thread(target=load)
    loading.start()
    watch.until(sys.maxsize, loaded, 0.0)  # while the load runs
    loading.join()
    cpu = (cpu_seconds(hall.hub.pid) - cpu_before) / (time.monotonic() - started)
    results = expected[0] if expected else 0
    watch.until(results, None, 60.0)  # then whatever is still on its way
    return Live(results, len(watch.latencies), watch.latencies, cpu)


@dataclass
class PagePoll:
    """GET /api/board every POLL_PAGE_SECONDS until stopped: each answer's time."""

    port: int
    answers: list[float] = field(default_factory=list)
    failures: int = 0
    answered: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        cookie: str | None = None  # a viewer's session: the board is for staff (R816)
        while not self.stop.is_set():
            started = time.perf_counter()
            try:
                cookie = cookie or login_cookie(self.port)
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                connection.request("GET", "/api/board", headers={"Cookie": cookie or ""})
                status = connection.getresponse()
                status.read()
                connection.close()
                took = time.perf_counter() - started
                if status.status == 200:
                    self.answers.append(took)
                    self.answered.set()
                elif self.answered.is_set():
                    self.failures += 1
            except OSError:
                if self.answered.is_set():  # before it first answers, the hub is starting
                    self.failures += 1
            self.stop.wait(POLL_PAGE_SECONDS)


@dataclass(frozen=True, slots=True)
class CatchUp:
    results: int
    recorded: int
    seconds: float
    page: PagePoll


def catch_up(hall: Hall, journal: str, plan: Plan) -> CatchUp:
    hall.stop_hub()
    results = hall.load(journal, plan.decision_period, plan.outage_seconds, live=False)
    watch = RecordWatch(hall.record, journal)
    page = PagePoll(hall.page_port)
    polling = threading.Thread(target=page.run)
    started = time.monotonic()
    hall.start_hub()
    polling.start()
    try:
        watch.until(results, None, 10 * TARGET_CATCH_UP)
        took = time.monotonic() - started
    finally:
        page.stop.set()
        polling.join()
    return CatchUp(results, len(watch.latencies), took, page)


# --- the section -------------------------------------------------------------------------------


def hub_results(plan: Plan | None = None) -> Section:
    plan = plan or default_plan()
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        sizes = applying(directory, plan)
        hall = Hall(directory, plan.tables)
        try:
            hall.start()
            rates = [
                live(hall, "real", plan.decision_period, plan.live_seconds),
                live(hall, "ten", plan.decision_period / plan.speedup, plan.live_seconds),
            ]
            outage = catch_up(hall, "outage", plan)
        finally:
            hall.close()
    return Section(
        f"the hub applying results: {plan.tables} tables, records of "
        f"{', '.join(str(size.teams) for size in sizes)} teams",
        " ".join((__doc__ or "").split()),
        [
            *_applying_figures(sizes),
            *_live_figures(rates, plan),
            *_catch_up_figures(outage, plan),
        ],
    )


def _applying_figures(sizes: list[Applying]) -> list[Figure]:
    figures = [
        Figure(
            f"results applied per second, {size.teams} teams",
            f"{size.results_per_second:.0f}/s",
            f">= {TARGET_RESULTS_PER_SECOND:.0f}/s",
            size.results_per_second >= TARGET_RESULTS_PER_SECOND,
        )
        for size in sizes
    ]
    first, last = sizes[0], sizes[-1]
    growth = statistics.median(last.result_seconds) / statistics.median(first.result_seconds)
    figures += [
        Figure(
            f"a result's time, {last.teams} teams / {first.teams} (median)",
            f"{growth:.2f}",
            f"<= {TARGET_GROWTH}",
            growth <= TARGET_GROWTH,
        ),
        Figure(
            f"duplicates refused per second, {last.teams} teams",
            f"{last.duplicates_per_second:.0f}/s",
            "-",
            None,
        ),
    ]
    return figures


def _live_figures(rates: list[Live], plan: Plan) -> list[Figure]:
    figures = []
    for rate, pace in zip(rates, ("a real rate", f"{plan.speedup:g}x that"), strict=True):
        missing = rate.results - rate.recorded
        latencies = rate.latencies or [float("nan")]
        p99 = percentile(latencies, 0.99)
        figures += [
            Figure(f"results missing from the record, {pace}", str(missing), "0", missing == 0),
            Figure(
                f"publish -> record, {pace} (p50)", ms(percentile(latencies, 0.5), 0), "-", None
            ),
            Figure(
                f"publish -> record, {pace} (p99)",
                ms(p99, 0),
                f"<= {ms(TARGET_P99, 0)}",
                p99 <= TARGET_P99,
            ),
            Figure(f"hub CPU, {pace} (share of one core)", f"{rate.cpu_share:.0%}", "-", None),
        ]
    return figures


def _catch_up_figures(outage: CatchUp, plan: Plan) -> list[Figure]:
    caught_up = outage.recorded == outage.results
    worst = max(outage.page.answers, default=float("nan"))
    away = plan.outage_seconds
    minutes = f"{away / 60:g} min" if away >= 60 else f"{away:g} s"
    return [
        Figure(
            f"catching up {outage.results} results after {minutes} away",
            f"{outage.seconds:.1f} s"
            if caught_up
            else f"{outage.recorded} by {outage.seconds:.0f} s",
            f"<= {TARGET_CATCH_UP:.0f} s",
            caught_up and outage.seconds <= TARGET_CATCH_UP,
        ),
        Figure(
            "the page meanwhile: worst answer",
            ms(worst, 0),
            f"<= {ms(TARGET_PAGE_WORST, 0)}",
            worst <= TARGET_PAGE_WORST,
        ),
        Figure(
            "the page meanwhile: answers failed",
            f"{outage.page.failures} of {outage.page.failures + len(outage.page.answers)}",
            "0",
            outage.page.failures == 0,
        ),
    ]


def hub_process(
    serves: tuple[str, str], broker_port: int, directory: Path, page_port: int
) -> subprocess.Popen[bytes]:
    """``gametable hub run`` as its own process on the bench's broker, serving ``serves``
    (``--db RECORD`` or ``--day DAY``), its page on ``page_port``, quiet but for warnings."""
    return subprocess.Popen(
        [
            sys.executable, "-m", "firmware_py.cli", "hub", "run", *serves,
            "--port", str(broker_port),
            "--password-file", str(directory / "hub-password"),
            "--page", f"127.0.0.1:{page_port}", "--log-level", "WARNING",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "NOTIFY_SOCKET": ""},
    )  # fmt: skip
