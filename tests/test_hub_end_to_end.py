"""Tables, broker and hub together (docs/hub.md): nothing lost, nothing doubled. A match played
at a table on virtual time, its decisions sent from the journal's outbox by the table's link
(uplink), applied to the tournament record by the hub, on a real mosquitto that the tests kill
and restart. The table's link and the hub run on one asyncio loop, as each does in its own
process; only the broker is another process."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from firmware_py.director.hub.wire.service import Hub, HubBroker
from firmware_py.director.record.draw import move_in_draw, swap_in_draw
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import (
    HUB_STATUS,
    Confirmation,
    Decision,
    HubStatus,
    NextMatch,
    RoundPairings,
    TableMatch,
    applied_topic,
    events_topic,
    pairings_topic,
    parse_decision,
)
from firmware_py.table.journal_format import encode_body, outbox_checksum
from firmware_py.table.uplink import HubLink
from rules.actions import encode
from rules.tournament import Entrant, TournamentFormat, new_config
from tests.hub_helpers import Broker, Peer, password_of, wait_for
from tests.hub_table_helpers import Table, linked, until

NOW = "2026-05-09T09:00:00+00:00"
TEAMS = tuple(Entrant(name, school, ()) for name, school in [
    ("Eagles", "Lincoln"), ("Hawks", "Adams"), ("Owls", "Lincoln"), ("Ravens", "")
])  # fmt: skip


@pytest.fixture
def record_path(tmp_path: Path) -> Path:
    """A Combo 4 tournament of four teams with round 1 paired: tables 1 and 2."""
    path = tmp_path / "tournament.db"
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with (
        TournamentDB.create(path, config, TEAMS, now=NOW, by="director") as record,
        record.transaction() as tournament,
    ):
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
    return path


@pytest.fixture
def record(record_path: Path) -> Iterator[TournamentDB]:
    """The test's own look at the record (the hub has its own connection)."""
    with TournamentDB.open(record_path) as reading:
        yield reading


@asynccontextmanager
async def running_hub(broker: Broker, record_path: Path) -> AsyncIterator[Hub]:
    with TournamentDB.open(record_path) as record:
        record.upgrade_for_hub()
        hub = Hub(record, HubBroker("127.0.0.1", broker.port, "hub", password_of("hub")))
        task = asyncio.create_task(hub.run())
        try:
            await until(lambda: hub.connected, "the hub to connect")
            yield hub
        finally:
            hub.stop()
            await task


def _recorded(record: TournamentDB, table: int = 1) -> list[tuple[int, int, str]]:
    return [(e.a_points, e.b_points, e.entered_by) for e in record.result_history(1, table)]


def _expected(table: Table) -> list[tuple[int, int, str]]:
    _, body = table.result()
    return [(body["A"], body["B"], "table 1")]


async def _hub_session_saved(broker: Broker) -> None:
    """Wait for the broker's autosave after the hub subscribed (a broker up for a while)."""
    subscribed = time.time()
    path = broker.directory / "mosquitto.db"
    await until(
        lambda: path.exists() and path.stat().st_mtime > subscribed + 0.5,
        "the broker to save the hub's session",
    )


# --- nothing lost ------------------------------------------------------------------------------


def test_a_match_played_at_a_table_reaches_the_record(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table) as link:
            await until(lambda: link.connected, "the table to connect")
            table.play()
            await until(lambda: table.delivered() and bool(_recorded(record)), "the result")

    asyncio.run(scenario())
    assert _recorded(record) == _expected(table)
    table.close()


