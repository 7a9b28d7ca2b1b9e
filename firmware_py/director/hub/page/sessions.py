"""Who is logged in on the page: staff sessions, their CSRF tokens, the limit on guessing.

A login that gives a staff account's password gets a session: a random token kept in a cookie
(HttpOnly, SameSite=Strict, Secure: R181) and a separate random CSRF token that every changing
form carries. A session ends at logout, ``SESSION_SECONDS`` after the login, or as soon as its
account changes or is removed (the page checks the account at each request: R814). Wrong
passwords slow their address down: after the first ``FREE_TRIES``, each wrong one doubles the
wait before that address may try again (up to ``MAX_WAIT``), and a good login clears it; an
IPv6 /64 has ``FREE_TRIES_PER_NETWORK`` (R768). One password at a time is checked per
address, so that parallel tries cannot outrun the count. The secrets, the comparison and the
limit are the web guard's, shared with the table's page (R770). Sessions are kept in
``RECORD.sessions`` (``session_file``) as well as in memory: a restarted hub keeps everyone
logged in (R813). Only the token's SHA-256 is kept, in memory as in the file.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from firmware_py.director.hub.page.session_file import DirectorSession, SessionFile
from firmware_py.table.web.guard import DoublingWait, new_secret, same_secret

__all__ = ["AccessError", "DirectorSession", "DirectorSessions", "token_key"]

SESSION_SECONDS = 12 * 3600  # a tournament day
MAX_SESSIONS = 64  # each staff member's laptop and phone: past it the oldest goes first
FREE_TRIES = 3
FREE_TRIES_PER_NETWORK = 10  # an IPv6 /64: one device may hold all its addresses
FIRST_WAIT = 2.0  # seconds, doubled for each further wrong password
MAX_WAIT = 300.0
MAX_ADDRESSES = 1024  # addresses with wrong passwords kept; past it the oldest are forgotten


class AccessError(Exception):
    """Why a request may not do what it asks; ``str()`` is the one line the page shows."""


def token_key(token: str) -> str:
    """What is kept of a cookie's token: its SHA-256 (the token itself is 256 random bits)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class DirectorSessions:
    clock: Callable[[], float]  # monotonic seconds (the loop's clock): the login limit's
    wall: Callable[[], float] = time.time  # the sessions' ends, which outlive a restart
    file: SessionFile | None = None  # where the sessions are kept (R813); None: memory only
    _sessions: dict[str, DirectorSession] = field(default_factory=dict)  # key -> session
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
        if self.file is not None:
            now = self.wall()
            kept = [s for s in self.file.load() if s.expires > now]
            self._sessions = {s.key: s for s in kept[-MAX_SESSIONS:]}

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
        return AccessError(f"that is not the name and password of a staff account{later}")

    def open(self, address: str, account: str, stamp: str) -> tuple[str, DirectorSession]:
        """A new session of ``account`` (as ``stamp`` says it is) for a good login from
        ``address``: the cookie's token, and the session."""
        self._misses.clear(address)
        self._sweep()
        while len(self._sessions) >= MAX_SESSIONS:
            del self._sessions[next(iter(self._sessions))]
        token = new_secret()
        session = DirectorSession(
            key=token_key(token),
            csrf=new_secret(),
            expires=self.wall() + SESSION_SECONDS,
            account=account,
            stamp=stamp,
        )
        self._sessions[session.key] = session
        self._save()
        return token, session

    def session(self, token: str | None) -> DirectorSession | None:
        """The session a cookie holds, while it lasts."""
        session = self._sessions.get(token_key(token)) if token else None
        if session is not None and self.wall() >= session.expires:
            self.end(session.key)
            return None
        return session

    def require(self, token: str | None, csrf: str | None) -> DirectorSession:
        """The session behind a changing request: its cookie and its CSRF token."""
        session = self.session(token)
        if session is None:
            raise AccessError("only staff may change the record: log in first")
        if not same_secret(csrf, session.csrf):
            raise AccessError("the form's security token is missing or stale: reload the page")
        return session

    def close(self, token: str | None) -> None:
        """Logout: the session of this cookie ends."""
        if token:
            self.end(token_key(token))

    def end(self, key: str) -> None:
        """The session of this key ends (logout, its end, its account changed)."""
        if self._sessions.pop(key, None) is not None:
            self._save()

    def _sweep(self) -> None:
        now = self.wall()
        for key, session in list(self._sessions.items()):
            if now >= session.expires:
                del self._sessions[key]

    def _save(self) -> None:
        if self.file is not None:
            self.file.save(self._sessions.values())
