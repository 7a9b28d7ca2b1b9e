"""A hall's bridge on the central broker (docs/hub.md, "Beyond one hall"; R1000-R1002).

Each hall's mosquitto forwards its tables' topics to the central broker over one bridge, which
logs in there with an account of its own, ``bridge-<hall>`` (R1000): a table's account is its
number and the hub's is ``hub``, so no hall's name can be mistaken for either. The central
broker's ACL lets that account write every table's topics (``tables/#``: a hall's tables are
whichever numbers the director gives it, R1001) and read the tournament's (every account may);
``gametable hub users --bridge HALL`` adds the account to the password file and its lines to
the ACL file. The ACL file is changed all at once or not at all, as the password file is.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path

from firmware_py.user_files import UserFileError, read_limited_text, require_replaceable

BRIDGE_PREFIX = "bridge-"
MAX_HALL = 32
# A hall's name: what a person calls it, as an MQTT client id and a mosquitto config word can
# carry it (no space, no '#', no '/'): lowercase letters, digits and inner hyphens (R1000).
HALL_NAME = re.compile(rf"[a-z0-9](?:[a-z0-9-]{{0,{MAX_HALL - 2}}}[a-z0-9])?")
# Where `gametable hub users --bridge` starts writing in the ACL file; install.sh --hub keeps
# everything from this line on when it installs the shipped ACL again (an update).
ACL_HEADING = "# --- the halls' bridges: gametable hub users --bridge HALL (docs/hub.md) ---"
MAX_ACL = 1024 * 1024
MODE = 0o644  # the ACL is no secret (the shipped file is installed 0644)


class BridgeError(Exception):
    """A hall's name or an ACL file that cannot be used; ``str()`` is one line."""


def check_hall(hall: str) -> str:
    if HALL_NAME.fullmatch(hall) is None:
        raise BridgeError(
            f"a hall named {hall!r}: expected 1 to {MAX_HALL} lowercase letters, digits and "
            "inner hyphens, like east or hall-2"
        )
    return hall


def check_bridge_password(password: str) -> str:
    """A bridge's password is written as a word of the hall broker's config (remote_password):
    printable ASCII without spaces, as ``--generate`` makes it and install.sh --hall takes it."""
    if re.fullmatch(r"[!-~]{1,256}", password) is None:
        raise BridgeError(
            "a bridge's password goes into the hall broker's config: expected 1 to 256 "
            "printable ASCII characters without spaces (or --generate one)"
        )
    return password


def bridge_account(hall: str) -> str:
    """The account a hall's bridge logs in with on the central broker (R1000)."""
    return BRIDGE_PREFIX + check_hall(hall)


def is_bridge_account(user: str) -> bool:
    hall = user.removeprefix(BRIDGE_PREFIX)
    return hall != user and HALL_NAME.fullmatch(hall) is not None


def acl_block(account: str) -> list[str]:
    """The central ACL's lines for one hall's bridge (R1001): it writes the hall's tables'
    topics; it reads the tournament's by the pattern every account has."""
    hall = account.removeprefix(BRIDGE_PREFIX)
    return [
        f"# hall {hall}'s broker: its tables' topics",
        f"user {account}",
        "topic write tables/#",
    ]


def check_acl_file(path: Path) -> list[str]:
    """The lines of the central broker's ACL file, which must exist (install.sh --hub installs
    it) and be a regular file a rename can replace."""
    if not path.is_file():
        raise BridgeError(
            f"no ACL file {path}: expected the central broker's (systemd/install.sh --hub "
            "installs /etc/mosquitto/gametable.acl); give its path with --acl"
        )
    try:
        require_replaceable(path, "the broker's ACL")
        text = read_limited_text(path, MAX_ACL, "an ACL file")
    except UserFileError as error:
        raise BridgeError(str(error)) from None
    return text.splitlines()


def add_bridge_acl(path: Path, account: str) -> bool:
    """Give ``account`` its lines in the ACL file at ``path``; False when it has them already."""
    lines = check_acl_file(path)
    if f"user {account}" in (line.strip() for line in lines):
        return False
    added = ([] if ACL_HEADING in lines else ["", ACL_HEADING]) + ["", *acl_block(account)]
    _replace(path, "\n".join([*lines, *added]) + "\n")
    return True


def _replace(path: Path, text: str) -> None:
    """Write a copy beside ``path`` and rename it over it, with the owner and group it had."""
    try:
        descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as error:
        raise BridgeError(f"cannot write beside {path}: {error.strerror or error}") from None
    copy = Path(name)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        owner = path.stat()
        with contextlib.suppress(PermissionError):  # only root may give a file away
            os.chown(copy, owner.st_uid, owner.st_gid)
        os.chmod(copy, MODE)
        os.replace(copy, path)
    except OSError as error:
        raise BridgeError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        copy.unlink(missing_ok=True)
