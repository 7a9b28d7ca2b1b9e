"""A weekend's day on one hub (issue 27, "Scale, in make bench", R1166): 24 events (4
divisions x 6 games, each a Combo 4 tournament record of its own, two teams a table) over 3
rooms of 100 tables (each event's record names the rooms its tables are in), 300 tables, one
day record giving each event 12 or 13 tables in a row; a real mosquitto (a temporary config on
a free loopback port) and ``gametable hub run --day`` as its own process with the day's page.

1. Pairing: the director logged in, all 24 events' round 1 paired at once (24 concurrent POSTs
   to /events/<slug>/pair, each from its own loopback address as from a director's laptop of
   its own). An event's pairing time runs from its POST being sent to its retained pairings
   (``tournament/events/<slug>/rounds/1/pairings``) reaching a client subscribed on the
   broker; the figure is the slowest of the 24. Each event's pairings must name its own tables
   (R1172). Round 2 is paired the same way once every round 1 result is in (on the standings).
2. The page while 300 tables report: load processes publish each table's state 2 times a
   second (bench/hub_load.py) and 40 decisions of each table over D seconds, evenly
   (bench/hub_results_load.py: one of them the table's result of round 1; one a second at the
   default D). Meanwhile one client, logged in as the director, asks in turn for the day at a
   glance (/), an event's grid (/events/<slug>/), its /api/board, and the public page (the
   day's /public and an event's in turn), the event changing each time, 50 ms apart: each
   answer's time, from the request to its last byte.
3. Results into the right event: each result's ``decided_at`` (the time it was sent) to the
   moment its row is read in an event's record (each event's record read every 20 ms, so a
   latency includes up to 20 ms of that polling), p99; and the count check: every table's
   result recorded in its own event's record (not refused by it: a row of ``table_events``
   whose outcome is "recorded" or "amended"), none gone to another event. The hub's CPU: its
   utime + stime while the tables report, as a share of one core.

GAMETABLE_BENCH_DAY_SECONDS sets D (default 40).
"""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import paho.mqtt.client as mqtt
from aiohttp import ClientSession, TCPConnector
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from bench.figures import Figure, Section, ms, percentile
from bench.hub_page import _broker, _free_port, _wait_listening
from bench.hub_results import _end, _until_the_hub_confirms, hub_process
from bench.hub_results_load import RESULT_EVERY
from bench.procfs import cpu_seconds
from bench.staff_login import login_cookie
from firmware_py.director.hub.staff_password import store_password
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import WireError, event_round_of, parse_pairings
from rules.tournament import Entrant, TournamentFormat, new_config

NOW = "2026-11-28T08:00:00+00:00"
SEED = 20261128
DIVISIONS = ("Elementary", "Middle", "Junior", "Senior")
ROOM_TABLES = 100  # Ballroom A holds tables 1-100, B 101-200, C 201-300
PASSWORD = "the director's bench password"
JOURNAL = "day"  # the load's journals: day-<table>
START_SECONDS = 30.0
POLL_RECORD_SECONDS = 0.02
PAGE_GAP_SECONDS = 0.05
STATE_RATE = 2.0  # a table's states a second while it reports
DRAIN_SECONDS = 30.0  # after the load: the results still on their way, at most this long
TARGET_PAIRING = 2.0
TARGET_PAGE_P99 = 0.200
TARGET_RESULT_P99 = 1.0
PAGES = ("the day at a glance", "an event's grid", "an event's /api/board", "the public page")


@dataclass(frozen=True, slots=True)
class Plan:
    """The day the section plays; the bench's own, or a small one in the suite's quick form."""

    divisions: tuple[str, ...] = DIVISIONS
    games: int = 6
    tables: int = 300
    report_seconds: float = 40.0

    @property
    def events(self) -> int:
        return len(self.divisions) * self.games

    @property
    def decision_period(self) -> float:
        """A table's decisions, one every this many seconds: RESULT_EVERY of them while it
        reports, so that every table sends its one result of round 1."""
        return self.report_seconds / RESULT_EVERY


def default_plan() -> Plan:
    seconds = float(os.environ.get("GAMETABLE_BENCH_DAY_SECONDS", "40"))
    if seconds <= 0:
        raise ValueError("GAMETABLE_BENCH_DAY_SECONDS: expected a positive duration")
    return Plan(report_seconds=seconds)


