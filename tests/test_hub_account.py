"""What one table's account can do to the record (issue 25; docs/hub.md "What a table's account
can and cannot do", R920-R926): no more than its table could have done, and every discrepancy
shown to the director. Each attack of the issue is tried here: on the hub's ledger directly, and
end to end through mosquitto where the broker is part of it."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from drivers.mockpins import mock_factory
from drivers.oled import Oled, open_emulator
from firmware_py.director.hub.page.problems import find_problems, hall_json, read_hall
from firmware_py.director.hub.staff import Role
from firmware_py.director.hub.wire.intake import INTAKE_BURST, INTAKE_PER_SECOND, Intake
from firmware_py.director.hub.wire.ledger import MAX_DIGESTS_PER_TABLE
from firmware_py.director.hub.wire.refusals import (
    CLOCK,
    JOURNAL_LIMIT,
    MAX_PER_TABLE,
    NOT_APPLIED,
    TWO_VERSIONS,
)
from firmware_py.director.hub.wire.service import (
    MAX_GAPS_PER_TABLE,
    MAX_JOURNALS_PER_TABLE,
    MAX_SEQ_AHEAD,
    WARNINGS_PER_MINUTE,
    Hub,
)
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.director.record.venue import Venue
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import TableView
from firmware_py.table.daemon import UNSENT_CONFIRMED, TableDaemon
from firmware_py.table.delivery import Deliveries
from firmware_py.table.hub_wire import (
    HUB_STATUS,
    Confirmation,
    Decision,
    HubStatus,
    applied_topic,
    confirmations_payload,
    events_topic,
    parse_confirmations,
    parse_decision,
)
from firmware_py.table.journal import Journal
from firmware_py.table.uplink import Broker as TableBroker
from firmware_py.table.uplink import HubLink
from tests.hub_helpers import Broker, Peer, password_of
from tests.hub_table_helpers import Table, linked, until
from tests.test_daemon import _specs
from tests.test_hub_delivery import RESULT_SESSION, _hub, _record
from tests.test_hub_end_to_end import NOW, _recorded, running_hub

JOURNAL = "j" * 32
HIGHEST_SEQ = 2**53  # the largest seq the wire allows


def _wall_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _said(seq: int, prev: int, event: dict[str, object], *, journal: str = JOURNAL) -> bytes:
    return Decision(journal, seq, _wall_now(), RESULT_SESSION, event, prev).to_bytes()


def _score(seq: int, prev: int, *, journal: str = JOURNAL) -> bytes:
    return _said(seq, prev, {"event": "score"}, journal=journal)


def _result(seq: int, prev: int, a: int, b: int) -> bytes:
    return _said(seq, prev, {"event": "match_result", "A": a, "B": b})


def _points(hub: Hub, table: int = 1) -> list[tuple[int, int]]:
    return [(e.a_points, e.b_points) for e in hub.record.result_history(1, table)]


def _kinds(hub: Hub, table: int) -> list[str]:
    return [refusal.kind for refusal in hub.refusals.pending() if refusal.table == table]


def _confirmed_two(hub: Hub) -> None:
    for seq, prev in ((1, 0), (2, 1)):
        hub._decision(1, _score(seq, prev))
    hub._flush()


# --- finding 2: moving the ledger, replacing a result -----------------------------------------


def test_a_seq_far_ahead_of_what_the_record_holds_is_a_gap_not_a_jump(tmp_path: Path) -> None:
    """R920: the ledger does not move, the confirmation says gap."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _score(HIGHEST_SEQ, 2))
    hub._flush()
    assert hub.confirmation_of(1) == (Confirmation(hub.record_id, JOURNAL, 2, gap=True),)
    assert hub.tally["far ahead"] == 1


def test_the_table_s_next_result_is_taken_after_a_seq_far_ahead(tmp_path: Path) -> None:
    """Finding 2: the table's real results are not dropped as copies of the jump."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _score(HIGHEST_SEQ, 2))
    hub._decision(1, _result(3, 2, 45, 0))
    hub._flush()
    assert _points(hub) == [(45, 0)]
    assert hub.confirmation_of(1) == (Confirmation(hub.record_id, JOURNAL, 3),)


def test_a_seq_as_far_ahead_as_a_journal_can_go_is_taken(tmp_path: Path) -> None:
    """R920: the bound is what a table can write between two decisions, no less."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _score(2 + MAX_SEQ_AHEAD, 2))
    hub._flush()
    assert hub.confirmation_of(1) == (Confirmation(hub.record_id, JOURNAL, 2 + MAX_SEQ_AHEAD),)


