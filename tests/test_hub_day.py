"""A hub serving a day of several events over a real broker (issue 27, R1120-R1125): each
table's result into its own event's record, one confirmation stream per table with the day's
identity, each event's rounds and each table's event retained, the legacy round topics
withdrawn, and a hub killed and started again with the day losing and doubling nothing."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import pytest

from firmware_py.director.hub.staff import StaffRecord
from firmware_py.director.hub.wire.service import Hub, HubBroker
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import (
    Decision,
    TablesEvent,
    applied_topic,
    event_pairings_topic,
    event_seats_topic,
    events_topic,
    pairings_topic,
    parse_confirmations,
    parse_hub_status,
    parse_pairings,
    parse_pentathlon_seats,
    table_event_topic,
)
from rules.pentathlon.catalogue import Game
from rules.tournament.pentathlon import Pentathlete, PentathlonPoints
from tests.hub_day_helpers import (
    JUNIOR_TEAMS,
    NOW,
    make_day,
    make_event,
    move_table,
    recorded,
    result,
    table_events,
)
from tests.hub_helpers import Broker, Peer, free_port, password_of
from tests.hub_table_helpers import until
from tests.test_hub_delivery import GAMETABLE
from tests.test_hub_end_to_end import running_hub

JOURNAL = "d" * 32


@pytest.fixture
def day_path(tmp_path: Path) -> Path:
    return make_day(tmp_path)


def _identity(day_path: Path) -> str:
    with DayRecord.open(day_path) as day:
        return day.identity()


@asynccontextmanager
async def running_day_hub(broker: Broker, day_path: Path) -> AsyncIterator[Hub]:
    """The hub on the day, in this process, as ``hub run --day`` makes it."""
    day = DayRecord.open(day_path)
    hub = Hub(day, HubBroker("127.0.0.1", broker.port, "hub", password_of("hub")))
    for record in hub.events.values():
        record.upgrade_for_hub()
    task = asyncio.create_task(hub.run())
    try:
        await until(lambda: hub.connected, "the hub to connect")
        yield hub
    finally:
        hub.stop()
        await task
        hub.router.close()
        day.close()


def _retained(broker: Broker, topic: str) -> bytes | None:
    """What the broker holds retained on ``topic`` now, as a new subscriber hears it within a
    second (None: nothing)."""
    peer = Peer(broker, "8")
    peer.subscribe(topic)
    deadline = time.monotonic() + 1.0
    while not peer.payloads(topic) and time.monotonic() < deadline:
        time.sleep(0.02)
    heard = peer.payloads(topic)
    peer.close()
    return heard[-1] if heard else None


def test_each_table_s_result_lands_in_its_own_event_s_record_only(
    broker: Broker, day_path: Path, tmp_path: Path
) -> None:
    junior_table, senior_table = Peer(broker, "1"), Peer(broker, "3")
    watcher = Peer(broker, "8")
    watcher.subscribe("tournament/applied/+")

    async def scenario() -> None:
        async with running_day_hub(broker, day_path):
            junior_table.publish(events_topic(1), result(JOURNAL, 1, 1, (40, 20)))
            senior_table.publish(events_topic(3), result(JOURNAL, 1, 1, (10, 50)))
            await until(
                lambda: (
                    bool(watcher.payloads(applied_topic(1)))
                    and bool(watcher.payloads(applied_topic(3)))
                ),
                "both tables' confirmations",
            )

    asyncio.run(scenario())
    assert recorded(tmp_path / "junior.db", 1, 1) == [(40, 20, "table 1")]
    assert recorded(tmp_path / "senior.db", 1, 3) == [(10, 50, "table 3")]
    assert table_events(tmp_path / "junior.db", 3) == []
    assert table_events(tmp_path / "senior.db", 1) == []
    for peer in (junior_table, senior_table, watcher):
        peer.close()


def test_each_table_has_one_confirmation_stream_with_the_day_s_identity(
    broker: Broker, day_path: Path
) -> None:
    table, watcher = Peer(broker, "3"), Peer(broker, "8")
    watcher.subscribe("tournament/applied/+")

    async def scenario() -> None:
        async with running_day_hub(broker, day_path):
            table.publish(events_topic(3), result(JOURNAL, 1, 1, (10, 50)))
            await until(lambda: bool(watcher.payloads(applied_topic(3))), "its confirmation")

    asyncio.run(scenario())
    topics = {message.topic for message in watcher.received}
    assert topics == {applied_topic(3)}
    status = _retained(broker, "tournament/hub")
    assert status is not None and parse_hub_status(status).record == _identity(day_path)
    (confirmation,) = parse_confirmations(watcher.payloads(applied_topic(3))[-1])
    assert (confirmation.record, confirmation.journal, confirmation.seq) == (
        _identity(day_path),
        JOURNAL,
        1,
    )
    table.close()
    watcher.close()


def test_each_event_s_rounds_and_each_table_s_event_are_retained(
    broker: Broker, day_path: Path
) -> None:
    async def scenario() -> None:
        async with running_day_hub(broker, day_path):
            await asyncio.sleep(0.5)  # published on connecting

    asyncio.run(scenario())
    junior = _retained(broker, event_pairings_topic("junior", 1))
    senior = _retained(broker, event_pairings_topic("senior", 1))
    assert junior is not None and senior is not None
    assert [m.table for m in parse_pairings(junior).matches] == [1, 2]
    assert [m.table for m in parse_pairings(senior).matches] == [3, 7]
    assert _retained(broker, table_event_topic(7)) == (
        TablesEvent("senior", "Combo 4, Senior").to_bytes()
    )
    assert _retained(broker, table_event_topic(1)) == (
        TablesEvent("junior", "Combo 4, Junior").to_bytes()
    )
    assert _retained(broker, table_event_topic(8)) is None  # no event


def test_the_legacy_round_topics_are_withdrawn_in_a_day(broker: Broker, day_path: Path) -> None:
    """A round a hub serving one record left on the broker: a table with no event would play
    it; the day's hub withdraws it (R1124)."""
    before = Peer(broker, "hub")
    before.publish(pairings_topic(1), b'{"left": "by the hub before"}', retain=True)
    before.close()

    async def scenario() -> None:
        async with running_day_hub(broker, day_path):
            await asyncio.sleep(0.5)

    asyncio.run(scenario())
    assert _retained(broker, pairings_topic(1)) is None


