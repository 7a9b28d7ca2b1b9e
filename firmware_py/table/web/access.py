"""Who may enter what on the table's web page: the join code, the requests the dealer confirms,
the places' sessions, the limits.

A join code (shown on the OLED) is drawn with ``secrets`` for each match and rotated when the
next one starts. The players read it off the OLED, and so can anyone standing at the table, so
the code only *asks* for a place (a seat, or an official's such as the Pentathlon's Game
Monitor): the phone is shown a confirmation number, the OLED shows the same number with the
console button that confirms it, and only a press of that button at the console (``confirm``)
gives the phone the place (R494, R760). A place that a phone holds is taken over the same way,
the OLED saying so (``COUNT:replace B 4821``); its phone is told while the request waits and
once it has lost the place (R762). A phone holds one place; a phone holding one cannot ask for
another (R765).

Several phones may ask at once (the players at the start of a match): the OLED shows each
waiting request in turn (least recently shown first), and a press confirms the one on show once
it has been on show ``CONFIRM_AFTER`` seconds, so a request that has just appeared is never what
the press grants. A request waits ``ASK_FOR`` seconds from its first ask, however often its
phone asks again; one phone has one request; an address one, an IPv6 /64 six, the table
``MAX_WAITING`` (R764, R777). Wrong codes are counted per address and per /64, and only an
address's own count refuses it: another device's wrong codes never keep the right one out
(R768, R776). None of this is a rules decision: the sessions and requests live in memory only,
never in the journal (R495, R763).
"""

from __future__ import annotations

import bisect
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_py.table.web.guard import (
    Share,
    WindowLimit,
    client_keys,
    new_secret,
    same_secret,
    wait_words,
)

# No 0/O, 1/I/L: a code read off a small OLED and typed on a phone is never ambiguous.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6  # 31**6: nearly 9e8 codes; the tries a guesser gets are counted in R776
MAX_WRONG = 5  # wrong codes per address in WRONG_WINDOW
MAX_WRONG_PER_NETWORK = 20  # per IPv6 /64: past it, each wrong code ends its address's tries
WRONG_WINDOW = 60.0  # seconds
MAX_ADDRESSES = 4096  # addresses and /64s with recent wrong codes remembered (a few MB at most)
CONFIRM_AFTER = 1.0  # seconds a request is on the OLED before a press may confirm it
# The OLED's footer, in cycles of CODE_EVERY: the join code for the last CODE_SHOWN seconds of
# each, whether or not requests wait; the request whose turn it is the rest (R797).
CODE_EVERY = 8.0
CODE_SHOWN = 3.0
REQUEST_SHOWN = CODE_EVERY - CODE_SHOWN
# A press while the code has replaced a request on the OLED was meant for that request: nothing
# else was on show since, and a dealer who read the number may press a second or three late
# (R759, R942), so a late press is never silently lost.
LATE_PRESS = CODE_SHOWN
MAX_DRAWN = 16  # footers remembered: a press is judged by what the OLED showed (R799)
# A place that frees goes first to the addresses refused for a full queue, in order (R799);
# each keeps its spot LINE_KEPT seconds past the time it was told a place frees.
LINE_KEPT = 15.0
MAX_LINE = 256  # addresses in that line at most
DISMISSED_FOR = 60.0  # seconds: an address whose request the dealer turned down asks nothing
DISMISS_BUTTON = "no"  # when it means nothing on the step on show (R798)
# Requests waiting at once (R777): one an address (a device's browsers share it); a /64 a
# six-seat table's worth, since a whole IPv6 hall may share one; in all two more, for the phones
# of other networks.
MAX_WAITING = 8
# Seconds a request waits for the console's press: a whole turn for each of a full queue and
# one cycle more (72 s), so the request asked last is on show before it runs out (R745).
ASK_FOR = CODE_EVERY * (MAX_WAITING + 1)
WAITING_PER_ADDRESS = 1
WAITING_PER_NETWORK = 6
MAX_DISPLACED = 64  # signed-out phones remembered to tell them why
CONFIRM_BUTTON = "count"  # means nothing on the step on show when it confirms (R496, R761)


