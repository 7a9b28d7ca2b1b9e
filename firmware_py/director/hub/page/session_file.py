"""The page's sessions kept beside the record (``RECORD.sessions``, mode 0600), so that a
restarted hub keeps everyone logged in (R813).

The file is JSON: for each session the SHA-256 of its cookie's token (never the token: the
file cannot be replayed as a cookie), its CSRF token, its account, the account's stamp at the
login and its end on the wall clock. It is written on a copy beside it and renamed into place,
so it is the old list or the new one, never half of either. A file that cannot be read is
logged and read as no session: everyone logs in again, nothing else is lost.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.user_files import UserFileError, read_limited_text, require_replaceable

log = logging.getLogger("gametable")

SUFFIX = ".sessions"
MODE = 0o600  # a CSRF token is half of a change: the hub's user alone reads it
MAX_FILE = 256 * 1024  # far more than MAX_SESSIONS sessions of about 250 bytes


@dataclass(frozen=True, slots=True)
class DirectorSession:
    """A staff member's login on the page: its cookie's token is the browser's alone."""

    key: str  # the SHA-256 (hex) of the cookie's token
    csrf: str
    expires: float  # seconds since the epoch: it outlives a restart of the hub
    account: str  # the staff account's name
    stamp: str  # the account as it was at the login (StaffAccount.stamp, R814)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "csrf": self.csrf,
            "expires": self.expires,
            "account": self.account,
            "stamp": self.stamp,
        }

    @classmethod
    def from_json(cls, data: Any) -> DirectorSession:
        if not isinstance(data, dict):
            raise ValueError("a session that is not an object")
        fields = ("key", "csrf", "account", "stamp")
        if any(not isinstance(data.get(name), str) for name in fields):
            raise ValueError(f"a session without its {', '.join(fields)} as text")
        expires = data.get("expires")
        if isinstance(expires, bool) or not isinstance(expires, (int, float)):
            raise ValueError("a session without its end as a number")
        return cls(data["key"], data["csrf"], float(expires), data["account"], data["stamp"])


def sessions_path(record: Path) -> Path:
    return record.with_name(record.name + SUFFIX)


@dataclass(frozen=True, slots=True)
class SessionFile:
    path: Path

    def load(self) -> list[DirectorSession]:
        """The sessions kept, or none when there is no file or it cannot be read (logged)."""
        try:
            require_replaceable(self.path, "the page's sessions")
            if not os.path.lexists(self.path):
                return []
            data = json.loads(read_limited_text(self.path, MAX_FILE, "the page's sessions"))
            if not isinstance(data, dict) or not isinstance(data.get("sessions"), list):
                raise ValueError('expected {"sessions": [...]}')
            return [DirectorSession.from_json(item) for item in data["sessions"]]
        except (UserFileError, ValueError) as error:
            log.warning("event=page_sessions_unread path=%s error=%s", self.path, error)
            return []

    def save(self, sessions: Iterable[DirectorSession]) -> None:
        """Replace the file with ``sessions``; a failure is logged: the sessions still hold
        until the hub stops."""
        text = json.dumps({"sessions": [s.to_json() for s in sessions]}, indent=1) + "\n"
        try:
            require_replaceable(self.path, "the page's sessions")
            descriptor, name = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        except (UserFileError, OSError) as error:
            log.error("event=page_sessions_unsaved path=%s error=%s", self.path, error)
            return
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(name, MODE)
            os.replace(name, self.path)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(name)
            log.error("event=page_sessions_unsaved path=%s error=%s", self.path, error)