# --- the day: events, their tables and rooms ----------------------------------------------------


def event_names(plan: Plan) -> dict[str, str]:
    """Each event's short name and name, division by division: junior-3 "Junior, game 3"."""
    return {
        f"{division.lower()}-{game}": f"{division}, game {game}"
        for division in plan.divisions
        for game in range(1, plan.games + 1)
    }


def event_tables(plan: Plan) -> dict[str, tuple[int, ...]]:
    """Tables 1 to ``plan.tables`` shared among the events in runs, the first events one table
    more when they do not divide evenly (300 among 24: twelve of 13, twelve of 12)."""
    slugs = list(event_names(plan))
    each, over = divmod(plan.tables, len(slugs))
    shares: dict[str, tuple[int, ...]] = {}
    first = 1
    for k, slug in enumerate(slugs):
        count = each + (k < over)
        shares[slug] = tuple(range(first, first + count))
        first += count
    return shares


def room_name(table: int) -> str:
    return f"Ballroom {chr(ord('A') + (table - 1) // ROOM_TABLES)}"


def rooms_of(tables: Sequence[int]) -> dict[str, tuple[int, ...]]:
    """The rooms an event's tables are in, each with the event's tables in it."""
    rooms: dict[str, list[int]] = {}
    for table in tables:
        rooms.setdefault(room_name(table), []).append(table)
    return {name: tuple(numbers) for name, numbers in rooms.items()}


def make_day(directory: Path, plan: Plan) -> Path:
    """Every event's record (two teams a table, round 1 not paired, its rooms), the day naming
    them with each event's tables, and the director's password beside the day."""
    path = directory / "day.sqlite"
    names, shares = event_names(plan), event_tables(plan)
    with DayRecord.create(
        path, name="National weekend", time_zone="America/Chicago", now=NOW, by="bench"
    ) as day:
        for slug, name in names.items():
            tables = shares[slug]
            teams = tuple(
                Entrant(f"{name} team {i + 1}", f"School {i % 20 + 1}")
                for i in range(2 * len(tables))
            )
            record_path = directory / f"{slug}.db"
            config = new_config(TournamentFormat.COMBO4, seed=SEED)
            with TournamentDB.create(record_path, config, teams, now=NOW, by="bench") as record:
                for room, in_room in rooms_of(tables).items():
                    record.add_room(room, in_room, building="", now=NOW, by="bench")
            day.add_event(slug, name, record_path, now=NOW, by="bench")
            day.assign(tables, slug, now=NOW, by="bench", reason="the weekend's plan")
    store_password(path, PASSWORD)
    return path


# --- the hall: mosquitto and the hub --------------------------------------------------------


@dataclass
class DayHall:
    directory: Path
    day: Path
    broker: subprocess.Popen[bytes] | None = None
    broker_port: int = 0
    page_port: int = 0
    hub: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.broker, self.broker_port = _broker(self.directory)
        self.page_port = _free_port()
        (self.directory / "hub-password").write_text("anything\n")
        _wait_listening(self.broker_port)
        self.hub = hub_process(
            ("--day", str(self.day)), self.broker_port, self.directory, self.page_port
        )
        _until_the_hub_confirms(self.broker_port)

    def close(self) -> None:
        for process in (self.hub, self.broker):
            if process is not None:
                _end(process)

    def cookie(self) -> str:
        """The director's session on the day's page, once the page answers."""
        deadline = time.monotonic() + START_SECONDS
        while True:
            cookie = login_cookie(self.page_port, "", PASSWORD)
            if cookie is not None:
                return cookie
            if time.monotonic() > deadline:
                raise RuntimeError(f"the day's page did not take a login within {START_SECONDS} s")
            time.sleep(0.1)


# --- 1. every event pairs a round at once ---------------------------------------------------