def test_a_table_moved_between_rounds_hears_its_new_event(broker: Broker, day_path: Path) -> None:
    watcher = Peer(broker, "8")
    watcher.subscribe(table_event_topic(2))
    senior = TablesEvent("senior", "Combo 4, Senior").to_bytes()

    async def scenario() -> None:
        async with running_day_hub(broker, day_path):
            await until(lambda: bool(watcher.payloads(table_event_topic(2))), "its event")
            move_table(day_path, 2, "senior")
            await until(
                lambda: watcher.payloads(table_event_topic(2))[-1] == senior,
                "table 2's new event, within the hub's poll",
            )

    asyncio.run(scenario())
    watcher.close()


def test_a_withdrawn_event_round_is_withdrawn_from_the_tables(
    broker: Broker, day_path: Path, tmp_path: Path
) -> None:
    watcher = Peer(broker, "8")
    topic = event_pairings_topic("junior", 1)
    watcher.subscribe(topic)

    async def scenario() -> None:
        async with running_day_hub(broker, day_path):
            await until(lambda: bool(watcher.payloads(topic)), "junior's round 1")
            with TournamentDB.open(tmp_path / "junior.db") as junior:
                junior.unpair_round(1, now="2026-11-29T09:05:00+00:00", by="d", reason="redo")
            await until(lambda: watcher.payloads(topic)[-1] == b"", "junior's round 1 withdrawn")

    asyncio.run(scenario())
    assert _retained(broker, event_pairings_topic("senior", 1)) is not None
    watcher.close()


def test_a_late_result_of_a_moved_table_lands_in_its_old_event(
    broker: Broker, day_path: Path, tmp_path: Path
) -> None:
    table = Peer(broker, "2")

    async def scenario() -> None:
        async with running_day_hub(broker, day_path):
            move_table(day_path, 2, "senior")
            await asyncio.sleep(1.5)  # the hub has read the move
            table.publish(events_topic(2), result(JOURNAL, 1, 1, (30, 50)))
            await until(
                lambda: bool(recorded(tmp_path / "junior.db", 1, 2)), "the junior event's result"
            )

    asyncio.run(scenario())
    assert recorded(tmp_path / "junior.db", 1, 2) == [(30, 50, "table 2")]
    assert table_events(tmp_path / "senior.db", 2) == []
    table.close()


