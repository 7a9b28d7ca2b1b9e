"""The optional parts of gametable, and the extra of pyproject.toml that installs each.

A table's Pi installs only what the table runs (R751). The director's commands need the hub's
pairing library, and luma's emulator devices need the simulator's packages: a command that
needs a part that is not installed says so in one line, naming the extra, before it reads or
writes anything, rather than failing deep inside with an ImportError's traceback.
"""

from __future__ import annotations

import importlib.util

__all__ = ["EXTRAS", "MissingExtra", "require"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "hub": ("rustworkx",),  # the pairings: `gametable tournament`, `gametable hub`
    "sim": ("luma.emulator", "pygame"),  # luma's emulator devices (the guides' captures)
}


class MissingExtra(Exception):
    """A part of gametable that is not installed here; ``str()`` is one line for a person."""


def _installed(module: str) -> bool:
    # find_spec, not import: the check must not cost the command numpy's import time
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module blocked (None)
        return False


def require(extra: str, *, command: str) -> None:
    """Raise MissingExtra unless every module of ``extra`` is installed."""
    for module in EXTRAS[extra]:
        if not _installed(module):
            raise MissingExtra(
                f"gametable {command} needs {module}, which is not installed here: "
                f"pip install 'gametable[{extra}]' (on the hub: systemd/install.sh --hub)"
            )
