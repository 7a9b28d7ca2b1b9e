"""Who may enter what on the table's web page: the join code, the seats' sessions, the limits.

A join code (shown on the OLED) is drawn with ``secrets`` for each match and rotated when the
next one starts; a player who gives it takes a seat and gets a session: a token kept in an
HttpOnly, SameSite=Strict cookie and a separate CSRF token the page sends with every POST. A
new code ends every seat's session (the players join again); one seat has one session (a
second phone joining for the seat replaces the first). Wrong codes are counted per address:
after ``MAX_WRONG`` in ``WRONG_WINDOW`` seconds that address waits. Spectators need nothing.

An official's place (the Pentathlon's Game Monitor) needs more than the code, which the players
read off the OLED too: a phone that gives it is only *asking* (R494). It is shown a confirmation
number, the OLED shows the same number with the console button that confirms it, and only a
press of that button at the console (``confirm``) makes the phone the official's, the one
phone that holds the place. One phone asks at a time (a new request replaces the last); a
request lasts ``ASK_FOR`` seconds, and a press confirms only one that has been on show for
``CONFIRM_AFTER`` seconds, so a request slipped in just before the press is not what it grants.
A phone that holds a seat cannot ask. None of this is a rules decision: like a seat's session
it lives in memory only, never in the journal (R495).
"""

from __future__ import annotations

import hmac
import math
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

# No 0/O, 1/I/L: a code read off a small OLED and typed on a phone is never ambiguous.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6  # 31**6: nearly 9e8 codes, against at most MAX_WRONG tries a minute per address
MAX_WRONG = 5
WRONG_WINDOW = 60.0  # seconds
MAX_ADDRESSES = 256  # addresses with recent wrong codes kept before the old ones are swept
ASK_FOR = 60.0  # seconds an official's request waits for the console's press
CONFIRM_AFTER = 1.0  # seconds a request is on the OLED before a press may confirm it
# Another phone's request is not replaced for this long, and one address asks once in
# ASK_EVERY: a phone asking over and over cannot keep the monitor's number off the OLED (R498).
HOLD_SHOWN = 8.0  # seconds
ASK_EVERY = 30.0  # seconds


class AccessError(Exception):
    """Why a request may not do what it asks; str() is the one line the page shows."""


@dataclass(frozen=True, slots=True)
class SeatSession:
    seat: str
    token: str  # the cookie's value
    csrf: str  # sent by the page in a header with every POST
    match: int  # the session of the journal (the match) it was given for


@dataclass(frozen=True, slots=True)
class OfficialRequest:
    """A phone asking for an official's place, waiting for the console's press."""

    role: str
    number: str  # shown on the phone and on the OLED: the monitor checks they match
    token: str  # the phone's cookie, already set: the session it becomes once confirmed
    asked: float  # the clock's time of the request


def new_confirmation(draw: Callable[[int], int] = secrets.randbelow) -> str:
    return f"{1000 + draw(9000)}"  # four digits, never a leading zero to lose


CONFIRM_BUTTON = "count"  # means nothing on any step of a family with officials (R496)


