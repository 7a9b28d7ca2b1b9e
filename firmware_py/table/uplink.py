"""The table's link to the tournament hub (docs/hub.md): its decisions out of the journal's
outbox, its status and what it shows to the broker, and the rounds' pairings back.

paho-mqtt runs its network loop on a thread of its own (connecting, reconnecting with backoff,
reading and writing the socket); each of its callbacks is handed to the daemon's asyncio loop
with ``call_soon_threadsafe``, as the GPIO edges are. So the journal is touched only from the
loop, nothing on the loop waits for the network, and the table plays on with the broker gone.

Delivery is at least once, end to end, with no gaps (R710-R713): a decision is handed to paho
(QoS 1) in journal order, naming the decision sent before it, at most ``WINDOW`` unacknowledged
by the broker at a time, and leaves the journal only when the hub confirms
(``tournament/applied/<n>``, retained) that its record holds every decision of that journal up
to it (``delivery``). The broker's acknowledgement only frees a place in the window: a broker
that loses what it took (its persistence file gone, a kill between saves) loses nothing the
table still holds. What is unconfirmed is sent again from the last confirmation when the link
reconnects, when the hub comes online, when the hub reports a gap, and while the hub is online
but confirms nothing (a timer from ``resend_seconds``, doubling to ``MAX_RESEND_FACTOR`` times
it). The hub applies each (table, journal id) once, so a decision that arrives twice counts once.

A hub serving a day of several events (R1116) publishes each event's rounds under the event's
short name and, for each table, the event it plays for: the table keeps every event's rounds
(bounded) and shows its own event's latest round, and says in its state which event it follows
(R1131); with no event named it shows the rounds of a hub serving one record, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from firmware_py.table.controller import TableController, TableView, format_clock
from firmware_py.table.delivery import Deliveries
from firmware_py.table.family import PairedMatch
from firmware_py.table.hub_wire import (
    EVERY_EVENTS_PENTATHLON_SEATS,
    EVERY_EVENTS_ROUNDS_PAIRINGS,
    EVERY_PENTATHLON_ROUNDS_SEATS,
    EVERY_ROUNDS_PAIRINGS,
    HUB_STATUS,
    MAX_EVENTS,
    OFFLINE,
    ONLINE,
    Confirmation,
    Decision,
    Machine,
    NextMatch,
    PentathlonSeats,
    RoundPairings,
    TablesEvent,
    WireError,
    applied_topic,
    event_round_of,
    event_seats_round_of,
    events_topic,
    next_match,
    next_seat,
    paired_match,
    parse_confirmations,
    parse_hub_status,
    parse_pairings,
    parse_pentathlon_seats,
    parse_tables_event,
    pentathlon_round_of,
    round_of,
    rounds_followed,
    seated_match,
    state_topic,
    status_topic,
    table_event_topic,
)
from firmware_py.table.journal import Journal, JournalError
from firmware_py.table.machine import this_machine
from firmware_py.table.mqtt_bridge import PahoOnLoop
from firmware_py.user_files import MAX_PASSWORD_FILE, UserFileError, read_limited_text
from rules.actions import encode

log = logging.getLogger("gametable")

WINDOW = 20  # decisions handed to paho and not yet acknowledged by the broker
RECONNECT_SECONDS = (1, 10)  # paho's backoff between attempts: the first and the longest
# The broker publishes the last will of a table it has not heard from in 1.5 keepalives.
KEEPALIVE_SECONDS = 10
STOP_SECONDS = 2.0  # at shutdown: time for the "offline" status to be acknowledged
# The hub online and no confirmation for this long: what it has not confirmed is sent again
# (the broker may have lost the last decision: nothing after it shows the hub a gap). The wait
# doubles while nothing is confirmed, up to MAX_RESEND_FACTOR times it: a hub catching up on a
# hall's queue is not flooded with copies (it drops each by its index alone).
RESEND_SECONDS = 10.0
MAX_RESEND_FACTOR = 6


# An event's round as the table keeps it: a round's pairings, or a Pentathlon round's seats.
EventRound = TypeVar("EventRound", RoundPairings, PentathlonSeats)


class PasswordFileError(ValueError):
    """A password file that cannot be used; ``str()`` is one line naming it."""


def read_password(path: Path) -> str:
    """The broker password kept in ``path``: its first line, without the line break."""
    try:
        text = read_limited_text(path, MAX_PASSWORD_FILE, "a password on one line")
    except UserFileError as error:
        raise PasswordFileError(str(error)) from None
    password = text.split("\n", 1)[0].removesuffix("\r")
    if not password:
        raise PasswordFileError(f"{path} is empty: expected the broker password on its first line")
    return password


@dataclass(frozen=True, slots=True)
class Broker:
    """Where the hub's broker is, and who this table is on it."""

    host: str
    port: int
    table: int
    password: str
    ca_file: str | None = None


