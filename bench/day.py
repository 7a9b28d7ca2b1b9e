"""A day at the table, in real time: the real daemon plays full matches of every family.

``python -m bench.day table DIR`` is the table: ``TableDaemon`` as ``gametable run`` builds it
with a ``[hub]`` config, on MockFactory pins, the OLED on luma's dummy device, the web page on
127.0.0.1, the hub link (``HubLink``) to the broker on 127.0.0.1, and a new journal with its
outbox for each match in DIR (as ``gametable run --new-journal`` makes it: what the last
match's outbox still holds is carried into it, R713). Each match is one of the documented
scripts (docs/scripts), its presses driven on the mock pins and its web entries handed to the
page's path, at the script's own times. The scoreboard alternates between a pty that the
watcher reads slowly (8 bytes a second: less than the clock sends, so it fills and stays full)
and ``loop://``, read by nobody. After each match the table prints one JSON line: the bytes it
wrote to storage (``/proc/self/io``), the journal's size with its WAL, the log's lines and
bytes, the decisions left in its outbox. The day's last match waits (at most
``DRAIN_SECONDS``) for the hub to confirm every decision before the table stops.

:func:`watch` is the rest of the hall: a real mosquitto and the real hub (``gametable hub
run``, with its tournament record) as processes of their own, the hub killed (-9) once in the
middle of the day (with a decision on its way) and started again as systemd would; the
table as its own process; three phones following the page (server-sent events, reconnecting
as a browser does), the pty read slowly, the table's and the hub's RSS, open files and threads
sampled from /proc. Once everything has stopped, the table's journals are checked against the
record (tests/hall_checker.py, the fault campaign's checker): every decision the table
committed held by the hub's ledger (``hub_deliveries``), none applied twice, none left in the
outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.figures import Figure, Section

if TYPE_CHECKING:  # the table's modules load in the table's process only
    from firmware_py.table.journal import Journal

SCRIPTS = Path(__file__).resolve().parents[1] / "docs/scripts"
# Full matches, the short ones first so that a short form sees every family.
DAY = (
    "guesstimation-two-rounds",
    "states-connect-and-knock",
    "pentathlon-contig60",
    "championship",
    "combo4-match",
    "combo3-match",
)
PHONES = 3
PTY_READ = 8  # bytes the slow board reads...
PTY_EVERY = 1.0  # ...each second
SAMPLE_EVERY = 10.0
PAUSE = 2.0  # between matches: the dealer starts the next
TABLE = 1  # the table's number on the hub
JOURNAL = "table.db"  # the table's journal; each match's predecessor moved aside beside it
# The day's last match: how long the table waits for the hub to confirm its outbox before it
# stops: the link's slowest way back, paho's reconnect (10 s at most) then the resend timer
# (10 s), with room to spare; a short wait keeps the 3-minute form of make test short.
DRAIN_SECONDS = 30.0
HUB_RESTART_SECONDS = 2.0  # gametable-hub.service's RestartSec=
# Halfway, the hub is killed once a decision is on its way to it, or after this long.
KILL_WAIT_SECONDS = 60.0


# --- the table (its own process) ------------------------------------------------------------


def _written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    return 0


@dataclass(frozen=True, slots=True)
class Match:
    number: int
    script: str
    board_url: str  # the slow pty's path, or loop://


async def _play(
    match: Match, directory: Path, port: int, broker_port: int, until: float
) -> dict[str, Any]:
    from drivers.mockpins import mock_factory
    from drivers.oled import Oled, open_emulator
    from drivers.scoreboard import Scoreboard
    from firmware_py.table.commands import _sim_config
    from firmware_py.table.daemon import TableDaemon
    from firmware_py.table.headless import parse_script
    from firmware_py.table.journal import Journal
    from firmware_py.table.sim import sim_specs
    from firmware_py.table.uplink import Broker, HubLink
    from firmware_py.table.web.page import TablePage, listen
    from firmware_py.table.wiring import table_settings

    name, number, board_url = match.script, match.number, match.board_url
    lines = (SCRIPTS / f"{name}.jsonl").read_text().splitlines()
    settings, steps = parse_script(lines, table_settings(_sim_config(None, None)))
    specs = sim_specs(settings.seats)
    leds: dict[str, int | str] = {s: 2 + len(specs) + i for i, s in enumerate(settings.seats)}
    path = directory / JOURNAL
    written = _written()
    loop = asyncio.get_running_loop()
    # gametable run --new-journal: the last match's journal moved aside, what its outbox still
    # held carried into this one (R713)
    journal = Journal.open(path, new=True, outbox=True)
    carried = journal.carried_over
    hub = HubLink(Broker("127.0.0.1", broker_port, TABLE, "table"), journal=journal)
    daemon = TableDaemon(
        settings=settings,
        # a Pi's pins keep no history; the mock's (1 000 states a pin, the LEDs changing about
        # once a second) grew every match's table 0.4-0.5 MB/h until full (R1084)
        factory=mock_factory(states_kept=0),
        input_specs=specs,
        led_pins=leds,
        oled=Oled(device=open_emulator("dummy")),
        scoreboard=Scoreboard(url=board_url),
        journal=journal,
        hub=hub,
        page=TablePage(listen("127.0.0.1", port)),
    )
    daemon.start_controller(loop.time())
    task = asyncio.create_task(daemon.run())
    started = loop.time()
    finished = True
    for step in steps:
        if started + step.t > until:
            finished = False  # the day's end cuts this match short
            break
        await asyncio.sleep(max(0.0, started + step.t - loop.time()))
        if task.done():
            task.result()  # a crashed table ends the day with its error
        if step.input is not None:
            pin = daemon.bank.pin(step.input)
            pin.drive_low() if step.active else pin.drive_high()  # pulled up: active is low
        if step.entry is not None:
            entry = step.entry
            daemon.enter(entry.seat, entry.name, entry.value)
    await asyncio.sleep(0.5)
    played = loop.time() - started
    drained = None
    if not finished or loop.time() + PAUSE >= until:  # the day's last match
        drained = await _drain(journal, task)
    board = daemon.scoreboard
    link = board.link.value if board is not None else "none"
    daemon.stop()
    await task
    return {
        "match": number,
        "script": name,
        "family": settings.family,
        "finished": finished,
        "seconds": round(played, 1),  # of play: the wait for the hub's confirmation apart
        "board": "loop" if board_url == "loop://" else "pty",
        "board_link": link,
        "written_bytes": _written() - written,
        "journal_bytes": _journal_bytes(path),
        "decisions": _decisions(path),
        "carried": carried,
        "outbox": _outbox(path),
        "drain_seconds": drained,
    }


async def _drain(journal: Journal, task: asyncio.Task[int]) -> float | None:
    """Wait until the hub has confirmed every decision of the journal (None: not within
    ``DRAIN_SECONDS``); how long it took."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    while journal.undelivered():
        if loop.time() - started > DRAIN_SECONDS:
            return None
        if task.done():
            task.result()
        await asyncio.sleep(0.1)
    return round(loop.time() - started, 2)


