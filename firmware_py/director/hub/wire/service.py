"""``gametable hub run``: the tables' results into the tournament record, the pairings out.

One asyncio loop, as at the table: paho's network thread hands every message to the loop with
``call_soon_threadsafe``, and only the loop touches the record. The hub keeps a persistent
session on the broker (``clean_start`` off; its client id is its account's name, which is what
the broker makes of any id it asks for: R720), so what the tables publish while the hub is away
waits for it; and it acknowledges a message only once the record holds what it
meant (``manual_ack``), so a hub that stops halfway is sent the message again. Applying is
idempotent by (table, journal id) (``apply``), which makes every redelivery harmless.

Every second the hub reads the record's rounds and publishes each round's pairings, retained,
when they are new or changed, and each Pentathlon round's seats with the players' names (R795);
a retained round the record does not have (another tournament's, or a round whose pairing the
director undid: R820) is withdrawn.

End to end, the hub confirms what its record holds (R710-R712): per table, retained on
``tournament/applied/<n>``, for each of its journals the seq up to which the record holds
*every* decision, with the record's identity. Each decision names the one sent before it, so
the hub takes a decision only when it follows on, and reports a gap (the table sends again from
its confirmation) instead of passing one by. How far each journal is held is kept in the record
(``ledger``) and confirmed only once written there. A table keeps each decision until that
covers it, so a broker that loses what it queued (its persistence file gone, a kill between
saves) loses nothing. The hub's own retained status (``tournament/hub``, its last will
``offline``) tells the tables when to send again what it has not confirmed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
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

from firmware_py.director.hub.wire.apply import MATCH_RESULT, apply_result, bears_on_the_record
from firmware_py.director.hub.wire.board import LiveBoard, Taken
from firmware_py.director.hub.wire.events import (
    EventRouter,
    is_event_round_topic,
    no_event_words,
    tables_event_of,
)
from firmware_py.director.hub.wire.inbox import Inbox
from firmware_py.director.hub.wire.intake import INTAKE_BURST, INTAKE_PER_SECOND, Intake
from firmware_py.director.hub.wire.ledger import Ledger, Seen
from firmware_py.director.hub.wire.record_reads import UntilChanged
from firmware_py.director.hub.wire.refusals import (
    CLOCK,
    JOURNAL_LIMIT,
    TWO_VERSIONS,
    HubRefusal,
    HubRefusals,
)
from firmware_py.director.hub.wire.restarts import MatchesUnderway
from firmware_py.director.record.day import DayRecord
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import RecordGone, TableEvent, TournamentDB
from firmware_py.table.hub_wire import (
    EVENTS_OF_EVERY_TABLE,
    EVERY_EVENTS_PENTATHLON_SEATS,
    EVERY_EVENTS_ROUNDS_PAIRINGS,
    EVERY_PENTATHLON_ROUNDS_SEATS,
    EVERY_ROUNDS_PAIRINGS,
    EVERY_TABLES_CONFIRMATION,
    EVERY_TABLES_EVENT,
    HUB_STATUS,
    STATE_OF_EVERY_TABLE,
    STATUS_OF_EVERY_TABLE,
    Confirmation,
    Decision,
    DecisionId,
    HubStatus,
    PentathlonSeats,
    PentathlonTableSeat,
    RoundPairings,
    TableMatch,
    WireError,
    applied_topic,
    confirmations_payload,
    confirmed_table_of,
    event_pairings_topic,
    event_seats_topic,
    pairings_topic,
    parse_confirmations,
    parse_decision,
    pentathlon_round_of,
    pentathlon_seats_topic,
    readable_id,
    round_of,
    table_event_topic,
    table_of,
)
from firmware_py.table.mqtt_bridge import PahoOnLoop
from firmware_py.table.notify import Notifier, WatchdogPinger
from rules.errors import IllegalAction, RuleError

log = logging.getLogger("gametable")
RoundPayloads = dict[int, tuple[bytes, int]]  # a round of one record: as published, its tables

SESSION_SECONDS = 7 * 24 * 3600  # the broker keeps the hub's session (and its queue) a week
RECONNECT_SECONDS = (1, 10)
KEEPALIVE_SECONDS = 10
POLL_SECONDS = 1.0  # how often the record is read for new pairings
BUSY_RETRY_SECONDS = 1.0  # the record locked by a director's command: try again after this
# In a day, how long a result waits for its event's record another program holds: the hub's
# loop serves every event, and one event's lock never stalls the others (R1171)
EVENT_BUSY_WAIT = 0.1
STOP_SECONDS = 2.0
FLUSH_SECONDS = 0.1  # how far the tables' journals are held: written at most this often
NUDGE_SECONDS = 1.0  # a table's confirmation published again (a gap, a copy) at most this often
# What one table's account can make the hub keep (R714): the journals it is held for (a table
# starts one a match with --new-journal at most), and the journals waiting for a gap at once.
MAX_JOURNALS_PER_TABLE = 256
MAX_GAPS_PER_TABLE = 8
# How far past what the record holds a journal's next decision can be (R920): the entries a
# table writes between two decisions (button edges, pairings), a few a second at most; a seq
# further ahead is a gap to ask for again, never a jump of the ledger.
MAX_SEQ_AHEAD = 100_000
# A table's decision whose wall time is further than this from the hub's: a warning on its
# tile (R925). Tables set their clocks by NTP; ten minutes is a clock not set at all.
CLOCK_TOLERANCE_SECONDS = 600
# The warnings one table's account can make the hub log (R932): a table's real faults are a
# few a minute; an account publishing as fast as the broker takes would write the log as fast.
WARNINGS_PER_MINUTE = 20


@dataclass(frozen=True, slots=True)
class HubBroker:
    host: str
    port: int
    username: str
    password: str
    ca_file: str | None = None


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def content_digest(decision: Decision | None, payload: bytes) -> str:
    """What a decision says, summed up (R920): its journal, seq, session and event; not how it
    was chained (``prev``, ``first_held`` change as a table sends again), nor its wall time (the
    table's clock's reading, which the record does not take: R171). A decision the hub cannot
    read is summed up as it came."""
    if decision is None:
        content = payload
    else:
        content = json.dumps(
            [decision.journal, decision.seq, decision.session, decision.event],
            sort_keys=True,
            separators=(",", ":"),
        ).encode()
    return hashlib.sha256(content).hexdigest()[:32]


def _what_it_says(decision: Decision | None) -> str:
    """A decision's event in a line for the director (a result's points are in it)."""
    if decision is None:
        return "not a decision the hub can read"
    event = decision.event
    name, a, b = event.get("event"), event.get("A"), event.get("B")
    if isinstance(name, str) and type(a) is int and type(b) is int:
        return f"{name[:40]} {a}-{b}"  # a result: its points, as the record writes them
    said = json.dumps(event, sort_keys=True, separators=(", ", ": "))
    return said if len(said) <= 120 else said[:117] + "..."


def _short_text(text: str) -> str:
    """A table's text as the queue quotes it: printable, at most 40 characters."""
    shown = json.dumps(text)
    return shown if len(shown) <= 40 else shown[:37] + '..."'


