"""Who is asking, and may they: a cookie's session with its staff account as the record holds
it now (R814), and each role's refusal in words (R811).

A session is checked against its account at every request: an account removed, or changed
(its password or its role), ends its sessions at once, whichever process changed it (the
page, or ``gametable hub staff`` beside the running hub).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from firmware_py.director.hub.page.sessions import DirectorSession
from firmware_py.director.hub.page.state import DirectorPageState
from firmware_py.director.hub.staff import (
    NEEDS_WORDS,
    ROLE_WORDS,
    Role,
    StaffAccount,
)

log = logging.getLogger("gametable")


@dataclass(frozen=True, slots=True)
class StaffSession:
    session: DirectorSession
    account: StaffAccount
    # on a day's page: the one event this account is staff of, when the page is another
    # event's (R1142): every view and change of this event is refused naming it
    elsewhere: str | None = None

    @property
    def name(self) -> str:
        return self.account.name

    @property
    def role(self) -> Role:
        return self.account.role

    @property
    def csrf(self) -> str:
        return self.session.csrf

    @property
    def key(self) -> str:
        return self.session.key


def staff_session(page: DirectorPageState, token: str | None) -> StaffSession | None:
    """The session a cookie holds, with its account, while both last."""
    session = page.sessions.session(token)
    if session is None:
        return None
    account = page.staff().find(session.account)
    if account is None or account.stamp != session.stamp:
        page.sessions.end(session.key)
        why = "removed" if account is None else "changed"
        log.info("event=page_session_ended account=%s why=account_%s", session.account, why)
        return None
    # an account of one event reads the day's own page (page.event None), any other event's
    # nothing (R1142)
    limited_to = page.account_event(account.name)
    elsewhere = limited_to if page.event not in (None, limited_to) else None
    return StaffSession(session, account, elsewhere)


def role_refusal(staff: StaffSession, needs: Role, doing: str) -> str | None:
    """Why ``staff`` may not do ``doing`` (which needs ``needs``), or None if they may."""
    if staff.elsewhere is not None:
        return (
            f"{doing} needs this event's staff or a director: {staff.name} is "
            f"{ROLE_WORDS[staff.role]} of the event {staff.elsewhere!r} only"
        )
    if staff.account.may(needs):
        return None
    return f"{doing} needs {NEEDS_WORDS[needs]}: {staff.name} is {ROLE_WORDS[staff.role]}"
