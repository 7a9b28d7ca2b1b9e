"""The tournament record's file: what is refused before SQLite may touch it (anything but an
SQLite database of a readable schema), a new record made beside its name and removed on
failure (R700), and the connection every ``TournamentDB`` holds.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import suppress
from pathlib import Path

from firmware_py.director.record.schema import READABLE_SCHEMAS
from firmware_py.user_files import UserFileError, require_nothing_at
from rules.errors import IllegalAction, InvalidInput

SQLITE_HEADER = b"SQLite format 3\x00"
# a day record's application_id, bytes 68-71 of its header (day.py): told apart before SQLite
# opens it, here and there
DAY_HEADER_ID = b"gtdy"


def require_sqlite_file(path: Path) -> None:
    """A regular file that starts as an SQLite database does; an empty file, a text file or a
    directory is refused untouched (opening it read-write would turn it into a database)."""
    if not path.is_file():
        raise InvalidInput(f"{path} is not a tournament record: not a regular file")
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror or error}") from None
    if not header.startswith(SQLITE_HEADER) or len(header) < 100:
        raise InvalidInput(f"{path} is not a tournament record: not an SQLite database")
    if header[68:72] == DAY_HEADER_ID:  # a day record (day.py)
        raise InvalidInput(
            f"{path} is a day record, not one event's: name it with --day and the event with "
            "--event"
        )
    # The header's user_version (bytes 60-63): another database is refused before SQLite
    # opens it, since opening a WAL database leaves -wal and -shm files beside it.
    version = int.from_bytes(header[60:64], "big")
    if version not in READABLE_SCHEMAS:
        raise other_schema(path, version)


def other_schema(path: Path, version: int) -> InvalidInput:
    what = "of this version" if version else "(it holds no tournament)"
    readable = " or ".join(str(schema) for schema in READABLE_SCHEMAS)
    return InvalidInput(
        f"{path} is not a tournament record {what}: schema {version}, expected {readable}"
    )


def unreadable(path: Path, error: sqlite3.DatabaseError) -> InvalidInput:
    """Why SQLite could not read a record: held by another program (a lock, to try again:
    R1153), or not a tournament record at all."""
    if error.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return InvalidInput(
            f"{path} is in use by another program ({error}): try again once it is free"
        )
    return InvalidInput(f"{path} is not a tournament record: {error}")


def require_new(path: Path) -> None:
    try:
        require_nothing_at(path, "a new tournament record")
    except UserFileError as error:
        raise IllegalAction(f"{error} (choose another with --db)") from None
    if not path.parent.is_dir():
        raise InvalidInput(f"cannot create {path}: no directory {path.parent}")


def create_private_beside(path: Path) -> Path:
    """A new empty file of this process's own beside ``path``, 0640 like the journal whatever
    the umask: SQLite then gives its -wal and -shm files the same mode."""
    try:
        descriptor, name = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".creating", dir=path.parent
        )
        os.close(descriptor)
        os.chmod(name, 0o640)
    except OSError as error:
        raise InvalidInput(f"cannot create {path}: {error.strerror or error}") from None
    return Path(name)


def remove_with_sides(making: Path) -> None:
    """The file a creation made under its own name, and SQLite's files beside it: gone once
    the record has its name (the name is a second link to it), or after a failure."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with suppress(FileNotFoundError):
            making.with_name(making.name + suffix).unlink()


BUSY_SECONDS = 5.0  # how long a write waits for a record another program is writing


def connect_record(path: Path, *, create: bool) -> sqlite3.Connection:
    mode = "rwc" if create else "rw"
    try:
        connection = sqlite3.connect(
            f"{path.absolute().as_uri()}?mode={mode}",
            uri=True,
            isolation_level=None,
            timeout=BUSY_SECONDS,
        )
    except sqlite3.Error as error:
        raise InvalidInput(f"cannot open {path}: {error}") from None
    try:
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA foreign_keys = ON")
        if create:  # an existing file is checked to be a record before anything is set on it
            connection.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error as error:
        connection.close()
        raise InvalidInput(f"{path} is not a tournament record: {error}") from None
    return connection