def _duration(seconds: float) -> str:
    if seconds >= 2 * 86400:
        return f"{int(seconds // 86400)} days"
    if seconds >= 2 * 3600:
        return f"{int(seconds // 3600)} hours"
    return f"{int(seconds // 60)} minutes"


class Hub(PahoOnLoop):
    """The hub's MQTT client and its loop-side work. ``run`` until ``stop``."""

    broker: HubBroker

    def __init__(
        self,
        record: TournamentDB | DayRecord,
        broker: HubBroker,
        *,
        notifier: Notifier | None = None,
        clock: Callable[[], str] = utc_now,
        board: LiveBoard | None = None,
        on_board: Callable[[], None] = lambda: None,
        refusals: HubRefusals | None = None,
    ) -> None:
        # where each table's decisions go: the one record, or its event of the day (R1120)
        self.router = (
            EventRouter(day=record) if isinstance(record, DayRecord) else EventRouter(record=record)
        )
        self.day: DayRecord | None = self.router.day  # for the page (hub run --day)
        self.events: dict[str, TournamentDB] = self.router.events  # each event's record, open
        self.refusals = refusals or HubRefusals()  # for the director's problem queue (R804)
        # each table's journals' matches: one left unfinished by a new journal is said (R908)
        self.underway = MatchesUnderway(self.refusals)
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
        self._published: dict[str, bytes] = {}  # a round's topic -> what was last published
        self._record_payloads = UntilChanged(self._read_payloads)
        self._tables_published: dict[str, bytes] = {}  # a table's event topic -> the same
        self.record_id = self.router.identity()
        self._ledger: Ledger | None = None  # opened when the hub runs: nothing written before
        self._confirmed: dict[int, bytes] = {}  # table -> the confirmation last published
        self._unconfirmed: set[int] = set()  # tables whose confirmation is to be published
        # table -> its journals a decision came after a gap, the newest last
        self._gaps: dict[int, dict[str, None]] = {}
        self._nudged: dict[int, float] = {}  # table -> when its confirmation was last forced
        # table -> its journals sent again lately (a copy), the newest last: named first in its
        # confirmation, which holds at most 32 journals (R931)
        self._asked: dict[int, dict[str, None]] = {}
        self._warned: dict[int, tuple[float, int]] = {}  # table -> its minute's start, warnings
        self.intake = Intake()  # how many of each table's decisions are read a second (R937)
        self._over: dict[int, float] = {}  # table -> when its dry bucket was last said
        # (table, journal): entries the ledger had moved past came, told once per journal (R929)
        self._passed: set[tuple[int, str]] = set()
        self._flush_due: asyncio.TimerHandle | None = None
        self._retrying: set[tuple[int, str, int]] = set()  # (table, journal, seq): retry due
        # a day's events whose record was found locked: not tried again before then (R1171)
        self._locked_until: dict[str, float] = {}
        self._beat = 0.0
        self._complaint: str | None = None
        self._inbox = Inbox(self._received)  # the messages, a slice at a time (R726)
        self._client = self._make_client()

    @property
    def record(self) -> TournamentDB:
        """The one record of ``hub run --db`` (a day's hub has ``events``)."""
        if self.router.record is None:
            raise AttributeError("a day's hub serves several records: read hub.events")
        return self.router.record

    def event_of(self, table: int) -> str | None:
        """The event a table plays for now, as the hub last read the day (for the page's queue
        and tiles by event); None for ``--db``'s one record, or a table with no event."""
        route = self.router.for_table(table)
        return None if route is None else route.event

    @property
    def ledger(self) -> Ledger:
        """How far the record (the day's, in a day) holds each table's journals (its table
        made on first use)."""
        if self._ledger is None:
            self._ledger = Ledger(self.router.ledger_store, self.clock)
        return self._ledger

    def _make_client(self) -> mqtt.Client:
        broker = self.broker
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=broker.username,  # the broker imposes it: R720
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
        self.ledger  # noqa: B018 (read the record's ledger before the broker can deliver)
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
            self.router.path,
        )
        self.notifier.ready("hub running")
        pinger = asyncio.create_task(
            WatchdogPinger(notifier=self.notifier, healthy=self.healthy).run()
        )
        try:
            while not self._stop.is_set():
                self._beat = loop.time()
                self._follow_the_day()
                self._publish_pairings()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), POLL_SECONDS)
        finally:
            pinger.cancel()
            self.notifier.stopping()
            if self._flush_due is not None:
                self._flush_due.cancel()
            self._flush()  # what was handled is kept (and confirmed, if still connected)
            self._publish_confirmations()
            await self._say_offline()
            self._client.disconnect()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.to_thread(self._client.loop_stop), STOP_SECONDS)
        # a clean stop says so: in the log, a crash and a stop before a restart look alike
        # without it (FINDINGS-i25-dealer-walk F4)
        log.info("event=hub_stopped record=%s", self.router.path)
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
                # the retain flag as the table published it, not as MQTT 5 clears it for a
                # live subscription: a decision published retained is never applied (R714, R926)
                (EVENTS_OF_EVERY_TABLE, SubscribeOptions(qos=1, retainAsPublished=True)),
                (STATUS_OF_EVERY_TABLE, options),
                # what a table shows: latest wins, so nothing is queued while the hub is away
                (STATE_OF_EVERY_TABLE, SubscribeOptions(qos=0)),
                (EVERY_ROUNDS_PAIRINGS, SubscribeOptions(qos=1, noLocal=True)),
                (EVERY_PENTATHLON_ROUNDS_SEATS, SubscribeOptions(qos=1, noLocal=True)),
                (EVERY_TABLES_CONFIRMATION, SubscribeOptions(qos=1, noLocal=True)),
                # a day's topics, retained by a hub before this one: put right (R1124)
                (EVERY_EVENTS_ROUNDS_PAIRINGS, SubscribeOptions(qos=1, noLocal=True)),
                (EVERY_EVENTS_PENTATHLON_SEATS, SubscribeOptions(qos=1, noLocal=True)),
                (EVERY_TABLES_EVENT, SubscribeOptions(qos=1, noLocal=True)),
            ]
        )
        # after the subscriptions (the broker takes them in order): a table that sees the hub
        # online sends again what the hub has not confirmed, and the hub is there to get it
        self._client.publish(
            HUB_STATUS, HubStatus(True, self.record_id).to_bytes(), qos=1, retain=True
        )
        self._published.clear()  # the broker may have lost them: publish every round again
        self._tables_published.clear()
        self._publish_pairings()
        self._publish_tables_events()
        self._confirmed.clear()
        self._unconfirmed.update(self.ledger.tables())
        self._publish_confirmations()

    def _disconnected(self, reason: str) -> None:
        if self.connected:
            log.warning("event=hub_disconnected reason=%s", reason)
        self.connected = False

    def _received(self, topic: str, payload: bytes, mid: int, qos: int) -> None:
        """Every message is acknowledged at once, whatever becomes of it: the broker sends the
        hub at most 20 unacknowledged messages, and one it keeps waiting for would stall every
        table's (R197). Nothing is lost by it: a decision the record does not hold yet leaves
        its journal's confirmation where it is, and the table keeps it and sends it again
        (R195, R710)."""
        table = table_of(topic, "events")
        if table is None or self.intake.allows(table):
            self._attempt(topic, payload)
        else:
            self._over_intake(table)
        if qos > 0:
            self._client.ack(mid, qos)

    def _over_intake(self, table: int) -> None:
        """A decision past what the hub reads of one table a second: dropped unread (R937);
        said at most once a minute of each table."""
        self.tally["over the intake"] += 1
        now = time.monotonic()
        if now - self._over.get(table, -60.0) >= 60.0:
            self._over[table] = now
            what = (
                f"more than {int(INTAKE_PER_SECOND)} decisions a second came from this table's "
                "account (its password may be known to someone else): the rest were dropped "
                "unread; the table sends its own again"
            )
            self.refusals.add(table, None, None, what, time.time())
            self._warn(
                "event=hub_intake_over table=%d per_second=%d burst=%d: its decisions are "
                "dropped unread until it slows down; the table sends them again",
                table,
                int(INTAKE_PER_SECOND),
                int(INTAKE_BURST),
            )

    def _attempt(self, topic: str, payload: bytes) -> None:
        try:
            self._handle(topic, payload)
        except sqlite3.OperationalError as error:  # the record busy, or its disk: retried
            self._complain(f"event=record_busy error={error}")
            table, chain = table_of(topic, "events"), readable_id(payload)
            if table is None or chain is None:
                return
            if isinstance(error, RecordGone):  # held, not lost: the director is told (R1170)
                self._record_gone(table, chain, error)
            key = (table, chain.journal, chain.seq)
            if key not in self._retrying:
                self._retrying.add(key)
                assert self._loop is not None
                self._loop.call_later(BUSY_RETRY_SECONDS, self._retry, key, topic, payload)
        except Exception as error:  # the hub's own fault: the table sends it again
            log.error("event=hub_error topic=%s error=%r", topic, error)

    def _record_gone(self, table: int, chain: DecisionId, error: RecordGone) -> None:
        """A decision held because its record's file was deleted or replaced under the hub
        (R1170): in the queue once per journal, while the table keeps sending it."""
        said = HubRefusal(table, chain.journal, None, str(error), 0.0)
        if not self.refusals.holds(said.key):
            self.refusals.add(table, chain.journal, None, str(error), time.time())

    def _retry(self, key: tuple[int, str, int], topic: str, payload: bytes) -> None:
        self._retrying.discard(key)
        self._attempt(topic, payload)

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
        if round_of(topic) is not None or pentathlon_round_of(topic) is not None:
            self._retained_pairings(topic, payload)
            return
        if is_event_round_topic(topic):
            self._retained_pairings(topic, payload)
            return
        if tables_event_of(topic) is not None:
            self._retained_tables_event(topic, payload)
            return
        table = confirmed_table_of(topic)
        if table is not None:
            self._retained_confirmation(table, payload)
            return
        log.warning("event=hub_unknown_topic topic=%s", topic)

    def _decision(self, table: int, payload: bytes) -> None:
        """A table's decision, taken only where it follows on in its journal (R710): a copy of
        one the record holds is dropped by the ledger alone, one after a gap is reported so the
        table sends again. A decision the hub cannot apply because of what it says is refused
        once and counted as handled, so that the confirmation moves past it (R196). What one
        table's account can do is what its table could have done (R920-R925): a seq further
        ahead than a journal can go is a gap, a seq seen again with other content a conflict
        for the director, never a copy."""
        decision: Decision | None = None
        try:  # read once: a copy costs this and a look-up in the ledger
            decision = parse_decision(payload)
            chain: DecisionId | None = decision.chain
            refused: Exception | None = None
        except WireError as error:
            chain, refused = readable_id(payload), error  # read leniently, to confirm past it
        if chain is None:  # nowhere in a chain: nothing to confirm past
            self._warn("event=hub_bad_decision table=%d seq=? error=%s", table, refused)
            self.tally["bad decision"] += 1
            self.refusals.add(table, None, None, str(refused), time.time())
            return
        digest = content_digest(decision, payload)
        held = self.ledger.through(table, chain.journal)
        if chain.seq <= held:
            self._seen_again(table, chain, digest, decision, refused=refused, held=held)
            return
        if chain.seq > held + MAX_SEQ_AHEAD:
            self._far_ahead(table, chain, held)
            return
        if not self._follows_on(table, chain, held):
            return
        if self._for_no_event(table, chain, decision):
            return
        self._make_room(table, chain.journal)
        self._take(table, chain, digest, decision, refused)
        self._gaps.get(table, {}).pop(chain.journal, None)

    def _take(
        self,
        table: int,
        chain: DecisionId,
        digest: str,
        decision: Decision | None,
        refused: Exception | None,
    ) -> str | None:
        """Apply a decision the ledger takes (if it bears on the record) and note it taken;
        what became of a result (its outcome), or None for anything else."""
        outcome = None
        try:
            if decision is not None and bears_on_the_record(decision):
                outcome = self._apply(table, decision)
                if outcome == "duplicate":
                    applied = self.router.holding(table, decision.journal, decision.seq)
                    if applied is not None:
                        self._differs_from_the_record(table, decision, applied)
        except (RuleError, ValueError, TypeError, KeyError, OverflowError) as error:
            refused = error
        if refused is not None:
            self._warn("event=hub_bad_decision table=%d seq=%d error=%s", table, chain.seq, refused)
            self.tally["bad decision"] += 1
            self.refusals.add(table, chain.journal, chain.seq, str(refused), time.time())
        if decision is not None:
            self._check_clock(table, decision)
            self.underway.note(table, decision)
        self.ledger.take(table, chain.journal, chain.seq, digest)
        self._flush_soon()
        return outcome

    def _result_never_applied(
        self, table: int, chain: DecisionId, digest: str, decision: Decision
    ) -> None:
        """A result at an entry the ledger holds but can no longer tell (its digest let go),
        which the record never applied: the ledger moved past it, or took something else
        there. A table's entry never changes, so either way another client was first; the
        result is taken, never dropped as a copy, and shown (R935)."""
        self.tally["two versions"] += 1
        outcome = self._take(table, chain, digest, decision, None)
        self._warn(
            "event=hub_two_versions table=%d journal=%s seq=%d seen=not_in_the_record",
            table,
            chain.journal[:8],
            chain.seq,
        )
        what = (
            f"journal {chain.journal[:8]} entry {chain.seq} ({_what_it_says(decision)}) came "
            "after the hub had held that entry with no result of it (another client on the "
            f"table's account?); taken: {outcome}"
        )
        self.refusals.add(table, chain.journal, chain.seq, what, time.time(), kind=TWO_VERSIONS)

    def _differs_from_the_record(self, table: int, decision: Decision, held: TableEvent) -> bool:
        """Whether a result the record applied before says other points than this one: another
        client's version came first (the hub stopped before writing its ledger, a journal let
        go, digests let go), and this one is two versions, shown (R934)."""
        said = (decision.event.get("A"), decision.event.get("B"))
        if decision.name != MATCH_RESULT or (held.a_points, held.b_points) == said:
            return False
        self.tally["two versions"] += 1
        self._warn(
            "event=hub_two_versions table=%d journal=%s seq=%d seen=in_the_record",
            table,
            decision.journal[:8],
            decision.seq,
        )
        what = (
            f"journal {decision.journal[:8]} entry {decision.seq} came again saying something "
            f"else ({_what_it_says(decision)}); the record holds "
            f"{held.a_points}-{held.b_points} for it, taken first, and not this one"
        )
        self.refusals.add(
            table, decision.journal, decision.seq, what, time.time(), kind=TWO_VERSIONS
        )
        return True

    def _seen_again(
        self,
        table: int,
        chain: DecisionId,
        digest: str,
        decision: Decision | None,
        *,
        refused: Exception | None,
        held: int,
    ) -> None:
        """A decision at or below what the record holds: a copy if it says what the one taken
        at its seq said (or is too old to tell); a conflict the director sees if it says
        something else, never a silent copy (R921); taken, and shown, if the ledger moved past
        its seq without taking it (R929)."""
        seen = self.ledger.seen(table, chain.journal, chain.seq, digest)
        self._name_first(table, chain.journal)
        self._nudge(table)  # the table still holds it: it may have missed its confirmation
        if seen is Seen.UNKNOWN and decision is not None and bears_on_the_record(decision):
            # too old for the ledger to tell, but a result: the record tells (R935)
            applied = self.router.holding(table, chain.journal, chain.seq)
            if applied is None:
                self._result_never_applied(table, chain, digest, decision)
                return
            if self._differs_from_the_record(table, decision, applied):
                return
        if seen in (Seen.COPY, Seen.UNKNOWN):
            self.tally["duplicate"] += 1
            return
        self.tally["two versions"] += 1
        if seen is Seen.NEVER_TAKEN:
            self._passed_over(table, chain, digest, decision, refused=refused, held=held)
            return
        what = (
            f"journal {chain.journal[:8]} entry {chain.seq} came again saying something "
            f"else ({_what_it_says(decision)}); the hub took the first and not this one"
            f"{self._result_taken(table, chain.journal, chain.seq)}"
        )
        self._warn(
            "event=hub_two_versions table=%d journal=%s seq=%d seen=different",
            table,
            chain.journal[:8],
            chain.seq,
        )
        self.refusals.add(table, chain.journal, chain.seq, what, time.time(), kind=TWO_VERSIONS)

    def _result_taken(self, table: int, journal: str, seq: int) -> str:
        """What the record took from the version the hub holds of an entry, when it was a
        result: the director sees what another client's version did to the record, an
        amendment above all (R936)."""
        taken = self.router.holding(table, journal, seq)
        if taken is None or taken.a_points is None or taken.b_points is None:
            return ""
        return (
            f"; the record took {taken.a_points}-{taken.b_points} from the entry it holds "
            f"({taken.outcome})"
        )

    def _passed_over(
        self,
        table: int,
        chain: DecisionId,
        digest: str,
        decision: Decision | None,
        *,
        refused: Exception | None,
        held: int,
    ) -> None:
        """An entry below a later one another client took first (a jump within R920's bound):
        taken as it comes, so that the table's results still reach the record (refusing them
        locked the table out for 100 000 entries); the director sees it once per journal, and
        each result with what became of it (R929)."""
        outcome = self._take(table, chain, digest, decision, refused)
        journal = chain.journal[:8]
        now = time.time()
        if (table, chain.journal) not in self._passed:
            self._passed.add((table, chain.journal))
            self._warn(
                "event=hub_two_versions table=%d journal=%s seq=%d seen=passed_over through=%d",
                table,
                journal,
                chain.seq,
                held,
            )
            what = (
                f"journal {journal}: entries came after the hub had taken entry {held} of it "
                "ahead of them (another client on the table's account?); the hub takes them "
                f"as they come{self._result_taken(table, chain.journal, held)}"
            )
            self.refusals.add(table, chain.journal, None, what, now, kind=TWO_VERSIONS)
        if outcome is not None:
            what = (
                f"journal {journal} entry {chain.seq} ({_what_it_says(decision)}) came after "
                f"the hub had taken entry {held} of it ahead of it; taken: {outcome}"
            )
            self.refusals.add(table, chain.journal, chain.seq, what, now, kind=TWO_VERSIONS)

    def _warn(self, line: str, table: int, *args: object) -> None:
        """A warning about what a table's account sent: at most ``WARNINGS_PER_MINUTE`` of each
        table a minute; past them one line says so, and the next minute's first says how many
        were held back (R932). The queue and the tally still count every one."""
        now = time.monotonic()
        start, count = self._warned.get(table, (now, 0))
        if now - start >= 60:
            if count > WARNINGS_PER_MINUTE:
                log.warning(
                    "event=hub_warnings_held_back table=%d count=%d seconds=%d",
                    table,
                    count - WARNINGS_PER_MINUTE,
                    int(now - start),
                )
            start, count = now, 0
        count += 1
        self._warned[table] = (start, count)
        if count <= WARNINGS_PER_MINUTE:
            log.warning(line, table, *args)
        elif count == WARNINGS_PER_MINUTE + 1:
            log.warning(
                "event=hub_warnings_held_back table=%d limit=%d: more warnings from this "
                "table's account this minute are counted, not logged",
                table,
                WARNINGS_PER_MINUTE,
            )
        self.tally["warnings" if count <= WARNINGS_PER_MINUTE else "warnings held back"] += 1

    def _far_ahead(self, table: int, chain: DecisionId, held: int) -> None:
        """A seq further past what the record holds than the journal can have written: a gap
        to ask for again, never a jump of the ledger (R920)."""
        self.tally["far ahead"] += 1
        self._warn(
            "event=hub_far_ahead table=%d journal=%s through=%d got=%d",
            table,
            chain.journal[:8],
            held,
            chain.seq,
        )
        self._note_gap(table, chain.journal)

    def _check_clock(self, table: int, decision: Decision) -> None:
        """A table whose clock is far from the hub's is a warning on its tile (R925): its
        results are recorded at the hub's time, but its journal's wall times are off."""
        try:
            decided = datetime.fromisoformat(decision.wall)
            if decided.tzinfo is None:
                raise ValueError("no offset")  # a table writes UTC with its offset
            offset = time.time() - decided.timestamp()
        except (ValueError, TypeError, OverflowError):
            offset = None  # its journal's times cannot be read either (R933)
        if offset is not None and abs(offset) <= CLOCK_TOLERANCE_SECONDS:
            self.refusals.clock_right(table, decision.journal)
            return
        if offset is None:
            what = (
                f"its decisions' time {_short_text(decision.wall)} cannot be read: expected an "
                "ISO 8601 time with its offset, like 2026-05-09T10:41:07.212+00:00"
            )
        else:
            when = "behind" if offset > 0 else "ahead of"
            what = f"its clock is {_duration(abs(offset))} {when} the hub's"
        if self.refusals.clock_of(table) is None:  # logged once, until it is right again
            self._warn(
                "event=hub_clock_off table=%d offset_s=%s",
                table,
                "unreadable" if offset is None else int(offset),
            )
        self.refusals.add(table, decision.journal, None, what, time.time(), kind=CLOCK)

    def _follows_on(self, table: int, chain: DecisionId, held: int) -> bool:
        """Whether a decision past what the record holds may be taken now: it names no
        decision before it that the record lacks. One that does waits for the table to send
        again from its confirmation; unless the table holds nothing before it (its confirmed
        past, of a record that has since lost it: taken, with a warning)."""
        if chain.prev is None or chain.prev <= held:
            return True
        if chain.first_held:
            self._warn(
                "event=hub_record_behind table=%d journal=%s record_through=%d first_held=%d",
                table,
                chain.journal[:8],
                held,
                chain.seq,
            )
            return True
        if chain.journal not in self._gaps.get(table, {}):
            log.info(
                "event=hub_gap table=%d journal=%s through=%d got=%d prev=%d",
                table,
                chain.journal[:8],
                held,
                chain.seq,
                chain.prev,
            )
        self.tally["gap"] += 1
        self._note_gap(table, chain.journal)
        return False

    def _note_gap(self, table: int, journal: str) -> None:
        """The journal's confirmation says "gap"; a table waits for at most
        ``MAX_GAPS_PER_TABLE`` at once, the oldest let go for the newest, so made-up journals
        cannot keep a table's own gap from being reported (R922)."""
        gaps = self._gaps.setdefault(table, {})
        gaps.pop(journal, None)
        gaps[journal] = None
        while len(gaps) > MAX_GAPS_PER_TABLE:
            del gaps[next(iter(gaps))]
            self.tally["gap over the limit"] += 1
        self._nudge(table)

    def _name_first(self, table: int, journal: str) -> None:
        """A journal the table sends again is named in its next confirmation whatever other
        journals its account made the hub hold since (R931): the newest ``MAX_GAPS_PER_TABLE``
        of them, as for gaps."""
        asked = self._asked.setdefault(table, {})
        asked.pop(journal, None)
        asked[journal] = None
        while len(asked) > MAX_GAPS_PER_TABLE:
            del asked[next(iter(asked))]

    def _make_room(self, table: int, journal: str) -> None:
        """A journal the hub holds nothing of, from a table already held for the most journals
        one table can have: the table's journal that moved longest ago is let go, so no account
        can grow the ledger without bound and none can lock its table's new journal out (R923).
        The director sees it in the queue."""
        if self.ledger.knows(table, journal) or self.ledger.journals_of(table) < (
            MAX_JOURNALS_PER_TABLE
        ):
            return
        oldest = self.ledger.oldest_journal(table)
        if oldest is None:
            return
        through = self.ledger.forget(table, oldest)
        self._gaps.get(table, {}).pop(oldest, None)
        self._passed.discard((table, oldest))  # bounded as the ledger's journals are
        self.tally["journal over the limit"] += 1
        self._warn(
            "event=hub_journal_let_go table=%d journal=%s through=%d limit=%d",
            table,
            oldest[:8],
            through,
            MAX_JOURNALS_PER_TABLE,
        )
        what = (
            f"more than {MAX_JOURNALS_PER_TABLE} journals came from this table's account: the "
            f"hub let go of journal {oldest[:8]} (held through entry {through}) to take a new one"
        )
        self.refusals.add(table, oldest, None, what, time.time(), kind=JOURNAL_LIMIT)
        self._flush_soon()

    def _apply(self, table: int, decision: Decision) -> str:
        """Apply a table's result to its event's record; what became of it (``duplicate``:
        applied before, to whichever event: R1122)."""
        route = self.router.for_result(table, decision)
        if route is None:  # a copy or another client's entry (_decision holds the table's own)
            raise IllegalAction(no_event_words(table))
        event = None
        if route.event is None:
            event = apply_result(route.record, table, decision, now=self.clock()).event
        elif self.router.holding(table, decision.journal, decision.seq) is None:
            event = self._apply_to_event(route.event, route.record, table, decision)
        self.tally["duplicate" if event is None else event.outcome] += 1
        where = f"table={table} journal={decision.journal[:8]} seq={decision.seq}{route.logged()}"
        if event is None:
            log.info("event=result_duplicate %s", where)
            return "duplicate"
        level = logging.WARNING if event.outcome in ("conflict", "refused") else logging.INFO
        outcome = event.outcome.replace(" ", "_")
        log.log(
            level, "event=result_%s %s round=%s note=%s", outcome, where, event.round, event.note
        )
        return event.outcome

    def _apply_to_event(
        self, slug: str, record: TournamentDB, table: int, decision: Decision
    ) -> TableEvent | None:
        """A result applied to a day's event, waiting at most ``EVENT_BUSY_WAIT`` for its
        record held by a director's command, then not trying that event again for
        ``BUSY_RETRY_SECONDS``: its results are retried as a busy record's are, and the other
        events' go on (R1171)."""
        now = time.monotonic()
        if now < self._locked_until.get(slug, 0.0):
            raise sqlite3.OperationalError(
                f"the record of the event {slug!r} is locked by another program: its results "
                "are held and tried again"
            )
        try:
            with record.waiting_at_most(EVENT_BUSY_WAIT):
                return apply_result(record, table, decision, now=self.clock()).event
        except sqlite3.OperationalError as error:
            if not isinstance(error, RecordGone):
                self._locked_until[slug] = time.monotonic() + BUSY_RETRY_SECONDS
            raise

    # --- confirmations: what the record holds, for each table -----------------------------

    def _flush_soon(self) -> None:
        """How far the journals are held, written within ``FLUSH_SECONDS`` for a burst."""
        if self._flush_due is None and self._loop is not None:
            self._flush_due = self._loop.call_later(FLUSH_SECONDS, self._flush)

    def _flush(self) -> None:
        self._flush_due = None
        try:
            moved = self.ledger.flush()
        except Exception as error:  # the record busy, or its disk: kept for the next try
            self._complain(f"event=record_busy error={error!r}")
            if self._loop is not None and not self._stop.is_set():
                self._flush_due = self._loop.call_later(BUSY_RETRY_SECONDS, self._flush)
            return
        for table in moved:
            self._confirm_soon(table)

    def _nudge(self, table: int) -> None:
        """Publish the table's confirmation again even if unchanged (a gap to report, or a copy
        that says the table missed it), at most once a ``NUDGE_SECONDS``."""
        now = time.monotonic()
        if now - self._nudged.get(table, -NUDGE_SECONDS) < NUDGE_SECONDS:
            return
        self._nudged[table] = now
        self._confirmed.pop(table, None)
        self._confirm_soon(table)

    def _confirm_soon(self, table: int) -> None:
        """One publish per table for a burst of decisions, on the loop's next turn."""
        self._unconfirmed.add(table)
        if len(self._unconfirmed) == 1 and self._loop is not None:
            self._loop.call_soon(self._publish_confirmations)

    def confirmation_of(self, table: int) -> tuple[Confirmation, ...]:
        """What the record durably holds of the table's journals, and their gaps: a journal
        whose very first decisions are missing is named too, held up to 0 (R711)."""
        durable = self.ledger.durable(table)
        named = {journal for journal, _ in durable}
        gaps = set(self._gaps.get(table, {}))
        unheld = [(journal, 0) for journal in sorted(gaps - named)]
        # the journals the table waits to hear of first (a gap, one sent again), newest first:
        # a confirmation names at most 32, and invented journals must not crowd them out (R931)
        urgent = [*reversed(self._gaps.get(table, {})), *reversed(self._asked.get(table, {}))]
        rank = {journal: place for place, journal in reversed(list(enumerate(urgent)))}
        first = sorted((held for held in durable if held[0] in rank), key=lambda h: rank[h[0]])
        rest = [held for held in durable if held[0] not in rank]
        return tuple(
            Confirmation(self.record_id, journal, through, journal in gaps)
            for journal, through in [*unheld, *first, *rest]
        )

    def _publish_confirmations(self) -> None:
        if not self.connected:
            return  # published again, all of them, on connecting
        for table in sorted(self._unconfirmed):
            confirmations = self.confirmation_of(table)
            if not confirmations:
                continue
            payload = confirmations_payload(self.record_id, confirmations)
            if self._confirmed.get(table) != payload:
                self._client.publish(applied_topic(table), payload, qos=1, retain=True)
                self._confirmed[table] = payload
        self._unconfirmed.clear()

    def _retained_confirmation(self, table: int, payload: bytes) -> None:
        """A confirmation the broker holds: this record's (an older hub's, before the ledger
        was kept in the record) tells how far its journals were held; another record's
        confirms nothing here and is withdrawn, or replaced by this record's."""
        if not payload:
            return
        try:
            confirmations = parse_confirmations(payload)
        except WireError:
            confirmations = ()
        ours = [c for c in confirmations if c.record == self.record_id]
        for confirmation in ours:
            if not self.ledger.knows(table, confirmation.journal):
                self.ledger.advance(table, confirmation.journal, confirmation.seq)
                self._flush_soon()
        if self.ledger.durable(table) or ours:
            if payload != self._confirmed.get(table):
                self._confirmed.pop(table, None)
                self._confirm_soon(table)
            return
        self._client.publish(applied_topic(table), b"", qos=1, retain=True)
        log.info("event=confirmation_withdrawn table=%d", table)

    def _status(self, table: int, payload: bytes) -> None:
        taken = self.board.take_status(table, payload, time.time())
        self._board(table, "status", taken)
        if not taken.changed:
            return  # neither online nor offline: nothing is known of the table
        online = payload == b"online"
        if self.online.get(table) != online:
            log.info("event=table_%s table=%d", "online" if online else "offline", table)
        self.online[table] = online

    def _board(self, table: int, topic: str, taken: Taken) -> None:
        if taken.complaint is not None:  # once per fault and table, until it sends a good one
            self._warn(f"event=hub_bad_{topic} table=%d error=%s", table, taken.complaint)
        if taken.notice is not None:  # two machines on one table number, once (R1003)
            log.warning("event=hub_two_machines table=%d problem=%s", table, taken.notice)
        if taken.changed:
            self.on_board()

    # --- a day: each table's event -----------------------------------------------------------

    def _follow_the_day(self) -> None:
        """The day read again (a table moved, an event added: R1124): each table's event
        published as it changes, and a table given an event no longer said to have none."""
        try:
            moved = self.router.refresh()
        except sqlite3.OperationalError as error:  # the day busy: read again at the next poll
            self._complain(f"event=day_busy error={error}")
            moved = set()
        for table in moved:
            if self.router.for_table(table) is not None:
                self.refusals.forget_error(table, no_event_words(table))
        self._publish_tables_events()

    def _tables_event_payloads(self) -> dict[str, bytes]:
        return {
            table_event_topic(table): event.to_bytes()
            for table, event in self.router.tables_events().items()
        }

    def _publish_tables_events(self) -> None:
        if not self.connected:
            return
        events = self.router.tables_events()
        payloads = {table_event_topic(t): event.to_bytes() for t, event in events.items()}
        for table, event in events.items():
            topic, payload = table_event_topic(table), payloads[table_event_topic(table)]
            if self._tables_published.get(topic) != payload:
                self._client.publish(topic, payload, qos=1, retain=True)
                self._tables_published[topic] = payload
                log.info("event=table_event_published table=%d for_event=%s", table, event.event)
        for topic, payload in list(self._tables_published.items()):
            if topic not in payloads and payload:
                self._client.publish(topic, b"", qos=1, retain=True)
                self._tables_published[topic] = b""
                log.info("event=table_event_withdrawn topic=%s", topic)

    def _retained_tables_event(self, topic: str, payload: bytes) -> None:
        """A table's event the broker holds: withdrawn if the day does not give it one (another
        day's, or a hub serving one record), put right if it differs (R1124)."""
        wanted = self._tables_event_payloads().get(topic, b"")
        if payload != wanted:
            self._client.publish(topic, wanted, qos=1, retain=True)
            log.info(
                "event=table_event_%s topic=%s", "withdrawn" if not wanted else "republished", topic
            )
            self._tables_published[topic] = wanted

    def _for_no_event(self, table: int, chain: DecisionId, decision: Decision | None) -> bool:
        """Whether a table's result is held back: in a day of several events, a table with no
        event has nowhere to put it (R1120). It is not taken, so the table keeps it and sends
        it again; once the director gives the table an event, it is applied there."""
        if decision is None or not bears_on_the_record(decision):
            return False
        if self.router.for_result(table, decision) is not None:
            return False
        self.tally["no event"] += 1
        said = HubRefusal(table, chain.journal, None, no_event_words(table), 0.0)
        if self.refusals.holds(said.key):  # sent again: said once, since it first came
            return True
        self._warn(
            "event=hub_no_event table=%d journal=%s seq=%d: assign it on the day page",
            table,
            chain.journal[:8],
            chain.seq,
        )
        self.refusals.add(table, chain.journal, None, no_event_words(table), time.time())
        return True

    def record_changed(self) -> None:
        """The director changed the record (a round paired): publish it now, not in a second."""
        self._publish_pairings()

    def _retained_pairings(self, topic: str, payload: bytes) -> None:
        """A round's pairings (or a Pentathlon round's seats) the broker holds: withdrawn if the
        record has no such round (a tournament before this one), put right if they differ from
        the record's."""
        wanted = self._round_payloads().get(topic, (b"", 0))[0]
        if payload != wanted:
            self._client.publish(topic, wanted, qos=1, retain=True)
            what = "withdrawn" if not wanted else "republished"
            log.info("event=pairings_%s topic=%s", what, topic)
            self._published[topic] = wanted

    def _publish_pairings(self) -> None:
        if not self.connected:
            return
        payloads = self._round_payloads()
        for topic, (payload, tables) in payloads.items():
            if self._published.get(topic) != payload:
                self._client.publish(topic, payload, qos=1, retain=True)
                self._published[topic] = payload
                log.info("event=pairings_published topic=%s tables=%d", topic, tables)
        # a round whose pairing was undone (R820): withdrawn, so each table drops its match
        for topic, payload in list(self._published.items()):
            if topic not in payloads and payload:
                self._client.publish(topic, b"", qos=1, retain=True)
                self._published[topic] = b""
                log.info("event=pairings_withdrawn topic=%s", topic)

    def _round_payloads(self) -> dict[str, tuple[bytes, int]]:
        """Every round's topic with what the record says of it, and its number of tables: in a
        day, every event's rounds under the event's name, the legacy topics left empty (R1124)."""
        payloads: dict[str, tuple[bytes, int]] = {}
        for event, record in self.router.records().items():
            rounds, seated = self._record_payloads(record)  # read again once it changed
            for number, payload in rounds.items():
                topic = (
                    pairings_topic(number) if event is None else event_pairings_topic(event, number)
                )
                payloads[topic] = payload
            for number, payload in seated.items():
                topic = (
                    pentathlon_seats_topic(number)
                    if event is None
                    else event_seats_topic(event, number)
                )
                payloads[topic] = payload
        return payloads

    def _read_payloads(self, record: TournamentDB) -> tuple[RoundPayloads, RoundPayloads]:
        """A record's rounds and Pentathlon rounds, each as published and its tables."""
        rounds = {n: (p.to_bytes(), len(p.matches)) for n, p in self._rounds(record).items()}
        seated = self._pentathlon_rounds(record).items()
        return rounds, {n: (seats.to_bytes(), len(seats.seats)) for n, seats in seated}

    def _pentathlon_rounds(self, tournament: TournamentDB) -> dict[int, PentathlonSeats]:
        """The Pentathlon event's rounds as seated: each table's game, players and division,
        with the event's name, for the tables' score cards (R795)."""
        record = PentathlonRecord(tournament)
        if not record.has_event():
            return {}
        event = record.event()
        divisions = {player.name: player.division for player in event.players}
        rounds: dict[int, list[PentathlonTableSeat]] = {}
        for seat in event.seats:
            rounds.setdefault(seat.round, []).append(
                PentathlonTableSeat(seat.table, seat.game.value, divisions[seat.a], seat.a, seat.b)
            )
        name = record.name()
        return {
            number: PentathlonSeats(number, name, tuple(seats)) for number, seats in rounds.items()
        }

    def _rounds(self, record: TournamentDB) -> dict[int, RoundPairings]:
        plans = record.round_plans()
        rounds = record.rounds()
        short = record.short_names() if rounds else {}  # for the OLED (R833)
        return {
            rnd.round: RoundPairings(
                rnd.round,
                str(plans[rnd.round]["kind"]),
                int(plans[rnd.round]["minutes"]),
                tuple(
                    TableMatch(m.table, m.a, m.b, short.get(m.a, ""), short.get(m.b, ""))
                    for m in rnd.matches
                ),
                rnd.bye,
            )
            for rnd in rounds
        }

    # --- on paho's thread -----------------------------------------------------------------

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.retain and table_of(message.topic, "events") is not None:
            # a table never keeps a decision on the broker: one left there (retained) would be
            # handed to every hub that starts (R714); acknowledged, and dropped
            self._to_loop(self._retained_decision, message.topic, message.mid, message.qos)
            return
        self._inbox.put(message.topic, bytes(message.payload), message.mid, message.qos)

    def _retained_decision(self, topic: str, mid: int, qos: int) -> None:
        self._complain(f"event=hub_retained_decision_ignored topic={topic}")
        if qos > 0:
            self._client.ack(mid, qos)
