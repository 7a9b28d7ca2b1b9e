"""The broker's accounts: one line per user in mosquitto's password file (docs/hub.md).

Each table logs in as its number ("7") and the hub as ``hub``. A password is added or changed
with ``mosquitto_passwd`` when it is installed, else written here in the format mosquitto reads
(``user:$7$<iterations>$<salt>$<hash>``: PBKDF2-HMAC-SHA512, base64, as mosquitto_passwd
writes it). Either way the file is changed all at once or not at all: the change is made on a
copy beside it, checked (the new password verifies, every other line is as it was) and renamed
into place, mode 0640 with the owner and group the file had. ``mosquitto_passwd`` is never
given a file it would not read whole (it rewrites such a file with the new line alone), and the
password never appears on a command line.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from firmware_py.director.hub.bridges import is_bridge_account
from firmware_py.table.hub_wire import MAX_TABLE, table_number
from firmware_py.user_files import (
    UserFileError,
    read_limited_bytes,
    read_limited_text,
    require_replaceable,
)

HUB_USER = "hub"
PBKDF2 = "7"  # mosquitto's hash kind: $7$ is PBKDF2-HMAC-SHA512
ITERATIONS = 101  # mosquitto_passwd's own count
SALT_BYTES = 12
MODE = 0o640  # root (or the director) writes it, the broker's group reads it
MAX_PASSWORD = 256
MAX_FILE = 1024 * 1024  # a line of about 150 bytes per account: 1 MiB is thousands of tables
GENERATED_BYTES = 24  # a generated password: 32 characters of URL-safe base64


class PasswordError(Exception):
    """A password file or an account that cannot be used; ``str()`` is one line."""


@dataclass(frozen=True, slots=True)
class Account:
    user: str
    hash: str  # as written after the colon

    @property
    def line(self) -> str:
        return f"{self.user}:{self.hash}"


def check_user(user: str) -> str:
    """A tournament account: a table's number or the hub."""
    if user == HUB_USER or table_number(user) is not None:
        return user
    raise PasswordError(f"unknown account {user!r}: expected a table number 1-{MAX_TABLE} or hub")


def check_account(user: str) -> str:
    """Any account of the broker's: a table's, the hub's or a hall's bridge's (R1000)."""
    return user if is_bridge_account(user) else check_user(user)


def check_password(password: str) -> str:
    if not 1 <= len(password) <= MAX_PASSWORD or not password.isprintable():
        raise PasswordError(
            f"a password of {len(password)} characters: expected 1 to {MAX_PASSWORD} "
            "printable characters on one line"
        )
    return password


def new_password() -> str:
    return secrets.token_urlsafe(GENERATED_BYTES)


def read_accounts(path: Path) -> list[Account]:
    """The accounts in a password file; none when there is no file yet. A line that is not
    ``user:hash`` is refused, naming it: mosquitto_passwd would destroy such a file."""
    check_password_file(path)
    if not os.path.lexists(path):
        return []
    try:
        text = read_limited_text(path, MAX_FILE, "a password file")
    except UserFileError as error:
        raise PasswordError(str(error)) from None
    accounts = []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the file's final line break
    for number, line in enumerate(lines, start=1):
        user, colon, hashed = line.partition(":")
        if not colon or not user or not hashed.startswith(("$6$", "$7$")):
            raise PasswordError(
                f"{path} line {number}: expected user:$7$... as mosquitto_passwd writes it"
            )
        accounts.append(Account(user, hashed))
    return accounts


def hashed(password: str, *, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    """mosquitto's PBKDF2-SHA512 form of a password."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations)
    encoded = (base64.b64encode(part).decode("ascii") for part in (salt, digest))
    return f"${PBKDF2}${iterations}${'$'.join(encoded)}"


def verifies(hash_text: str, password: str) -> bool:
    """Whether a PBKDF2 entry (``$7$...``) is this password's."""
    parts = hash_text.split("$")
    if len(parts) != 5 or parts[1] != PBKDF2 or not parts[2].isdecimal():
        return False
    try:
        salt, digest = (base64.b64decode(part, validate=True) for part in parts[3:])
    except ValueError:
        return False
    iterations = int(parts[2])
    expected = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations)
    return hmac.compare_digest(expected, digest)


