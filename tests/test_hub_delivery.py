"""The delivery protocol with no gaps (docs/hub.md "Nothing lost, nothing doubled", R710-R713):
the hub confirms a journal only up to where its record holds *every* decision, a table sends
again what is not confirmed, and a journal moved aside keeps its undelivered decisions on their
way. The hub runs as its own process here (``gametable hub run``), so that it can be stalled
with SIGSTOP as a partition would, on a real mosquitto the tests kill and restart."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware_py.director.hub.wire.service import Hub, HubBroker
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.table.hub_wire import Confirmation, Decision
from firmware_py.table.journal import Journal
from tests.hub_helpers import Broker, Peer
from tests.hub_table_helpers import Table, linked, until
from tests.test_hub_end_to_end import NOW, TEAMS, _expected, _recorded

GAMETABLE = Path(sys.executable).with_name("gametable")


def _record(path: Path) -> Path:
    from rules.tournament import TournamentFormat, new_config

    config = new_config(TournamentFormat.COMBO4, seed=5, rounds=3)
    with (
        TournamentDB.create(path, config, TEAMS, now=NOW, by="director") as record,
        record.transaction() as tournament,
    ):
        record.add_round(tournament.pair(1), tournament.plan(1), now=NOW, by="director")
    return path


@contextmanager
def hub_process(broker: Broker, record: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``gametable hub run`` on the test's broker, its log in the broker's directory."""
    log = (broker.directory / "hub.log").open("ab")
    process = subprocess.Popen(
        [
            str(GAMETABLE), "hub", "run", "--db", str(record), "--host", "127.0.0.1",
            "--port", str(broker.port), "--password-file", str(broker.secret_file("hub")),
            "--page", "off",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield process
    finally:
        os.kill(process.pid, signal.SIGCONT)
        process.terminate()
        process.wait(timeout=20)
        log.close()


def _result_step(table: Table) -> int:
    """The index of the script step whose play records the match's result."""
    for index in range(len(table.steps)):
        table.virtual.play(table.steps[: index + 1], first=index)
        if any(
            e.kind == "event" and e.body["event"] == "match_result" for e in table.journal.entries()
        ):
            return index
    raise AssertionError("the script has no match result")


def _hub_online_seen(watcher: Peer, after: int) -> bool:
    return (
        len(watcher.payloads("tournament/hub")) > after
        and b'"online"' in (watcher.payloads("tournament/hub")[-1])
    )


def test_a_decision_the_broker_dropped_while_the_hub_was_stalled_reaches_the_record(
    broker: Broker, tmp_path: Path
) -> None:
    """Issue 17, finding 1: decisions before it confirmed; the hub stalled (SIGSTOP); the broker
    killed, its persistence deleted, started again; the table records the match's result, which
    the broker takes and drops (the hub's subscription is gone with its session); the hub
    resumes; the table records the next decision. The hub must not confirm past the result it
    never received: the table sends it again, and the record holds it."""
    record_path = _record(tmp_path / "tournament.db")
    rehearsal = Table(broker, tmp_path / "rehearsal.db")
    result_step = _result_step(rehearsal)
    rehearsal.close()
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        with hub_process(broker, record_path) as hub:
            async with linked(table) as link:
                table.play(until_step=result_step)
                await until(table.delivered, "the decisions before the result confirmed")
                os.kill(hub.pid, signal.SIGSTOP)
                broker.kill()
                (broker.directory / "mosquitto.db").unlink(missing_ok=True)
                await until(lambda: not link.connected, "the table to lose the broker")
                broker.start()
                watcher = Peer(broker, "8")
                watcher.subscribe("tournament/hub")
                await until(lambda: link.connected, "the table to reconnect")
                table.play(until_step=result_step + 1)  # the result: taken and dropped
                await until(link.all_sent, "the broker to take the result")
                os.kill(hub.pid, signal.SIGCONT)
                await until(lambda: _hub_online_seen(watcher, 0), "the hub to come back")
                table.play()  # the decisions after the result
                await until(table.delivered, "every decision confirmed")
                watcher.close()

    asyncio.run(scenario())
    with TournamentDB.open(record_path) as record:
        assert _recorded(record) == _expected(table)
    table.close()


def test_a_new_journal_keeps_the_undelivered_decisions_of_the_one_moved_aside(
    tmp_path: Path,
) -> None:
    """Issue 17, finding 2: ``gametable run --new-journal`` with decisions undelivered."""
    path = tmp_path / "journal.db"
    old = Journal.open(path, outbox=True)
    for t in range(3):
        old.add("event", float(t), {"event": "score", "A": t}, session={"action": "x"})
    old.commit()
    old_id = old.identity()
    old.confirmed(through=1)
    waiting = old.outgoing(after=0, limit=10)
    old.close()

    new = Journal.open(path, new=True, outbox=True)
    try:
        assert (new.carried_over, new.lost_over) == (2, 0)
        assert new.undelivered() == 2
        assert new.streams() == [old_id, new.identity()]
        assert new.outgoing(after=0, limit=10, journal=old_id) == waiting
        assert [(item.prev, item.first_held) for item in waiting] == [(1, True), (2, False)]
    finally:
        new.close()


def test_a_carried_decision_leaves_the_new_journal_once_confirmed(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    old = Journal.open(path, outbox=True)
    old.add("event", 0.0, {"event": "score"}, session={"action": "x"})
    old.commit()
    old_id = old.identity()
    old.close()
    new = Journal.open(path, new=True, outbox=True)
    try:
        new.confirmed(through=1, journal=old_id)
        assert new.undelivered() == 0
        assert new.streams() == [new.identity()]
    finally:
        new.close()


def test_a_journal_that_does_not_replay_hands_its_undelivered_decisions_to_the_next(
    tmp_path: Path,
) -> None:
    """R713: ``run`` sets such a journal aside; the journal made in its place carries them."""
    path = tmp_path / "journal.db"
    old = Journal.open(path, outbox=True)
    old.add("event", 0.0, {"event": "score"}, session={"action": "x"})
    old.commit()
    old_id = old.identity()
    error = old.set_aside("it does not replay")
    assert "1 undelivered decisions go on from the new journal" in str(error)
    new = Journal.open(path, outbox=True)
    try:
        assert new.streams() == [old_id, new.identity()]
        assert [item.seq for item in new.outgoing(after=0, limit=5, journal=old_id)] == [1]
    finally:
        new.close()


def test_a_new_journal_s_result_reaches_the_record_after_the_old_one_s(
    broker: Broker, tmp_path: Path
) -> None:
    """R713: the decisions carried over are sent first, the new journal's once they are
    confirmed: the record takes the tables' results in the order they were decided."""
    record_path = _record(tmp_path / "tournament.db")
    journal = tmp_path / "table-1.db"
    table = Table(broker, journal)

    async def scenario() -> None:
        async with linked(table) as link:  # no hub: nothing confirmed
            table.play()
            await until(link.all_sent, "the broker to take the match")
        table.close()
        table.journal = Journal.open(journal, new=True, outbox=True)
        assert table.journal.carried_over > 0
        table.relink(broker)
        with hub_process(broker, record_path):
            async with linked(table):
                await until(table.delivered, "the carried decisions confirmed")

    asyncio.run(scenario())
    with TournamentDB.open(record_path) as record:
        assert len(_recorded(record)) == 1
    table.journal.close()


# --- the hub's side, decision by decision (no broker: the hub's handling alone) -----------------

RESULT_SESSION = {"action": "match.start", "round": 1}


def _hub(record_path: Path) -> Hub:
    record = TournamentDB.open(record_path)
    record.upgrade_for_hub()
    return Hub(record, HubBroker("127.0.0.1", 1, "hub", "unused"))


def _decision(seq: int, prev: int | None) -> bytes:
    """Table 1's decision ``seq`` of one journal: decision 4 is the match's result."""
    body = {"event": "match_result", "A": 40, "B": 50} if seq == 4 else {"event": "score"}
    return Decision("j" * 32, seq, NOW, RESULT_SESSION, body, prev).to_bytes()


def test_the_hub_takes_no_decision_after_a_gap_and_reports_it(tmp_path: Path) -> None:
    """R710, R711: a decision whose ``prev`` the record lacks is not applied; the ledger stays
    where it is and the table's confirmation says "gap"."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    for seq, prev in ((1, 0), (2, 1), (3, 2)):
        hub._decision(1, _decision(seq, prev))
    hub._decision(1, _decision(5, 4))  # 4 (the result) never arrived
    hub._flush()
    assert hub.confirmation_of(1) == (Confirmation(hub.record_id, "j" * 32, 3, gap=True),)
    assert hub.tally["gap"] == 1
    assert not hub.record.result_history(1, 1)


def test_the_gap_filled_the_hub_takes_both_in_order(tmp_path: Path) -> None:
    hub = _hub(_record(tmp_path / "tournament.db"))
    for seq, prev in ((1, 0), (2, 1), (3, 2), (5, 4), (4, 3), (5, 4)):
        hub._decision(1, _decision(seq, prev))
    hub._flush()
    assert hub.confirmation_of(1) == (Confirmation(hub.record_id, "j" * 32, 5),)
    assert [(e.a_points, e.b_points) for e in hub.record.result_history(1, 1)] == [(40, 50)]


def test_a_copy_of_a_held_decision_is_dropped_by_the_ledger_alone(tmp_path: Path) -> None:
    """Issue 17, finding 5: a duplicate costs no read of the record."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    for seq, prev in ((1, 0), (2, 1), (3, 2), (4, 3)):
        hub._decision(1, _decision(seq, prev))
    statements: list[str] = []
    hub.record.connection.set_trace_callback(statements.append)
    hub._decision(1, _decision(4, 3))
    hub.record.connection.set_trace_callback(None)
    assert statements == []
    assert hub.tally["duplicate"] == 1


def test_a_decision_after_what_the_record_lost_is_taken_when_the_table_holds_nothing_before(
    tmp_path: Path,
) -> None:
    """R712: the table confirmed past it by this record, which no longer holds it (a record
    put back from a copy): waiting would stall the table for ever."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    payload = Decision("j" * 32, 9, NOW, RESULT_SESSION, {"event": "score"}, 8, True).to_bytes()
    hub._decision(1, payload)
    hub._flush()
    assert hub.confirmation_of(1) == (Confirmation(hub.record_id, "j" * 32, 9),)


def test_what_the_ledger_holds_survives_the_hub(tmp_path: Path) -> None:
    """R711: a confirmation is published only for what is written in the record."""
    path = _record(tmp_path / "tournament.db")
    hub = _hub(path)
    hub._decision(1, _decision(1, 0))
    assert hub.confirmation_of(1) == ()  # handled, not yet written: nothing to confirm
    hub._flush()
    hub.record.close()
    again = _hub(path)
    assert again.confirmation_of(1) == (Confirmation(again.record_id, "j" * 32, 1),)


def test_a_gap_before_a_journal_s_first_decision_is_reported_too(tmp_path: Path) -> None:
    """R711: a new journal whose first decision the broker lost: nothing of it is held, and
    the table must still be told to send again."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub._decision(1, _decision(2, 1))
    hub._flush()
    assert hub.confirmation_of(1) == (Confirmation(hub.record_id, "j" * 32, 0, gap=True),)


# --- what an outside audit of the protocol found (R714, R715) ---------------------------------


def test_a_journal_id_that_is_no_id_is_refused_on_the_wire_and_stalls_no_table(
    tmp_path: Path,
) -> None:
    """A lone surrogate as a journal id passed JSON and broke every later write of the ledger,
    so no table was confirmed any more."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hostile = _decision(1, 0).replace(b'"' + b"j" * 32 + b'"', b'"\\ud800"')
    hub._decision(7, hostile)
    hub._decision(8, _decision(1, 0))
    hub._flush()
    assert hub.tally["bad decision"] == 1
    assert hub.confirmation_of(8) == (Confirmation(hub.record_id, "j" * 32, 1),)


def test_one_table_s_invented_journals_are_bounded(tmp_path: Path) -> None:
    """R714: gaps in made-up journals, and made-up journals, cost the hub a bounded amount (the
    oldest let go for the newest: R922, R923)."""
    from firmware_py.director.hub.wire.service import MAX_GAPS_PER_TABLE, MAX_JOURNALS_PER_TABLE

    hub = _hub(_record(tmp_path / "tournament.db"))
    for n in range(MAX_GAPS_PER_TABLE * 3):
        journal = f"{n:032x}"
        hub._decision(7, Decision(journal, 2, NOW, RESULT_SESSION, {"event": "x"}, 1).to_bytes())
    assert sum(c.gap for c in hub.confirmation_of(7)) == MAX_GAPS_PER_TABLE
    for n in range(MAX_JOURNALS_PER_TABLE + 5):
        journal = f"{n + 1000:032x}"
        hub._decision(7, Decision(journal, 1, NOW, RESULT_SESSION, {"event": "x"}, 0).to_bytes())
    hub._flush()
    assert hub.ledger.journals_of(7) == MAX_JOURNALS_PER_TABLE
    assert hub.tally["journal over the limit"] == 5


def test_a_table_killed_between_moving_its_journal_aside_and_its_successor_s_rename(
    tmp_path: Path,
) -> None:
    """R713: the successor is made whole first; the next start puts it in its place."""
    from firmware_py.table import journal_file
    from firmware_py.table.journal import _initialise, _undelivered_of

    path = tmp_path / "journal.db"
    old = Journal.open(path, outbox=True)
    old.add("event", 0.0, {"event": "match_result", "A": 1}, session={"action": "x"})
    old.commit()
    old_id = old.identity()
    old.close()
    carried = _undelivered_of(path)
    journal_file.prepare(path, lambda connection: _initialise(connection, carried.rows))
    journal_file.move_aside(path, "old")  # and killed here, before the rename
    restarted = Journal.open(path, outbox=True)
    try:
        assert restarted.streams() == [old_id, restarted.identity()]
        assert restarted.undelivered() == 1
    finally:
        restarted.close()