def _journal_bytes(path: Path) -> int:
    """The journal's size with SQLite's files beside it (not the journals moved aside)."""
    files = [path.with_name(path.name + suffix) for suffix in ("", "-wal", "-shm")]
    return sum(file.stat().st_size for file in files if file.exists())


def _outbox(path: Path) -> int:
    """The decisions the journal still holds for the hub (its own and those carried)."""
    from firmware_py.table.journal import Journal

    journal = Journal.open_read_only(path)
    try:
        return journal.undelivered()
    finally:
        journal.close()


async def _table_day(
    directory: Path, pty_path: str, port: int, broker_port: int, seconds: float
) -> None:
    log_file = directory / "daemon.log"
    logging.basicConfig(filename=log_file, level=logging.INFO, format="%(levelname)s %(message)s")
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    number = 0
    while loop.time() < until:
        name = DAY[number % len(DAY)]
        lines_before = _lines(log_file)
        bytes_before = log_file.stat().st_size if log_file.exists() else 0
        board = "loop://" if number % 2 else pty_path
        result = await _play(Match(number, name, board), directory, port, broker_port, until)
        result.update(_after_match())
        result["log_lines"] = _lines(log_file) - lines_before
        result["log_bytes"] = log_file.stat().st_size - bytes_before
        print(json.dumps(result), flush=True)
        if not result["finished"]:
            break  # the day's end cut it short: nothing more is played
        number += 1
        await asyncio.sleep(PAUSE)