def test_a_first_held_decision_far_ahead_is_a_gap_too(tmp_path: Path) -> None:
    """R920 over R712: "the table holds nothing before it" cannot carry a jump either."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    payload = Decision(
        JOURNAL, HIGHEST_SEQ, _wall_now(), RESULT_SESSION, {"event": "x"}, HIGHEST_SEQ - 1, True
    ).to_bytes()
    hub._decision(1, payload)
    hub._flush()
    assert hub.confirmation_of(1) == (Confirmation(hub.record_id, JOURNAL, 2, gap=True),)


def test_a_seq_that_comes_again_saying_other_points_is_two_versions_in_the_queue(
    tmp_path: Path,
) -> None:
    """Finding 2: another account's 5-0 published first as the table's next entry; the
    table's 45-0 at that entry is no silent copy."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _result(3, 2, 5, 0))
    hub._decision(1, _result(3, 2, 45, 0))
    (problem,) = [r for r in hub.refusals.pending() if r.kind == TWO_VERSIONS]
    assert (problem.table, problem.seq) == (1, 3)
    assert "match_result 45-0" in problem.error
    assert hub.tally["duplicate"] == 0


def test_a_copy_saying_the_same_is_still_only_a_copy(tmp_path: Path) -> None:
    """R921: a table sending again what it sent (another ``prev``, ``first_held``) is no
    conflict."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    wall = _wall_now()
    sent = Decision(JOURNAL, 3, wall, RESULT_SESSION, {"event": "score"}, 2)
    hub._decision(1, sent.to_bytes())
    again = Decision(JOURNAL, 3, wall, RESULT_SESSION, {"event": "score"}, 2, True)
    hub._decision(1, again.to_bytes())
    assert hub.tally["duplicate"] == 1
    assert hub.refusals.pending() == []


def test_what_the_ledger_remembers_of_each_decision_survives_the_hub(tmp_path: Path) -> None:
    """R920: the digests are in the record with ``through``; a restarted hub still tells."""
    path = _record(tmp_path / "tournament.db")
    hub = _hub(path)
    _confirmed_two(hub)
    hub._decision(1, _result(3, 2, 5, 0))
    hub._flush()
    hub.record.close()
    again = _hub(path)
    again._decision(1, _result(3, 2, 45, 0))
    assert _kinds(again, 1) == [TWO_VERSIONS]


def test_an_entry_the_ledger_moved_past_without_taking_is_two_versions(tmp_path: Path) -> None:
    """R921, R929: a jump within the bound (entry 50 after 2) and then the table's entry 3: two
    histories of one journal, shown, never dropped as a copy."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _score(50, 2))
    hub._decision(1, _result(3, 2, 45, 0))
    journal, result = hub.refusals.pending()
    assert (journal.kind, journal.seq, result.kind, result.seq) == (
        TWO_VERSIONS,
        None,
        TWO_VERSIONS,
        3,
    )
    assert "entries came after the hub had taken entry 50 of it ahead of them" in journal.error
    assert "entry 3 (match_result 45-0) came after the hub had taken entry 50" in result.error
    assert result.error.endswith("taken: recorded")


def test_the_table_s_result_after_a_jump_within_the_bound_reaches_the_record(
    tmp_path: Path,
) -> None:
    """Finding B (R929): entry 100 002 taken first does not lock the table's next 100 000
    entries out of the record."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _score(2 + MAX_SEQ_AHEAD, 2))
    for seq in range(3, 40):
        hub._decision(1, _score(seq, seq - 1))
    hub._decision(1, _result(40, 39, 45, 0))
    assert _points(hub) == [(45, 0)]


def test_the_entries_after_a_jump_are_one_problem_and_each_result_its_own(
    tmp_path: Path,
) -> None:
    """Finding B (R929): the table's own button presses do not fill its queue (R924) and push
    out the line that says what became of its result."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _score(2 + MAX_SEQ_AHEAD, 2))
    hub._decision(1, _result(3, 2, 45, 0))
    for seq in range(4, 4 + 2 * MAX_PER_TABLE):
        hub._decision(1, _score(seq, seq - 1))
    assert [refusal.seq for refusal in hub.refusals.pending()] == [None, 3]


