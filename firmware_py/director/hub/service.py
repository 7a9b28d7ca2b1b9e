"""``gametable hub run``: the tables' results into the tournament record, the pairings out.

One asyncio loop, as at the table: paho's network thread hands every message to the loop with
``call_soon_threadsafe``, and only the loop touches the record. The hub keeps a persistent
session on the broker (a fixed client id, ``clean_start`` off), so what the tables publish while
the hub is away waits for it; and it acknowledges a message only once the record holds what it
meant (``manual_ack``), so a hub that stops halfway is sent the message again. Applying is
idempotent by (table, journal id) (``apply``), which makes every redelivery harmless.

Every second the hub reads the record's rounds and publishes each round's pairings, retained,
when they are new or changed; a retained round the record does not have (another tournament's)
is withdrawn.

End to end, the hub confirms what it has applied: per table, retained on
``tournament/applied/<n>``, the journal and the seq up to which the record holds every decision
it received, with the record's identity. A table keeps each decision until that covers it, so a
broker that loses what it queued (its persistence file gone, a kill between saves) loses
nothing. The hub's own retained status (``tournament/hub``, its last will ``offline``) tells the
tables when to send again what it has not confirmed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from firmware_py.director.hub.apply import apply_result, bears_on_the_record
from firmware_py.director.hub.inbox import Inbox
from firmware_py.director.hub.page.board import LiveBoard, Taken
from firmware_py.director.tournament_db import TournamentDB
from firmware_py.table.hub_wire import (
    EVENTS_OF_EVERY_TABLE,
    EVERY_ROUNDS_PAIRINGS,
    EVERY_TABLES_CONFIRMATION,
    HUB_STATUS,
    STATE_OF_EVERY_TABLE,
    STATUS_OF_EVERY_TABLE,
    Confirmation,
    Decision,
    HubStatus,
    RoundPairings,
    TableMatch,
    WireError,
    applied_topic,
    confirmed_table_of,
    pairings_topic,
    parse_confirmation,
    parse_decision,
    readable_id,
    round_of,
    table_of,
)
from firmware_py.table.mqtt_bridge import PahoOnLoop
from firmware_py.table.notify import Notifier, WatchdogPinger
from rules.errors import RuleError

log = logging.getLogger("gametable")

CLIENT_ID = "gametable-hub"
SESSION_SECONDS = 7 * 24 * 3600  # the broker keeps the hub's session (and its queue) a week
RECONNECT_SECONDS = (1, 10)
KEEPALIVE_SECONDS = 10
POLL_SECONDS = 1.0  # how often the record is read for new pairings
BUSY_RETRY_SECONDS = 1.0  # the record locked by a director's command: try again after this
STOP_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class HubBroker:
    host: str
    port: int
    username: str
    password: str
    ca_file: str | None = None


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Hub(PahoOnLoop):
    """The hub's MQTT client and its loop-side work. ``run`` until ``stop``."""

    broker: HubBroker

    def __init__(
        self,
        record: TournamentDB,
        broker: HubBroker,
        *,
        notifier: Notifier | None = None,
        clock: Callable[[], str] = utc_now,
        board: LiveBoard | None = None,
        on_board: Callable[[], None] = lambda: None,
    ) -> None:
        self.record = record
        self.board = board or LiveBoard()  # every table's latest status and state
        self.on_board = on_board  # the director's page: the board changed
        self.broker = broker
        self.notifier = notifier or Notifier(address=None)
        self.clock = clock
        self.connected = False
        self.online: dict[int, bool] = {}  # table -> online, from each table's retained status
        self.tally: Counter[str] = Counter()  # the tables' results by outcome, and duplicates
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = asyncio.Event()
        self._published: dict[int, bytes] = {}  # round -> the pairings last published
        self.record_id = record.identity()
        # table -> (its journal last heard from, the highest seq of it handled): what to confirm
        self._applied: dict[int, tuple[str, int]] = {}
        self._confirmed: dict[int, bytes] = {}  # table -> the confirmation last published
        self._unconfirmed: set[int] = set()  # tables whose confirmation is to be published
        # table -> the journal ids of its decisions not handled yet (the record busy, or the
        # hub's own error; None: no readable id): while it has any, its confirmation waits
        self._held: dict[int, set[tuple[str, int] | None]] = {}
        self._retrying: set[tuple[int, tuple[str, int] | None]] = set()  # a retry is due
        self._beat = 0.0
        self._complaint: str | None = None
        self._inbox = Inbox(self._received)  # the messages, a slice at a time (R726)
        self._client = self._make_client()

    def _make_client(self) -> mqtt.Client:
        broker = self.broker
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=CLIENT_ID,
            protocol=MQTTProtocolVersion.MQTTv5,
            manual_ack=True,  # acknowledged once the record holds it
        )
        client.username_pw_set(broker.username, broker.password)
        client.will_set(HUB_STATUS, HubStatus(False, self.record_id).to_bytes(), qos=1, retain=True)
        if broker.ca_file is not None:
            client.tls_set(ca_certs=broker.ca_file)
        client.reconnect_delay_set(*RECONNECT_SECONDS)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        return client

    # --- running --------------------------------------------------------------------------

    async def run(self) -> int:
        loop = self._loop = asyncio.get_running_loop()
        self._inbox.open(loop)
        # MQTT 5 ends a session with its connection unless it is given an expiry
        session = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        session.SessionExpiryInterval = SESSION_SECONDS
        self._client.connect_async(
            self.broker.host,
            self.broker.port,
            keepalive=KEEPALIVE_SECONDS,
            clean_start=False,
            properties=session,
        )
        self._client.loop_start()
        log.info(
            "event=hub_start broker=%s:%d record=%s",
            self.broker.host,
            self.broker.port,
            self.record.path,
        )
        self.notifier.ready("hub running")
        pinger = asyncio.create_task(
            WatchdogPinger(notifier=self.notifier, healthy=self.healthy).run()
        )
        try:
            while not self._stop.is_set():
                self._beat = loop.time()
                self._publish_pairings()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), POLL_SECONDS)
        finally:
            pinger.cancel()
            self.notifier.stopping()
            await self._say_offline()
            self._client.disconnect()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.to_thread(self._client.loop_stop), STOP_SECONDS)
        return 0

    def stop(self) -> None:
        self._stop.set()

    async def _say_offline(self) -> None:
        """A clean stop: "offline" ourselves (the broker keeps the will to itself)."""
        if not self.connected:
            return
        self.connected = False  # a goodbye, not an outage
        said = self._client.publish(
            HUB_STATUS, HubStatus(False, self.record_id).to_bytes(), qos=1, retain=True
        )
        with contextlib.suppress(ValueError, RuntimeError):
            await asyncio.to_thread(said.wait_for_publish, STOP_SECONDS)

    def healthy(self) -> bool:
        loop = asyncio.get_running_loop()
        return loop.time() - self._beat < 5 * POLL_SECONDS

    # --- on the loop ----------------------------------------------------------------------

    def _connected(self, reason: ReasonCode) -> None:
        if reason.is_failure:
            self._complain(f"event=hub_refused reason={reason}")
            return
        self.connected = True
        self._complaint = None
        log.info("event=hub_connected broker=%s:%d", self.broker.host, self.broker.port)
        # every time: after a broker restart the session (and its subscriptions) may be gone
        options = SubscribeOptions(qos=1)
        self._client.subscribe(
            [
                (EVENTS_OF_EVERY_TABLE, options),
                (STATUS_OF_EVERY_TABLE, options),
                # what a table shows: latest wins, so nothing is queued while the hub is away
                (STATE_OF_EVERY_TABLE, SubscribeOptions(qos=0)),
                (EVERY_ROUNDS_PAIRINGS, SubscribeOptions(qos=1, noLocal=True)),
                (EVERY_TABLES_CONFIRMATION, SubscribeOptions(qos=1, noLocal=True)),
            ]
        )
        # after the subscriptions (the broker takes them in order): a table that sees the hub
        # online sends again what the hub has not confirmed, and the hub is there to get it
        self._client.publish(
            HUB_STATUS, HubStatus(True, self.record_id).to_bytes(), qos=1, retain=True
        )
        self._published.clear()  # the broker may have lost them: publish every round again
        self._publish_pairings()
        self._confirmed.clear()
        self._unconfirmed.update(self._applied)
        self._publish_confirmations()

    def _disconnected(self, reason: str) -> None:
        if self.connected:
            log.warning("event=hub_disconnected reason=%s", reason)
        self.connected = False

    def _received(self, topic: str, payload: bytes, mid: int, qos: int) -> None:
        """Every message is acknowledged at once, whatever becomes of it: the broker sends the
        hub at most 20 unacknowledged messages, and one it keeps waiting for would stall every
        table's (R197). Nothing is lost by it: a decision the record does not hold yet holds
        its table's confirmation, and the table keeps it and sends it again (R195)."""
        self._attempt(topic, payload, table_of(topic, "events"))
        if qos > 0:
            self._client.ack(mid, qos)

    def _attempt(self, topic: str, payload: bytes, table: int | None) -> None:
        held = None if table is None else (table, readable_id(payload))
        try:
            self._handle(topic, payload)
        except sqlite3.OperationalError as error:  # the record busy, or its disk: retried
            self._complain(f"event=record_busy error={error}")
            if held is None or held not in self._retrying:
                self._hold(held, retrying=True)
                assert self._loop is not None
                self._loop.call_later(BUSY_RETRY_SECONDS, self._retry, topic, payload, table)
            return
        except Exception as error:  # the hub's own fault: held until the table sends it again
            log.error("event=hub_error topic=%s error=%r", topic, error)
            self._hold(held, retrying=False)
            return
        if held is not None and held[1] in self._held.get(held[0], ()):
            self._held[held[0]].discard(held[1])
            self._confirm_soon(held[0])

    def _retry(self, topic: str, payload: bytes, table: int | None) -> None:
        if table is not None:
            self._retrying.discard((table, readable_id(payload)))
        self._attempt(topic, payload, table)

    def _hold(self, held: tuple[int, tuple[str, int] | None] | None, *, retrying: bool) -> None:
        """A table's decision not handled yet: its confirmation waits (a later seq would
        confirm this one too) until a delivery of it is handled."""
        if held is None:
            return
        self._held.setdefault(held[0], set()).add(held[1])
        if retrying:
            self._retrying.add(held)

    def _handle(self, topic: str, payload: bytes) -> None:
        table = table_of(topic, "events")
        if table is not None:
            self._decision(table, payload)
            return
        table = table_of(topic, "status")
        if table is not None:
            self._status(table, payload)
            return
        table = table_of(topic, "state")
        if table is not None:
            self._board(table, "state", self.board.take_state(table, payload, time.time()))
            return
        number = round_of(topic)
        if number is not None:
            self._retained_pairings(number, payload)
            return
        table = confirmed_table_of(topic)
        if table is not None:
            self._retained_confirmation(table, payload)
            return
        log.warning("event=hub_unknown_topic topic=%s", topic)

    def _decision(self, table: int, payload: bytes) -> None:
        """A decision the hub cannot apply because of what it says is refused once and counted
        as handled, so that the table's confirmation moves past it (R196)."""
        try:
            decision = parse_decision(payload)
            if bears_on_the_record(decision):
                self._apply(table, decision)
        except (WireError, RuleError, ValueError, TypeError, KeyError, OverflowError) as error:
            known = readable_id(payload)
            seq = "?" if known is None else str(known[1])
            log.warning("event=hub_bad_decision table=%d seq=%s error=%s", table, seq, error)
            self.tally["bad decision"] += 1
            if known is not None:
                self._handled(table, *known)
            return
        self._handled(table, decision.journal, decision.seq)

    def _apply(self, table: int, decision: Decision) -> None:
        applied = apply_result(self.record, table, decision, now=self.clock())
        event = applied.event
        self.tally["duplicate" if event is None else event.outcome] += 1
        where = f"table={table} journal={decision.journal[:8]} seq={decision.seq}"
        if event is None:
            log.info("event=result_duplicate %s", where)
            return
        level = logging.WARNING if event.outcome in ("conflict", "refused") else logging.INFO
        outcome = event.outcome.replace(" ", "_")
        log.log(
            level, "event=result_%s %s round=%s note=%s", outcome, where, event.round, event.note
        )

    # --- confirmations: what the record holds, for each table -----------------------------

    def _handled(self, table: int, journal: str, seq: int) -> None:
        """A decision the record now holds (or that bears nothing on it): the table's
        confirmation moves on. A table's decisions arrive in its journal's order; a new journal
        (numbered from 1 again) starts its own count."""
        heard = self._applied.get(table)
        if heard is None or heard[0] != journal or heard[1] < seq:
            self._applied[table] = (journal, seq)
            self._confirm_soon(table)

    def _confirm_soon(self, table: int) -> None:
        """One publish per table for a burst of decisions, on the loop's next turn."""
        self._unconfirmed.add(table)
        if len(self._unconfirmed) == 1 and self._loop is not None:
            self._loop.call_soon(self._publish_confirmations)

    def _publish_confirmations(self) -> None:
        if not self.connected:
            return  # published again, all of them, on connecting
        for table in sorted(self._unconfirmed):
            if self._held.get(table) or table not in self._applied:
                continue
            journal, seq = self._applied[table]
            payload = Confirmation(self.record_id, journal, seq).to_bytes()
            if self._confirmed.get(table) != payload:
                self._client.publish(applied_topic(table), payload, qos=1, retain=True)
                self._confirmed[table] = payload
        self._unconfirmed.clear()

    def _retained_confirmation(self, table: int, payload: bytes) -> None:
        """A confirmation the broker holds: this record's (the hub's, before it restarted)
        tells where the table's confirmation stands; another record's confirms nothing here
        and is withdrawn, or replaced by this record's."""
        if not payload:
            return
        try:
            confirmation = parse_confirmation(payload)
        except WireError:
            confirmation = None
        if confirmation is not None and confirmation.record == self.record_id:
            if table not in self._applied:
                self._applied[table] = (confirmation.journal, confirmation.seq)
                self._confirmed[table] = payload
            return
        if table in self._applied:
            self._confirmed.pop(table, None)
            self._confirm_soon(table)
        else:
            self._client.publish(applied_topic(table), b"", qos=1, retain=True)
            log.info("event=confirmation_withdrawn table=%d", table)

    def _status(self, table: int, payload: bytes) -> None:
        taken = self.board.take_status(table, payload)
        self._board(table, "status", taken)
        if not taken.changed:
            return  # neither online nor offline: nothing is known of the table
        online = payload == b"online"
        if self.online.get(table) != online:
            log.info("event=table_%s table=%d", "online" if online else "offline", table)
        self.online[table] = online

    def _board(self, table: int, topic: str, taken: Taken) -> None:
        if taken.complaint is not None:  # once per fault and table, until it sends a good one
            log.warning("event=hub_bad_%s table=%d error=%s", topic, table, taken.complaint)
        if taken.changed:
            self.on_board()

    def record_changed(self) -> None:
        """The director changed the record (a round paired): publish it now, not in a second."""
        self._publish_pairings()

    def _retained_pairings(self, number: int, payload: bytes) -> None:
        """A round's pairings the broker holds: withdrawn if the record has no such round (a
        tournament before this one), put right if they differ from the record's."""
        rounds = self._rounds()
        wanted = rounds[number].to_bytes() if number in rounds else b""
        if payload != wanted:
            self._client.publish(pairings_topic(number), wanted, qos=1, retain=True)
            what = "withdrawn" if not wanted else "republished"
            log.info("event=pairings_%s round=%d", what, number)
            self._published[number] = wanted

    def _publish_pairings(self) -> None:
        if not self.connected:
            return
        for number, pairings in self._rounds().items():
            payload = pairings.to_bytes()
            if self._published.get(number) != payload:
                self._client.publish(pairings_topic(number), payload, qos=1, retain=True)
                self._published[number] = payload
                log.info(
                    "event=pairings_published round=%d tables=%d", number, len(pairings.matches)
                )

    def _rounds(self) -> dict[int, RoundPairings]:
        plans = self.record.round_plans()
        return {
            rnd.round: RoundPairings(
                rnd.round,
                str(plans[rnd.round]["kind"]),
                int(plans[rnd.round]["minutes"]),
                tuple(TableMatch(m.table, m.a, m.b) for m in rnd.matches),
                rnd.bye,
            )
            for rnd in self.record.rounds()
        }

    # --- on paho's thread -----------------------------------------------------------------

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._inbox.put(message.topic, bytes(message.payload), message.mid, message.qos)