def _after_match() -> dict[str, int]:
    """The match's own objects freed, then the table's RSS and what is left of past matches.

    ``gametable run`` builds one TableDaemon for its life; the soak builds one a match (a day
    plays every family), and a stopped daemon's objects hold reference cycles (callbacks,
    tasks, paho's client and its socket pair) that only Python's cyclic collector frees, at a
    time of its choosing. Collected here, so that the day measures the table rather than the
    soak's old matches; and counted, so that one that is not freed is seen (the loop's signal
    handler holds the last daemon until the next one replaces it: 1 at most)."""
    from firmware_py.table.daemon import TableDaemon

    gc.collect()
    left = sum(1 for thing in gc.get_objects() if type(thing) is TableDaemon)
    return {"rss": _rss_self(), "daemons_left": left}


def _decisions(path: Path) -> int:
    """The decisions a match's journal holds (each one a commit before it was shown). Read as
    the journal reads itself (R121): nothing written beside it, not even SQLite's ``-wal`` and
    ``-shm``, which would stop the next match's ``--new-journal``."""
    from firmware_py.table.journal import Journal

    journal = Journal.open_read_only(path)
    try:
        return sum(1 for entry in journal.entries() if entry.kind == "event")
    finally:
        journal.close()


def _lines(path: Path) -> int:
    if not path.exists():
        return 0
    with path.open("rb") as file:
        return sum(1 for _ in file)


def table_main(argv: list[str]) -> int:
    from firmware_py import families

    directory, pty_path = Path(argv[0]), argv[1]
    port, broker_port, seconds = int(argv[2]), int(argv[3]), float(argv[4])
    families.install()
    asyncio.run(_table_day(directory, pty_path, port, broker_port, seconds))
    return 0


def _rss_self() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def virtual_main(argv: list[str]) -> int:
    """A long day on the headless simulator's virtual time: the same 20-minute match (Combo 4)
    again and again, each on its own journal, logged as the daemon logs (``log_event``)."""
    from firmware_py import families
    from firmware_py.table.commands import _sim_config
    from firmware_py.table.daemon import log_event
    from firmware_py.table.headless import parse_script, play_script
    from firmware_py.table.journal import Journal
    from firmware_py.table.wiring import table_settings

    directory, matches = Path(argv[0]), int(argv[1])
    outbox = argv[2:3] == ["outbox"]
    families.install()
    log_file = directory / "daemon.log"
    logging.basicConfig(filename=log_file, level=logging.INFO, format="%(levelname)s %(message)s")
    lines = (SCRIPTS / "combo4-match.jsonl").read_text().splitlines()
    settings, steps = parse_script(lines, table_settings(_sim_config(None, None)))
    for number in range(matches):
        path = directory / f"virtual-{number:03d}.db"
        written, lines_before = _written(), _lines(log_file)
        bytes_before = log_file.stat().st_size if log_file.exists() else 0
        journal = Journal.open(path, new=True, outbox=outbox)
        if outbox:
            journal.commit = _confirmed_at_once(journal)  # type: ignore[method-assign]
        try:
            play_script(settings, steps, log_event, journal=journal)
        finally:
            journal.close()
        result = {
            "match": number,
            "seconds": steps[-1].t,
            "written_bytes": _written() - written,
            "journal_bytes": sum(p.stat().st_size for p in directory.glob(f"{path.name}*")),
            "log_lines": _lines(log_file) - lines_before,
            "log_bytes": log_file.stat().st_size - bytes_before,
            "decisions": _decisions(path),
            "rss": _rss_self(),
        }
        print(json.dumps(result), flush=True)
    return 0