def waiting_line(request: OfficialRequest) -> str:
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
    """The current match's join code and its seats' sessions."""

    clock: Callable[[], float]  # the loop's monotonic time, for the wrong-code limit
    match: int = 0
    code: str = ""
    _sessions: dict[str, SeatSession] = field(default_factory=dict)  # token -> session
    _wrong: dict[str, deque[float]] = field(default_factory=dict)  # address -> times
    _request: OfficialRequest | None = None  # the one phone asking for an official's place
    _asked_from: dict[str, float] = field(default_factory=dict)  # address -> its last request

    def follow(self, match: int) -> None:
        """The table's match: a new one draws a new code and ends every seat's session."""
        if match != self.match or not self.code:
            self.match = match
            self.code = new_code()
            self._sessions.clear()
            self._request = None
            self._asked_from.clear()

    def join(
        self,
        code: str,
        seat: str,
        seats: tuple[str, ...],
        address: str,
        officials: tuple[str, ...] = (),
        *,
        token: str | None = None,
    ) -> SeatSession:
        """A seat for whoever gives the match's code; AccessError says why not. An official's
        place is never joined so: it is asked for (``ask``) and confirmed at the console. A
        request the phone (cookie ``token``) had waiting is withdrawn: a seat's phone is never
        the official's (R497)."""
        self._check_code(code, address)
        if seat not in seats:
            places = ", ".join((*seats, *officials))
            raise AccessError(f"seat {seat!r}: expected one of {places}")
        if self.waiting(token) is not None:
            self._request = None
        return self._seat(seat, secrets.token_urlsafe(32))

    def ask(
        self, code: str, role: str, roles: tuple[str, ...], address: str, token: str | None
    ) -> OfficialRequest:
        """A request for an official's place (``role``), from the phone with cookie ``token``:
        the code is checked as a seat's is, and a phone holding a seat is refused."""
        self._check_code(code, address)
        if role not in roles:
            raise AccessError(f"place {role!r}: expected one of {', '.join(roles)}")
        held = self.session(token)
        if held is not None and held.seat not in roles:
            raise AccessError(
                f"this phone holds seat {held.seat}: a player's phone cannot take an "
                "official's place"
            )
        now = self.clock()
        shown = self.request
        if shown is not None and token != shown.token and now - shown.asked < HOLD_SHOWN:
            wait = math.ceil(HOLD_SHOWN - (now - shown.asked))
            raise AccessError(
                f"another phone's number is on the table's display: ask again in {wait} s"
            )
        last = self._asked_from.get(address)
        if last is not None and now - last < ASK_EVERY:
            wait = math.ceil(ASK_EVERY - (now - last))
            raise AccessError(
                f"a phone at this address asked {now - last:.0f} s ago: ask again in {wait} s"
            )
        self._asked_from[address] = now
        self._request = OfficialRequest(
            role=role,
            number=new_confirmation(),
            token=secrets.token_urlsafe(32),
            asked=self.clock(),
        )
        return self._request

    @property
    def request(self) -> OfficialRequest | None:
        """The request waiting for the console, if it has not run out."""
        if self._request is not None and self.clock() - self._request.asked > ASK_FOR:
            self._request = None
        return self._request

    def waiting(self, token: str | None) -> OfficialRequest | None:
        """The request this phone (its cookie) made, if it is still waiting."""
        request = self.request
        return request if request is not None and token == request.token else None

    def confirm(self) -> SeatSession | None:
        """The console's press: the waiting request, if it has been on show long enough,
        becomes the official's session (the place's earlier phone is signed out)."""
        request = self.request
        if request is None or self.clock() - request.asked < CONFIRM_AFTER:
            return None
        self._request = None
        return self._seat(request.role, request.token)

    def _check_code(self, code: str, address: str) -> None:
        self._check_not_locked(address)
        if not self.code or not hmac.compare_digest(tidy_code(code).encode(), self.code.encode()):
            self._forget_old_tries()
            self._wrong.setdefault(address, deque()).append(self.clock())
            left = MAX_WRONG - len(self._recent(address))
            tries = f"{left} more tr{'y' if left == 1 else 'ies'}" if left else "no more tries"
            raise AccessError(
                f"that is not the join code on the table's display ({tries} for a minute)"
            )

    def _seat(self, seat: str, token: str) -> SeatSession:
        """``seat`` for the phone with cookie ``token``; its earlier phone is signed out."""
        for held_token, held in list(self._sessions.items()):
            if held.seat == seat:
                del self._sessions[held_token]
        session = SeatSession(
            seat=seat, token=token, csrf=secrets.token_urlsafe(32), match=self.match
        )
        self._sessions[session.token] = session
        return session

    def session(self, token: str | None) -> SeatSession | None:
        """The seat a cookie holds, if it is still this match's."""
        return self._sessions.get(token) if token else None

    def require(self, token: str | None, csrf: str | None) -> SeatSession:
        """The seat a POST comes from: its cookie and its CSRF token, both this match's."""
        session = self.session(token)
        request = self.waiting(token)
        if session is None and request is not None:
            raise AccessError(waiting_line(request))
        if session is None:
            raise AccessError(
                "this phone has no seat at the table (or the match changed): join with the "
                "code on the table's display"
            )
        if not csrf or not hmac.compare_digest(csrf.encode(), session.csrf.encode()):
            raise AccessError("the page's security token is missing or stale: reload the page")
        return session

    def leave(self, token: str | None) -> None:
        if token:
            self._sessions.pop(token, None)
            if self.waiting(token) is not None:
                self._request = None

    def _recent(self, address: str) -> deque[float]:
        times = self._wrong.get(address, deque())
        while times and times[0] <= self.clock() - WRONG_WINDOW:
            times.popleft()
        if not times:
            self._wrong.pop(address, None)
        return times

    def _forget_old_tries(self) -> None:
        """Addresses whose wrong codes are all older than the window are forgotten, so a
        stream of addresses cannot grow the table's memory."""
        if len(self._wrong) >= MAX_ADDRESSES:
            for address in list(self._wrong):
                self._recent(address)

    def _check_not_locked(self, address: str) -> None:
        recent = self._recent(address)
        if len(recent) >= MAX_WRONG:
            wait = max(1, round(recent[0] + WRONG_WINDOW - self.clock()))
            raise AccessError(f"too many wrong codes from this device: try again in {wait} s")