@dataclass
class PairingsHeard:
    """The events' pairings of a round as the broker delivers them: when, and at which
    tables."""

    heard: dict[str, float] = field(default_factory=dict)
    tables: dict[str, tuple[int, ...]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        at = time.monotonic()
        said = event_round_of(message.topic)
        if said is None or not message.payload:
            return
        try:
            pairings = parse_pairings(bytes(message.payload))
        except WireError:
            return
        with self.lock:
            self.heard.setdefault(said[0], at)
            self.tables[said[0]] = tuple(match.table for match in pairings.matches)


@dataclass(frozen=True, slots=True)
class Pairing:
    round: int
    took: dict[str, float]  # each event's POST sent -> its pairings heard on the broker
    answered: dict[str, float]  # each event's POST sent -> its answer
    refused: dict[str, str]  # an event whose POST was not a redirect: its status
    misplaced: list[str]  # events whose pairings are not at their own tables


Posted = tuple[float, float, int]  # when the POST was sent, how long its answer took, its status


async def _pair_all(
    base: str, cookie: str, csrf: str, slugs: Sequence[str], number: int
) -> dict[str, Posted]:
    """Every event's Pair round ``number`` at once, each from its own address (127.0.0.2, .3, ...: a
    director's laptop per event; the page admits 16 connections an address, as a browser opens
    6 at most)."""
    headers = {"Cookie": cookie, "Origin": base}
    clients = [
        ClientSession(connector=TCPConnector(local_addr=(f"127.0.0.{2 + k}", 0)))
        for k in range(len(slugs))
    ]

    async def pair(client: ClientSession, slug: str) -> Posted:
        sent = time.monotonic()
        answer = await client.post(
            f"{base}/events/{slug}/pair",
            data={"csrf": csrf, "round": str(number)},
            headers=headers,
            allow_redirects=False,
        )
        await answer.read()
        return sent, time.monotonic() - sent, answer.status

    try:
        done = await asyncio.gather(*map(pair, clients, slugs))
    finally:
        for client in clients:
            await client.close()
    return dict(zip(slugs, done, strict=True))


def pair_every_event(
    hall: DayHall, cookie: str, shares: Mapping[str, tuple[int, ...]], number: int
) -> Pairing:
    base = f"http://127.0.0.1:{hall.page_port}"
    csrf = _csrf(hall.page_port, cookie, f"/events/{next(iter(shares))}/")
    heard = PairingsHeard()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    client.on_message = heard.on_message
    client.connect("127.0.0.1", hall.broker_port, keepalive=30)
    client.subscribe(f"tournament/events/+/rounds/{number}/pairings", qos=1)
    client.loop_start()
    try:
        time.sleep(0.5)  # subscribed before the first POST
        posted = asyncio.run(_pair_all(base, cookie, csrf, list(shares), number))
        deadline = time.monotonic() + 30
        while len(heard.heard) < len(shares) and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        client.disconnect()
        client.loop_stop()
    took = {slug: heard.heard[slug] - posted[slug][0] for slug in shares if slug in heard.heard}
    return Pairing(
        number,
        took,
        {slug: said[1] for slug, said in posted.items()},
        {slug: str(said[2]) for slug, said in posted.items() if said[2] != 303},
        [slug for slug, tables in shares.items() if heard.tables.get(slug) != tables],
    )


def _csrf(port: int, cookie: str, path: str) -> str:
    status, html = _get(port, path, cookie)
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    if status != 200 or found is None:
        raise RuntimeError(f"{path} gave no form to pair with (HTTP {status})")
    return found.group(1)


def _get(port: int, path: str, cookie: str) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers={"Cookie": cookie, "Accept": "text/html"})
        answer = connection.getresponse()
        return answer.status, answer.read().decode()
    finally:
        connection.close()


# --- 2. the page while the tables report ------------------------------------------------------


@dataclass
class PageSampler:
    """The page's addresses asked in turn until stopped: each answer's time, by kind."""

    port: int
    cookie: str
    slugs: Sequence[str]
    answers: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in PAGES})
    failures: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def addresses(self) -> Iterator[tuple[str, str]]:
        turn = 0
        while True:
            slug = self.slugs[turn % len(self.slugs)]
            yield PAGES[0], "/"
            yield PAGES[1], f"/events/{slug}/"
            yield PAGES[2], f"/events/{slug}/api/board"
            yield PAGES[3], "/public" if turn % 2 else f"/events/{slug}/public"
            turn += 1

    def run(self) -> None:
        for kind, path in self.addresses():
            if self.stop.is_set():
                return
            started = time.perf_counter()
            try:
                status, _ = _get(self.port, path, self.cookie)
            except OSError as error:
                self.failures.append(f"{path}: {error}")
            else:
                if status == 200:
                    self.answers[kind].append(time.perf_counter() - started)
                else:
                    self.failures.append(f"{path}: HTTP {status}")
            self.stop.wait(PAGE_GAP_SECONDS)


