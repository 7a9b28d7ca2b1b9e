"""The staff accounts of the hub's page, kept in the tournament record (R810-R812).

Each account has a name, a role and a password (its salted scrypt line, made as the director's
password always was: ``page/password.py``). Roles nest (R811): a ``viewer`` reads every staff
view and changes nothing; ``results`` staff also enter a match's first result; a ``director``
also amends results, pairs rounds and manages the staff.

The record is append-only, so the accounts are too: the ``staff`` table holds every change as
a row (added, password, removed, migrated) with who made it and when, and an account is the
latest row of its name. The table is made by the first change (R810). Until the record holds a
row named ``director``, the director's password file beside it (``RECORD.director``, the one
shared password of the past) is the account ``director``; the first change writes it into the
record as it is, and the file is not read again (R812).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from firmware_py.director.hub.staff_password import (
    check_new_password,
    hash_password,
    password_path,
    read_stored,
)
from rules.errors import IllegalAction, InvalidInput, echoed

DIRECTOR_ACCOUNT = "director"  # the one account of the past, and the name "by" has always had
# A login without a name is the account director's (R815); once that account is removed, such
# a login is refused in these words, and removing it says so (R851).
NAMELESS_REFUSED = (
    "a login without a name was the account director's, which has been removed: "
    "give your own staff name"
)
NAMELESS_ENDS = (
    "a login without a name no longer works: staff log in by name (adding the account "
    "director again brings it back)"
)
NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,31}")
MAX_NAME = 32


class Role(StrEnum):
    DIRECTOR = "director"
    RESULTS = "results"
    VIEWER = "viewer"


RANK = {Role.VIEWER: 0, Role.RESULTS: 1, Role.DIRECTOR: 2}
# How a role is named in a sentence: "sam is results staff"
ROLE_WORDS = {Role.DIRECTOR: "a director", Role.RESULTS: "results staff", Role.VIEWER: "a viewer"}
# What an action needs, in a sentence: "pairing a round needs a director's account"
NEEDS_WORDS = {
    Role.DIRECTOR: "a director's account",
    Role.RESULTS: "a results or director's account",
    Role.VIEWER: "a staff account",
}

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS staff (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        what TEXT NOT NULL CHECK (what IN ('added', 'password', 'removed', 'migrated')),
        role TEXT CHECK (role IN ('director', 'results', 'viewer')),
        password TEXT,
        entered_by TEXT NOT NULL,
        entered_at TEXT NOT NULL,
        CHECK ((what = 'removed') = (role IS NULL)),
        CHECK ((role IS NULL) = (password IS NULL)))""",
    "CREATE INDEX IF NOT EXISTS staff_by_name ON staff(name, id)",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS staff_{verb}_refused BEFORE {verb.upper()} ON staff
        BEGIN SELECT RAISE(ABORT, 'the tournament record is append-only'); END"""
        for verb in ("update", "delete")
    ),
)


@dataclass(frozen=True, slots=True)
class StaffAccount:
    name: str
    role: Role
    password: str  # the scrypt line, never the password
    changed_by: str
    changed_at: str
    in_file: bool = False  # the director's password file's, not yet in the record (R812)

    @property
    def stamp(self) -> str:
        """The account as it is: a session opened with it lasts while this stays (R814)."""
        held = f"{self.name}\0{self.role.value}\0{self.password}".encode()
        return hashlib.sha256(held).hexdigest()[:32]

    def may(self, needs: Role) -> bool:
        return RANK[self.role] >= RANK[needs]


def check_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise InvalidInput(
            f"staff name {name[: MAX_NAME + 8]!r}: expected 1 to {MAX_NAME} lowercase letters, "
            "digits, '.', '-' or '_', starting with a letter or a digit"
        )
    return name


def parse_role(text: str) -> Role:
    try:
        return Role(text)
    except ValueError:
        raise InvalidInput(f"role {text[:20]!r}: expected director, results or viewer") from None


def hash_new_password(password: str) -> str:
    """A new account's password checked (10 to 256 printable characters) and hashed; slow on
    purpose (scrypt): the page calls it off its loop."""
    return hash_password(check_new_password(password))


class StaffHolder(Protocol):
    """What holds staff accounts: a tournament record, or a day's record, whose accounts are
    every event's (issue 27, R1141)."""

    @property
    def path(self) -> Path: ...

    @property
    def connection(self) -> sqlite3.Connection: ...

    def writing(self) -> AbstractContextManager[None]: ...


