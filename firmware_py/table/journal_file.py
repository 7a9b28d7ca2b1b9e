"""What is at a journal's path, and the few things ever done to the files there.

A path is used only when it holds a journal (an SQLite database tagged with the journal's
application id) or nothing. Anything else (a directory, a FIFO, a device, a text file, another
program's database, a file this user cannot read) is refused with one line and left as it was.
Reading never writes: not the journal, not its mode, not a file beside it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import logging
import os
import re
import shutil
import sqlite3
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from urllib.parse import quote

APPLICATION_ID = 0x676D746A  # "gmtj", at offset 68 of the SQLite header: a gametable journal
SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's files beside a database
# The writer's note of which file its -wal belongs to: SQLite finds a -wal by name alone, so a
# journal copied in beside another's -wal would be read with its pages over its own (R914).
OWNER = "-owner"
# The service user's record, not the world's. SQLite gives the -wal and -shm it creates the
# database file's own mode, so creating the journal with it covers all three (R124).
MODE = 0o640
# A side file found with no journal of its own is kept under this suffix: SQLite finds a -wal or
# -shm only by its database's name plus the suffix, so it is never read into a new journal (R900).
ORPHAN = "orphan"
# A reader's look for a live writer holds the writer's lock for a moment: a table starting then
# tries again for this long before it calls the journal in use (R901).
WRITER_LOCK_PATIENCE = 0.25  # seconds
# Opening a journal to record to (finding it, moving it aside, making a new one, taking the
# writer's lock) is done by one table at a time in a directory: a second one started meanwhile
# waits this long for the first to hold its journal, then is refused as the writer's lock would
# refuse it (R906). An opening takes well under a second; a killed one holds nothing.
OPENING_PATIENCE = 2.0  # seconds

log = logging.getLogger("gametable")

_NOT_REGULAR = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


class JournalError(Exception):
    """The journal cannot be used; ``str()`` is one line naming the file."""


class Found(Enum):
    NOTHING = "nothing"
    JOURNAL = "a journal"  # tagged with APPLICATION_ID
    UNTAGGED = "an untagged SQLite database"  # an old journal, or some other program's


def identify(path: Path) -> Found:
    """What is at ``path``, judged from the file system and the SQLite header alone: nothing
    is opened but a regular file (opening a serial port would reset what is on it)."""
    try:
        kind = stat.S_IFMT(os.stat(path).st_mode)
    except FileNotFoundError:
        return Found.NOTHING
    except NotADirectoryError:
        raise JournalError(f"cannot use {path}: part of its path is not a directory") from None
    except OSError as error:
        raise JournalError(f"cannot use {path}: {_why(error)}") from None
    if kind != stat.S_IFREG:
        raise JournalError(f"{path} is {_NOT_REGULAR.get(kind, 'not a file')}, not a journal")
    header = _read_header(path)
    if not header:
        raise JournalError(f"{path} is an empty file, not a journal")
    if not header.startswith(SQLITE_MAGIC) or len(header) < HEADER_SIZE:
        raise JournalError(f"{path} is not a journal (not an SQLite database)")
    application_id = int.from_bytes(header[68:72], "big")
    if application_id == APPLICATION_ID:
        return Found.JOURNAL
    if application_id == 0:
        return Found.UNTAGGED
    raise JournalError(f"{path} is not a journal (another program's SQLite database)")


def _read_header(path: Path) -> bytes:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        raise JournalError(f"cannot read {path}: {_why(error)}") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # swapped since the stat
            raise JournalError(f"{path} is not a regular file, not a journal")
        return os.read(descriptor, HEADER_SIZE)
    except OSError as error:
        raise JournalError(f"cannot read {path}: {_why(error)}") from None
    finally:
        os.close(descriptor)


def _why(error: OSError) -> str:
    return error.strerror or type(error).__name__


# Below this much room a journal cannot be opened or grown: SQLite needs 32 KiB for a new -shm
# and a page or more for each commit's -wal frames.
ROOM_NEEDED = 1 << 20  # bytes
DISK_FULL = "the disk it is on is full ({free} free): make room on that disk, then start again"


def reason(error: OSError | sqlite3.Error, path: Path) -> str:
    """Why an operation on the journal at ``path`` failed, for a person. A full disk is said in
    those words with what to do, whatever SQLite called it: a -shm it cannot size is a "disk
    I/O error" to SQLite (R903)."""
    said = _why(error) if isinstance(error, OSError) else str(error).splitlines()[0]
    code = getattr(error, "sqlite_errorcode", None)
    free = room(path)
    full = (code is not None and code & 0xFF == sqlite3.SQLITE_FULL) or (
        isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)
    )
    if full or (free is not None and free < ROOM_NEEDED):
        return DISK_FULL.format(free=_bytes(free))
    return said