def _confirmed_at_once(journal: Any) -> Any:
    """The journal's commit followed by the hub's confirmation of what it queued: a table on a
    hub writes each decision twice, queued with it and taken out when confirmed (the most it
    writes: a hub confirming in batches takes several out in one write)."""
    commit = journal.commit

    def commit_and_confirm() -> None:
        commit()
        queued = journal.outgoing(after=0, limit=1000)
        if queued:
            journal.confirmed(through=max(decision.seq for decision in queued))

    return commit_and_confirm


# --- the hall: phones, the slow board, the sampler ------------------------------------------


@dataclass(slots=True)
class Sample:
    at: float  # seconds since the table started
    rss: int
    files: int
    threads: int


@dataclass(frozen=True, slots=True)
class Delivery:
    """The table's journals against the hub's record, once everything has stopped
    (tests/hall_checker.py)."""

    committed: int  # decisions in the table's journals (every match's)
    lost: int  # ... that the hub's ledger does not hold as delivered (or, a result, applied)
    doubled: int  # decisions the record holds twice
    waiting: int  # decisions left in the table's outbox (its own and those carried)
    journals: int  # the table's journals: one a match
    ledger_journals: int  # the (table, journal) rows of the hub's ledger
    while_away: int  # decisions committed while the hub was away (killed, not yet back)
    outcomes: dict[str, int] = field(default_factory=dict)  # the results the hub applied
    examples: tuple[str, ...] = ()

    @property
    def delivered(self) -> int:
        return self.committed - self.lost


@dataclass(slots=True)
class Day:
    seconds: float
    matches: list[dict[str, Any]] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    phone_updates: int = 0
    board_bytes: int = 0
    exit_code: int | None = None
    stderr: str = ""
    hub_samples: list[Sample] = field(default_factory=list)
    hub_kills: list[float] = field(default_factory=list)  # seconds into the day, kill -9
    # (killed, back) on the wall clock (the journals' ``wall``): back once its page answers
    hub_away: list[tuple[float, float]] = field(default_factory=list)
    outbox_at_kill: int | None = None  # the decisions the table held for the hub just then
    hub_exit_code: int | None = None  # at the end of the day, stopped as systemd stops it
    hub_stderr: str = ""
    delivery: Delivery | None = None


def sample(pid: int, at: float) -> Sample | None:
    """The process's RSS, open files and threads; None for one gone (or dying: a zombie has no
    memory to show)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        files = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if "VmRSS" not in fields:
        return None
    rss = int(fields["VmRSS"].split()[0]) * 1024
    return Sample(at=at, rss=rss, files=files, threads=int(fields["Threads"]))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _phone(port: int, day: Day, stop: asyncio.Event) -> None:
    """A phone following the table's page: an EventSource that reconnects, as a browser's."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError):
                async with session.get(f"http://127.0.0.1:{port}/api/events") as response:
                    async for line in response.content:
                        if line.startswith(b"data:"):
                            day.phone_updates += 1
                        if stop.is_set():
                            return
            await asyncio.sleep(1.0)


