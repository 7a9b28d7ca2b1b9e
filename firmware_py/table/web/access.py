"""Who may enter what on the table's web page: the join code, the seats' sessions, the limits.

A join code (shown on the OLED) is drawn with ``secrets`` for each match and rotated when the
next one starts; a player who gives it takes a seat and gets a session: a token kept in an
HttpOnly, SameSite=Strict cookie and a separate CSRF token the page sends with every POST. A
new code ends every seat's session (the players join again); one seat has one session (a
second phone joining for the seat replaces the first). Wrong codes are counted per address:
after ``MAX_WRONG`` in ``WRONG_WINDOW`` seconds that address waits. Spectators need nothing.
"""

from __future__ import annotations

import hmac
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


class AccessError(Exception):
    """Why a request may not do what it asks; str() is the one line the page shows."""


@dataclass(frozen=True, slots=True)
class SeatSession:
    seat: str
    token: str  # the cookie's value
    csrf: str  # sent by the page in a header with every POST
    match: int  # the session of the journal (the match) it was given for


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

    def follow(self, match: int) -> None:
        """The table's match: a new one draws a new code and ends every seat's session."""
        if match != self.match or not self.code:
            self.match = match
            self.code = new_code()
            self._sessions.clear()

    def join(self, code: str, seat: str, seats: tuple[str, ...], address: str) -> SeatSession:
        """A seat for whoever gives the match's code; AccessError says why not."""
        self._check_not_locked(address)
        if not self.code or not hmac.compare_digest(tidy_code(code).encode(), self.code.encode()):
            self._forget_old_tries()
            self._wrong.setdefault(address, deque()).append(self.clock())
            left = MAX_WRONG - len(self._recent(address))
            tries = f"{left} more tr{'y' if left == 1 else 'ies'}" if left else "no more tries"
            raise AccessError(
                f"that is not the join code on the table's display ({tries} for a minute)"
            )
        if seat not in seats:
            raise AccessError(f"seat {seat!r}: expected one of {', '.join(seats)}")
        for token, held in list(self._sessions.items()):
            if held.seat == seat:
                del self._sessions[token]  # the seat's earlier phone is signed out
        session = SeatSession(
            seat=seat,
            token=secrets.token_urlsafe(32),
            csrf=secrets.token_urlsafe(32),
            match=self.match,
        )
        self._sessions[session.token] = session
        return session

    def session(self, token: str | None) -> SeatSession | None:
        """The seat a cookie holds, if it is still this match's."""
        return self._sessions.get(token) if token else None

    def require(self, token: str | None, csrf: str | None) -> SeatSession:
        """The seat a POST comes from: its cookie and its CSRF token, both this match's."""
        session = self.session(token)
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