def test_a_copy_older_than_the_ledger_remembers_is_taken_on_trust(tmp_path: Path) -> None:
    """R920: the digests are bounded per table; what is let go can no longer be told."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    for seq in range(1, MAX_DIGESTS_PER_TABLE + 2):
        hub._decision(1, _score(seq, seq - 1))
    hub._decision(1, _score(1, 0))  # a result is told by the record instead (R935)
    assert hub.tally["duplicate"] == 1
    assert hub.refusals.pending() == []


def test_a_ledger_written_before_digests_takes_what_it_holds_on_trust(tmp_path: Path) -> None:
    """R920: a record whose ledger has no digests yet: its copies are copies, as before."""
    path = _record(tmp_path / "tournament.db")
    hub = _hub(path)
    _confirmed_two(hub)
    with hub.record.writing():
        hub.record.connection.execute("DROP TABLE hub_digests")
    hub.record.close()
    with sqlite3.connect(path) as old:
        old.execute("ALTER TABLE hub_deliveries DROP COLUMN checked_from")
    again = _hub(path)
    again._decision(1, _score(2, 1))  # a result is told by the record instead (R935)
    assert again.tally["duplicate"] == 1
    assert again.refusals.pending() == []


# --- finding 3: caps that lock a table out, problems pushed out -----------------------------------


def _invent_journals(hub: Hub, table: int, count: int) -> None:
    for n in range(count):
        hub._decision(table, _score(1, 0, journal=f"{n + 1000:032x}"))


def test_invented_journals_never_lock_out_the_table_s_new_journal(tmp_path: Path) -> None:
    """Finding 3, R923: the table's journal that moved longest ago is let go instead."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _invent_journals(hub, 1, MAX_JOURNALS_PER_TABLE)
    hub._decision(1, _result(1, 0, 45, 0))
    hub._flush()
    assert _points(hub) == [(45, 0)]
    assert hub.ledger.journals_of(1) == MAX_JOURNALS_PER_TABLE


def test_the_journal_cap_survives_a_restart_without_locking_the_table_out(tmp_path: Path) -> None:
    """Finding 3: the cap is kept in the record; a restarted hub takes a new journal too."""
    path = _record(tmp_path / "tournament.db")
    hub = _hub(path)
    _invent_journals(hub, 1, MAX_JOURNALS_PER_TABLE + 3)
    hub._flush()
    hub.record.close()
    again = _hub(path)
    again._decision(1, _result(1, 0, 45, 0))
    again._flush()
    assert _points(again) == [(45, 0)]
    assert again.ledger.journals_of(1) == MAX_JOURNALS_PER_TABLE


def test_the_queue_names_why_a_journal_was_let_go(tmp_path: Path) -> None:
    """Finding 3: the reason is in the director's queue, not only in the log."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _invent_journals(hub, 1, MAX_JOURNALS_PER_TABLE + 1)
    (problem,) = hub.refusals.pending()
    assert problem.kind == JOURNAL_LIMIT
    assert f"more than {MAX_JOURNALS_PER_TABLE} journals" in problem.error


def test_invented_gaps_never_hide_the_table_s_own_gap(tmp_path: Path) -> None:
    """R922: the newest gap is reported; the oldest made-up one is let go."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    for n in range(MAX_GAPS_PER_TABLE * 2):
        hub._decision(1, _score(2, 1, journal=f"{n:032x}"))
    hub._decision(1, _score(2, 1))
    gaps = [c.journal for c in hub.confirmation_of(1) if c.gap]
    assert JOURNAL in gaps
    assert len(gaps) == MAX_GAPS_PER_TABLE


def test_one_table_s_unreadable_decisions_do_not_push_out_another_table_s_problem(
    tmp_path: Path,
) -> None:
    """Finding 3, R924: 300 unreadable decisions from table 7 left table 2's problem out."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub._decision(2, b'{"journal": "' + JOURNAL.encode() + b'", "seq": 1, "prev": 0}')
    for _ in range(300):
        hub._decision(7, b"not a decision")
    assert _kinds(hub, 2) == [NOT_APPLIED]
    assert len(_kinds(hub, 7)) <= MAX_PER_TABLE


# --- finding 4: retained decisions, a clock far off -------------------------------------------


def test_a_clock_days_off_is_a_warning_on_the_table_s_tile(tmp_path: Path) -> None:
    """Finding 4, R925: recorded at the hub's time, and the table's tile says its clock is off."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    five_days_ago = (datetime.now(UTC) - timedelta(days=5)).isoformat(timespec="milliseconds")
    hub._decision(
        1, Decision(JOURNAL, 1, five_days_ago, RESULT_SESSION, {"event": "x"}, 0).to_bytes()
    )
    hall = read_hall(hub.record)
    problems = find_problems(hall, [], hub.refusals.pending(), datetime.now(UTC).timestamp())
    shown = hall_json(hall, problems, 0.0, rounds=1, role=Role.DIRECTOR, venue=Venue())
    assert shown["tables"]["1"]["problems"] == [CLOCK]
    (clock,) = [p for p in shown["problems"] if p["kind"] == CLOCK]
    assert clock["what"] == "Table 1: its clock is 5 days behind the hub's"