async def _slow_board(master: int, day: Day, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(BlockingIOError):
            day.board_bytes += len(os.read(master, PTY_READ))
        await asyncio.sleep(PTY_EVERY)


@contextlib.contextmanager
def _pty() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    os.set_blocking(master, False)
    try:
        yield master, os.ttyname(slave)
    finally:
        os.close(slave)
        os.close(master)


@dataclass(slots=True)
class _Hall:
    """The broker and the hub, as processes of their own, in the day's directory."""

    directory: Path
    broker: subprocess.Popen[bytes]
    broker_port: int
    page_port: int
    record: Path
    hub: subprocess.Popen[bytes] | None = None

    @classmethod
    def start(cls, directory: Path) -> _Hall:
        from bench.hub_page import _broker, _record, _wait_listening

        broker, broker_port = _broker(directory)
        try:
            hall = cls(directory, broker, broker_port, _free_port(), _record(directory))
            _wait_listening(broker_port)
            hall.start_hub()
        except BaseException:
            broker.kill()  # nothing of the hall outlives a day that could not begin
            broker.wait()
            raise
        return hall

    def start_hub(self) -> None:
        from bench.hub_page import _hub

        with (self.directory / "hub.log").open("ab") as out, self._stderr.open("ab") as err:
            self.hub = _hub(
                self.directory,
                self.broker_port,
                self.page_port,
                record=self.record,
                log_level="INFO",
                stdout=out,
                stderr=err,
            )

    @property
    def _stderr(self) -> Path:
        return self.directory / "hub.stderr"

    def kill_hub(self) -> None:
        """kill -9: no goodbye, no last flush (the broker publishes its last will)."""
        assert self.hub is not None
        self.hub.kill()
        self.hub.wait()

    def stop(self, day: Day) -> None:
        """SIGTERM to the hub, then to the broker, as systemd stops them."""
        for process in (self.hub, self.broker):
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        day.hub_exit_code = None if self.hub is None else self.hub.returncode
        day.hub_stderr = self._stderr.read_text(errors="replace") if self._stderr.exists() else ""


async def _kill_hub_midday(hall: _Hall, day: Day, started: float) -> None:
    """Halfway through the day, once a decision is on its way (in the table's outbox), the hub
    is killed (-9), and started again after systemd's RestartSec; it is back when its page
    answers (it connects to the broker just after)."""
    await asyncio.sleep(day.seconds / 2)
    await _decision_on_its_way(hall.directory / JOURNAL, KILL_WAIT_SECONDS)
    await asyncio.to_thread(hall.kill_hub)
    killed = time.time()
    day.hub_kills.append(round(time.monotonic() - started, 1))
    day.outbox_at_kill = await asyncio.to_thread(_outbox_now, hall.directory / JOURNAL)
    await asyncio.sleep(HUB_RESTART_SECONDS)
    hall.start_hub()
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", hall.page_port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        day.hub_away.append((killed, time.time()))
        return


def _outbox_now(path: Path) -> int | None:
    """The table's outbox as it is now, read without disturbing the table (R121)."""
    from firmware_py.table.journal import JournalError

    try:
        return _outbox(path)
    except JournalError:
        return None  # between two matches' journals: not to be read just now


async def _decision_on_its_way(journal: Path, most: float) -> None:
    """Until the table's outbox holds a decision the hub has not confirmed (or ``most``
    seconds): the outbox is read, without disturbing the table, each time the journal's WAL
    is written (a press that decides nothing writes it too)."""

    def stamp() -> tuple[int, int] | None:
        try:
            found = journal.with_name(journal.name + "-wal").stat()
        except OSError:
            return None
        return found.st_size, found.st_mtime_ns

    deadline = time.monotonic() + most
    seen = stamp()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.01)
        now = stamp()
        if now == seen:
            continue
        seen = now
        if await asyncio.to_thread(_outbox_now, journal):
            return