class AccessError(Exception):
    """Why a request may not do what it asks; str() is the one line the page shows."""


@dataclass(frozen=True, slots=True)
class SeatSession:
    seat: str  # a seat, or an official's place
    token: str  # the cookie's value
    csrf: str  # sent by the page in a header with every POST
    match: int  # the session of the journal (the match) it was given for


@dataclass(slots=True)
class _InLine:
    first: float  # first refused for a full queue
    until: float  # the spot is kept until then


@dataclass(frozen=True, slots=True)
class PlaceRequest:
    """A phone asking for a place, waiting for the console's press."""

    place: str
    number: str  # shown on the phone and on the OLED: the dealer checks they match
    token: str  # the phone's cookie, already set: the session it becomes once confirmed
    asked: float  # the clock's time of the request
    address: str  # where it came from: the shares of waiting requests
    serial: int = 0  # the order asked (asking again is asking anew): the OLED's turns follow it


def code_on_show(now: float) -> bool:
    """Whether the OLED's footer shows the join code at ``now``."""
    return now % CODE_EVERY >= REQUEST_SHOWN


def _turn(now: float) -> int:
    """The cycle whose request part is now or next: a request's turn (R797)."""
    cycle = int(now // CODE_EVERY)
    return cycle + 1 if code_on_show(now) else cycle


def new_confirmation(draw: Callable[[int], int] = secrets.randbelow) -> str:
    return f"{1000 + draw(9000)}"  # four digits, never a leading zero to lose


def waiting_line(request: PlaceRequest) -> str:
    """What the asking phone is told: the one line, the number and the button."""
    return (
        f"show this number to the dealer: this phone can play once the dealer presses "
        f"{CONFIRM_BUTTON.upper()} while the table's display shows {request.number} too"
    )


def new_code(draw: Callable[[str], str] = secrets.choice) -> str:
    return "".join(draw(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def tidy_code(text: str) -> str:
    """A typed code as it is compared: spaces and dashes dropped, capitals."""
    return "".join(char for char in text.upper() if char not in " -")


@dataclass(slots=True)
class Access:
    """The current match's join code, its waiting requests and its places' sessions."""

    clock: Callable[[], float]  # the loop's monotonic time
    match: int = 0
    code: str = ""
    version: int = 0  # counts every change of who holds or asks for what (the page follows it)
    _sessions: dict[str, SeatSession] = field(default_factory=dict)  # token -> session
    _requests: list[PlaceRequest] = field(default_factory=list)  # in the order asked
    _shown: PlaceRequest | None = None  # the request on the OLED
    _shown_turn: int = 0  # the cycle whose turn it has (``_turn``)
    _asked: int = 0  # requests made this match: each one's ``serial``
    _turns: dict[int, int] = field(default_factory=dict)  # serial -> the last turn it had
    _drawn: list[tuple[float, PlaceRequest | None]] = field(default_factory=list)  # the footer
    _resting: dict[str, float] = field(default_factory=dict)  # address -> asks nothing until
    _line: dict[str, _InLine] = field(default_factory=dict)  # address -> refused, full queue
    _displaced: dict[str, str] = field(default_factory=dict)  # token -> why it was signed out
    _lapsed: dict[str, str] = field(default_factory=dict)  # token -> its request that ran out
    _wrong: WindowLimit = field(init=False)

    def __post_init__(self) -> None:
        self._wrong = WindowLimit(
            clock=self.clock,
            share=Share(MAX_WRONG, MAX_WRONG_PER_NETWORK, MAX_ADDRESSES),
            window=WRONG_WINDOW,
        )

    def follow(self, match: int) -> None:
        """The table's match: a new one draws a new code and ends every session and request."""
        if match != self.match or not self.code:
            self.match = match
            self.code = new_code()
            self._sessions.clear()
            self._requests.clear()
            self._displaced.clear()
            self._lapsed.clear()
            self._shown = None
            self._turns.clear()
            self._drawn.clear()
            self._resting.clear()
            self._line.clear()
            self.version += 1

    # --- asking ----------------------------------------------------------------------------

    def ask(
        self,
        code: str,
        place: str,
        *,
        seats: tuple[str, ...],
        officials: tuple[str, ...],
        address: str,
        token: str | None,
    ) -> PlaceRequest:
        """A request for ``place`` from the phone with cookie ``token``, at ``address``: the
        code checked, then the phone (one place a phone), then the shares of waiting requests.
        The phone's own earlier request is replaced, but keeps its first time: asking again
        never makes a request last longer (R777)."""
        self._check_code(code, address)
        if place not in (*seats, *officials):
            raise AccessError(
                f"there is no seat {place!r} at this table: pick one of "
                f"{', '.join((*seats, *officials))}"
            )
        held = self.session(token)
        if held is not None and held.seat == place:
            raise AccessError(f"this phone has {_place_words(place, officials)} already")
        if held is not None and place in officials and held.seat not in officials:
            raise AccessError(
                f"this phone has seat {held.seat}: a player's phone cannot take "
                f"{_place_words(place, officials)} too; ask for it from another phone"
            )
        if held is not None:
            raise AccessError(
                f"this phone has {_place_words(held.seat, officials)} already: one phone, one "
                f"place; to change, leave {_place_words(held.seat, officials)} first"
            )
        earlier = self.waiting(token)
        self._withdraw(token)
        if earlier is None:  # asking again keeps the phone's place (and its first time)
            self._check_waiting_shares(address)
        if token:
            self._lapsed.pop(token, None)
        self._asked += 1
        numbers = {request.number for request in self.requests}
        number = new_confirmation()
        while number in numbers:  # two numbers on show are never alike
            number = new_confirmation()
        request = PlaceRequest(
            place=place,
            number=number,
            token=new_secret(),
            asked=self.clock() if earlier is None else earlier.asked,
            address=address,
            serial=self._asked,
        )
        self._requests.append(request)
        self.version += 1
        _ = self.shown  # on the OLED at once if nothing else is
        return request

    def _check_waiting_shares(self, address: str) -> None:
        waiting = self.requests
        now = self.clock()
        address_key, network = client_keys(address)
        resting = self._resting.get(address_key, 0.0) - now
        if resting > 0:
            raise AccessError(
                "the dealer said no to this phone's last request: ask the dealer, or try again "
                f"in {wait_words(resting)}"
            )
        same_address = [r for r in waiting if client_keys(r.address)[0] == address_key]
        same_network = [r for r in waiting if client_keys(r.address)[1] == network]
        if len(same_address) >= WAITING_PER_ADDRESS:
            wait = min(r.asked for r in same_address) + ASK_FOR - now
            raise AccessError(
                "a phone on this connection is already waiting for the dealer: try again once "
                f"the dealer has answered it, or in {wait_words(wait)}"
            )
        if len(same_network) >= WAITING_PER_NETWORK:
            wait = min(r.asked for r in same_network) + ASK_FOR - now
            raise AccessError(
                f"{WAITING_PER_NETWORK} phones on this Wi-Fi are already waiting for the "
                f"dealer: try again once the dealer has answered one, or in {wait_words(wait)}"
            )
        self._check_line(address_key, waiting, now)

    def _check_line(self, address_key: str, waiting: list[PlaceRequest], now: float) -> None:
        """A place that frees goes to the addresses refused for a full queue, in the order
        they were first refused (R799): an address that held a place and lost it to the
        clock asks after them. Refused, the address takes its place in that line, and is told
        truly when a place frees for it (at the latest: the dealer may free one sooner)."""
        line = {key: spot for key, spot in self._line.items() if spot.until >= now}
        spot = line.get(address_key) or _InLine(first=now, until=now)
        line[address_key] = spot
        order = sorted(line, key=lambda key: line[key].first)
        # Only a spot that could take a place now holds this one back: an address in line whose
        # /64 holds its share already would keep a free place empty (issue 19).
        networks = Counter(client_keys(request.address)[1] for request in waiting)
        holding_back = [
            key
            for key in order[: order.index(address_key)]
            if networks[client_keys(key)[1]] < WAITING_PER_NETWORK
        ]
        position = len(holding_back) + 1
        free = MAX_WAITING - len(waiting)
        if position <= free:
            line.pop(address_key)
            self._line = line
            return
        ends = sorted(request.asked + ASK_FOR for request in waiting)
        frees = ends[min(position - free, len(ends)) - 1] if ends else now + ASK_FOR
        spot.until = max(spot.until, frees + LINE_KEPT)
        while len(line) > MAX_LINE:  # the latest comers forgotten first
            del line[order.pop()]
        self._line = line
        ahead = position - 1
        before = (
            f"; {ahead} phone{'' if ahead == 1 else 's'} asked before this one" if ahead else ""
        )
        raise AccessError(
            f"{MAX_WAITING} phones are already waiting for the dealer: try again in "
            f"{wait_words(frees - now)} at the latest (this phone's turn is kept "
            f"{LINE_KEPT:.0f} s then{before})"
        )

    @property
    def requests(self) -> list[PlaceRequest]:
        """The requests still waiting (those that ran out are forgotten)."""
        now = self.clock()
        alive = [request for request in self._requests if now - request.asked <= ASK_FOR]
        if len(alive) != len(self._requests):
            for request in self._requests:
                if request not in alive:  # the asking phone is told the dealer gave nothing
                    _remember(
                        self._lapsed,
                        request.token,
                        f"the dealer did not give this phone {request.place} (its number was "
                        f"{request.number}) within {ASK_FOR:.0f} s: ask again, or ask the dealer",
                    )
            self._requests = alive
            self.version += 1
        return list(alive)

    @property
    def shown(self) -> PlaceRequest | None:
        """The request whose turn it is: each waiting one in turn, one each ``CODE_EVERY``
        cycle, on the OLED for the cycle's first ``REQUEST_SHOWN`` seconds (``footer``)."""
        waiting = self.requests
        now = self.clock()
        if not waiting:
            self._shown = None
        elif self._shown is None:
            self._show(waiting, _turn(now))
        elif self._shown not in waiting:
            # It left its turn early (asked again, confirmed, turned down, ran out): the next
            # takes the rest of the turn and the whole next one.
            self._show(waiting, int(now // CODE_EVERY) + 1)
        elif len(waiting) > 1 and _turn(now) > self._shown_turn:
            self._show(waiting, _turn(now))
        return self._shown

    def _show(self, waiting: list[PlaceRequest], turn: int) -> None:
        """The next turn to the request on show least recently (one never on show first), in
        the order asked: a new request's first turn comes before any request's second, and
        asking again (a new request, the latest asked) never puts one before a request asked
        earlier, so a device re-asking its own can never keep another's off the OLED."""
        serials = {request.serial for request in waiting}
        self._turns = {s: t for s, t in self._turns.items() if s in serials}
        request = min(waiting, key=lambda r: (self._turns.get(r.serial, -1), r.serial))
        self._shown, self._shown_turn = request, turn
        self._turns[request.serial] = turn

    def footer(self, now: float, *, covered: bool = False) -> PlaceRequest | None:
        """The request the OLED's footer shows at ``now``, the loop's time it is drawn at:
        the one whose turn it is, but never in the code's ``CODE_SHOWN`` seconds of each cycle,
        which are the join code's whether or not requests wait (R797), nor while a notice
        ``covered`` the footer. Each draw is kept, so a press is judged by what the OLED showed
        when it was pressed (``confirm``): a number hidden by the notice was not on show, and
        is on show again only from when the notice ends (R943)."""
        request = None if covered or code_on_show(now) else self.shown
        if not self._drawn or self._drawn[-1][1] is not request:
            self._drawn.append((now, request))
            del self._drawn[:-MAX_DRAWN]
        return request

    def cover(self, at: float) -> None:
        """The footer said a notice instead from ``at`` (a press that gave nothing, R942), the
        press's own time however late it is handled: the number it hid was on show until then
        only, and a press during the notice is for no number (R943)."""
        index = bisect.bisect_right([drawn_at for drawn_at, _ in self._drawn], at)
        self._drawn.insert(index, (at, None))
        del self._drawn[:-MAX_DRAWN]

    def drawn(self, now: float) -> tuple[PlaceRequest | None, float]:
        """The request the OLED's footer was last drawn with (None: the code or the hint), and
        for how many seconds by ``now``."""
        if not self._drawn:
            return None, 0.0
        at, request = self._drawn[-1]
        return request, now - at

    def on_show_at(self, pressed: float) -> PlaceRequest | None:
        """The request the OLED had shown for at least ``CONFIRM_AFTER`` at ``pressed`` (the
        press's own time), if it is still waiting; None otherwise."""
        drawn = [(at, request) for at, request in self._drawn if at <= pressed]
        if not drawn:
            return None
        at, request = drawn[-1]
        if request is None and pressed - at < LATE_PRESS and len(drawn) >= 2:
            # the code has replaced a request: the press was meant for it (R759, R942)
            before_at, before = drawn[-2]
            if before is not None and at - before_at >= CONFIRM_AFTER:
                at, request = before_at, before
        if request is None or pressed - at < CONFIRM_AFTER or request not in self.requests:
            return None
        return request

    def next_change(self) -> float | None:
        """When a waiting request next runs out (the OLED's turns follow ``CODE_EVERY``)."""
        waiting = self.requests
        if not waiting:
            return None
        return min(request.asked for request in waiting) + ASK_FOR + 0.001

    def waiting(self, token: str | None) -> PlaceRequest | None:
        """The request this phone (its cookie) made, if it is still waiting."""
        if not token:
            return None
        return next((request for request in self.requests if request.token == token), None)

    def asking_for(self, place: str) -> list[PlaceRequest]:
        """The requests waiting for ``place``."""
        return [request for request in self.requests if request.place == place]

    def held(self, place: str) -> bool:
        return any(session.seat == place for session in self._sessions.values())

    @property
    def places_held(self) -> tuple[str, ...]:
        return tuple(sorted({session.seat for session in self._sessions.values()}))

    def confirm(self, pressed: float) -> SeatSession | None:
        """The console's press at ``pressed`` (its own time, on this clock): the request the
        OLED had shown for ``CONFIRM_AFTER`` then becomes the place's session, however late
        the press is handled; the place's earlier phone is signed out, and told why."""
        request = self.on_show_at(pressed)
        if request is None:
            return None
        self._requests.remove(request)
        _ = self.shown  # the next waiting request, if it was this one's turn
        for held_token, held in list(self._sessions.items()):
            if held.seat == request.place:
                del self._sessions[held_token]
                self._displace(
                    held_token,
                    f"the dealer gave {request.place} to another phone (its number was "
                    f"{request.number}): if that was not your doing, tell the dealer",
                )
        session = SeatSession(
            seat=request.place, token=request.token, csrf=new_secret(), match=self.match
        )
        self._sessions[session.token] = session
        self.version += 1
        return session

    def dismiss(self, pressed: float) -> PlaceRequest | None:
        """The dealer's NO at ``pressed``, on the request the OLED had shown for
        ``CONFIRM_AFTER``: it ends, its phone is told so, and its address asks nothing more
        for ``DISMISSED_FOR`` (R798)."""
        request = self.on_show_at(pressed)
        if request is None:
            return None
        self._requests.remove(request)
        _ = self.shown
        _remember(
            self._lapsed,
            request.token,
            f"the dealer turned down this phone's request for {request.place} (its number was "
            f"{request.number}): ask the dealer",
        )
        self._resting[client_keys(request.address)[0]] = self.clock() + DISMISSED_FOR
        self.version += 1
        return request

    def _displace(self, token: str, why: str) -> None:
        _remember(self._displaced, token, why)

    def displaced(self, token: str | None) -> str | None:
        """Why this phone lost its place to another, if it did this match."""
        return self._displaced.get(token) if token else None

    def lapsed(self, token: str | None) -> str | None:
        """Why this phone's request ended without a place, if it ran out this match."""
        _ = self.requests  # a request that has just run out is told so at once
        return self._lapsed.get(token) if token else None

    # --- the places' sessions ---------------------------------------------------------------

    def session(self, token: str | None) -> SeatSession | None:
        """The place a cookie holds, if it is still this match's."""
        return self._sessions.get(token) if token else None

    def require(self, token: str | None, csrf: str | None) -> SeatSession:
        """The place a POST comes from: its cookie and its CSRF token, both this match's."""
        session = self.session(token)
        if session is None:
            request = self.waiting(token)
            if request is not None:
                raise AccessError(waiting_line(request))
            why = self.displaced(token)
            if why is not None:
                raise AccessError(f"this phone no longer holds its seat: {why}")
            lapsed = self.lapsed(token)
            if lapsed is not None:
                raise AccessError(f"this phone has no seat: {lapsed}")
            raise AccessError(
                "this phone has no seat at this table (a new match ends every seat): join "
                "again with the code on the table's display"
            )
        if not same_secret(csrf, session.csrf):
            raise AccessError("this page is out of date: reload it, then try again")
        return session

    def leave(self, token: str | None) -> None:
        """The phone gives its place up (and withdraws its request, if one waits)."""
        if token and self._sessions.pop(token, None) is not None:
            self.version += 1
        self._withdraw(token)
        if token:
            self._displaced.pop(token, None)
            self._lapsed.pop(token, None)

    def _withdraw(self, token: str | None) -> None:
        request = self.waiting(token)
        if request is not None:
            self._requests.remove(request)
            self.version += 1

    # --- the code ----------------------------------------------------------------------------

    def _check_code(self, code: str, address: str) -> None:
        """The right code passes unless this very address is past its own wrong tries: other
        devices' wrong codes, even from its /64, never keep it out (R776)."""
        wait = self._wrong.wait(address)
        if wait is not None:
            raise AccessError(
                f"too many wrong codes from this phone: wait {wait_words(wait)}, then type the "
                "code on the table's display again"
            )
        if self.code and same_secret(tidy_code(code), self.code):
            return
        crowded = self._wrong.crowded(address)
        left = self._wrong.miss(address)
        if crowded:
            raise AccessError(
                "that is not the join code on the table's display, and too many wrong codes "
                f"came from this Wi-Fi in the last minute: wait {WRONG_WINDOW:.0f} s, then try "
                "again"
            )
        tries = f"{left} more tr{'y' if left == 1 else 'ies'}" if left else "no more tries"
        raise AccessError(
            f"that is not the join code on the table's display: check it and type it again "
            f"({tries} this minute)"
        )


def _remember(words: dict[str, str], token: str, why: str) -> None:
    """What a phone is told once it holds nothing: at most MAX_DISPLACED kept, the oldest go."""
    while len(words) >= MAX_DISPLACED:
        del words[next(iter(words))]
    words[token] = why


def _place_words(place: str, officials: tuple[str, ...]) -> str:
    return f"the place {place}" if place in officials else f"seat {place}"