# --- 3. results into their events ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seen:
    """A result of the load's journals in an event's record: the event, its table, how long
    from its sending to its row being read, and what the record did with it."""

    event: str
    table: int
    latency: float
    outcome: str  # "recorded", "amended", or what the record refused (schema.OUTCOMES)

    @property
    def in_the_record(self) -> bool:
        return self.outcome in ("recorded", "amended")


@dataclass
class ResultsWatch:
    """Every event's record read every POLL_RECORD_SECONDS: each result of the load's journals
    the hub applied, whichever event's record it went to."""

    records: Mapping[str, Path]
    seen: list[Seen] = field(default_factory=list)
    _last: dict[str, int] = field(default_factory=dict)

    def poll(self, connections: Mapping[str, sqlite3.Connection]) -> None:
        for slug, connection in connections.items():
            rows = connection.execute(
                "SELECT id, table_number, journal, decided_at, outcome FROM table_events "
                "WHERE id > ? ORDER BY id",
                (self._last.get(slug, 0),),
            ).fetchall()
            now = time.time()
            for row_id, table, journal, decided_at, outcome in rows:
                self._last[slug] = row_id
                if str(journal).startswith(f"{JOURNAL}-"):
                    self.seen.append(Seen(slug, int(table), now - float(decided_at), outcome))

    def until(self, results: int, done: threading.Event | None, seconds: float) -> None:
        """Poll until ``results`` are seen, or ``seconds`` after ``done`` is set (None: now)."""
        connections = {
            slug: sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
            for slug, path in self.records.items()
        }
        try:
            deadline = None if done is not None else time.monotonic() + seconds
            while len(self.seen) < results:
                self.poll(connections)
                if deadline is None and done is not None and done.is_set():
                    deadline = time.monotonic() + seconds
                if deadline is not None and time.monotonic() > deadline:
                    return
                time.sleep(POLL_RECORD_SECONDS)
        finally:
            for connection in connections.values():
                connection.close()


@dataclass(frozen=True, slots=True)
class Placed:
    """The count check: results recorded in the event their table plays for, results that went
    to another event, and results their own event refused (not in its record)."""

    right: int
    wrong: int
    refused: int


def placed(seen: Sequence[Seen], shares: Mapping[str, Sequence[int]]) -> Placed:
    owner = {table: slug for slug, tables in shares.items() for table in tables}
    own = [result for result in seen if owner.get(result.table) == result.event]
    right = sum(1 for result in own if result.in_the_record)
    return Placed(right, len(seen) - len(own), len(own) - right)


@dataclass(frozen=True, slots=True)
class Reporting:
    sent: int  # results the load handed to the broker
    seen: list[Seen]
    page: PageSampler
    hub_cpu: float  # the hub's utime + stime while the tables reported, of one core