def test_a_clock_set_right_again_clears_its_warning(tmp_path: Path) -> None:
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub._decision(1, Decision(JOURNAL, 1, NOW, RESULT_SESSION, {"event": "x"}, 0).to_bytes())
    assert _kinds(hub, 1) == [CLOCK]
    hub._decision(1, _score(2, 1))
    assert hub.refusals.pending() == []


def test_a_clock_within_ten_minutes_is_no_warning(tmp_path: Path) -> None:
    hub = _hub(_record(tmp_path / "tournament.db"))
    nine_minutes = (datetime.now(UTC) + timedelta(minutes=9)).isoformat(timespec="milliseconds")
    hub._decision(
        1, Decision(JOURNAL, 1, nine_minutes, RESULT_SESSION, {"event": "x"}, 0).to_bytes()
    )
    assert hub.refusals.pending() == []


def test_a_decision_published_retained_is_never_applied_by_the_running_hub(
    broker: Broker, tmp_path: Path
) -> None:
    """Finding 4, R926: MQTT 5 clears the retain flag for a live subscription unless the
    subscription keeps it as published; the running hub applied it once."""
    record_path = _record(tmp_path / "tournament.db")
    table_one = Peer(broker, "1")

    async def scenario() -> None:
        async with running_hub(broker, record_path) as hub:
            await asyncio.sleep(0.5)  # the hub's subscriptions in place
            table_one.publish(events_topic(1), _result(1, 0, 35, 0), retain=True)
            table_one.publish(events_topic(1), _score(2, 1), retain=False)  # heard after it
            await until(lambda: hub.tally["gap"] + hub.tally["recorded"] > 0, "the next one")
            await asyncio.sleep(0.2)
            assert hub.tally["recorded"] == 0

    try:
        asyncio.run(scenario())
        with TournamentDB.open(record_path) as record:
            assert _recorded(record) == []
    finally:
        table_one.publish(events_topic(1), b"", retain=True)
        table_one.close()


def test_a_jump_by_the_table_s_account_loses_none_of_the_table_s_results(
    broker: Broker, tmp_path: Path
) -> None:
    """Finding 2 end to end: seq 2**53 under the table's journal id after its first decisions
    were confirmed; the table plays on and its result reaches the record."""
    record_path = _record(tmp_path / "tournament.db")
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table) as link:
            await until(lambda: link.connected, "the table to connect")
            table.play(3)
            await until(table.delivered, "the first decisions confirmed")
            jump = Decision(
                table.journal.identity(), HIGHEST_SEQ, _wall_now(), RESULT_SESSION,
                {"event": "score"}, 0,
            )  # fmt: skip
            intruder = Peer(broker, "1")  # the table's account: it throws the table off
            intruder.publish(events_topic(1), jump.to_bytes())
            intruder.close()
            table.play()
            await until(lambda: table.delivered() and bool(_recorded_now()), "the result")

    def _recorded_now() -> list[tuple[int, int, str]]:
        with TournamentDB.open(record_path) as record:
            return _recorded(record)

    try:
        asyncio.run(scenario())
        _, result = table.result()
        assert [(a, b) for a, b, _ in _recorded_now()] == [(result["A"], result["B"])]
    finally:
        table.close()


# --- the table: a confirmation of decisions it never sent (R927) --------------------------------


def _decide(journal: Journal, count: int) -> None:
    for _ in range(count):
        journal.add("event", 0.0, {"event": "score"}, session=RESULT_SESSION)
        journal.commit()


def test_a_confirmation_past_what_the_table_sent_takes_out_only_what_it_sent(
    tmp_path: Path,
) -> None:
    """R927: the hub's ledger moved past decisions the table never sent (finding 2): they
    stay in the outbox, and the table says so."""
    journal = Journal.open(tmp_path / "table.db", outbox=True)
    deliveries = Deliveries(journal)
    _decide(journal, 5)
    sent = deliveries.next_batch(2)
    claimed = Confirmation("record", journal.identity(), HIGHEST_SEQ)
    taken = deliveries.take([claimed], now=0.0)
    assert [item.seq for item in journal.outgoing(after=0, limit=10)] == [3, 4, 5]
    assert [item.seq for item in deliveries.next_batch(10)] == [3, 4, 5]
    assert sent[-1].seq == 2
    assert taken.unsent == ((journal.identity(), HIGHEST_SEQ),)
    journal.close()


def test_a_confirmation_of_what_a_restarted_table_had_sent_is_taken_whole(
    tmp_path: Path,
) -> None:
    """R927: a link that starts after a restart takes its journal's decisions so far as sent
    by the link before it (the hub confirmed them while the table was down)."""
    journal = Journal.open(tmp_path / "table.db", outbox=True)
    _decide(journal, 5)
    deliveries = Deliveries(journal)
    taken = deliveries.take([Confirmation("record", journal.identity(), 5)], now=0.0)
    assert taken.unsent == ()
    assert journal.undelivered() == 0
    journal.close()


