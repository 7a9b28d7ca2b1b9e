"""Players' names, as every family that seats named players takes them (Guesstimation, STATES).

The judges' CLIs write entries as ``NAME=VALUE,NAME=VALUE``, so a name holds no ',' or '='.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import InvalidInput
from rules.text import unprintable

MAX_NAME = 20
NAME_FORBIDS = ",="


def check_name(name: str) -> str:
    """A player's name: 1 to 20 printable characters, no comma or '=', no outer spaces."""
    if (at_fault := unprintable(name)) is not None:
        raise InvalidInput(
            f"player name {name!r}: {at_fault} is not printable: expected 1 to {MAX_NAME} "
            "printable characters"
        )
    if not name or name != name.strip() or len(name) > MAX_NAME or not name.isprintable():
        raise InvalidInput(
            f"player name {name!r}: expected 1 to {MAX_NAME} printable characters "
            "without leading or trailing spaces"
        )
    if any(char in name for char in NAME_FORBIDS):
        raise InvalidInput(f"player name {name!r}: expected no ',' or '=' in a name")
    return name


def check_names(players: Sequence[str]) -> None:
    """Every name checked, and no two the same but for case."""
    seen: set[str] = set()
    for name in players:
        check_name(name)
    for name in players:
        if name.casefold() in seen:
            raise InvalidInput(f"player {name!r} is named twice: expected a different name each")
        seen.add(name.casefold())