def check_password_file(path: Path) -> None:
    """The file is changed by a rename over it: only a regular file (or nothing) is, never a
    device, a FIFO or a link, which the rename would replace with a regular file (R701)."""
    if not path.parent.is_dir():
        raise PasswordError(f"cannot write {path}: no directory {path.parent}")
    try:
        require_replaceable(path, "the broker's accounts")
    except UserFileError as error:
        raise PasswordError(str(error)) from None


def set_password(path: Path, user: str, password: str) -> tuple[bool, str]:
    """Add or change ``user``'s password in the file at ``path`` (created when missing);
    whether the user is new, and what wrote the line."""
    check_account(user)
    check_password(password)
    before = read_accounts(path)
    tool = shutil.which("mosquitto_passwd")
    with _copy_beside(path) as copy:
        if tool is not None:
            _with_mosquitto_passwd(tool, copy, user, password, fresh=not before)
            writer = "mosquitto_passwd"
        else:
            _with_python(copy, before, user, password)
            writer = "gametable (no mosquitto_passwd)"
        _check_change(copy, path, before, user, password)
        _put_in_place(copy, path)
    return all(account.user != user for account in before), writer


@contextlib.contextmanager
def _copy_beside(path: Path) -> Iterator[Path]:
    """A private copy of the file (or an empty one) in its directory, removed unless renamed."""
    try:
        descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as error:
        raise PasswordError(f"cannot write beside {path}: {error.strerror or error}") from None
    copy = Path(name)
    try:
        with os.fdopen(descriptor, "wb") as out:
            if os.path.lexists(path):
                out.write(read_limited_bytes(path, MAX_FILE, "a password file"))
        yield copy
    except OSError as error:
        raise PasswordError(f"cannot write {path}: {error.strerror or error}") from None
    except UserFileError as error:
        raise PasswordError(str(error)) from None
    finally:
        copy.unlink(missing_ok=True)


def _with_mosquitto_passwd(tool: str, copy: Path, user: str, password: str, fresh: bool) -> None:
    # -c only for a file with nothing in it: mosquitto_passwd reads no file then. The password
    # goes twice on stdin (it asks again), never on the command line.
    command = [tool, *(["-c"] if fresh else []), str(copy), user]
    try:
        done = subprocess.run(
            command,
            input=f"{password}\n{password}\n",
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise PasswordError(f"cannot run {tool}: {error}") from None
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise PasswordError(f"mosquitto_passwd refused: {said}")


def _with_python(copy: Path, before: list[Account], user: str, password: str) -> None:
    entry = Account(user, hashed(password))
    accounts = [entry if account.user == user else account for account in before]
    if entry not in accounts:
        accounts.append(entry)
    copy.write_text("".join(f"{account.line}\n" for account in accounts), encoding="utf-8")


def _check_change(copy: Path, path: Path, before: list[Account], user: str, password: str) -> None:
    """The copy holds every other account as it was, and this one with this password."""
    after = read_accounts(copy)
    others_before = [account for account in before if account.user != user]
    others_after = [account for account in after if account.user != user]
    mine = [account for account in after if account.user == user]
    if others_after != others_before or len(mine) != 1 or not verifies(mine[0].hash, password):
        raise PasswordError(f"{path} was not changed: the new password did not check out")


def _put_in_place(copy: Path, path: Path) -> None:
    check_password_file(path)  # once more: it may have changed while the copy was made
    try:
        if path.exists():
            owner = path.stat()
            with contextlib.suppress(PermissionError):  # only root may give a file away
                os.chown(copy, owner.st_uid, owner.st_gid)
        os.chmod(copy, MODE)
        with copy.open("rb") as file:
            os.fsync(file.fileno())
        os.replace(copy, path)
    except OSError as error:
        raise PasswordError(f"cannot write {path}: {error.strerror or error}") from None