def test_a_table_told_its_unsent_result_is_confirmed_still_sends_it(
    broker: Broker, tmp_path: Path
) -> None:
    """Finding 2 at the table: a confirmation far past what it sent moved ``sent_through``
    past its next result, which was then never sent (and left the outbox after a restart)."""
    table = Table(broker, tmp_path / "table-1.db")
    hub = Peer(broker, "hub")
    hub.subscribe(events_topic(1))
    hub.publish(HUB_STATUS, HubStatus(True, "record-now").to_bytes(), retain=True)

    async def scenario() -> None:
        async with linked(table) as link:
            await until(lambda: link.connected, "the table to connect")
            table.play(3)
            await until(link.all_sent, "the first decisions sent")
            claimed = Confirmation("record-now", table.journal.identity(), HIGHEST_SEQ)
            hub.publish(applied_topic(1), claimed.to_bytes(), retain=True)
            await asyncio.sleep(0.5)  # the confirmation taken
            table.play()
            result_seq, _ = table.result()
            await until(
                lambda: any(
                    parse_decision(p).seq == result_seq for p in hub.payloads(events_topic(1))
                ),
                "the result sent",
            )
        assert table.journal.outgoing(after=result_seq - 1, limit=1)[0].seq == result_seq
        assert link.unsent_confirmed  # the OLED's alert row says it (daemon.UNSENT_CONFIRMED)

    try:
        asyncio.run(scenario())
    finally:
        hub.publish(applied_topic(1), b"", retain=True)
        hub.publish(HUB_STATUS, b"", retain=True)
        hub.close()
        table.close()


def test_a_confirmation_of_unsent_decisions_is_an_alert_on_the_oled(
    broker: Broker, tmp_path: Path
) -> None:
    """R927: the dealer sees it on the table itself, and the table's state carries it to its
    tile."""
    views: list[TableView] = []
    daemon = TableDaemon(
        settings=table_settings(game=1),
        factory=mock_factory(),
        input_specs=_specs(),
        led_pins={"A": 20, "B": 21},
        on_view=views.append,
    )
    journal = Journal.open(tmp_path / "table-1.db", outbox=True)
    daemon.journal = journal
    daemon.hub = HubLink(
        TableBroker("127.0.0.1", broker.port, 1, password_of("1")), journal=journal
    )
    hub = Peer(broker, "hub")
    hub.publish(HUB_STATUS, HubStatus(True, "record-now").to_bytes(), retain=True)
    claimed = Confirmation("record-now", journal.identity(), HIGHEST_SEQ)

    async def scenario() -> None:
        task = asyncio.create_task(daemon.run())
        await until(lambda: bool(views) and daemon.hub is not None and daemon.hub.connected, "up")
        await asyncio.to_thread(hub.publish, applied_topic(1), claimed.to_bytes(), retain=True)
        await until(lambda: views[-1].screen.alert == UNSENT_CONFIRMED, "the OLED's alert")
        daemon.stop()
        await task

    try:
        asyncio.run(scenario())
        shown = open_emulator("dummy")
        Oled(device=shown).show(views[-1].screen)
        shown.image.save(tmp_path / "oled-unsent.png")  # type: ignore[attr-defined]
    finally:
        hub.publish(applied_topic(1), b"", retain=True)
        hub.publish(HUB_STATUS, b"", retain=True)
        hub.close()


# --- issue 25, second look (FINDINGS-i25-account-break.md) -----------------------------------

ANOTHER_JOURNAL = "e" * 32


def _queue(hub: Hub) -> list[dict[str, object]]:
    hall = read_hall(hub.record)
    problems = find_problems(hall, [], hub.refusals.pending(), datetime.now(UTC).timestamp())
    shown = hall_json(hall, problems, 0.0, rounds=1, role=Role.DIRECTOR, venue=Venue())
    queue = shown["problems"]
    assert isinstance(queue, list)
    return queue


def test_a_result_from_an_invented_journal_never_amends_the_table_s_result(
    tmp_path: Path,
) -> None:
    """Finding A (R928): a fresh journal id's 0-45 is a conflict in the queue; the table's 45-0
    stands."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub._decision(1, _result(1, 0, 45, 0))
    invented = _said(1, 0, {"event": "match_result", "A": 0, "B": 45}, journal=ANOTHER_JOURNAL)
    hub._decision(1, invented)
    hub._flush()
    assert _points(hub) == [(45, 0)]
    (conflict,) = [p for p in _queue(hub) if p["kind"] == "conflict"]
    assert "reports 0-45; 45-0, reported by its journal jjjjjjjj, stands" in str(conflict["what"])


def test_a_result_changed_later_in_the_same_journal_is_still_the_table_s_amendment(
    tmp_path: Path,
) -> None:
    """R173 stands within one journal: an UNDO and a replay at the table amend its result."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub._decision(1, _result(1, 0, 45, 0))
    hub._decision(1, _result(2, 1, 0, 45))
    assert _points(hub) == [(45, 0), (0, 45)]