class StaffRecord:
    """The staff accounts of one tournament record (or of a day: ``StaffHolder``)."""

    def __init__(self, record: StaffHolder) -> None:
        self.record = record
        self._db = record.connection

    # -- reading -------------------------------------------------------------------------

    def accounts(self) -> tuple[StaffAccount, ...]:
        """Every account as it is now, by name."""
        found: dict[str, StaffAccount] = {}
        if self._has_table():
            rows = self._db.execute(
                """SELECT s.* FROM staff s WHERE s.id = (SELECT MAX(id) FROM staff l
                   WHERE l.name = s.name) AND s.role IS NOT NULL ORDER BY s.name"""
            )
            found = {row["name"]: _account(row) for row in rows}
        in_file = self._from_file()
        if in_file is not None:
            found[DIRECTOR_ACCOUNT] = in_file
        return tuple(found[name] for name in sorted(found))

    def find(self, name: str) -> StaffAccount | None:
        """The account of that name as it is now, or None (never had, or removed)."""
        row = None
        if self._has_table():
            row = self._db.execute(
                "SELECT * FROM staff WHERE name = ? ORDER BY id DESC LIMIT 1", (name,)
            ).fetchone()
        if row is None:
            return self._from_file() if name == DIRECTOR_ACCOUNT else None
        return None if row["role"] is None else _account(row)

    # -- changing: each in one transaction, which writes the file's director first -------

    def add(self, name: str, role: Role, hashed: str, *, now: str, by: str) -> StaffAccount:
        """A new account (``hashed``: :func:`hash_new_password`'s line)."""
        check_name(name)
        if name == DIRECTOR_ACCOUNT and role is not Role.DIRECTOR:
            raise InvalidInput(
                f"the account {DIRECTOR_ACCOUNT!r} is the director's: expected --role director"
            )
        with self._changing(now):
            current = self.find(name)
            if current is not None:
                raise IllegalAction(
                    f"staff account {name!r} exists ({ROLE_WORDS[current.role]}): remove it "
                    f"first, or change its password with 'gametable hub staff password {name}'"
                )
            self._insert(name, "added", role, hashed, now=now, by=by)
            added = self.find(name)
        assert added is not None
        return added

    def set_password(self, name: str, hashed: str, *, now: str, by: str) -> StaffAccount:
        """A new password for an account; the account ``director`` is made if there is none
        (``gametable hub director-password``, as before)."""
        check_name(name)
        with self._changing(now):
            current = self.find(name)
            if current is None and name != DIRECTOR_ACCOUNT:
                raise IllegalAction(
                    f"no staff account {echoed(name)}: expected one of {self._names()}"
                )
            role = Role.DIRECTOR if current is None else current.role
            self._insert(name, "password" if current else "added", role, hashed, now=now, by=by)
            changed = self.find(name)
        assert changed is not None
        return changed

    def remove(self, name: str, *, now: str, by: str) -> StaffAccount:
        """End an account (its sessions end with it, R814); never the last director's."""
        with self._changing(now):
            current = self.find(name)
            if current is None:
                raise IllegalAction(
                    f"no staff account {echoed(name)}: expected one of {self._names()}"
                )
            directors = [a for a in self.accounts() if a.role is Role.DIRECTOR]
            if current.role is Role.DIRECTOR and len(directors) == 1:
                raise IllegalAction(
                    f"{name!r} is the last director's account: add another director first "
                    "(nobody could then manage the staff or amend a result)"
                )
            self._insert(name, "removed", None, None, now=now, by=by)
        return current

    def migrate(self, *, now: str) -> bool:
        """Write the director's password file into the record, if it is still the account
        ``director`` (R812); True if it was."""
        if self._from_file() is None:
            return False
        with self._changing(now):
            pass
        return True

    # -- helpers -------------------------------------------------------------------------

    @contextmanager
    def _changing(self, now: str) -> Iterator[None]:
        """One write transaction of the record, the staff table ready in it."""
        with self.record.writing():
            self._ensure(now)
            yield

    def _ensure(self, now: str) -> None:
        """In a write transaction: the table, and the file's director written into it."""
        for statement in _SCHEMA:
            self._db.execute(statement)
        in_file = self._from_file()
        if in_file is not None:
            by = f"migration of {password_path(self.record.path).name}"
            self._insert(
                DIRECTOR_ACCOUNT, "migrated", Role.DIRECTOR, in_file.password, now=now, by=by
            )

    def _insert(
        self, name: str, what: str, role: Role | None, hashed: str | None, *, now: str, by: str
    ) -> None:
        self._db.execute(
            """INSERT INTO staff (name, what, role, password, entered_by, entered_at)
               VALUES (?,?,?,?,?,?)""",
            (name, what, None if role is None else role.value, hashed, by, now),
        )

    def _has_table(self) -> bool:
        return (
            self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'staff'"
            ).fetchone()
            is not None
        )

    def _from_file(self) -> StaffAccount | None:
        """The director's password file as the account ``director``, while the record holds
        no row of that name (R812)."""
        if (
            self._has_table()
            and self._db.execute(
                "SELECT 1 FROM staff WHERE name = ?", (DIRECTOR_ACCOUNT,)
            ).fetchone()
            is not None
        ):
            return None
        stored = read_stored(self.record.path)  # DirectorPasswordError: a damaged file, named
        if stored is None:
            return None
        where = password_path(self.record.path).name
        return StaffAccount(DIRECTOR_ACCOUNT, Role.DIRECTOR, stored, where, "", in_file=True)

    def _names(self) -> str:
        names = [account.name for account in self.accounts()]
        return ", ".join(names) if names else "none yet"


def _account(row: sqlite3.Row) -> StaffAccount:
    return StaffAccount(
        row["name"], Role(row["role"]), row["password"], row["entered_by"], row["entered_at"]
    )
