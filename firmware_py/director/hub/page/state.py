"""What the director's page's handlers share (``DirectorPageState``): the record, the live
board, the staff's sessions, the open event streams.

Its own module so that the handlers (``app.py``, ``access.py``) and the page that serves them
(``server.DirectorPage``, which builds the app in ``start``) each import it, and neither the
other: the page imports the app, the app never the page (issue 27, no import circle).
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from firmware_py.director.hub.page.privacy import PublicNames
from firmware_py.director.hub.page.session_file import SessionFile, sessions_path
from firmware_py.director.hub.page.sessions import DirectorSessions
from firmware_py.director.hub.staff import StaffHolder, StaffRecord
from firmware_py.director.hub.wire.board import Board, EventBoard, LiveBoard
from firmware_py.director.hub.wire.refusals import HubRefusal, HubRefusals
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.director.record.venue import Venue
from firmware_py.table.web.guard import Share, SiteGuard, StreamShares

# Open pages at once: the director's, a deputy's, a projector, the public; from one address a
# laptop with a few tabs, never the whole of them (R188), and from one IPv6 /64 twice that (R768).
STREAM_SHARE = Share(per_address=8, per_network=16, total=64)
MAX_WATCHERS_PER_ADDRESS = STREAM_SHARE.per_address


@dataclass(slots=True)
class DirectorPageState:
    """What the page's handlers share: the record, the board, the staff's sessions."""

    sock: socket.socket
    record: TournamentDB
    board: LiveBoard
    now: Callable[[], str]  # the hub's clock: UTC, ISO 8601, for the record's entries
    tls: ssl.SSLContext | None = None
    after_change: Callable[[], None] = lambda: None  # the hub publishes new pairings at once
    clock: Callable[[], float] = time.monotonic  # for the login limit
    # the wall clock: the sessions' ends, kept over a restart (R813), and the problem queue's
    # "silent" and "since" (problems.py)
    wall: Callable[[], float] = time.time
    # the names the page is opened by, besides any IP address (R722): cli.served_names
    names: frozenset[str] = frozenset({"localhost"})
    # the decisions the hub could not apply (the hub's own list, shared): the problem queue's
    refusals: HubRefusals = field(default_factory=HubRefusals)
    seen_reports: set[str] = field(default_factory=set)  # refused results marked seen (R804)
    public_names: PublicNames = PublicNames.TEAMS  # what /public shows of people (R817)
    # On a day's page (issue 27, R1140-R1142): the event's address ("/events/combo4"; "" for
    # the one-record page), its short name, where the staff accounts live (the day record;
    # None: the record), the day's sessions (one login for every event), the event each
    # account is limited to (None: every event), and the day's name and time zone
    base: str = ""
    event: str | None = None
    event_name: str = ""  # the event's name as the day names it (R1116); "": one record's
    staff_holder: StaffHolder | None = None
    shared_sessions: DirectorSessions | None = None
    account_event: Callable[[str], str | None] = lambda _name: None
    day_venue: Venue | None = None
    # the tables playing for the event now (R1144); None: every table heard (one record)
    playing: Callable[[], AbstractSet[int]] | None = None
    sessions: DirectorSessions = field(init=False)
    guard: SiteGuard = field(init=False)  # every request's Host, every change's Origin
    streams: StreamShares = field(init=False)
    closed: bool = False
    notices: dict[str, str] = field(default_factory=dict)  # session key -> one-shot notice
    _watchers: set[asyncio.Event] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.sessions = self.shared_sessions or DirectorSessions(
            clock=self.clock, wall=self.wall, file=SessionFile(sessions_path(self.record.path))
        )
        self.guard = SiteGuard(
            self.names,
            self.scheme,
            own_page="the hub's own page",
            add_name="or start the hub with --page-name {name}",
        )
        self.streams = StreamShares(
            STREAM_SHARE,
            what="pages",
            advice="close one and reload",
            network_advice="reload later",
            server="the hub",
        )

    @property
    def grid(self) -> Board:
        """The tables this page shows: every table heard, or on a day's page its event's."""
        return self.board if self.playing is None else EventBoard(self.board, self.playing)

    def pending_refusals(self) -> list[HubRefusal]:
        """The decisions the hub could not apply, of this page's tables (R1144)."""
        pending = self.refusals.pending()
        if self.playing is None:
            return pending
        tables = self.playing()
        return [refusal for refusal in pending if refusal.table in tables]

    def staff(self) -> StaffRecord:
        """The staff accounts: the record's, or on a day's page the day's (R1141)."""
        return StaffRecord(self.staff_holder or self.record)

    def login_venue(self) -> Venue:
        """Whose login it is: the day's on a day's page, else the record's tournament."""
        return self.day_venue or self.record.venue()

    @property
    def event_title(self) -> str:
        """The event's name: the day's for it, else its record's, else its short name."""
        return self.event_name or self.record.venue().name or self.event or "this event"

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    @property
    def scheme(self) -> str:
        return "http" if self.tls is None else "https"

    def changed(self) -> None:
        """The board changed: wake every open event stream."""
        for watcher in self._watchers:
            watcher.set()

    def watch(self, address: str) -> asyncio.Event:
        """A new open page's wake-up, or Refused in words: the hub's share, or its client's."""
        watcher = asyncio.Event()
        self.streams.take(watcher, address)
        self._watchers.add(watcher)
        return watcher

    def unwatch(self, watcher: asyncio.Event) -> None:
        self._watchers.discard(watcher)
        self.streams.give_back(watcher)