def test_unreadable_decisions_never_push_out_the_table_s_two_versions(tmp_path: Path) -> None:
    """Finding C (R930): the only trace of the table's 45-0 stays in the queue whatever the
    account floods it with."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _result(3, 2, 5, 0))
    hub._decision(1, _result(3, 2, 45, 0))
    for number in range(MAX_PER_TABLE + 5):
        hub._decision(1, f'{{"journal": "bad{number}", "seq": 1, "prev": 0}}'.encode())
    assert _kinds(hub, 1).count(TWO_VERSIONS) == 1
    assert _kinds(hub, 1).count(NOT_APPLIED) == MAX_PER_TABLE


def _confirmed_journals(hub: Hub, table: int = 1) -> dict[str, int]:
    """What the table reads of its confirmation as published (at most 32 journals)."""
    published = confirmations_payload(hub.record_id, hub.confirmation_of(table))
    return {c.journal: c.seq for c in parse_confirmations(published)}


def test_a_journal_sent_again_is_named_in_the_confirmation_however_many_were_invented(
    tmp_path: Path,
) -> None:
    """Finding E (R931): 40 journals invented after the table's 1-2 were taken; the table sends
    2 again and its confirmation names its journal, so 1-2 leave its outbox."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    for number in range(40):
        hub._decision(1, _score(1, 0, journal=f"invented{number}"))
    hub._flush()
    hub._decision(1, _score(2, 1))
    assert _confirmed_journals(hub)[JOURNAL] == 2


def test_a_gap_in_the_table_s_journal_is_named_however_many_were_invented(
    tmp_path: Path,
) -> None:
    """Finding E (R931): the table's gap reaches it at once, not after its resend timer."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    for number in range(40):
        hub._decision(1, _score(1, 0, journal=f"invented{number}"))
    hub._flush()
    hub._decision(1, _score(4, 3))  # 3 lost on the way
    published = confirmations_payload(hub.record_id, hub.confirmation_of(1))
    assert Confirmation(hub.record_id, JOURNAL, 2, gap=True) in parse_confirmations(published)


def test_an_account_s_flood_is_a_few_lines_in_the_hub_s_log_not_one_a_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Finding D (R932): 1 000 decisions far ahead from table 1's account; another table's
    warning after them is still logged."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    with caplog.at_level(logging.WARNING, logger="gametable"):
        for number in range(1000):
            hub._decision(1, _score(HIGHEST_SEQ - number, 2))
        hub._decision(2, _score(HIGHEST_SEQ, 1))
    from_table_1 = [r.getMessage() for r in caplog.records if "table=1 " in r.getMessage()]
    assert len(from_table_1) == WARNINGS_PER_MINUTE + 1
    assert "event=hub_warnings_held_back table=1 limit=20" in from_table_1[-1]
    assert any("event=hub_far_ahead table=2 " in r.getMessage() for r in caplog.records)
    assert hub.tally["far ahead"] == 1001


def test_another_journal_s_right_clock_never_clears_the_table_s_clock_warning(
    tmp_path: Path,
) -> None:
    """Finding F (R933): a client on the table's account cannot hide its clock."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    five_days_ago = (datetime.now(UTC) - timedelta(days=5)).isoformat()
    hub._decision(
        1, Decision(JOURNAL, 1, five_days_ago, RESULT_SESSION, {"event": "x"}, 0).to_bytes()
    )
    hub._decision(1, _score(1, 0, journal=ANOTHER_JOURNAL))
    assert _kinds(hub, 1) == [CLOCK]