class HubLink(PahoOnLoop):
    """One table's MQTT client. ``start`` on the daemon's loop; ``pump`` after every commit
    (it sends what the outbox holds); ``show`` with each view; ``stop`` at the end."""

    broker: Broker

    def __init__(
        self,
        broker: Broker,
        *,
        journal: Journal | None,
        on_pairings: Callable[[], None] = lambda: None,
        resend_seconds: float = RESEND_SECONDS,
        seated: bool = False,
        machine: Machine | None = None,
    ) -> None:
        self.broker = broker
        # sent with every state: the hub sees two machines on one table number (R1003)
        self.machine = this_machine() if machine is None else machine
        # the table's family takes the Pentathlon event's seats, not a round's pairings (R795)
        self.seated = seated
        self.seats: dict[int, PentathlonSeats] = {}
        self.journal = journal
        self.on_pairings = on_pairings  # the daemon redraws: the next pairing may have changed
        self.resend_seconds = resend_seconds
        self.connected = False
        self.rounds: dict[int, RoundPairings] = {}
        # A hub serving a day of several events (R1116): each event's rounds, kept for every
        # event (a table moved to another finds its rounds here), and the event this table
        # plays for (None: no event message, so the rounds above, of a hub serving one record)
        self.event: TablesEvent | None = None
        self.event_rounds: dict[str, dict[int, RoundPairings]] = {}
        self.event_seats: dict[str, dict[int, PentathlonSeats]] = {}
        # some event's rounds were dropped at the bound: the table's own, if named later, are
        # asked for again (R1154)
        self._events_dropped = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._in_flight: dict[int, int] = {}  # paho's message id -> journal seq
        self._deliveries: Deliveries | None = None  # read when the link starts
        self._confirmations: tuple[Confirmation, ...] = ()  # the latest the hub published for us
        self._hub_record: str | None = None  # the record the hub online now applies to
        self._hub_online = False
        self._resend_timer: asyncio.TimerHandle | None = None
        self._resend_wait = resend_seconds
        self._outbox_broken = False
        self._state: dict[str, Any] | None = None  # what the table shows now
        self._published_state: dict[str, Any] | None = None
        self._complaint: str | None = None  # the last problem logged, to log each one once
        self.unsent_confirmed = False  # the hub confirms decisions never sent (R927)
        self._client = self._make_client()

    def _make_client(self) -> mqtt.Client:
        broker = self.broker
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=str(broker.table),  # its account's name: the broker imposes it (R720)
            protocol=MQTTProtocolVersion.MQTTv5,  # v5: a refused publish is a refusal, not an ack
        )
        client.username_pw_set(str(broker.table), broker.password)
        client.will_set(status_topic(broker.table), OFFLINE, qos=1, retain=True)
        if broker.ca_file is not None:
            client.tls_set(ca_certs=broker.ca_file)
        client.reconnect_delay_set(*RECONNECT_SECONDS)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    # --- on the loop ----------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (paho's thread keeps trying until the broker answers)."""
        self._loop = asyncio.get_running_loop()
        waiting = 0
        if self.journal is not None:
            try:
                self._ready_deliveries()
                waiting = self.journal.undelivered()
            except JournalError as error:
                self._outbox_broken = True  # the table plays on; the hub misses its decisions
                log.error("event=hub_outbox_error error=%s", error)
                self.on_pairings()  # the daemon redraws: the OLED's alert row says it (R905)
        log.info(
            "event=hub_start broker=%s:%d table=%d outbox=%d",
            self.broker.host,
            self.broker.port,
            self.broker.table,
            waiting,
        )
        self._client.connect_async(
            self.broker.host, self.broker.port, keepalive=KEEPALIVE_SECONDS, clean_start=True
        )
        self._client.loop_start()

    @property
    def outbox_damaged(self) -> bool:
        """Whether sending stopped at a damaged outbox row (R905): the dealer must see it."""
        return self._outbox_broken

    def _ready_deliveries(self) -> Deliveries | None:
        """The journal's deliveries, read the first time they are needed (the journal is
        handed to the link once it is open)."""
        if self._deliveries is None and self.journal is not None:
            self._deliveries = Deliveries(self.journal)
        return self._deliveries

    def pump(self) -> None:
        """Hand the journal's next decisions to paho, keeping at most ``WINDOW`` unacknowledged."""
        if not self.connected or self._outbox_broken:
            return
        while len(self._in_flight) < WINDOW:
            try:
                deliveries = self._ready_deliveries()
                if deliveries is None:
                    return
                batch = deliveries.next_batch(WINDOW - len(self._in_flight))
            except JournalError as error:
                self._outbox_broken = True  # the table plays on; the hub misses what follows
                log.error("event=hub_outbox_error error=%s", error)
                self.on_pairings()  # the daemon redraws: the OLED's alert row says it (R905)
                return
            if not batch:
                return
            for item in batch:
                message = Decision(
                    item.journal,
                    item.seq,
                    item.wall,
                    item.session,
                    item.event,
                    item.prev,
                    item.first_held,
                )
                sent = self._client.publish(
                    events_topic(self.broker.table), message.to_bytes(), qos=1
                )
                if sent.rc not in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_NO_CONN):
                    self._complain(f"event=hub_publish_error error={mqtt.error_string(sent.rc)}")
                    deliveries.rewind([item.journal])  # from the confirmation, next time
                    return
                self._in_flight[sent.mid] = item.seq
            self._arm_resend()

    def show(self, state: dict[str, Any]) -> None:
        """What the table shows now: published (retained) when it changes, and again on every
        connection."""
        self._state = {**state, "machine": self.machine.to_json()}
        self._publish_state()

    def next_pairing(self) -> NextMatch | None:
        if self.seated:
            return next_seat(self._seats_followed(), self.broker.table)
        return next_match(self._rounds_followed(), self.broker.table)

    def paired_match(self) -> PairedMatch | None:
        """This table's match in the latest round the hub paired (R190), or its seat in the
        latest Pentathlon round (R795), if it has one: in its event's rounds when the hub
        names its event (R1131)."""
        if self.seated:
            return seated_match(self._seats_followed(), self.broker.table)
        paired = paired_match(self._rounds_followed(), self.broker.table)
        if paired is None or self.event is None:
            return paired
        return replace(paired, follows=self.event.event)  # a move between events (R1175)

    def _rounds_followed(self) -> Mapping[int, RoundPairings]:
        return rounds_followed(self.event, self.rounds, self.event_rounds)

    def _seats_followed(self) -> Mapping[int, PentathlonSeats]:
        return rounds_followed(self.event, self.seats, self.event_seats)

    def all_sent(self) -> bool:
        """Whether the broker has acknowledged every decision the journal holds (the hub may
        not have confirmed them yet)."""
        if self._deliveries is None or not self.connected or self._in_flight:
            return False
        return self._deliveries.all_sent()

    async def stop(self) -> None:
        """Say "offline" (a clean stop: the broker keeps the will to itself) and end paho's
        thread. What the hub has not confirmed stays in the outbox for the next start."""
        if self._resend_timer is not None:
            self._resend_timer.cancel()
            self._resend_timer = None
        if self.connected:
            self.connected = False  # nothing more is handed to paho; its goodbye is no outage
            said = self._client.publish(
                status_topic(self.broker.table), OFFLINE, qos=1, retain=True
            )
            with contextlib.suppress(ValueError, RuntimeError):
                await asyncio.to_thread(said.wait_for_publish, STOP_SECONDS)
        self._client.disconnect()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.to_thread(self._client.loop_stop), STOP_SECONDS)

    def _connected(self, reason: ReasonCode) -> None:
        if reason.is_failure:
            self._complain(f"event=hub_refused reason={reason}")  # paho tries again
            return
        self.connected = True
        self._complaint = None
        log.info("event=hub_connected broker=%s:%d", self.broker.host, self.broker.port)
        self._client.subscribe(
            [
                (EVERY_PENTATHLON_ROUNDS_SEATS if self.seated else EVERY_ROUNDS_PAIRINGS, 1),
                (EVERY_EVENTS_PENTATHLON_SEATS if self.seated else EVERY_EVENTS_ROUNDS_PAIRINGS, 1),
                (table_event_topic(self.broker.table), 1),
                (applied_topic(self.broker.table), 1),
                (HUB_STATUS, 1),
            ]
        )
        self._client.publish(status_topic(self.broker.table), ONLINE, qos=1, retain=True)
        self._published_state = None
        self._publish_state()
        self._send_unconfirmed_again()

    def _disconnected(self, reason: str) -> None:
        if self.connected:
            log.warning("event=hub_disconnected reason=%s", reason)
        self.connected = False

    def _acknowledged_by_broker(self, mid: int, reason: ReasonCode) -> None:
        seq = self._in_flight.pop(mid, None)
        if seq is None:
            return  # the status, the state, or a decision handed over before a resend began
        if reason.is_failure:
            # kept in the outbox: sent again with the next resend, once the broker's ACL is right
            log.error("event=hub_refused_decision seq=%d reason=%s", seq, reason)
        self.pump()

    # --- the hub's confirmations: what leaves the outbox ----------------------------------

    def _send_unconfirmed_again(self) -> None:
        """Everything the hub has not confirmed, again, in journal order (the hub applies each
        decision once: a second copy changes nothing)."""
        if self._deliveries is None:
            return
        self._in_flight.clear()  # paho's answers to what was handed over before are ignored
        self._deliveries.rewind()
        self.pump()

    def _arm_resend(self) -> None:
        if self._resend_timer is None and self._loop is not None and self._deliveries:
            deadline = self._loop.time() + self._resend_wait
            self._resend_timer = self._loop.call_at(
                deadline, self._resend_if_unconfirmed, self._deliveries.progress()
            )

    def _resend_if_unconfirmed(self, progress_when_armed: int) -> None:
        """A deadline after sending: if the hub is online and has confirmed nothing since,
        what it lacks is sent again, and the next wait is twice as long (at most
        ``MAX_RESEND_FACTOR`` times the first)."""
        self._resend_timer = None
        deliveries = self._deliveries
        if deliveries is None or not deliveries.outstanding():
            self._resend_wait = self.resend_seconds
            return  # everything sent is confirmed: the next send arms the deadline again
        stalled = deliveries.progress() == progress_when_armed
        if not stalled:
            self._resend_wait = self.resend_seconds
        elif self.connected and self._hub_online:
            log.info("event=hub_resend reason=no confirmation for %gs", self._resend_wait)
            self._resend_wait = min(self._resend_wait * 2, self.resend_seconds * MAX_RESEND_FACTOR)
            self._send_unconfirmed_again()
        self._arm_resend()

    def _hub_status(self, payload: bytes) -> None:
        try:
            status = parse_hub_status(payload)
        except WireError as error:
            log.warning("event=hub_bad_status error=%s", error)
            return
        came_online = status.online and not self._hub_online
        self._hub_online, self._hub_record = status.online, status.record
        self._take_confirmed()
        if came_online and self.connected:
            self._resend_wait = self.resend_seconds
            self._send_unconfirmed_again()  # the broker may have lost what the hub missed

    def _confirmed_by_hub(self, payload: bytes) -> None:
        if not payload:
            self._confirmations = ()  # withdrawn by the hub (another record's)
            return
        try:
            self._confirmations = parse_confirmations(payload)
        except WireError as error:
            log.warning("event=hub_bad_confirmation error=%s", error)
            return
        self._take_confirmed()

    def _take_confirmed(self) -> None:
        """Take out of the journal what the hub's record holds: a confirmation counts only
        from the record of the hub as it now says it is. A gap it reports is sent again."""
        deliveries = self._deliveries
        if deliveries is None or self._loop is None or self._hub_record is None:
            return
        mine = [c for c in self._confirmations if c.record == self._hub_record]
        try:
            taken = deliveries.take(mine, now=self._loop.time())
        except JournalError as error:  # kept: the next confirmation tries again
            self._complain(f"event=hub_outbox_error error={error}")
            return
        self._say_unsent(taken.unsent)
        if taken.progressed:
            self._resend_wait = self.resend_seconds
        if taken.gaps:
            log.info("event=hub_gap_resend journals=%s", ",".join(j[:8] for j in taken.gaps))
        if (taken.progressed or taken.gaps) and self.connected:
            self.pump()  # the next journal's turn, or the gap's decisions again

    def _say_unsent(self, unsent: tuple[tuple[str, int], ...]) -> None:
        """A confirmation of decisions this table never sent (R927): another client on its
        account moved the hub's ledger. Logged once for each claim, and on the OLED's alert
        row while the hub's confirmation still claims it; the outbox keeps them."""
        if self.unsent_confirmed != bool(unsent):
            self.unsent_confirmed = bool(unsent)
            self.on_pairings()  # the daemon redraws: the OLED's alert row says it
        for journal, through in unsent:
            self._complain(
                f"event=hub_confirmed_unsent journal={journal[:8]} confirmed={through}: "
                "the hub confirms decisions this table never sent; they stay in its outbox "
                "(is the table's password known to someone else?)"
            )

    def _pairings(self, topic: str, payload: bytes) -> None:
        number = round_of(topic)
        if number is None:
            self._seats(topic, payload)
            return
        if not payload:
            self.rounds.pop(number, None)  # the hub withdrew it (a new tournament)
        else:
            try:
                pairings = parse_pairings(payload)
            except WireError as error:
                log.warning("event=hub_bad_pairings topic=%s error=%s", topic, error)
                return
            self.rounds[number] = replace(pairings, round=number)
        self.on_pairings()

    def _seats(self, topic: str, payload: bytes) -> None:
        number = pentathlon_round_of(topic)
        if number is None:
            self._event_round(topic, payload)
            return
        if not payload:
            self.seats.pop(number, None)  # the hub withdrew it (another event)
        else:
            try:
                seats = parse_pentathlon_seats(payload)
            except WireError as error:
                log.warning("event=hub_bad_seats topic=%s error=%s", topic, error)
                return
            self.seats[number] = replace(seats, round=number)
        self.on_pairings()

    def _event_round(self, topic: str, payload: bytes) -> None:
        """A round of one event of the day: kept under its event (R1131)."""
        pairings = event_round_of(topic)
        if pairings is not None:
            self._keep_event_round(self.event_rounds, topic, pairings, payload, parse_pairings)
            return
        seats = event_seats_round_of(topic)
        if seats is not None:
            self._keep_event_round(self.event_seats, topic, seats, payload, parse_pentathlon_seats)

    def _keep_event_round(
        self,
        kept: dict[str, dict[int, EventRound]],
        topic: str,
        where: tuple[str, int],
        payload: bytes,
        parse: Callable[[bytes], EventRound],
    ) -> None:
        """One event's round kept, or withdrawn (an empty message), bounded to MAX_EVENTS
        events of MAX_ROUND rounds each; a bad one is logged and dropped."""
        slug, number = where
        if not payload:
            rounds = kept.get(slug, {})
            rounds.pop(number, None)  # the hub withdrew it
            if not rounds:
                kept.pop(slug, None)
            self.on_pairings()
            return
        try:
            parsed = replace(parse(payload), round=number)
        except WireError as error:
            log.warning("event=hub_bad_pairings topic=%s error=%s", topic, error)
            return
        if slug not in kept and not self._room_for_event(kept, slug):
            self._events_dropped = True
            self._complain(
                f"event=hub_too_many_events topic={topic}: a table keeps the rounds of "
                f"{MAX_EVENTS} events; this one's are dropped"
            )
            return
        kept.setdefault(slug, {})[number] = parsed
        self.on_pairings()

    def _room_for_event(self, kept: dict[str, dict[int, EventRound]], slug: str) -> bool:
        """Whether another event's rounds may be kept: under the bound, or this table's own
        event, for which another event's rounds (one this table does not follow) give way."""
        if len(kept) < MAX_EVENTS:
            return True
        if self.event is None or self.event.event != slug:
            return False
        kept.pop(next(other for other in kept if other != slug))
        return True

    def _tables_event(self, payload: bytes) -> None:
        """The event the hub says this table plays for (R1131): an empty message, none."""
        if not payload:
            followed = None
        else:
            try:
                followed = parse_tables_event(payload)
            except WireError as error:
                log.warning("event=hub_bad_event error=%s", error)
                return
        if followed != self.event:
            log.info("event=hub_event event=%s", "none" if followed is None else followed.event)
            self.event = followed
            self._ask_again_for_dropped_rounds()
            self._publish_state()  # the hub's board shows the event the table follows
            self.on_pairings()

    def _ask_again_for_dropped_rounds(self) -> None:
        """The table's event named after its rounds were dropped at the bound (more events'
        retained rounds than a day holds, a past day's left on the broker, heard before this
        message): subscribing again has the broker send every retained round again, and the
        table's own event's now take another event's room (R1154)."""
        kept = self.event_seats if self.seated else self.event_rounds
        if self.event is None or self.event.event in kept or not self._events_dropped:
            return
        if not self.connected:
            return  # the subscription made on connecting brings them
        self._events_dropped = False
        log.info("event=hub_event_rounds_asked_again event=%s", self.event.event)
        every = EVERY_EVENTS_PENTATHLON_SEATS if self.seated else EVERY_EVENTS_ROUNDS_PAIRINGS
        self._client.subscribe(every, 1)

    def _publish_state(self) -> None:
        state = self._state
        if state is not None and self.event is not None:
            # added beside what the table shows (R1131): a hub before it reads past it
            state = {**state, "event": self.event.event}
        if not self.connected or state is None or state == self._published_state:
            return
        payload = _json(state)
        self._client.publish(state_topic(self.broker.table), payload, qos=0, retain=True)
        self._published_state = state

    # --- on paho's thread: hand everything to the loop ------------------------------------

    def _on_publish(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        self._to_loop(self._acknowledged_by_broker, mid, reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        payload = bytes(message.payload)
        if message.topic == HUB_STATUS:
            self._to_loop(self._hub_status, payload)
        elif message.topic == applied_topic(self.broker.table):
            self._to_loop(self._confirmed_by_hub, payload)
        elif message.topic == table_event_topic(self.broker.table):
            self._to_loop(self._tables_event, payload)
        else:
            self._to_loop(self._pairings, message.topic, payload)


def _json(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), allow_nan=False).encode()


def table_state(
    table: int, controller: TableController, view: TableView, *, saved: bool
) -> dict[str, Any]:
    """What the table shows, for ``tables/<n>/state``: the screen, the scores, the clock as
    shown, the lights, and what is played (the session's start: a match's round)."""
    screen = view.screen
    clock = view.scoreboard.clock
    return {
        "table": table,
        "family": controller.settings.family,
        "session": encode(controller.log[0]),
        "game": controller.game.title(controller.session),
        "in_game": controller.game.in_play(controller.session),
        "screen": {
            "title": screen.title,
            "subtitle": screen.subtitle,
            "big": screen.big,
            "lines": list(screen.lines),
            "footer": screen.footer,
            "alert": screen.alert,
        },
        "scores": dict(view.scoreboard.scores),
        "clock": None if clock is None else format_clock(clock),
        "lights": {seat: str(light) for seat, light in view.lights.items()},
        "saved": saved,
    }


def with_next_pairing(
    view: TableView, controller: TableController, shown: NextMatch | None
) -> TableView:
    """The next match on the title row and the row under it (R833) while no game is played
    and no clock runs (before a match starts, after it ends); never over an alert."""
    game, session = controller.game, controller.session
    clock_running = controller.clock_deadline is not None and game.clock_runs(session)
    if shown is None or view.screen.alert is not None or game.in_play(session) or clock_running:
        return view
    return replace(view, screen=replace(view.screen, title=shown.title, subtitle=shown.teams))