def _delivery(directory: Path, record: Path, away: list[tuple[float, float]]) -> Delivery:
    """What the table's journals decided against what the hub's record holds (read-only)."""
    from tests.hall_checker import check, deliveries, reading

    verdict = check({TABLE: directory / JOURNAL}, record)
    while_away = sum(
        any(killed <= wall <= back for killed, back in away)
        for wall in _decision_times(directory / JOURNAL)
    )
    with reading(record) as connection:
        ledger = deliveries(connection) or {}
        outcomes = dict(
            connection.execute("SELECT outcome, count(*) FROM table_events GROUP BY outcome")
        )
    return Delivery(
        committed=verdict.checked,
        lost=verdict.lost,
        doubled=verdict.doubled,
        waiting=verdict.waiting,
        journals=verdict.journals,
        ledger_journals=sum(1 for table, _ in ledger if table == TABLE),
        while_away=while_away,
        outcomes=outcomes,
        examples=verdict.lost_examples,
    )


def _decision_times(path: Path) -> list[float]:
    """When each decision of the table's journals (the day's, moved aside beside ``path``) was
    committed, on the wall clock."""
    from datetime import datetime

    from firmware_py.table.journal import Journal
    from tests.hall_checker import journal_files

    times = []
    for file in journal_files(path):
        journal = Journal.open_read_only(file)
        try:
            times += [
                datetime.fromisoformat(entry.wall).timestamp()
                for entry in journal.entries()
                if entry.kind == "event"
            ]
        finally:
            journal.close()
    return times


async def _watch(directory: Path, seconds: float, on_match: Any) -> Day:
    day = Day(seconds=seconds)
    port = _free_port()
    hall = _Hall.start(directory)
    try:
        with _pty() as (master, pty_path):
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.day", "table", str(directory), pty_path, str(port),
                str(hall.broker_port), str(seconds),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=Path(__file__).resolve().parents[1],
            )  # fmt: skip
            stop = asyncio.Event()
            helpers = [asyncio.create_task(_phone(port, day, stop)) for _ in range(PHONES)]
            helpers.append(asyncio.create_task(_slow_board(master, day, stop)))
            started = time.monotonic()
            helpers.append(asyncio.create_task(_kill_hub_midday(hall, day, started)))

            async def sampler() -> None:
                while not stop.is_set():
                    at = time.monotonic() - started
                    taken = sample(process.pid, at)
                    if taken is not None:
                        day.samples.append(taken)
                    hub = hall.hub
                    taken = None if hub is None or hub.poll() is not None else sample(hub.pid, at)
                    if taken is not None:
                        day.hub_samples.append(taken)
                    await asyncio.sleep(SAMPLE_EVERY)

            helpers.append(asyncio.create_task(sampler()))
            assert process.stdout is not None and process.stderr is not None
            async for line in process.stdout:
                match = json.loads(line)
                match["ended_at"] = time.monotonic() - started  # on the samples' clock
                day.matches.append(match)
                on_match(match)
            day.stderr = (await process.stderr.read()).decode(errors="replace")
            day.exit_code = await process.wait()
            stop.set()
            for helper in helpers:
                helper.cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
    finally:
        await asyncio.to_thread(hall.stop, day)
    day.delivery = _delivery(directory, hall.record, day.hub_away)
    return day


def watch(directory: Path, seconds: float, on_match: Any = lambda match: None) -> Day:
    """The table's day of ``seconds`` in real time, with its phones, slow board, samples, and
    its hub on a real broker (killed -9 once, halfway)."""
    return asyncio.run(_watch(directory, seconds, on_match))