def test_a_time_that_cannot_be_read_is_a_clock_warning_in_words(tmp_path: Path) -> None:
    """Finding G (R933): a wall time the hub cannot read is no silence."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub._decision(1, Decision(JOURNAL, 1, "nonsense", RESULT_SESSION, {"event": "x"}, 0).to_bytes())
    (clock,) = hub.refusals.pending()
    assert (clock.kind, clock.error) == (
        CLOCK,
        'its decisions\' time "nonsense" cannot be read: expected an ISO 8601 time with its '
        "offset, like 2026-05-09T10:41:07.212+00:00",
    )


def test_a_jump_within_the_bound_by_the_table_s_account_loses_none_of_its_results(
    broker: Broker, tmp_path: Path
) -> None:
    """Finding B end to end (R929): entry 100 000 past what the table had confirmed, published
    on its account as the next one; the table plays on, its result reaches the record, and its
    outbox empties."""
    record_path = _record(tmp_path / "tournament.db")
    table = Table(broker, tmp_path / "table-1.db")

    async def scenario() -> None:
        async with running_hub(broker, record_path), linked(table) as link:
            await until(lambda: link.connected, "the table to connect")
            table.play(3)
            await until(table.delivered, "the first decisions confirmed")
            held = table.journal.last_seq
            jump = Decision(
                table.journal.identity(), held + MAX_SEQ_AHEAD, _wall_now(), RESULT_SESSION,
                {"event": "score"}, held,
            )  # fmt: skip
            intruder = Peer(broker, "1")  # the table's account: it throws the table off
            intruder.publish(events_topic(1), jump.to_bytes())
            intruder.close()
            table.play()
            await until(lambda: table.delivered() and bool(_recorded_now()), "the result")
            # the hub confirms the jump, which the table never sent: its OLED says so (R927)
            assert link.unsent_confirmed

    def _recorded_now() -> list[tuple[int, int, str]]:
        with TournamentDB.open(record_path) as record:
            return _recorded(record)

    try:
        asyncio.run(scenario())
        _, result = table.result()
        assert [(a, b) for a, b, _ in _recorded_now()] == [(result["A"], result["B"])]
    finally:
        table.close()


def test_a_result_the_record_took_before_the_hub_was_killed_is_two_versions_if_it_differs(
    tmp_path: Path,
) -> None:
    """Finding H (R934): the account's 5-0 at entry 3 applied, the hub killed -9 before its
    ledger was written; after the restart the table's 45-0 at entry 3 is no silent duplicate."""
    path = _record(tmp_path / "tournament.db")
    killed = _hub(path)
    _confirmed_two(killed)
    killed._decision(1, _result(3, 2, 5, 0))  # applied; the ledger's batch never written
    hub = _hub(path)
    hub._decision(1, _result(3, 2, 45, 0))
    assert _points(hub) == [(5, 0)]
    (problem,) = hub.refusals.pending()
    assert problem.kind == TWO_VERSIONS
    assert "entry 3 came again saying something else (match_result 45-0)" in problem.error
    assert "the record holds 5-0 for it" in problem.error


def test_a_result_the_record_took_before_the_hub_was_killed_is_a_copy_if_it_agrees(
    tmp_path: Path,
) -> None:
    """R934: the table's own result sent again after the restart is no problem."""
    path = _record(tmp_path / "tournament.db")
    killed = _hub(path)
    _confirmed_two(killed)
    killed._decision(1, _result(3, 2, 45, 0))
    hub = _hub(path)
    hub._decision(1, _result(3, 2, 45, 0))
    assert hub.refusals.pending() == []


def _digests_let_go(hub: Hub) -> None:
    """As many decisions of journals the account invents as the ledger keeps digests of a
    table, within the journal limit: the table's own digests are let go (R920)."""
    per_journal = MAX_DIGESTS_PER_TABLE // (MAX_JOURNALS_PER_TABLE - 2) + 1
    for number in range(MAX_JOURNALS_PER_TABLE - 1):
        for seq in range(1, per_journal + 1):
            hub._decision(1, _score(seq, seq - 1, journal=f"invented{number}"))
    hub._flush()


def test_a_result_whose_digest_was_let_go_is_told_by_the_record(tmp_path: Path) -> None:
    """Finding I (R935): the account's 5-0 at entry 3, then enough invented decisions to let
    its digest go: the table's 45-0 at 3 is no copy taken on trust."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _result(3, 2, 5, 0))
    _digests_let_go(hub)
    hub._decision(1, _result(3, 2, 45, 0))
    assert _points(hub) == [(5, 0)]
    assert _kinds(hub, 1) == [TWO_VERSIONS]
    assert "the record holds 5-0 for it" in hub.refusals.pending()[0].error


def test_a_result_below_a_jump_whose_digest_was_let_go_reaches_the_record(
    tmp_path: Path,
) -> None:
    """Finding I (R935): a jump, then enough invented decisions to let its digest go: the
    table's result below it is no copy taken on trust, it is applied and shown."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _score(50_000, 2))
    _digests_let_go(hub)
    hub._decision(1, _result(3, 2, 45, 0))
    assert _points(hub) == [(45, 0)]
    (problem,) = hub.refusals.pending()
    assert problem.error.endswith("taken: recorded")