def test_a_table_with_no_event_is_a_problem_until_it_is_given_one(
    broker: Broker, day_path: Path, tmp_path: Path
) -> None:
    table = Peer(broker, "8")
    said = "table 8 plays for no event: assign it on the day page"

    async def scenario() -> None:
        async with running_day_hub(broker, day_path) as hub:
            table.publish(events_topic(8), result(JOURNAL, 1, 1, (40, 20)))
            await until(lambda: [p.error for p in hub.refusals.pending()] == [said], "the problem")
            assert hub.ledger.through(8, JOURNAL) == 0  # held back: the table keeps it
            move_table(day_path, 8, "junior")
            await until(lambda: not hub.refusals.pending(), "the problem gone")
            table.publish(events_topic(8), result(JOURNAL, 1, 1, (40, 20)))  # sent again
            await until(lambda: hub.ledger.through(8, JOURNAL) == 1, "the result taken")

    asyncio.run(scenario())
    assert table_events(tmp_path / "junior.db", 8) == [(JOURNAL, 1)]  # refused: no match there
    assert table_events(tmp_path / "senior.db", 8) == []
    table.close()


# --- the hub killed and started again with the day ---------------------------------------------


@contextmanager
def day_hub_process(
    broker: Broker, day_path: Path, page: str = "off"
) -> Iterator[subprocess.Popen[bytes]]:
    """``gametable hub run --day`` on the test's broker."""
    log = (broker.directory / "hub.log").open("ab")
    process = subprocess.Popen(
        [
            str(GAMETABLE), "hub", "run", "--day", str(day_path), "--host", "127.0.0.1",
            "--port", str(broker.port), "--password-file", str(broker.secret_file("hub")),
            "--page", page,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)
        log.close()


def _score(seq: int) -> bytes:
    return Decision(
        JOURNAL,
        seq,
        "2026-11-29T09:20:00.000+00:00",
        {"action": "match.start", "round": 1},
        {"event": "score", "A": seq * 10, "B": 0},
        seq - 1,
    ).to_bytes()


def _hub_online(watcher: Peer) -> bool:
    said = watcher.payloads("tournament/hub")
    return bool(said) and b'"online"' in said[-1]


def _through(watcher: Peer, table: int) -> int:
    payloads = watcher.payloads(applied_topic(table))
    if not payloads or not payloads[-1]:
        return 0
    return max(c.seq for c in parse_confirmations(payloads[-1]) if c.journal == JOURNAL)


def test_the_hub_killed_and_started_again_with_the_day_loses_and_doubles_nothing(
    broker: Broker, day_path: Path, tmp_path: Path
) -> None:
    tables = {1: Peer(broker, "1"), 3: Peer(broker, "3")}
    watcher = Peer(broker, "8")
    watcher.subscribe("tournament/applied/+")
    watcher.subscribe("tournament/hub")
    sent = {1: [_score(1), _score(2), result(JOURNAL, 3, 1, (40, 20), prev=2)]}
    sent[3] = [_score(1), _score(2), result(JOURNAL, 3, 1, (20, 60), prev=2)]

    async def scenario() -> None:
        with day_hub_process(broker, day_path) as hub:
            await until(lambda: _hub_online(watcher), "the hub online (its session made)")
            for table, peer in tables.items():
                peer.publish(events_topic(table), sent[table][0])
            await until(lambda: all(_through(watcher, t) == 1 for t in tables), "entry 1")
            hub.send_signal(signal.SIGKILL)
            hub.wait(timeout=10)
            for table, peer in tables.items():  # queued for the hub by its session
                for payload in sent[table][1:]:
                    peer.publish(events_topic(table), payload)
        with day_hub_process(broker, day_path):
            await until(lambda: all(_through(watcher, t) == 3 for t in tables), "entry 3")
            for table, peer in tables.items():  # a table sends again what it was not told of
                for payload in sent[table]:
                    peer.publish(events_topic(table), payload)
            await asyncio.sleep(1.0)

    asyncio.run(scenario())
    assert recorded(tmp_path / "junior.db", 1, 1) == [(40, 20, "table 1")]
    assert recorded(tmp_path / "senior.db", 1, 3) == [(20, 60, "table 3")]
    assert table_events(tmp_path / "junior.db", 1) == [(JOURNAL, 3)]
    assert table_events(tmp_path / "senior.db", 3) == [(JOURNAL, 3)]
    log = (broker.directory / "hub.log").read_text()
    assert "for_event=junior" in log and "for_event=senior" in log
    for peer in (*tables.values(), watcher):
        peer.close()


def test_a_pentathlon_event_s_seats_are_retained_under_the_event(
    broker: Broker, tmp_path: Path
) -> None:
    """R1124: a Pentathlon event of the day: its rounds' seats under its short name."""
    path = tmp_path / "penta.db"
    players = tuple(Pentathlete(name, "III") for name in ("Ann Lee", "Ben Ode"))
    PentathlonRecord.start(
        path, PentathlonPoints(), players, now=NOW, by="director", name="Spring Open"
    ).close()
    with TournamentDB.open(path) as record:
        event = PentathlonRecord(record)
        with record.writing():
            seat = event.event().seat(1, 8, Game.QUEENS_AND_GUARDS, "Ann Lee", "Ben Ode")
            event.add_seat(seat, now=NOW, by="director")
    day_path = make_day(tmp_path)
    with DayRecord.open(day_path) as day:
        day.add_event("penta", "Pentathlon, Division III", path, now=NOW, by="director")

    async def scenario() -> None:
        async with running_day_hub(broker, day_path):
            await asyncio.sleep(0.5)

    asyncio.run(scenario())
    seats = _retained(broker, event_seats_topic("penta", 1))
    assert seats is not None
    (seated,) = parse_pentathlon_seats(seats).seats
    assert (seated.table, seated.a, seated.b) == (8, "Ann Lee", "Ben Ode")
    assert _retained(broker, "tournament/pentathlon/rounds/1/seats") is None


def test_a_hub_serving_one_record_withdraws_a_table_s_event_a_day_left(
    broker: Broker, tmp_path: Path
) -> None:
    """R1124: yesterday's day gave table 1 an event; today's hub serves one record, and the
    table must not follow an event nobody serves."""
    before = Peer(broker, "hub")
    before.publish(
        table_event_topic(1), TablesEvent("junior", "Combo 4, Junior").to_bytes(), retain=True
    )
    before.close()
    record_path = make_event(tmp_path / "one.db", JUNIOR_TEAMS, (1, 2))

    async def scenario() -> None:
        async with running_hub(broker, record_path):
            await asyncio.sleep(0.5)

    asyncio.run(scenario())
    assert _retained(broker, table_event_topic(1)) is None
    assert _retained(broker, pairings_topic(1)) is not None


# --- the day's page, served by ``hub run --day`` ----------------------------------------------


def _get(port: int, path: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_hub_run_with_a_day_serves_the_days_page_and_each_events(
    broker: Broker, day_path: Path
) -> None:
    done = subprocess.run(
        [str(GAMETABLE), "hub", "director-password", str(day_path), "--stdin"],
        input=b"correct horse battery\n",
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    port = free_port()

    async def scenario() -> None:
        with day_hub_process(broker, day_path, page=f"127.0.0.1:{port}"):
            await until(lambda: _answers(port), "the day's page to answer")
            status, public = _get(port, "/public")
            assert status == 200 and "Combo 4, Junior" in public and "Combo 4, Senior" in public
            status, login = _get(port, "/login")
            assert status == 200 and "League day" in login
            status, junior = _get(port, "/events/junior/public")
            assert status == 200 and "Combo 4, Junior" in junior

    asyncio.run(scenario())
    with DayRecord.open(day_path) as day:  # the password is the day's (R1141)
        assert [account.name for account in StaffRecord(day).accounts()] == ["director"]
    with TournamentDB.open(day_path.with_name("junior.db")) as junior:  # not an event's
        assert StaffRecord(junior).accounts() == ()


def _answers(port: int) -> bool:
    try:
        return _get(port, "/public")[0] == 200
    except OSError:
        return False