def virtual_day(directory: Path, matches: int, *, outbox: bool = False) -> list[dict[str, Any]]:
    """``matches`` 20-minute matches on virtual time, in a process of their own; ``outbox``: as
    a table on a hub, each decision queued and confirmed at once."""
    hub = ["outbox"] if outbox else []
    done = subprocess.run(
        [sys.executable, "-m", "bench.day", "virtual", str(directory), str(matches), *hub],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def slope_per_hour(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of (seconds, value) points, per hour."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    if spread == 0:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread * 3600


if __name__ == "__main__":
    if sys.argv[1:2] == ["table"]:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        raise SystemExit(table_main(sys.argv[2:]))
    if sys.argv[1:2] == ["virtual"]:
        raise SystemExit(virtual_main(sys.argv[2:]))
    raise SystemExit(
        "usage: python -m bench.day table DIR PTY PORT BROKER_PORT SECONDS | virtual DIR N"
    )


# --- the figures ----------------------------------------------------------------------------

MATCH_SECONDS = 1200.0  # a 20-minute match: the unit the figures are given in
# A table's microSD card for 10 years of tournaments: a 16 GB consumer card rated for about
# 300 full writes (~4.8 TB), a flash write amplification of 10 for small synced writes, and a
# busy table's life of 30 tournament days a year of 30 matches each (9 000 matches) for 10
# years: 4.8 TB / 10 / 90 000 matches = 5.3 MB per match. The target leaves room under it.
STORAGE_TARGET = 5_000_000
RSS_GROWTH_TARGET = 250_000  # bytes an hour: 0 within the allocator's noise
RSS_TARGET = 40_000_000
# The journal's 3 (and its lock), the board, the page and its phones, the hub link's socket and
# paho's wake-up pair, the loop's own, the watcher's pipes: 23 to 27 in play.
FILES_MOST = 32
THREADS_MOST = 16
MB = 1_000_000
LONG_MATCH_SECONDS = 900.0  # a match this long shows a daemon's own growth
LONG_MATCH_GROWTH = "real-time RSS growth within a long match (one daemon)"
SETTLE_SECONDS = 120.0
VIRTUAL_MATCHES = 16


def storage_figures(matches: list[dict[str, Any]]) -> list[Figure]:
    """Per 20-minute match of play: what the table writes to its card."""
    seconds = sum(match["seconds"] for match in matches) or 1.0
    per = MATCH_SECONDS / seconds
    written = sum(match["written_bytes"] for match in matches) * per
    journal = sum(match["journal_bytes"] for match in matches) * per
    log_lines = sum(match["log_lines"] for match in matches) * per
    log_bytes = sum(match["log_bytes"] for match in matches) * per
    decisions = sum(match.get("decisions", 0) for match in matches) * per
    return [
        Figure(
            "bytes written to storage per 20-min match",
            f"{written / MB:.2f} MB",
            f"<= {STORAGE_TARGET / MB:.0f} MB",
            written <= STORAGE_TARGET,
        ),
        Figure("  journal file (+WAL) per match", f"{journal / 1000:.0f} kB", "-", None),
        Figure("  log per match", f"{log_lines:.0f} lines, {log_bytes / 1000:.1f} kB", "-", None),
        Figure(
            "  decisions per match, bytes written per decision",
            f"{decisions:.0f}, {written / max(1.0, decisions):.0f} B",
            "-",
            None,
        ),
    ]


def rss_growth(points: list[tuple[float, float]]) -> Figure:
    """RSS growth per hour of play, over the second half of the day (after warming up)."""
    half = points[len(points) // 2 :]
    slope = slope_per_hour(half) if len(half) >= 2 else 0.0
    return Figure(
        "RSS growth per hour of play",
        f"{slope / MB:+.2f} MB/h",
        f"<= {RSS_GROWTH_TARGET / MB:.2f} MB/h",
        slope <= RSS_GROWTH_TARGET,
    )


def growth_within_long_matches(matches: list[dict[str, Any]], samples: list[Sample]) -> Figure:
    """RSS growth while one daemon plays one long match, as ``gametable run`` plays all day:
    the slope of the samples taken in each match of 15 minutes or more (its first 2 minutes
    apart: the family's screens and the page's phones settle in), the largest of them."""
    slopes = []
    for match in matches:
        if match["seconds"] < LONG_MATCH_SECONDS or "ended_at" not in match:
            continue
        begun = match["ended_at"] - match["seconds"] + SETTLE_SECONDS
        points = [(s.at, float(s.rss)) for s in samples if begun <= s.at <= match["ended_at"]]
        if len(points) >= 2:
            slopes.append(slope_per_hour(points))
    if not slopes:
        return Figure(LONG_MATCH_GROWTH, "no long match", "-", None)
    worst = max(slopes)
    return Figure(
        LONG_MATCH_GROWTH,
        f"{worst / MB:+.2f} MB/h (largest of {len(slopes)})",
        f"<= {RSS_GROWTH_TARGET / MB:.2f} MB/h",
        worst <= RSS_GROWTH_TARGET,
    )


def growth_cycle_to_cycle(matches: list[dict[str, Any]], scripts: int) -> Figure:
    """RSS growth over the day: each script's RSS at its end (the match's objects collected)
    against the same script's a cycle later, per hour between them, the median over scripts.
    The first cycle loads every family's code, so it is left out."""
    settled = [m for m in matches[scripts:] if m["finished"] and "rss" in m and "ended_at" in m]
    rates = []
    for script in {m["script"] for m in settled}:
        plays = [m for m in settled if m["script"] == script]
        for earlier, later in itertools.pairwise(plays):
            hours = (later["ended_at"] - earlier["ended_at"]) / 3600
            rates.append((later["rss"] - earlier["rss"]) / hours)
    if not rates:
        return Figure(
            "RSS growth over the day (cycle to cycle)", "fewer than 2 cycles after the first",
            "-", None,
        )  # fmt: skip
    rates.sort()
    median = rates[len(rates) // 2]
    return Figure(
        "RSS growth over the day (cycle to cycle)",
        f"{median / MB:+.2f} MB/h (median of {len(rates)} scripts)",
        f"<= {RSS_GROWTH_TARGET / MB:.2f} MB/h",
        median <= RSS_GROWTH_TARGET,
    )


def day_figures() -> Section:
    """``make bench``: a long day of 20-minute matches on the headless simulator's time."""
    import tempfile

    with tempfile.TemporaryDirectory(dir="/var/tmp") as directory:
        matches = virtual_day(Path(directory), VIRTUAL_MATCHES)
    with tempfile.TemporaryDirectory(dir="/var/tmp") as directory:
        on_hub = virtual_day(Path(directory), 2, outbox=True)
    clock = 0.0
    points = []
    for match in matches:
        clock += match["seconds"]
        points.append((clock, float(match["rss"])))
    figures = [*storage_figures(matches), rss_growth(points)]
    hub_written = sum(m["written_bytes"] for m in on_hub) / len(on_hub)
    figures.append(
        Figure(
            "bytes written per 20-min match on a hub (outbox)",
            f"{hub_written / MB:.2f} MB",
            f"<= {STORAGE_TARGET / MB:.0f} MB",
            hub_written <= STORAGE_TARGET,
        )
    )
    figures.append(
        Figure(
            "  RSS first -> last match",
            f"{matches[0]['rss'] / MB:.1f} -> {matches[-1]['rss'] / MB:.1f} MB",
            "-",
            None,
        )
    )
    return Section(
        f"a day at the table ({VIRTUAL_MATCHES} Combo 4 matches, virtual time)",
        f"{VIRTUAL_MATCHES} plays of docs/scripts/combo4-match.jsonl (20 min each) in one "
        "process on the headless simulator's virtual time, each on a new journal on disk "
        "(/var/tmp), decisions logged as the daemon logs them, and 2 more as a table on a hub "
        "(each decision queued in the outbox and confirmed at once); bytes written are the "
        "process's /proc/self/io write_bytes (journal, WAL, log; page-dirtying time), RSS is "
        "VmRSS after each match, its growth the least-squares slope over the second half. "
        "Storage target: a 16 GB card rated ~300 full writes, flash write amplification 10, "
        "9 000 matches a year for 10 years -> 5.3 MB a match. The real daemon in real time "
        "is `make soak` (docs/service.md).",
        figures,
    )
