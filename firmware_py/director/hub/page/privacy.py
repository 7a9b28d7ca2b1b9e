"""What the public page may show of the people in a tournament (R817): ``public_names`` is
``teams`` (the teams' names: the default), ``players`` (each team's players too) or ``none``
(no name at all: the public page says only that names are not published). Everything else
with names (the tables' records, the sheets with the players, the live board) is for staff,
logged in (R816)."""

from __future__ import annotations

from enum import StrEnum

from rules.tournament import Entrant


class PublicNames(StrEnum):
    TEAMS = "teams"
    PLAYERS = "players"
    NONE = "none"


EXPECTED = "expected teams, players or none"


def public_names_error(text: str) -> str | None:
    """What is wrong with ``text`` as a ``public_names`` value, or None."""
    if text in {names.value for names in PublicNames}:
        return None
    return f"{text[:20]!r}: {EXPECTED}"


def public_team(entrant: Entrant, names: PublicNames) -> str:
    """A team as the public page shows it: its name, with its players under ``players``."""
    if names is PublicNames.PLAYERS and entrant.players:
        return f"{entrant.name} ({', '.join(entrant.players)})"
    return entrant.name