def room(path: Path) -> int | None:
    """The bytes free to this user on the file system of ``path``'s directory, if known."""
    try:
        found = os.statvfs(path.parent)
    except OSError:
        return None
    return found.f_bavail * found.f_frsize


def _bytes(count: int | None) -> str:
    if count is None:
        return "no room"
    return f"{count / 1024:.0f} KiB" if count < (1 << 20) else f"{count / (1 << 20):.1f} MiB"


# --- reading -----------------------------------------------------------------------------------


def connect_read_only(
    path: Path, *, writer_place_held: bool = False
) -> tuple[sqlite3.Connection, Callable[[], None]]:
    """A connection that cannot change the journal or create anything beside it, and how to
    close it. The way depends on the files beside it (R121):

    - no ``-wal``: every commit is in the journal file; ``immutable`` reads it with no locks
      and no side files (a plain read-only open would create ``-wal`` and ``-shm``);
    - ``-wal`` and ``-shm`` of a table recording now: ``readonly_shm`` reads both, the latest
      commits included, without writing either;
    - a ``-wal`` with no live writer (a table killed, a journal copied off a table, or the
      caller holding the writer's place, ``writer_place_held``): the ``-shm`` is a dead
      writer's and may not match the ``-wal`` (``readonly_shm`` then retries for ten seconds
      before failing, R901), and rebuilding it is a write, so a private copy of the journal and
      its ``-wal`` is read instead.
    """
    real = path.resolve()  # SQLite keeps a linked database's -wal beside the file, not the link
    if not _side(real, "-wal").exists() or wal_of_another_file(real):
        return _connect(real, "mode=ro&immutable=1"), lambda: None  # its own pages alone (R914)
    if _side(real, "-shm").exists() and not writer_place_held and _writer_alive(real):
        connection = _connect(real, "mode=ro&readonly_shm=1")
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return connection, lambda: None
        except sqlite3.Error:
            connection.close()
    return _private_copy(path, real)


def identity(descriptor: int) -> str:
    """Which file this is, for as long as it exists: its device and inode, and the inode's
    generation where the file system keeps one (ext4: a file copied in where one was removed
    may get the removed one's inode number, never its generation) (R914)."""
    found = os.fstat(descriptor)
    try:
        generation = fcntl.ioctl(descriptor, FS_IOC_GETVERSION, bytes(8))
        made = str(int.from_bytes(generation[:4], sys.byteorder))
    except OSError:
        made = "-"
    return f"{found.st_dev} {found.st_ino} {made}"


FS_IOC_GETVERSION = 0x80087601  # Linux's ioctl for an inode's generation


