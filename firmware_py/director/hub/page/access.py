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
    StaffRecord,
)

log = logging.getLogger("gametable")


@dataclass(frozen=True, slots=True)
class StaffSession:
    session: DirectorSession
    account: StaffAccount

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
    account = StaffRecord(page.record).find(session.account)
    if account is None or account.stamp != session.stamp:
        page.sessions.end(session.key)
        why = "removed" if account is None else "changed"
        log.info("event=page_session_ended account=%s why=account_%s", session.account, why)
        return None
    return StaffSession(session, account)


def role_refusal(staff: StaffSession, needs: Role, doing: str) -> str | None:
    """Why ``staff`` may not do ``doing`` (which needs ``needs``), or None if they may."""
    if staff.account.may(needs):
        return None
    return f"{doing} needs {NEEDS_WORDS[needs]}: {staff.name} is {ROLE_WORDS[staff.role]}"