def test_the_broker_killed_mid_match_and_restarted_loses_nothing(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table) as link:
            await until(lambda: link.connected, "the table to connect")
            await _hub_session_saved(broker)
            table.play(len(table.steps) // 2)
            await until(table.delivered, "the first half delivered")
            broker.kill()
            await until(lambda: not link.connected, "the table to notice")
            table.play()  # the rest of the match, the result included, with no broker
            assert table.journal.undelivered() > 0
            assert table.result()[0] in {
                item.seq for item in table.journal.outgoing(after=0, limit=1000)
            }
            broker.start()
            await until(lambda: table.delivered() and bool(_recorded(record)), "the result")

    asyncio.run(scenario())
    assert _recorded(record) == _expected(table)
    assert len(record.table_events()) == 1
    table.close()


def test_a_table_offline_for_the_whole_match_catches_up(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")
    table.play()  # no link at all: the table plays on without the hub
    assert table.journal.undelivered() > 0

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table):
            await until(lambda: table.delivered() and bool(_recorded(record)), "the result")

    asyncio.run(scenario())
    assert _recorded(record) == _expected(table)
    table.close()


def test_what_tables_send_while_the_hub_is_away_waits_for_it(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        async with running_hub(broker, record_path):
            pass  # the hub's session is on the broker from now on
        async with linked(table) as link:
            await until(lambda: link.connected, "the table to connect")
            table.play()
            await until(link.all_sent, "the broker to take the match")
        assert _recorded(record) == []
        assert table.journal.undelivered() > 0  # kept until the hub confirms it
        async with running_hub(broker, record_path):
            await until(lambda: bool(_recorded(record)), "the hub to catch up")  # the queue alone
            table.relink(broker)  # the table, back: the hub's confirmation empties its outbox
            async with linked(table):
                await until(table.delivered, "the hub to confirm it")

    asyncio.run(scenario())
    assert _recorded(record) == _expected(table)
    table.close()


def test_a_table_posing_as_the_hub_while_it_is_away_discards_nothing_queued_for_it(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    """Table 7's account asking for the hub's client id, old or new, with a clean start (R720)."""
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        async with running_hub(broker, record_path):
            pass
        async with linked(table) as link:
            await until(lambda: link.connected, "the table to connect")
            table.play()
            await until(link.all_sent, "the broker to take the match")
        for client_id in ("gametable-hub", "hub"):
            Peer(broker, "7", client_id=client_id).close()
        async with running_hub(broker, record_path):  # the table off: the queue alone
            await until(lambda: bool(_recorded(record)), "the hub to catch up")

    asyncio.run(scenario())
    assert _recorded(record) == _expected(table)
    table.close()


# --- nothing lost, whatever the broker loses: the hub confirms what it applied --------------------


@pytest.fixture
def saving_at_stops_only(tmp_path: Path) -> Iterator[Broker]:
    """A broker that saves only when it stops cleanly: a kill -9 loses all it took since."""
    running = Broker(tmp_path / "slow-broker", autosave_seconds=3600)
    running.directory.mkdir()
    running.start()
    try:
        yield running
    finally:
        running.stop()


async def _played_while_the_hub_is_away(broker: Broker, table: Table, record_path: Path) -> None:
    """The hub's session on the broker, the hub gone, the match played and taken by the broker."""
    async with running_hub(broker, record_path):
        pass
    async with linked(table) as link:
        await until(lambda: link.connected, "the table to connect")
        table.play()
        await until(link.all_sent, "the broker to take the match")


def test_a_table_keeps_what_the_broker_took_until_the_hub_confirms_it(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    asyncio.run(_played_while_the_hub_is_away(broker, table, record_path))
    decisions = [e.seq for e in table.journal.entries() if e.kind == "event"]
    assert [item.seq for item in table.journal.outgoing(after=0, limit=10_000)] == decisions
    table.close()


def test_the_hub_confirms_each_table_s_journal_up_to_its_last_decision(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")
    watcher = Peer(broker, "8")  # any table reads the confirmations; the hub's account is the hub's
    watcher.subscribe(applied_topic(1))

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table):
            table.play()
            await until(table.delivered, "the hub to confirm the match")

    asyncio.run(scenario())
    last = max(e.seq for e in table.journal.entries() if e.kind == "event")
    expected = Confirmation(record.identity(), table.journal.identity(), last).to_bytes()
    wait_for(lambda: expected in watcher.payloads(applied_topic(1)), "the confirmation")
    watcher.close()
    table.close()


def test_a_broker_that_lost_its_persistence_file_while_the_hub_was_away_loses_nothing(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        await _played_while_the_hub_is_away(broker, table, record_path)
        broker.stop()
        (broker.directory / "mosquitto.db").unlink()  # the hub's session and queue with it
        broker.start()
        table.relink(broker)
        async with linked(table), running_hub(broker, record_path):
            await until(lambda: table.delivered() and bool(_recorded(record)), "the result")

    asyncio.run(scenario())
    assert _recorded(record) == _expected(table)
    assert [e.outcome for e in record.table_events()] == ["recorded"]


def test_a_broker_killed_between_saves_while_the_hub_was_away_loses_nothing(
    saving_at_stops_only: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    broker = saving_at_stops_only
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        async with running_hub(broker, record_path):
            pass
        broker.stop()  # saved: the hub's session survives what follows
        broker.start()
        await _played_while_the_hub_is_away(broker, table, record_path)
        broker.kill()  # what it queued for the hub since the start is gone
        broker.start()
        table.relink(broker)
        async with linked(table), running_hub(broker, record_path):
            await until(lambda: table.delivered() and bool(_recorded(record)), "the result")

    asyncio.run(scenario())
    assert _recorded(record) == _expected(table)
    assert [e.outcome for e in record.table_events()] == ["recorded"]


async def _taken_after(table: Table, hub: Peer, wrong: Confirmation) -> tuple[int, int]:
    """The outbox before, and after the table has seen ``wrong`` (retained, before it connects)
    and then the current record's confirmation of its first decision alone."""
    waiting = table.journal.undelivered()
    hub.publish(HUB_STATUS, HubStatus(True, "record-now").to_bytes(), retain=True)
    hub.publish(applied_topic(1), wrong.to_bytes(), retain=True)
    async with linked(table) as link:
        await until(link.all_sent, "the table to connect and send")
        first = table.journal.outgoing(after=0, limit=1)[0].seq
        right = Confirmation("record-now", table.journal.identity(), first)
        hub.publish(applied_topic(1), right.to_bytes(), retain=True)
        await until(lambda: table.journal.undelivered() < waiting, "the right confirmation")
    return waiting, table.journal.undelivered()


def test_another_records_confirmation_takes_nothing_out_of_the_outbox(
    broker: Broker, tmp_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")
    table.play()
    everything = max(e.seq for e in table.journal.entries())
    hub = Peer(broker, "hub")
    old = Confirmation("record-before", table.journal.identity(), everything)

    waiting, left = asyncio.run(_taken_after(table, hub, old))
    assert left == waiting - 1  # the first decision alone, by the right confirmation
    hub.close()
    table.close()


def test_a_confirmation_of_another_journal_takes_nothing_out_of_the_outbox(
    broker: Broker, tmp_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")
    table.play()
    everything = max(e.seq for e in table.journal.entries())
    hub = Peer(broker, "hub")
    former = Confirmation("record-now", "the-table-s-former-journal", everything)

    waiting, left = asyncio.run(_taken_after(table, hub, former))
    assert left == waiting - 1
    hub.close()
    table.close()


def test_the_hub_s_confirmation_from_its_record_empties_the_outbox(
    broker: Broker, tmp_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")
    table.play()
    everything = max(e.seq for e in table.journal.entries())
    hub = Peer(broker, "hub")
    hub.publish(HUB_STATUS, HubStatus(True, "record-now").to_bytes(), retain=True)
    current = Confirmation("record-now", table.journal.identity(), everything)
    hub.publish(applied_topic(1), current.to_bytes(), retain=True)

    async def scenario() -> None:
        async with linked(table):
            await until(table.delivered, "the outbox emptied by the confirmation")

    asyncio.run(scenario())
    hub.close()
    table.close()


def test_what_the_hub_does_not_confirm_is_sent_again_after_a_while(
    broker: Broker, tmp_path: Path
) -> None:
    table = Table(broker, tmp_path / "table-1.db")
    table.link = HubLink(table.link.broker, journal=table.journal, resend_seconds=0.3)
    silent_hub = Peer(broker, "hub")  # online, and confirming nothing
    silent_hub.subscribe(events_topic(1))
    silent_hub.publish(HUB_STATUS, HubStatus(True, "record-now").to_bytes(), retain=True)
    table.play()
    result_seq, _ = table.result()

    def copies_of_the_result() -> int:
        payloads = silent_hub.payloads(events_topic(1))
        return sum(1 for p in payloads if parse_decision(p).seq == result_seq)

    async def scenario() -> None:
        async with linked(table):
            await until(lambda: copies_of_the_result() >= 3, "the result sent again, twice")

    asyncio.run(scenario())
    silent_hub.close()
    table.close()


def test_the_hub_withdraws_another_records_confirmation(broker: Broker, record_path: Path) -> None:
    old = Confirmation("record-before", "a-journal", 40)
    left_over = Peer(broker, "hub")
    left_over.publish(applied_topic(3), old.to_bytes(), retain=True)
    left_over.close()
    watcher = Peer(broker, "8")
    watcher.subscribe(applied_topic(3))
    wait_for(lambda: watcher.payloads(applied_topic(3)) == [old.to_bytes()], "the old one")

    async def scenario() -> None:
        async with running_hub(broker, record_path):
            await until(lambda: b"" in watcher.payloads(applied_topic(3)), "it withdrawn")

    asyncio.run(scenario())
    watcher.close()


# --- one table cannot stall the others (R196, R197) --------------------------------------------


def _poison(seq: int, points: int) -> bytes:
    """Well formed, from table 3's own account on its own topic, but beyond every bound."""
    return Decision(
        "c" * 32,
        seq,
        "2026-05-09T09:35:00.000+00:00",
        {"action": "match.start", "round": 1},
        {"event": "match_result", "A": points, "B": 0},
    ).to_bytes()


def test_a_table_s_poison_decisions_stall_neither_other_tables_nor_its_own_confirmation(
    broker: Broker, record_path: Path, record: TournamentDB
) -> None:
    poisoner, honest, watcher = Peer(broker, "3"), Peer(broker, "1"), Peer(broker, "8")
    watcher.subscribe(applied_topic(3))
    result = Decision(
        "a" * 32,
        1,
        "2026-05-09T09:36:00.000+00:00",
        {"action": "match.start", "round": 1},
        {"event": "match_result", "A": 40, "B": 20},
    )

    async def scenario() -> None:
        async with running_hub(broker, record_path):
            # more than the 20 the broker sends the hub unacknowledged
            for seq in range(1, 31):
                poisoner.publish(events_topic(3), _poison(seq, 10**40))
            poisoner.publish(events_topic(3), _poison(2**70, 0))
            honest.publish(events_topic(1), result.to_bytes())
            await until(lambda: bool(_recorded(record)), "table 1's result")
            confirmed = Confirmation(record.identity(), "c" * 32, 30).to_bytes()
            await until(lambda: confirmed in watcher.payloads(applied_topic(3)), "table 3's")

    asyncio.run(scenario())
    assert _recorded(record) == [(40, 20, "table 1")]
    for peer in (poisoner, honest, watcher):
        peer.close()


def test_a_result_that_meets_a_busy_record_is_recorded_once_it_is_free(
    broker: Broker, record_path: Path, record: TournamentDB, caplog: pytest.LogCaptureFixture
) -> None:
    table, watcher = Peer(broker, "1"), Peer(broker, "8")
    watcher.subscribe(applied_topic(1))
    result = Decision(
        "a" * 32,
        4,
        "2026-05-09T09:36:00.000+00:00",
        {"action": "match.start", "round": 1},
        {"event": "match_result", "A": 40, "B": 20},
    )
    director = sqlite3.connect(record_path, timeout=0, isolation_level=None)

    async def scenario() -> None:
        async with running_hub(broker, record_path):
            director.execute("BEGIN EXCLUSIVE")  # a director's command writing at length
            table.publish(events_topic(1), result.to_bytes())
            await until(lambda: "event=record_busy" in caplog.text, "the record found busy")
            assert not _recorded(record)
            director.execute("COMMIT")
            confirmed = Confirmation(record.identity(), "a" * 32, 4).to_bytes()
            await until(lambda: confirmed in watcher.payloads(applied_topic(1)), "the confirmation")

    asyncio.run(scenario())
    assert _recorded(record) == [(40, 20, "table 1")]
    director.close()
    table.close()
    watcher.close()


# --- nothing doubled ---------------------------------------------------------------------------


def test_a_decision_delivered_twice_counts_once(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> dict[str, int]:
        async with running_hub(broker, record_path) as hub:
            async with linked(table):
                table.play()
                await until(lambda: bool(_recorded(record)), "the result")
            seq, body = table.result()
            # the table's broker acknowledgement lost: the same decision comes again, on table
            # 1's account once its link is off (one connection per account: R720)
            again = Decision(
                table.journal.identity(),
                seq,
                "2026-05-09T09:35:00.000+00:00",
                _session(table),
                body,
            )
            copies = hub.tally["duplicate"]
            resender = Peer(broker, "1")
            resender.publish("tables/1/events", again.to_bytes())
            resender.close()
            await until(lambda: hub.tally["duplicate"] > copies, "the hub to see it again")
            return dict(hub.tally)

    tally = asyncio.run(scenario())
    assert set(tally) <= {"recorded", "duplicate"} and tally["recorded"] == 1
    assert _recorded(record) == _expected(table)
    assert len(record.table_events()) == 1
    table.close()


def test_the_outbox_sent_again_after_a_restart_counts_once(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> dict[str, int]:
        async with running_hub(broker, record_path) as hub:
            async with linked(table):
                table.play()
                await until(lambda: table.delivered() and bool(_recorded(record)), "the result")
            copies = hub.tally["duplicate"]
            _requeue_the_result(table)
            table.relink(broker)  # the table restarted: its link starts from the outbox
            async with linked(table):
                await until(table.delivered, "the outbox sent again")
                await until(lambda: hub.tally["duplicate"] > copies, "the hub to see it again")
            return dict(hub.tally)

    tally = asyncio.run(scenario())
    assert set(tally) <= {"recorded", "duplicate"} and tally["recorded"] == 1
    assert _recorded(record) == _expected(table)
    table.close()


def _session(table: Table) -> dict[str, Any]:
    """The match's start action, as the table sends it with each of its decisions."""
    return encode(table.virtual.controller.log[0])


def _requeue_the_result(table: Table) -> None:
    """The result back in the outbox, as if the broker's acknowledgement had not reached the
    journal before the table stopped."""
    seq, _ = table.result()
    session = encode_body(_session(table))
    connection = sqlite3.connect(table.journal.path)
    try:
        connection.execute(
            "INSERT INTO outbox (seq, session, crc) VALUES (?, ?, ?)",
            (seq, session, outbox_checksum(seq, session)),
        )
        connection.commit()
    finally:
        connection.close()


# --- pairings ----------------------------------------------------------------------------------


def test_the_pairings_reach_the_tables(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    (match,) = [m for m in record.rounds()[0].matches if m.table == 1]
    table = Table(broker, tmp_path / "table-1.db")
    table_3 = Table(broker, tmp_path / "table-3.db", number=3)

    async def scenario() -> tuple[NextMatch | None, NextMatch | None]:
        async with running_hub(broker, record_path), linked(table), linked(table_3):
            await until(lambda: bool(table.link.rounds and table_3.link.rounds), "the pairings")
            return table.link.next_pairing(), table_3.link.next_pairing()

    shown, not_playing = asyncio.run(scenario())
    assert shown == NextMatch("Round 1  Table 1", f"{match.a} v {match.b}")
    assert not_playing == NextMatch("Round 1  Table 3", "no match this round")
    table.close()
    table_3.close()


def test_the_tables_show_the_short_names_the_record_keeps(broker: Broker, tmp_path: Path) -> None:
    """R833: names too long for one OLED row reach the table with the record's short names,
    a school's code given at registration or one derived, and the two are told apart."""
    path = tmp_path / "long.db"
    teams = (
        Entrant("Lincoln High School Eagles", "Lincoln High", (), short="LHS"),
        Entrant("Lincoln Middle School Eagles", "Lincoln Middle", ()),
        Entrant("Lincoln Middle School Hawks", "Lincoln Middle", ()),
        Entrant("Roosevelt Academy", "Roosevelt", ()),
    )
    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with (
        TournamentDB.create(path, config, teams, now=NOW, by="director") as record,
        record.transaction() as tournament,
    ):
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
        shorts = record.short_names()
        matches = record.rounds()[0].matches
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> NextMatch | None:
        async with running_hub(broker, path), linked(table) as link:
            await until(lambda: 1 in link.rounds, "round 1's pairings")
            return link.next_pairing()

    shown = asyncio.run(scenario())
    table.close()
    (match,) = [m for m in matches if m.table == 1]
    assert shown == NextMatch("Round 1  Table 1", f"{shorts[match.a]} v {shorts[match.b]}")
    assert shorts["Lincoln High School Eagles"] == "LHS"
    assert shorts["Lincoln Middle School Eagles"] != shorts["Lincoln Middle School Hawks"]


def test_a_round_the_director_pairs_reaches_the_tables(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> NextMatch | None:
        async with running_hub(broker, record_path), linked(table) as link:
            await until(lambda: 1 in link.rounds, "round 1's pairings")
            with record.transaction() as tournament:
                for match in tournament.rounds[0].matches:
                    record.add_result(
                        tournament.result(1, match.table, 40, 20), now=NOW, by="director"
                    )
            with record.transaction() as tournament:
                record.add_round(tournament.pair(2), tournament.plan(2), now=NOW, by="director")
            await until(lambda: 2 in link.rounds, "round 2's pairings")
            return link.next_pairing()

    shown = asyncio.run(scenario())
    (match,) = [m for m in record.rounds()[1].matches if m.table == 1]
    assert shown == NextMatch("Round 2  Table 1", f"{match.a} v {match.b}")
    table.close()


def test_a_round_whose_pairing_is_undone_is_withdrawn_from_the_tables(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    """R820: the table drops the undone round at once, so its OLED no longer shows that match
    (it shows what it showed before the round was paired)."""
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> tuple[NextMatch | None, NextMatch | None, list[int]]:
        async with running_hub(broker, record_path), linked(table) as link:
            await until(lambda: 1 in link.rounds, "round 1's pairings")
            before = link.next_pairing()
            with record.transaction() as tournament:
                for match in tournament.rounds[0].matches:
                    record.add_result(
                        tournament.result(1, match.table, 40, 20), now=NOW, by="director"
                    )
            with record.transaction() as tournament:
                record.add_round(tournament.pair(2), tournament.plan(2), now=NOW, by="director")
            await until(lambda: 2 in link.rounds, "round 2's pairings")
            record.unpair_round(2, now=NOW, by="director", reason="paired too early")
            await until(lambda: 2 not in link.rounds, "round 2 withdrawn")
            return before, link.next_pairing(), sorted(link.rounds)

    before, after, rounds = asyncio.run(scenario())
    assert after == before and after is not None and after.title == "Round 1  Table 1"
    assert rounds == [1]
    table.close()


def test_another_tournaments_pairings_left_on_the_broker_are_withdrawn(
    broker: Broker, tmp_path: Path, record_path: Path
) -> None:
    old = RoundPairings(5, "all", 20, (TableMatch(1, "Old A", "Old B"),), None)
    left_over = Peer(broker, "hub")
    left_over.publish(pairings_topic(5), old.to_bytes(), retain=True)
    left_over.close()
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> list[int]:
        async with running_hub(broker, record_path), linked(table) as link:
            await until(lambda: 1 in link.rounds and 5 not in link.rounds, "round 5 withdrawn")
            return sorted(link.rounds)

    assert asyncio.run(scenario()) == [1]
    table.close()


def test_a_swapped_draw_reaches_the_table_as_a_pairing_does(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    """R1064: the hub sends the round's changed pairings as it sends any; the table's next
    match is the swapped one, in the same wire format."""
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> NextMatch | None:
        async with running_hub(broker, record_path) as hub, linked(table) as link:
            await until(lambda: 1 in link.rounds, "round 1's pairings")
            at_1 = record.rounds()[0].matches[0]
            other = record.rounds()[0].matches[1].b
            swap_in_draw(record, 1, at_1.a, other, reason="buzzer", now=NOW, by="director",
                         confirmed=True)  # fmt: skip
            hub.record_changed()  # as the page's change does (after_change)
            await until(lambda: other in str(link.next_pairing()), "the swapped pairing")
            return link.next_pairing()

    shown = asyncio.run(scenario())
    (match,) = [m for m in record.rounds()[0].matches if m.table == 1]
    assert shown == NextMatch("Round 1  Table 1", f"{match.a} v {match.b}")
    table.close()


def test_a_match_moved_to_a_free_table_reaches_that_table_and_leaves_its_old_one(
    broker: Broker, tmp_path: Path, record_path: Path, record: TournamentDB
) -> None:
    """R1068: table 3, a free table of the room, shows the moved match; table 1 shows that it
    has no match this round."""
    record.add_room("Main hall", (1, 2, 3), building="", now=NOW, by="director")
    old, spare = Table(broker, tmp_path / "table-1.db"), Table(broker, tmp_path / "t3.db", 3)

    async def scenario() -> tuple[NextMatch | None, NextMatch | None]:
        async with (
            running_hub(broker, record_path) as hub,
            linked(old) as old_link,
            linked(spare) as spare_link,
        ):
            await until(lambda: 1 in old_link.rounds and 1 in spare_link.rounds, "round 1")
            team = record.rounds()[0].matches[0].a
            move_in_draw(record, 1, team, 3, reason="table 1's buzzers", now=NOW, by="director")
            hub.record_changed()  # as the page's change does (after_change)
            await until(lambda: team in str(spare_link.next_pairing()), "the moved match")
            await until(lambda: "no match" in str(old_link.next_pairing()), "table 1 emptied")
            return old_link.next_pairing(), spare_link.next_pairing()

    at_old, at_spare = asyncio.run(scenario())
    (match,) = [m for m in record.rounds()[0].matches if m.table == 3]
    assert at_spare == NextMatch("Round 1  Table 3", f"{match.a} v {match.b}")
    assert at_old == NextMatch("Round 1  Table 1", "no match this round")
    old.close()
    spare.close()
