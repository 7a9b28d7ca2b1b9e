"""The table's web page as the daemon sees it (``TablePageState``): fed every view the table
shows, handing every entry to the table's own path. Its serving (``page.TablePage``: ``start``
builds the app) is in page.py, so that the app's handlers import this module and never the
page that imports them (issue 27, no import circle).

The daemon calls ``publish`` each time it shows a view: the page's snapshot follows (and every
open page is told at once, by server-sent events); ``on_oled`` puts the join code on the
OLED's footer for ``CODE_SHOWN`` seconds of every ``CODE_EVERY`` (the dealer's hint the rest
of the time), and a phone's request for a place, with its number, while one waits. An entry
from a phone goes to ``enter``, the daemon's, which takes it through the controller, the
journal and the rules core as it takes a button press. Who holds or asks for a place changes
outside the daemon's views (a phone asks, leaves): ``changed`` tells the open pages and wakes
the daemon, so the OLED shows a request at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from drivers.display import Screen
from firmware_py.table.controller import TableController, TableView
from firmware_py.table.family import CardFacts, family, play_date
from firmware_py.table.web.access import (
    CODE_EVERY,
    CODE_SHOWN,
    CONFIRM_BUTTON,
    DISMISS_BUTTON,
    Access,
    PlaceRequest,
    code_on_show,
)
from firmware_py.table.web.guard import Share, SiteGuard, StreamShares
from firmware_py.table.web.serving import (
    ConnectionLimits,
    RareLog,
)
from firmware_py.table.web.snapshot import snapshot

log = logging.getLogger("gametable")

# Pages following the table at once (spectators and players): a Pi serves a table, not a hall.
# One device follows with a few (a phone and a laptop's tabs), never the whole table's (R767);
# an IPv6 /64 may be the whole hall's Wi-Fi, so it has most of them, and a phone's own two or
# three privacy addresses (24 streams) never fill it; other networks keep the rest (R778).
STREAM_SHARE = Share(per_address=8, per_network=48, total=64)
# A COUNT that gave no place while phones wait says so in the footer this long (R942): the
# dealer presses again while the number shows, never on the next number by mistake.
NOTHING_GIVEN = f"{CONFIRM_BUTTON.upper()}: nothing given"
NOTICE_FOR = 2.0  # seconds
SEAT_COOKIE = "gametable_seat"  # and the table's port (``TablePage.cookie``)

Enter = Callable[[str, str, str], str | None]  # (seat, name, value) -> None, or why refused


@dataclass(slots=True)
class TablePageState:
    """What the page's handlers share: the table's snapshot, the places and their requests,
    the open event streams; fed by the daemon's views (``publish``) and its OLED (``on_oled``)."""

    sock: socket.socket
    clock: Callable[[], float] = time.monotonic  # the loop's clock (asyncio's default loop time)
    # The OLED is off ([oled] enabled = false): each new join code is logged instead (R492).
    code_in_log: bool = False
    # the names the page is opened by, besides any IP address (R769): [web] names and the
    # machine's own (guard.served_names)
    names: frozenset[str] = frozenset({"localhost"})
    monitor: str = ""  # the Game Monitor's name for the card ([pentathlon] monitor): "" blank
    access: Access = field(init=False)
    # The seat cookie's name: a browser sends a host's cookies to every port of it, so two
    # tables served from one host (two simulated tables on a laptop) shared one cookie, and
    # joining the second dropped the seat at the first. Named by its port, each table's is its
    # own (R942).
    cookie: str = field(init=False)
    guard: SiteGuard = field(init=False)  # every request's Host, every change's Origin
    streams: StreamShares = field(init=False)
    state: dict[str, Any] = field(default_factory=dict)
    enter: Enter | None = None
    wake: Callable[[], None] = lambda: None  # the daemon's loop: redraw the OLED now
    _table: dict[str, Any] = field(default_factory=dict)  # the table's part of ``state``
    _text: str = ""
    card: str | None = None  # the finished session's printable card (HTML), if its family has one
    closed: bool = False  # stopped: every event stream ends
    _watchers: set[asyncio.Event] = field(default_factory=set)
    # open connections per address and /64, the deadlines for headers (serving.py)
    limits: ConnectionLimits = field(default_factory=ConnectionLimits)
    _console_presses: dict[str, int] = field(default_factory=dict)  # counts at the last view
    _notice_until: float = -1.0  # the footer says NOTHING_GIVEN until then (R942)
    # A stream refused past its share is one INFO line a minute: one per refusal was a line
    # per request from anyone, at the table's default level (R946)
    stream_refusals: RareLog = field(
        default_factory=lambda: RareLog("web_stream_refused", logging.INFO)
    )

    def __post_init__(self) -> None:
        self.access = Access(clock=self.clock)
        self.cookie = f"{SEAT_COOKIE}_{self.port}"
        self.guard = SiteGuard(
            self.names,
            "http",
            own_page="the table's own page",
            add_name="or add it to [web] names in the table's config",
        )
        # said to a player: plain words, never "this address" or "its /64" (R942)
        self.streams = StreamShares(STREAM_SHARE, address="this phone", network="this Wi-Fi")

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    @property
    def seats(self) -> tuple[str, ...]:
        """The players' seats a phone may take with the join code."""
        return tuple(place["seat"] for place in self.state.get("seats", ()))

    @property
    def officials(self) -> tuple[str, ...]:
        """The officials' places (the Game Monitor): asked for, confirmed at the console."""
        return tuple(place["seat"] for place in self.state.get("officials", ()))

    # --- on the daemon's loop ----------------------------------------------------------------

    def publish(
        self,
        controller: TableController,
        view: TableView,
        *,
        saved: bool,
        decided_at: str | None = None,
    ) -> None:
        """The view the table shows now; with ``saved`` False (the journal is failing) the
        page keeps the last saved state and says so. ``decided_at``: the journal's wall time
        of the session's latest decision (``RecordedTable.decided_at``), the card's date of
        play (R819). A press of the confirming button that meant nothing on the step since the
        last view confirms the request on show (R494)."""
        self._follow_console(controller)
        if saved:
            code = self.access.code
            self.access.follow(len(controller.finished) + 1)
            if self.code_in_log and self.access.code != code:
                # WARNING, so that it is in the log at every level but ERROR: the table's
                # only way to show it (the scoreboard is the hall's, the code a seat's key)
                log.warning(
                    "event=web_join_code code=%s match=%d (the OLED is off: the code is "
                    "shown only here)",
                    self.access.code,
                    self.access.match,
                )
            facts = CardFacts(controller.decided_under, play_date(decided_at), self.monitor)
            self.card = _card(controller, facts)
            self._table = {**snapshot(controller, view, saved=True), "card": self.card is not None}
        elif self._table:
            self._table = {**self._table, "saved": False}
        self._update()
        _ = self._footer(self.clock())  # the OLED is drawn with this view (on_oled)

    def changed(self) -> None:
        """Who holds or asks for a place changed (a phone asked, left): every open page is told
        (a phone that lost its place asks the table why) and the OLED is redrawn."""
        self._update()
        self.wake()

    def _update(self) -> None:
        if not self._table:
            return
        access = self.access
        state = {
            **self._table,
            "access": access.version,  # a phone refreshes what it holds when this changes
            "phones": list(access.places_held),  # the places a phone holds
            "asking": sorted({request.place for request in access.requests}),
        }
        text = json.dumps(state, separators=(",", ":"))
        if text != self._text:
            self.state, self._text = state, text
            for watcher in self._watchers:
                watcher.set()

    def _follow_console(self, controller: TableController) -> None:
        """The console's presses that meant nothing on the step on show, counted by the
        controller, each with its own time: COUNT confirms, NO turns down, the request the
        OLED had shown for a second when it was pressed (R496, R798, R799). The first view
        only learns the counts (a replayed press does nothing)."""
        presses: list[tuple[float, str]] = []
        for button in (CONFIRM_BUTTON, DISMISS_BUTTON):
            count = controller.idle_presses[button]
            seen = self._console_presses.get(button)
            self._console_presses[button] = count
            if seen is None or count <= seen:
                continue
            times = list(controller.idle_press_times.get(button, ()))[-(count - seen) :]
            # controller time to this clock: at a view the controller has been advanced to now
            presses += [(ticks - controller.now + self.clock(), button) for ticks in times]
        for pressed, button in sorted(presses):
            if button == CONFIRM_BUTTON:
                waiting = bool(self.access.requests)
                session = self.access.confirm(pressed)
                if session is not None:
                    log.info("event=web_place_confirmed place=%s", session.seat)
                elif waiting:  # too soon for the number on show: the dealer is told (R942)
                    self._notice_until = max(self._notice_until, pressed + NOTICE_FOR)
                    self.access.cover(pressed)  # the number is hidden from the press (R943)
            else:
                dismissed = self.access.dismiss(pressed)
                if dismissed is not None:
                    log.info("event=web_request_dismissed place=%s", dismissed.place)

    def on_oled(self, screen: Screen, now: float) -> Screen:
        """The OLED's screen with the join code in the footer for the last ``CODE_SHOWN``
        seconds of every ``CODE_EVERY``, requests waiting or not (R797); the rest of the time,
        the request whose turn it is (its place, its number and the button), or the hint."""
        request = self._footer(now)
        if now < self._notice_until:
            return replace(screen, footer=NOTHING_GIVEN)
        if request is not None:
            return replace(screen, footer=self._request_footer(request.place, request.number))
        if not self.access.code or not code_on_show(now):
            return screen
        return replace(screen, footer=f"JOIN {self.access.code}")

    def _footer(self, now: float) -> PlaceRequest | None:
        """The request the OLED's footer shows at ``now``: none while it says NOTHING_GIVEN. A
        press then, meant for the number the dealer had read, gave the next number, which had
        appeared half a second before the notice hid it, its hidden seconds counted as on show
        (R943)."""
        return self.access.footer(now, covered=now < self._notice_until)

    def _request_footer(self, place: str, number: str) -> str:
        button = CONFIRM_BUTTON.upper()
        if self.access.held(place):  # its phone will be signed out: said before the press
            return f"{button}:replace {self._short_place(place)} {number}"
        if place in self.officials:
            return f"{button}: {place} {number}"
        return f"{button}: seat {place} {number}"

    def _short_place(self, place: str) -> str:
        """A place as a takeover's footer names it: a seat's letter, an official's initials
        (``GM``: "COUNT:replace monitor 4821" is past the OLED's 21 characters, R942)."""
        if place not in self.officials:
            return place
        name = next(o["name"] for o in self.state.get("officials", ()) if o["seat"] == place)
        return "".join(word[0] for word in name.split()).upper()

    def next_oled_change(self, now: float) -> float:
        """When the footer next changes: the switch between the join code and the rest (where
        the next request takes its turn), or a request running out."""
        start = now - now % CODE_EVERY
        switch = start + CODE_EVERY - CODE_SHOWN
        change = switch if now < switch else start + CODE_EVERY
        if now < self._notice_until:
            change = min(change, self._notice_until)
        ends = self.access.next_change()
        return change if ends is None else min(change, max(now, ends))

    # --- for the app -----------------------------------------------------------------------

    @property
    def text(self) -> str:
        """The snapshot as sent: JSON, compact."""
        return self._text

    def watch(self, address: str) -> asyncio.Event:
        """An event set at each change, for one page's stream from ``address``; Refused (in
        words) past that client's share or the table's (R767)."""
        watcher = asyncio.Event()
        self.streams.take(watcher, address)
        self._watchers.add(watcher)
        return watcher

    def unwatch(self, watcher: asyncio.Event) -> None:
        self._watchers.discard(watcher)
        self.streams.give_back(watcher)


def _card(controller: TableController, facts: CardFacts) -> str | None:
    """The session's printable card, when its family prints one and it is ready (R263)."""
    make = family(controller.settings.family).card
    if make is None:
        return None
    return make(controller.game.summary(controller.session), facts)
