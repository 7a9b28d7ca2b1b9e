"""Passwords for the page, never kept in plain text (R180): each a salted scrypt line,
``scrypt$<n>$<r>$<p>$<salt>$<hash>`` (base64), as the staff accounts keep them in the record
(``hub/staff.py``, R810).

Before staff accounts, the director's one password was kept beside the record as
``RECORD.director`` (one such line, mode 0600, written on a copy and renamed into place).
``read_stored`` still reads that file: it is the account ``director`` until the record holds
it (R812). ``store_password`` writes it, as the hub of the past did.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path

from firmware_py.user_files import UserFileError, read_limited_text, require_replaceable

SUFFIX = ".director"
MODE = 0o600  # the hub's user alone: a hash is still worth guessing against
MIN_LENGTH = 10
MAX_LENGTH = 256
MAX_FILE = 4096  # one line of about 120 characters
# scrypt's cost: about 40 ms and 16 MiB on a Raspberry Pi 4, per login attempt
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SALT_BYTES, HASH_BYTES = 16, 32


class DirectorPasswordError(ValueError):
    """A password or a password file that cannot be used; ``str()`` is one line."""


def password_path(record: Path) -> Path:
    return record.with_name(record.name + SUFFIX)


def check_new_password(password: str) -> str:
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH or not password.isprintable():
        raise DirectorPasswordError(
            f"a password of {len(password)} characters: expected {MIN_LENGTH} to {MAX_LENGTH} "
            "printable characters on one line"
        )
    return password


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return "$".join(
        ("scrypt", str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P), _b64(salt), _b64(digest))
    )


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` (a line of :func:`hash_password`) was made of."""
    scheme, n, r, p, salt, digest = _parts(stored)
    del scheme
    given = _scrypt(password, salt, n, r, p)
    return hmac.compare_digest(given, digest)


def read_stored(record: Path) -> str | None:
    """The stored hash for ``record``'s page, or None when no password is set."""
    path = password_path(record)
    try:
        require_replaceable(path, "the director's password")
        if not os.path.lexists(path):
            return None
        line = read_limited_text(path, MAX_FILE, "one password line", "ascii").strip()
    except UserFileError as error:
        raise DirectorPasswordError(str(error)) from None
    _parts(line, path)
    return line


def store_password(record: Path, password: str) -> Path:
    """Hash ``password`` and keep it beside ``record``; the file it went to."""
    path = password_path(record)
    line = hash_password(check_new_password(password)) + "\n"
    try:  # a rename over a device, a FIFO or a link would put a regular file in its place
        require_replaceable(path, "the director's password")
    except UserFileError as error:
        raise DirectorPasswordError(str(error)) from None
    try:
        descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as error:
        raise DirectorPasswordError(
            f"cannot write in {path.parent}: {error.strerror or error}"
        ) from None
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(line)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(name, MODE)
        os.replace(name, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise DirectorPasswordError(f"cannot write {path}: {error.strerror or error}") from None
    return path


def _parts(line: str, path: Path | None = None) -> tuple[str, int, int, int, bytes, bytes]:
    fields = line.split("$")
    try:
        scheme, n, r, p, salt, digest = fields
        if scheme != "scrypt":
            raise ValueError(scheme)
        return scheme, int(n), int(r), int(p), base64.b64decode(salt), base64.b64decode(digest)
    except ValueError:
        where = "" if path is None else f"{path}: "
        raise DirectorPasswordError(
            f"{where}not a password line: expected scrypt$n$r$p$salt$hash "
            "(set it again with gametable hub director-password)"
        ) from None


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    try:
        return hashlib.scrypt(
            password.encode(), salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024, dklen=HASH_BYTES
        )
    except ValueError:
        raise DirectorPasswordError(f"scrypt parameters n={n} r={r} p={p} refused") from None


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