def _identity_of(real: Path) -> str | None:
    try:
        descriptor = os.open(real, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None
    try:
        return identity(descriptor)
    finally:
        os.close(descriptor)


def wal_of_another_file(real: Path) -> bool:
    """Whether the ``-wal`` beside the journal is another file's: its writer's marker names a
    file other than the one now at the path (a journal copied in, ``cp``, where a killed
    table's was). No marker (a journal written before R914) cannot tell: the ``-wal`` is read
    as before. A journal moved with ``mv`` within its file system is the same file (R914)."""
    try:
        named = _side(real, OWNER).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    now = _identity_of(real)
    return now is not None and named != now


def _writer_alive(real: Path) -> bool:
    """Whether a table records to the journal now: it holds ``lock_writer``'s lock while it
    runs, and the lock dies with it (R127). Looked at by taking it shared for a moment, which
    writes nothing; a table starting meanwhile tries again (``WRITER_LOCK_PATIENCE``)."""
    try:
        descriptor = os.open(real, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return True  # cannot tell: SQLite's own shared reading, as before
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(descriptor)  # the lock goes with the descriptor
    return False


def _private_copy(path: Path, real: Path) -> tuple[sqlite3.Connection, Callable[[], None]]:
    copy = tempfile.TemporaryDirectory(prefix="gametable-journal-")
    private = Path(copy.name) / "journal.db"
    reading = path
    try:
        shutil.copyfile(real, private)
        reading = _side(real, "-wal")  # named when it is the one that cannot be read
        shutil.copyfile(reading, _side(private, "-wal"))
        reading = path
        connection = _connect(private, "mode=rw")
    except (OSError, sqlite3.Error) as error:
        copy.cleanup()
        reason = _why(error) if isinstance(error, OSError) else str(error)
        raise JournalError(f"cannot read {reading}: {reason}") from None

    def close() -> None:
        connection.close()
        copy.cleanup()

    return connection, close


def _connect(path: Path, query: str) -> sqlite3.Connection:
    uri = f"file:{quote(str(path.absolute()))}?{query}"
    return sqlite3.connect(uri, uri=True, isolation_level="DEFERRED", check_same_thread=False)


# --- writing -----------------------------------------------------------------------------------


def require_side_files_writable(path: Path) -> None:
    """Refuse, naming it, a ``-wal`` or ``-shm`` beside the journal that this user cannot open
    to write (a volunteer's chmod, a table once started as root and killed): SQLite would open
    the journal and fail only at its first commit ("attempt to write a readonly database"), or
    say "unable to open database file" without naming the file. Checked before SQLite opens
    the journal here: closing a descriptor of a file drops this process's POSIX locks on it."""
    real = path.resolve()  # where SQLite keeps them
    for suffix in ("-wal", "-shm"):
        side = _side(real, suffix)
        try:
            descriptor = os.open(side, os.O_RDWR | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK)
        except FileNotFoundError:
            continue
        except OSError as error:
            raise JournalError(
                f"cannot write journal {path}: its {side} cannot be opened to write ({_why(error)})"
            ) from None
        os.close(descriptor)


def connect_read_write(path: Path) -> sqlite3.Connection:
    """The writer's connection to an existing journal (``mode=rw``: never creates one). If it
    cannot be opened whole (a full disk, an I/O error), the ``-wal`` and ``-shm`` SQLite began
    are removed again: only a writer makes them, and there is only one writer."""
    real = path.resolve()  # where SQLite puts them
    made = [_side(real, suffix) for suffix in SIDE_FILES if not _side(real, suffix).exists()]
    try:
        _claim(real)  # before SQLite writes a frame to the -wal (R914)
    except OSError as error:
        raise sqlite3.OperationalError(_why(error)) from None
    connection = _connect(path, "mode=rw")
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens -wal, -shm
    except sqlite3.Error:
        connection.close()
        for side in made:
            with contextlib.suppress(FileNotFoundError):
                side.unlink()
        raise
    return connection


def _claim(real: Path) -> None:
    """Write the marker naming the journal file as the one its ``-wal`` belongs to, whole and
    durably (under another name, fsync'd, renamed), unless it names it already (R914)."""
    marker = _side(real, OWNER)
    mine = _identity_of(real)
    if mine is None:
        return  # the journal cannot be opened: SQLite says why, naming it
    with contextlib.suppress(OSError, UnicodeDecodeError):
        if marker.read_text(encoding="ascii").strip() == mine:
            return
    making = marker.with_name(marker.name + ".new")
    descriptor = os.open(making, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, MODE)
    try:
        os.write(descriptor, f"{mine}\n".encode("ascii"))
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.replace(making, marker)
    _sync(real.parent)


def set_aside_wal_of_another_file(path: Path) -> list[Path]:
    """The writer, on taking its place: a ``-wal`` and ``-shm`` that belong to another file
    than the journal at ``path`` (``wal_of_another_file``) are renamed as orphans are
    (``<name>-wal.orphan-<time>``), logged once, never read into the journal (R914)."""
    real = path.resolve()
    if not _side(real, "-wal").exists() or not wal_of_another_file(real):
        return []
    kept: list[Path] = []
    for suffix in ("-wal", "-shm"):
        side = _side(real, suffix)
        if os.path.lexists(side):
            target = _orphan_name(side)
            side.rename(target)
            kept.append(target)
    _sync(real.parent)
    log.warning(
        "event=journal_side_files_set_aside journal=%s kept=%s why=another journal file's, "
        "not this one's (its -owner names another file): kept under names no journal reads",
        path,
        ",".join(str(name) for name in kept),
    )
    return kept


def lock_writer(path: Path) -> Callable[[], None]:
    """Take the journal's one writer's place, and how to give it up. An exclusive ``flock`` on
    the journal file, held while the writer has it open: a second ``gametable run`` (or
    ``sim --journal``) on the same journal is refused before it touches anything, instead of
    interleaving its decisions with the first one's (R127). ``flock`` is separate from SQLite's
    own POSIX locks, so closing this descriptor never drops those.

    The lock is the writer's place only while the file locked is still the one at ``path``: a
    table that waited for it while another moved the journal aside would otherwise hold the
    lock of the file moved aside and record to the new one beside its writer (R906)."""
    deadline = time.monotonic() + WRITER_LOCK_PATIENCE
    while True:
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise JournalError(_in_use(path)) from None  # moved aside by another meanwhile
        except OSError as error:
            raise JournalError(f"cannot open journal {path} to write: {_why(error)}") from None
        left = max(0.0, deadline - time.monotonic())
        if not _flock_within(descriptor, left):
            os.close(descriptor)
            raise JournalError(_in_use(path)) from None
        if _still_at(descriptor, path):
            try:
                set_aside_wal_of_another_file(path)  # before anything reads the -wal (R914)
            except OSError as error:
                os.close(descriptor)
                raise JournalError(f"cannot open journal {path} to write: {_why(error)}") from None
            return _giving_up(path, descriptor)
        os.close(descriptor)  # the lock of a file moved aside: the one now at the path's
        if time.monotonic() >= deadline:
            raise JournalError(_in_use(path)) from None


def _giving_up(path: Path, descriptor: int) -> Callable[[], None]:
    def give_up() -> None:
        drop_settled_claim(path)
        os.close(descriptor)

    return give_up


def drop_settled_claim(path: Path) -> None:
    """The writer's marker removed once no ``-wal`` is left (a journal closed whole): every page
    is in the file, so there is nothing to tell apart, and a closed journal is one file, as it
    always was. Only by the journal's one writer, as it gives up its place (R914)."""
    real = path.resolve()
    if not _side(real, "-wal").exists():
        with contextlib.suppress(OSError):
            _side(real, OWNER).unlink()


def _still_at(descriptor: int, path: Path) -> bool:
    try:
        now = os.stat(path)
    except OSError:
        return False
    held = os.fstat(descriptor)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def lock_opening(path: Path) -> Callable[[], None]:
    """Hold the journal's directory while a table opens the journal to record to, and how to
    let go. Without it, a table started while another moved the journal aside or made a new
    one took the other's lock on the file moved aside for the writer's place, or its journal
    being made for one a kill left behind: both recorded, one into files no longer at the path
    (R906). An exclusive ``flock`` on the directory: it writes nothing, and goes with the
    process (a killed table leaves nothing to clear)."""
    try:
        descriptor = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as error:
        raise JournalError(
            f"cannot open journal {path} to write: its directory {path.parent} cannot be read "
            f"({_why(error)})"
        ) from None
    if not _flock_within(descriptor, OPENING_PATIENCE):
        os.close(descriptor)
        raise JournalError(_in_use(path)) from None
    return lambda: os.close(descriptor)


def _in_use(path: Path) -> str:
    return (
        f"journal {path} is in use by another gametable: one table at a time records to a "
        "journal (stop the other, or give this one another --journal)"
    )


def _flock_within(descriptor: int, seconds: float) -> bool:
    """The exclusive lock, tried until ``seconds`` have passed: a reader looking for a live
    writer holds it shared for a moment (``_writer_alive``), a writer holds it for good."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)


def require_writable(path: Path) -> None:
    """Refuse before anything is touched when the journal or its directory cannot be written
    (SQLite needs to create ``-wal`` and ``-shm`` beside it)."""
    directory = path.parent
    if not directory.is_dir():
        raise JournalError(f"cannot create journal {path}: no directory {directory}")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise JournalError(f"cannot write journal {path}: directory {directory} is not writable")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise JournalError(f"cannot write journal {path}: the file is not writable")


def create(path: Path, initialise: Callable[[sqlite3.Connection], None]) -> None:
    """Make a journal under another name and rename it into place: a power cut during creation
    leaves no half-made journal behind, and a failure (a full disk) leaves nothing at all."""
    install(prepare(path, initialise), path)


def prepare(path: Path, initialise: Callable[[sqlite3.Connection], None]) -> Path:
    """A new journal made whole beside ``path`` (``<name>.creating``), not yet in its place:
    ``install`` renames it there. Made before a journal is moved aside, so that no moment
    passes without one or the other holding what the old journal had not delivered (R713).
    The journal at ``path`` may still have its ``-wal`` and ``-shm`` (a table killed): they
    are its own, and move aside with it (R900)."""
    making = creating(path)
    try:
        _remove(making)  # our own, from a creation a power cut interrupted
    except OSError as error:  # not a file the table made: a directory, say
        kind = _NOT_REGULAR.get(stat.S_IFMT(os.lstat(making).st_mode), "not a file")
        raise JournalError(
            f"cannot create journal {path}: {making}, the name a new journal is made under, is "
            f"{kind} ({_why(error)})"
        ) from None
    try:
        os.close(os.open(making, os.O_WRONLY | os.O_CREAT | os.O_EXCL, MODE))
        connection = sqlite3.connect(making)
        try:
            initialise(connection)
            _checkpoint_whole(connection)
        finally:
            connection.close()
        _require_no_wal(making)
        _sync(making)
    except (OSError, sqlite3.Error) as error:
        _remove(making)
        raise JournalError(f"cannot create journal {path}: {reason(error, path)}") from None
    return making


def _checkpoint_whole(connection: sqlite3.Connection) -> None:
    """Every page of the new journal into its file, its ``-wal`` emptied: only the file is
    renamed into place, so what stayed in ``<name>.creating-wal`` would be lost, leaving a
    journal SQLite calls malformed (a close does not always checkpoint: sqlite3_close_v2 waits
    for the last statement; the kill campaign caught a journal renamed with its schema left in
    the -wal)."""
    busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        raise sqlite3.OperationalError("its first checkpoint could not complete")


def _require_no_wal(making: Path) -> None:
    """The -wal is empty once checkpointed (TRUNCATE); an empty one and its -shm are removed."""
    wal = _side(making, "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise sqlite3.OperationalError(f"{wal.name} still holds pages after its checkpoint")
    for suffix in SIDE_FILES:
        with contextlib.suppress(FileNotFoundError):
            _side(making, suffix).unlink()


def settle(making: Path) -> None:
    """A journal made whole beside its place but cut short before its pages left its -wal (a
    kill between its last commit and its close): its pages into the file before ``install``
    renames the file alone. Raises ``JournalError`` if that cannot be done."""
    try:
        connection = sqlite3.connect(making)
        try:
            _checkpoint_whole(connection)
        finally:
            connection.close()
        _require_no_wal(making)
        _sync(making)
    except (OSError, sqlite3.Error) as error:
        raise JournalError(f"cannot finish journal {making}: {reason(error, making)}") from None


def install(making: Path, path: Path) -> None:
    """Rename a journal ``prepare`` made into its place, durably. Side files at ``path`` with
    no journal there are set aside first: SQLite would read them into the new journal (R900);
    if they cannot be, the journal made is kept for the next start to adopt."""
    try:
        set_aside_orphans(path)
    except OSError as error:
        raise JournalError(f"cannot create journal {path}: {_why(error)}") from None
    try:
        os.replace(making, path)
        _sync(path.parent)  # the rename itself survives a power cut
    except OSError as error:
        _remove(making)
        raise JournalError(f"cannot create journal {path}: {_why(error)}") from None


def creating(path: Path) -> Path:
    return path.with_name(f"{path.name}.creating")


def _remove(making: Path) -> None:
    for leftover in (making, *(_side(making, suffix) for suffix in SIDE_FILES)):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()


def move_aside(path: Path, why: str) -> Path:
    """Rename the journal, and its ``-wal`` and ``-shm``, to ``<path>.<why>-<time>``. Only
    ``gametable run`` calls this, and only on a journal (R120).

    Each file is linked under its new name before any old name goes, the journal's old name
    first: a kill at any moment leaves the journal and its -wal together under one name or the
    other, and a side file left at ``path`` is a second name of one moved, which
    ``set_aside_orphans`` drops (R900). Where the file system has no hard links, each is
    renamed, the journal first."""
    if path.is_symlink():
        raise JournalError(f"cannot move {path} aside: {symlink_words(path)}")
    present = [suffix for suffix in MOVED_TOGETHER if _side(path, suffix).exists()]
    drop_second_names(path)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    counter = 1
    while any(os.path.lexists(_side(target, suffix)) for suffix in MOVED_TOGETHER):
        target = path.with_name(f"{path.name}.{why}-{stamp}-{counter}")
        counter += 1
    try:
        if _linked(path, target, present):
            for suffix in present:  # the journal ("") first
                _side(path, suffix).unlink()
        else:
            for suffix in present:
                _side(path, suffix).rename(_side(target, suffix))
        with contextlib.suppress(FileNotFoundError):
            _side(path, OWNER).unlink()  # named the file moved aside; the new one gets its own
        _sync(path.parent)
    except OSError as error:
        raise JournalError(f"cannot move {path} aside ({_why(error)})") from None
    return target


def symlink_words(path: Path) -> str:
    """Why a journal reached through a link is not moved aside, and what to give instead."""
    return (
        f"it is a symbolic link to {path.resolve()}; give that path to --journal (the table "
        "then sets the journal aside itself)"
    )


def drop_second_names(path: Path) -> None:
    """Names a move aside cut short by a kill gave the files still at ``path`` (linked, not yet
    unlinked): the same files, so dropping them loses nothing, and the journal recorded to is
    never also seen as one moved aside (R900). Only by the journal's one writer."""
    for suffix in MOVED_TOGETHER:
        side = _side(path, suffix)
        try:
            if side.is_symlink() or side.stat().st_nlink < 2:
                continue
        except FileNotFoundError:
            continue
        for other in _names_moved_aside(path, suffix):
            with contextlib.suppress(OSError):
                if not other.is_symlink() and os.path.samefile(other, side):
                    other.unlink()


# A journal moves aside with its side files. Its writer's marker stays and is dropped: the
# journal moved aside keeps its -wal by name, as every journal did before R914, and is never
# recorded to again; a marker beside it would be one more file under its name (R915).
MOVED_TOGETHER = ("", *SIDE_FILES)

# The names move_aside gives: <name>.<why>-<time>[-<n>]<suffix>. Only these are ever dropped as
# second names: a hard link a person made beside the journal (a "backup") is theirs (R907).
MOVED_ASIDE_WHYS = ("old", "corrupt")


def _names_moved_aside(path: Path, suffix: str) -> list[Path]:
    pattern = re.compile(
        rf"{re.escape(path.name)}\.({'|'.join(MOVED_ASIDE_WHYS)})-\d{{8}}T\d{{6}}(-\d+)?"
        rf"{re.escape(suffix)}"
    )
    return [
        other
        for other in path.parent.glob(f"{glob.escape(path.name)}.*{suffix}")
        if pattern.fullmatch(other.name)
    ]


def _linked(path: Path, target: Path, present: list[str]) -> bool:
    """``target``'s names for the files at ``path``, side files first (a kill part-way leaves
    only second names of files still at ``path``); False, with none made, where the file
    system has no hard links."""
    made: list[Path] = []
    try:
        for suffix in reversed(present):
            os.link(_side(path, suffix), _side(target, suffix))
            made.append(_side(target, suffix))
    except OSError as error:
        for name in made:
            name.unlink()
        if error.errno in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            return False
        raise
    _sync(path.parent)  # the new names before any old one goes
    return True


def set_aside_orphans(path: Path) -> list[Path]:
    """Side files at ``path`` with no journal there (a kill while a journal was moved aside, a
    journal removed by hand): never read into a journal made at ``path``, never lost. A second
    name of a journal's own side file moved aside is dropped (the file stays under that name);
    anything else is renamed to ``<name>-wal.orphan-<time>``, which SQLite never takes for a
    journal's, and logged once. The files kept (R900)."""
    kept: list[Path] = []
    for suffix in SIDE_FILES:
        side = _side(path, suffix)
        if not os.path.lexists(side):
            continue
        if _moved_with_a_journal(side, path, suffix):
            side.unlink()
            continue
        target = _orphan_name(side)
        side.rename(target)
        kept.append(target)
    _sync(path.parent)
    if kept:
        log.warning(
            "event=journal_side_files_set_aside journal=%s kept=%s why=no journal of their own "
            "beside them: kept under names no journal reads",
            path,
            ",".join(str(name) for name in kept),
        )
    return kept


def _moved_with_a_journal(side: Path, path: Path, suffix: str) -> bool:
    if side.is_symlink() or side.stat().st_nlink < 2:
        return False
    for moved in _names_moved_aside(path, suffix):
        with contextlib.suppress(OSError):
            if os.path.samefile(moved, side) and moved != side:
                return True
    return False


def _orphan_name(side: Path) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = side.with_name(f"{side.name}.{ORPHAN}-{stamp}")
    counter = 1
    while os.path.lexists(target):
        target = side.with_name(f"{side.name}.{ORPHAN}-{stamp}-{counter}")
        counter += 1
    return target


def _side(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _sync(directory: Path) -> None:
    """fsync a file, or a directory (so that a rename in it survives a power cut)."""
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
