"""The files a user names to a command: how much is read of them, and where a command writes.

Reading takes at most a stated size: a file a command reads is small, and a huge file must not
fill the memory; and only a regular file is read (a FIFO would wait forever for a writer, a
device such as /dev/null would read as an empty file: R773).
Writing goes only where nothing is (a new file: not an empty file, not a link, not a device)
or over a regular file (a replacement). Anything else is refused with one line before anything
is touched, so a device, a FIFO or a symbolic link given by mistake is never deleted or
replaced by a regular file (R700).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

KIB = 1024
MIB = 1024 * KIB

# The most read of each kind of file (docs/architecture.md, "Files a command reads"): many
# times the largest real one, far below what a Raspberry Pi's memory holds.
MAX_BOARD = 4 * KIB  # a Juggle board: a grid of ~10 x 10 spaces and a line per piece, <1 KiB
MAX_LOG = 16 * MIB  # a game's log or a script: a line per action, a long game is ~20 KiB
MAX_SCRIPT = MAX_LOG
MAX_DECK = 4 * MIB  # a Guesstimation or STATES deck's TOML: the sample deck is 4 KiB
MAX_CSV = 1 * MIB  # a CSV of teams or players: a line each
MAX_CONFIG = 1 * MIB  # a table's TOML: the shipped one is 9 KiB
MAX_PASSWORD_FILE = 4 * KIB  # a password on its first line
CA_HOLDS = "the CA's PEM certificate"  # what a broker's --ca-file (hub.ca_file) holds

_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFLNK: "a symbolic link",
}
_CHUNK = 64 * KIB


class UserFileError(ValueError):
    """A file a command cannot read or write as asked; ``str()`` is one line naming it."""


def what_is_at(path: Path) -> str | None:
    """What is at ``path`` itself (a link is not followed), in words; None when nothing is."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise UserFileError(f"cannot use {path}: {_why(error)}") from None
    kind = stat.S_IFMT(status.st_mode)
    if kind == stat.S_IFREG:
        return "an empty file" if status.st_size == 0 else "a file"
    return _KINDS.get(kind, "not a regular file")


def require_nothing_at(path: Path, making: str) -> None:
    """A new file (``making`` says what it is) is only ever created where nothing is."""
    found = what_is_at(path)
    if found is not None:
        raise UserFileError(
            f"{path} already exists ({found}): expected a path where nothing is, for {making}"
        )


def require_replaceable(path: Path, making: str) -> None:
    """A file is replaced whole only when it is a regular file (a link is not followed: the
    rename would put a file where the link was)."""
    found = what_is_at(path)
    if found not in (None, "a file", "an empty file"):
        raise UserFileError(
            f"{path} is {found}: expected a regular file (or nothing) to write {making} to"
        )


def replace_whole(path: Path, text: str, making: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a regular file there is replaced, a
    directory, a link or a device refused before anything is touched (``making`` says what the
    file is), and a failure leaves nothing behind. Raises ``UserFileError``."""
    require_replaceable(path, making)
    made = path.with_name(f".{path.name}.{os.getpid()}.writing")
    try:
        with open(made, "x", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(made, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            made.unlink()
        raise UserFileError(f"cannot write {path}: {error.strerror}") from None


def put_new_in_place(made: Path, path: Path) -> None:
    """Give the finished file ``made`` (in ``path``'s directory) the name ``path``, only if
    nothing has taken that name meanwhile: a hard link fails when the name is taken, where a
    rename would replace what is there. A file system without hard links gets a rename after
    one more look."""
    try:
        os.link(made, path, follow_symlinks=False)
    except FileExistsError:
        raise UserFileError(f"{path} appeared while it was made: nothing was replaced") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
            raise
        require_nothing_at(path, "the new file")
        os.rename(made, path)
        return
    os.unlink(made)


def read_limited_bytes(path: Path, limit: int, holding: str) -> bytes:
    """At most ``limit`` bytes of ``path``; larger is refused (``holding`` says what the file
    is expected to hold). Only a regular file (or a link to one) is read: a FIFO would wait
    for a writer forever and ``/dev/null`` would read as an empty file, so anything else is
    refused in one line, without waiting (R773)."""
    descriptor = _open_regular(path, holding)
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= limit:
            chunk = os.read(descriptor, min(_CHUNK, limit + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise UserFileError(f"cannot read {path}: {_why(error)}") from None
    finally:
        os.close(descriptor)
    raise UserFileError(
        f"{path} is larger than {_size(limit)}: expected {holding} of at most {_size(limit)}"
    )


def read_start(path: Path, size: int, holding: str) -> bytes:
    """The first ``size`` bytes of ``path`` (fewer when it is shorter), to tell what it holds:
    only a regular file, refused otherwise as ``read_limited_bytes`` refuses it. Opening a FIFO
    to look at its start waited forever for a writer (R947)."""
    descriptor = _open_regular(path, holding)
    try:
        return os.read(descriptor, size)
    except OSError as error:
        raise UserFileError(f"cannot read {path}: {_why(error)}") from None
    finally:
        os.close(descriptor)


def require_regular_file(path: Path, holding: str) -> None:
    """``path``, when something is there, is a regular file (or a link to one) that can be
    opened, before it is handed to a library that reads it itself (OpenSSL's certificates and
    keys): a FIFO there waited forever for a writer (R947). Nothing there is left to the
    library, whose own words the commands already say."""
    if os.path.lexists(path):
        os.close(_open_regular(path, holding))


def _open_regular(path: Path, holding: str) -> int:
    """A descriptor of ``path`` open for reading, when it is a regular file (or a link to one);
    anything else refused in one line, without waiting (R773)."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once (and is then refused)
        descriptor = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as error:
        raise UserFileError(f"cannot read {path}: {_why(error)}") from None
    try:
        kind = stat.S_IFMT(os.fstat(descriptor).st_mode)
    except OSError as error:
        os.close(descriptor)
        raise UserFileError(f"cannot read {path}: {_why(error)}") from None
    if kind != stat.S_IFREG:
        os.close(descriptor)
        found = _KINDS.get(kind, "not a regular file")
        raise UserFileError(f"{path} is {found}: expected a regular file holding {holding}")
    return descriptor


def read_limited_text(path: Path, limit: int, holding: str, encoding: str = "utf-8") -> str:
    """:func:`read_limited_bytes` as text; anything not in ``encoding`` is refused."""
    data = read_limited_bytes(path, limit, holding)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise UserFileError(f"cannot read {path}: expected UTF-8 text ({holding})") from None


def _size(limit: int) -> str:
    if limit % MIB == 0:
        return f"{limit // MIB} MiB"
    if limit % KIB == 0:
        return f"{limit // KIB} KiB"
    return f"{limit} bytes"


def _why(error: OSError) -> str:
    return error.strerror or type(error).__name__
