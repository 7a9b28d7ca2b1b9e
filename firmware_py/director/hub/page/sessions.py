"""Who is the director on the page: login sessions, their CSRF tokens, the limit on guessing.

A login that gives the director's password gets a session: a random token kept in a cookie
(HttpOnly, SameSite=Strict, Secure: R181) and a separate random CSRF token that every changing
form carries. A session ends at logout or ``SESSION_SECONDS`` after the login. Wrong passwords
slow their address down: after the first ``FREE_TRIES``, each wrong one doubles the wait
before that address may try again (up to ``MAX_WAIT``), and a good login clears it; an IPv6
/64 has ``FREE_TRIES_PER_NETWORK`` (R768). One password at a time is checked per address, so
that parallel tries cannot outrun the count. The secrets, the comparison and the limit are the
web guard's, shared with the table's page (R770). Sessions live in the hub's memory: a
restarted hub asks the director to log in again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from firmware_py.table.web.guard import DoublingWait, new_secret, same_secret

SESSION_SECONDS = 12 * 3600  # a tournament day
MAX_SESSIONS = 16  # the director's laptop, a phone, a deputy: the oldest goes first
FREE_TRIES = 3
FREE_TRIES_PER_NETWORK = 10  # an IPv6 /64: one device may hold all its addresses
FIRST_WAIT = 2.0  # seconds, doubled for each further wrong password
MAX_WAIT = 300.0
MAX_ADDRESSES = 1024  # addresses with wrong passwords kept; past it the oldest are forgotten


class AccessError(Exception):
    """Why a request may not do what it asks; ``str()`` is the one line the page shows."""


@dataclass(frozen=True, slots=True)
class DirectorSession:
    token: str  # the cookie's value
    csrf: str  # the forms' hidden field
    expires: float  # on the clock given to DirectorSessions


@dataclass(slots=True)
class DirectorSessions:
    clock: Callable[[], float]  # monotonic seconds (the loop's clock)
    _sessions: dict[str, DirectorSession] = field(default_factory=dict)  # token -> session
    _misses: DoublingWait = field(init=False)  # wrong passwords, per address and per /64
    _trying: set[str] = field(default_factory=set)  # addresses with a password being checked

    def __post_init__(self) -> None:
        self._misses = DoublingWait(
            clock=self.clock,
            free=FREE_TRIES,
            free_per_network=FREE_TRIES_PER_NETWORK,
            first=FIRST_WAIT,
            longest=MAX_WAIT,
            remembered=MAX_ADDRESSES,
        )

    def check_may_try(self, address: str) -> None:
        """AccessError while ``address`` must wait after wrong passwords."""
        waiting = self._misses.wait(address)
        if waiting is not None:
            count, seconds = waiting
            raise AccessError(
                f"{count} wrong passwords from this address: try again in "
                f"{max(1, round(seconds))} s"
            )

    @contextmanager
    def trying(self, address: str) -> Iterator[None]:
        """One password at a time from ``address``, and none while it must wait: AccessError
        at once for any other (R186)."""
        self.check_may_try(address)
        if address in self._trying:
            raise AccessError("another login from this address is being checked: try again in 1 s")
        self._trying.add(address)
        try:
            yield
        finally:
            self._trying.discard(address)

    def wrong_password(self, address: str) -> AccessError:
        """Count a wrong password from ``address``; the error to show."""
        wait = self._misses.miss(address)
        later = f": try again in {round(wait)} s" if wait else ""
        return AccessError(f"that is not the director's password{later}")

    def open(self, address: str) -> DirectorSession:
        """A new session for a good login from ``address``."""
        self._misses.clear(address)
        self._sweep()
        while len(self._sessions) >= MAX_SESSIONS:
            del self._sessions[next(iter(self._sessions))]
        session = DirectorSession(
            token=new_secret(),
            csrf=new_secret(),
            expires=self.clock() + SESSION_SECONDS,
        )
        self._sessions[session.token] = session
        return session

    def session(self, token: str | None) -> DirectorSession | None:
        """The session a cookie holds, while it lasts."""
        session = self._sessions.get(token) if token else None
        if session is not None and self.clock() >= session.expires:
            del self._sessions[session.token]
            return None
        return session

    def require(self, token: str | None, csrf: str | None) -> DirectorSession:
        """The director's session behind a changing request: its cookie and its CSRF token."""
        session = self.session(token)
        if session is None:
            raise AccessError("only the director may change the record: log in first")
        if not same_secret(csrf, session.csrf):
            raise AccessError("the form's security token is missing or stale: reload the page")
        return session

    def close(self, token: str | None) -> None:
        if token:
            self._sessions.pop(token, None)

    def _sweep(self) -> None:
        now = self.clock()
        for token, session in list(self._sessions.items()):
            if now >= session.expires:
                del self._sessions[token]
