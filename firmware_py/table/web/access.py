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
waiting request in turn, ``SHOWN_FOR`` seconds each, and a press confirms the one on show once
it has been on show ``CONFIRM_AFTER`` seconds, so a request that has just appeared is never what
the press grants. A request waits ``ASK_FOR`` seconds from its first ask, however often its
phone asks again; one phone has one request; an address one, an IPv6 /64 six, the table
``MAX_WAITING`` (R764, R777). Wrong codes are counted per address and per /64, and only an
address's own count refuses it: another device's wrong codes never keep the right one out
(R768, R776). None of this is a rules decision: the sessions and requests live in memory only,
never in the journal (R495, R763).
"""

from __future__ import annotations

import secrets
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
ASK_FOR = 60.0  # seconds a request waits for the console's press
CONFIRM_AFTER = 1.0  # seconds a request is on the OLED before a press may confirm it
SHOWN_FOR = 4.0  # seconds each request is on the OLED while several wait
# Requests waiting at once (R777): one an address (a device's browsers share it); a /64 a
# six-seat table's worth, since a whole IPv6 hall may share one; in all two more, for the phones
# of other networks.
MAX_WAITING = 8
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


@dataclass(frozen=True, slots=True)
class PlaceRequest:
    """A phone asking for a place, waiting for the console's press."""

    place: str
    number: str  # shown on the phone and on the OLED: the dealer checks they match
    token: str  # the phone's cookie, already set: the session it becomes once confirmed
    asked: float  # the clock's time of the request
    address: str  # where it came from: the shares of waiting requests


def new_confirmation(draw: Callable[[int], int] = secrets.randbelow) -> str:
    return f"{1000 + draw(9000)}"  # four digits, never a leading zero to lose


def waiting_line(request: PlaceRequest) -> str:
    """What the asking phone is told: the one line, the number and the button."""
    return (
        f"this phone is not confirmed yet: press {CONFIRM_BUTTON.upper()} on the table's "
        f"console while its display shows {request.number} (the number on this phone)"
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
    _shown_since: float = 0.0
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
            raise AccessError(f"seat {place!r}: expected one of {', '.join((*seats, *officials))}")
        held = self.session(token)
        if held is not None and held.seat == place:
            raise AccessError(f"this phone holds {_place_words(place, officials)} already")
        if held is not None and place in officials and held.seat not in officials:
            raise AccessError(
                f"this phone holds seat {held.seat}: a player's phone cannot take an "
                "official's place"
            )
        if held is not None:
            raise AccessError(
                f"this phone holds {_place_words(held.seat, officials)}: a phone holds one place "
                "at the table (leave it first)"
            )
        earlier = self.waiting(token)
        self._withdraw(token)
        self._check_waiting_shares(address)
        if token:
            self._lapsed.pop(token, None)
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
        )
        self._requests.append(request)
        self.version += 1
        _ = self.shown  # on the OLED at once if nothing else is
        return request

    def _check_waiting_shares(self, address: str) -> None:
        waiting = self.requests
        if len(waiting) >= MAX_WAITING:
            wait = min(request.asked for request in waiting) + ASK_FOR - self.clock()
            raise AccessError(
                f"{MAX_WAITING} phones are waiting for the dealer already: ask again in "
                f"{wait_words(wait)}"
            )
        address_key, network = client_keys(address)
        same_address = [r for r in waiting if client_keys(r.address)[0] == address_key]
        same_network = [r for r in waiting if client_keys(r.address)[1] == network]
        if len(same_address) >= WAITING_PER_ADDRESS:
            wait = min(r.asked for r in same_address) + ASK_FOR - self.clock()
            raise AccessError(
                "a phone at this address is waiting for the dealer already: ask again once it "
                f"is confirmed, or in {wait_words(wait)}"
            )
        if len(same_network) >= WAITING_PER_NETWORK:
            wait = min(r.asked for r in same_network) + ASK_FOR - self.clock()
            raise AccessError(
                f"{WAITING_PER_NETWORK} phones on this network (its /64) are waiting for the "
                f"dealer already: ask again once one is confirmed, or in {wait_words(wait)}"
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
        """The request on the OLED now: each waiting one in turn, ``SHOWN_FOR`` seconds each."""
        waiting = self.requests
        now = self.clock()
        if not waiting:
            self._shown = None
        elif self._shown not in waiting:
            self._show(waiting[0], now)
        elif len(waiting) > 1 and now - self._shown_since >= SHOWN_FOR:
            at = waiting.index(self._shown)
            self._show(waiting[(at + 1) % len(waiting)], now)
        return self._shown

    def _show(self, request: PlaceRequest, now: float) -> None:
        self._shown, self._shown_since = request, now

    def next_change(self) -> float | None:
        """When the OLED's request next changes (the next in turn, or one running out)."""
        shown = self.shown
        if shown is None:
            return None
        ends = min(request.asked for request in self.requests) + ASK_FOR + 0.001
        if len(self.requests) > 1:
            ends = min(ends, self._shown_since + SHOWN_FOR)
        return ends

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

    def confirm(self) -> SeatSession | None:
        """The console's press: the request on show, once it has been on show long enough,
        becomes the place's session; the place's earlier phone is signed out, and told why."""
        request = self.shown
        if request is None or self.clock() - self._shown_since < CONFIRM_AFTER:
            return None
        self._requests.remove(request)
        self._shown = None
        _ = self.shown  # the next waiting request, on show from now
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

    def _displace(self, token: str, why: str) -> None:
        _remember(self._displaced, token, why)

    def displaced(self, token: str | None) -> str | None:
        """Why this phone lost its place to another, if it did this match."""
        return self._displaced.get(token) if token else None

    def lapsed(self, token: str | None) -> str | None:
        """Why this phone's request ended without a place, if it ran out this match."""
        _ = self.requests  # a request that has just run out is told so at once
        return self._lapsed.get(token) if token else None

    @property
    def shown_for(self) -> float:
        """Seconds the request on the OLED has been on show (0 when none is)."""
        return 0.0 if self.shown is None else self.clock() - self._shown_since

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
                "this phone has no seat at the table (or the match changed): join with the "
                "code on the table's display"
            )
        if not same_secret(csrf, session.csrf):
            raise AccessError("the page's security token is missing or stale: reload the page")
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
                f"too many wrong codes from this address: try again in {wait_words(wait)}"
            )
        if self.code and same_secret(tidy_code(code), self.code):
            return
        crowded = self._wrong.crowded(address)
        left = self._wrong.miss(address)
        if crowded:
            raise AccessError(
                "that is not the join code on the table's display (no more tries from this "
                f"address for {WRONG_WINDOW:.0f} s: its network, an IPv6 /64, has had "
                f"{MAX_WRONG_PER_NETWORK} wrong codes in the last minute)"
            )
        tries = f"{left} more tr{'y' if left == 1 else 'ies'}" if left else "no more tries"
        raise AccessError(
            f"that is not the join code on the table's display ({tries} for a minute)"
        )


def _remember(words: dict[str, str], token: str, why: str) -> None:
    """What a phone is told once it holds nothing: at most MAX_DISPLACED kept, the oldest go."""
    while len(words) >= MAX_DISPLACED:
        del words[next(iter(words))]
    words[token] = why


def _place_words(place: str, officials: tuple[str, ...]) -> str:
    return f"the place {place}" if place in officials else f"seat {place}"