def _load(hall: DayHall, plan: Plan) -> int:
    """The tables' states and decisions for ``plan.report_seconds``: the results sent."""
    port, last = str(hall.broker_port), str(plan.tables)
    states = subprocess.Popen(
        [sys.executable, "-m", "bench.hub_load", port, "1", last,
         str(plan.report_seconds), str(STATE_RATE)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    decisions = subprocess.Popen(
        [sys.executable, "-m", "bench.hub_results_load", port, "1", last, last,
         str(plan.decision_period), str(plan.report_seconds), JOURNAL, "live"],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    out, _ = decisions.communicate()
    states.wait()
    if decisions.returncode != 0 or states.returncode != 0:
        raise RuntimeError("a load process failed")
    return int(out.split()[1])


def report(hall: DayHall, cookie: str, plan: Plan, records: Mapping[str, Path]) -> Reporting:
    watch = ResultsWatch(records)
    page = PageSampler(hall.page_port, cookie, list(records))
    sampling = threading.Thread(target=page.run)
    loaded = threading.Event()
    sent: list[int] = []

    def load() -> None:
        try:
            sent.append(_load(hall, plan))
        finally:
            loaded.set()

    loading = threading.Thread(target=load)
    assert hall.hub is not None
    cpu_before, started = cpu_seconds(hall.hub.pid), time.monotonic()
    sampling.start()
    loading.start()
    try:
        watch.until(sys.maxsize, loaded, 0.0)  # while the tables report
    finally:
        page.stop.set()
        sampling.join()
        loading.join()
    cpu = (cpu_seconds(hall.hub.pid) - cpu_before) / (time.monotonic() - started)
    results = sent[0] if sent else 0
    watch.until(results, None, DRAIN_SECONDS)  # then whatever is still on its way
    return Reporting(results, watch.seen, page, cpu)


# --- the section -------------------------------------------------------------------------------


def day_scale(plan: Plan | None = None) -> Section:
    plan = plan or default_plan()
    shares = event_tables(plan)
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        day = make_day(directory, plan)
        records = {slug: directory / f"{slug}.db" for slug in shares}
        hall = DayHall(directory, day)
        try:
            hall.start()
            cookie = hall.cookie()
            first = pair_every_event(hall, cookie, shares, 1)
            reporting = report(hall, cookie, plan, records)
            second = pair_every_event(hall, cookie, shares, 2)  # on round 1's standings
        finally:
            hall.close()
    rooms = len({room_name(table) for table in range(1, plan.tables + 1)})
    in_rooms = f"{rooms} room{'s' * (rooms != 1)}"
    return Section(
        f"a day of {plan.events} events over {in_rooms} and {plan.tables} tables on one hub",
        " ".join((__doc__ or "").split()),
        [
            *pairing_figures(first, plan),
            *pairing_figures(second, plan),
            *page_figures(reporting.page),
            *result_figures(reporting, shares),
        ],
    )


def pairing_figures(pairing: Pairing, plan: Plan) -> list[Figure]:
    slowest = max(pairing.took.values(), default=float("nan"))
    heard = len(pairing.took)
    paired = heard == plan.events and not pairing.refused
    answered = max(pairing.answered.values(), default=float("nan"))
    return [
        Figure(
            f"round {pairing.round}, {plan.events} events paired at once: the slowest, POST -> "
            "its pairings on the broker",
            ms(slowest, 0) if paired else f"{heard} of {plan.events} paired",
            f"<= {ms(TARGET_PAIRING, 0)}",
            paired and slowest <= TARGET_PAIRING,
        ),
        Figure(f"round {pairing.round}: the slowest POST's answer", ms(answered, 0), "-", None),
        Figure(
            f"round {pairing.round}: events whose pairings are not at their own tables",
            str(len(pairing.misplaced)),
            "0",
            not pairing.misplaced,
        ),
    ]


def page_figures(page: PageSampler) -> list[Figure]:
    figures = []
    for kind in PAGES:
        answers = page.answers[kind]
        p99 = percentile(answers, 0.99) if answers else float("nan")
        figures.append(
            Figure(
                f"{kind} while the tables report (p99 of {len(answers)})",
                ms(p99, 0),
                f"< {ms(TARGET_PAGE_P99, 0)}",
                bool(answers) and p99 < TARGET_PAGE_P99,
            )
        )
    figures.append(
        Figure("the page's answers failed", str(len(page.failures)), "0", not page.failures)
    )
    return figures


def result_figures(reporting: Reporting, shares: Mapping[str, Sequence[int]]) -> list[Figure]:
    latencies = [result.latency for result in reporting.seen if result.in_the_record]
    latencies = latencies or [float("nan")]
    p99 = percentile(latencies, 0.99)
    count = placed(reporting.seen, shares)
    return [
        Figure(
            "a result published -> in its event's record (p50)",
            ms(percentile(latencies, 0.5), 0),
            "-",
            None,
        ),
        Figure(
            "a result published -> in its event's record (p99)",
            ms(p99, 0),
            f"<= {ms(TARGET_RESULT_P99, 0)}",
            p99 <= TARGET_RESULT_P99,
        ),
        Figure(
            "results recorded in their own event's record",
            f"{count.right} of {reporting.sent}",
            "all",
            count.right == reporting.sent,
        ),
        Figure(
            "results gone to another event's record",
            str(count.wrong),
            "0",
            count.wrong == 0,
        ),
        Figure(
            "results their own event refused",
            str(count.refused),
            "0",
            count.refused == 0,
        ),
        Figure(
            "hub CPU while the tables report (share of one core)",
            f"{reporting.hub_cpu:.0%}",
            "-",
            None,
        ),
    ]