def test_a_same_journal_amendment_by_the_account_is_named_when_the_table_s_entry_comes(
    tmp_path: Path,
) -> None:
    """Finding J (R936): the table's 45-0 recorded at entry 3; the account amends it to 0-45 as
    the table's next entry (4), as an UNDO at the table would; the table's own entry 4 then
    comes: its Two versions line says what the account's did to the record."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _result(3, 2, 45, 0))
    hub._decision(1, _result(4, 3, 0, 45))
    hub._decision(1, _score(4, 3))
    (problem,) = hub.refusals.pending()
    assert problem.error.endswith("; the record took 0-45 from the entry it holds (amended)")


def test_a_jump_that_amended_the_table_s_result_is_named_in_its_journal_s_line(
    tmp_path: Path,
) -> None:
    """Finding J (R936): the account's amendment taken as entry 60 ahead of the table."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    _confirmed_two(hub)
    hub._decision(1, _result(3, 2, 45, 0))
    hub._decision(1, _result(60, 3, 0, 45))
    hub._decision(1, _score(4, 3))
    (problem,) = hub.refusals.pending()
    assert "taken entry 60 of it ahead of them" in problem.error
    assert problem.error.endswith("; the record took 0-45 from the entry it holds (amended)")


def test_what_the_hub_remembers_of_jumps_is_bounded_by_the_journal_limit(tmp_path: Path) -> None:
    """R929 under R923: a jump and an entry below it in each of 2 000 invented journals; what
    the hub keeps of them in memory goes with the journals it lets go."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    for number in range(2000):
        journal = f"invented{number}"
        hub._decision(1, _score(50, 0, journal=journal))
        hub._decision(1, _score(3, 2, journal=journal))
    assert len(hub._passed) <= MAX_JOURNALS_PER_TABLE


def test_states_that_alternate_between_two_faults_are_a_few_lines_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Finding D (R932): a bad state is logged once per fault, so two faults in turn were a
    line each; they are in the table's budget too."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    with caplog.at_level(logging.WARNING, logger="gametable"):
        for number in range(500):
            hub._handle("tables/1/state", b"not json" if number % 2 else b"[]")
    assert len(caplog.records) == WARNINGS_PER_MINUTE + 1


def test_an_invented_journal_that_looks_like_the_table_s_is_named_whole(tmp_path: Path) -> None:
    """R928: the conflict's line tells the two journals apart even when an id was chosen to
    begin as the table's does."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub._decision(1, _result(1, 0, 45, 0))
    lookalike = JOURNAL[:8] + "x" * 24
    hub._decision(1, _said(1, 0, {"event": "match_result", "A": 0, "B": 45}, journal=lookalike))
    (conflict,) = [p for p in _queue(hub) if p["kind"] == "conflict"]
    assert f"journal {lookalike} reports 0-45; 45-0, reported by its journal {JOURNAL}" in str(
        conflict["what"]
    )


class _Stopped:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_account_s_flood_is_read_no_faster_than_the_intake_and_others_are_read(
    tmp_path: Path,
) -> None:
    """Finding K (R937): 1 000 decisions past the burst from table 1's account are dropped
    unread; table 2's decision after them is read."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub.intake = Intake(clock=_Stopped())
    for number in range(int(INTAKE_BURST) + 1000):
        hub._received(events_topic(1), _score(1, 0, journal=f"invented{number}"), 0, 0)
    hub._received(events_topic(2), _score(1, 0), 0, 0)
    hub._flush()
    assert hub.tally["over the intake"] == 1000
    assert hub.confirmation_of(2) == (Confirmation(hub.record_id, JOURNAL, 1),)


def test_a_table_over_the_intake_is_in_the_queue(tmp_path: Path) -> None:
    """R937: the director sees the flood, not only the log."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    hub.intake = Intake(clock=_Stopped())
    for number in range(int(INTAKE_BURST) + 1):
        hub._received(events_topic(1), _score(1, 0, journal=f"invented{number}"), 0, 0)
    (flood,) = [p for p in _queue(hub) if "decisions a second" in str(p["what"])]
    assert flood["kind"] == NOT_APPLIED
    assert "more than 500 decisions a second came from this table's account" in str(flood["what"])


def test_a_table_over_the_intake_is_read_again_as_its_bucket_fills(tmp_path: Path) -> None:
    """R937: nothing is refused for good; a second later the table's decisions are read."""
    hub = _hub(_record(tmp_path / "tournament.db"))
    clock = _Stopped()
    hub.intake = Intake(clock=clock)
    for number in range(int(INTAKE_BURST)):
        hub._received(events_topic(1), _score(1, 0, journal=f"invented{number}"), 0, 0)
    hub._received(events_topic(1), _result(1, 0, 45, 0), 0, 0)
    assert _points(hub) == []
    clock.now += 1 / INTAKE_PER_SECOND
    hub._received(events_topic(1), _result(1, 0, 45, 0), 0, 0)
    assert _points(hub) == [(45, 0)]
