"""The live board: the latest of every table's ``status`` and ``state`` as the hub received
them (docs/hub.md, "The director's page"). Pure: no broker, no clock, no logging; the hub
hands each message in with the time it arrived and logs what the board says is wrong.

A message that is not what its topic promises (not JSON, too large, a field of the wrong
kind, a number or a text beyond what a table can show: R189) changes nothing; the board names
what is wrong the first time, and says nothing of the same fault from the same table again
until that table has sent a good message.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from firmware_py.director.hub.wire.machines import (
    Sighting,
    machine_names,
    sighted,
    two_machines_line,
)
from firmware_py.director.record.day import SLUG
from firmware_py.table.hub_wire import MAX_ROUND, OFFLINE, ONLINE, Machine, WireError, parse_machine

MAX_STATE_BYTES = 16_384  # a table's state is a few hundred bytes; the broker allows 64 KiB
MAX_TEXT = 120  # characters of any one text shown (an OLED row is 21)
MAX_SEATS = 8  # scores and lights: 2 teams, 3 Guesstimation seats, 4 STATES players
# What a table can show (R189): a score of 5 digits either way (a GeoPlunge game is worth 40),
# a round of the longest format, a clock as the OLED writes it ("12:41", "90:00").
MAX_SCORE = 99_999
MAX_CLOCK = 8
# The start actions of a tournament's matches, by the tournament format they belong to.
FORMATS = {"match.start": "combo4", "match3.start": "combo3", "championship.start": "championship"}


class BoardError(ValueError):
    """A status or state message the board ignores; ``str()`` says what is wrong in one line."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table as the director's grid shows it."""

    table: int
    online: bool | None = None  # None: no status heard yet
    family: str | None = None
    format: str | None = None  # combo4, combo3, championship, or the session's start action
    round: int | None = None
    game: str | None = None
    in_game: bool = False
    clock: str | None = None
    scores: Mapping[str, int] = field(default_factory=dict)
    title: str | None = None
    alert: str | None = None  # what the OLED's alert row says (a stuck buzzer, a journal error)
    saved: bool = True  # False: the table's journal cannot be written
    heard: float | None = None  # when its last state arrived: seconds since the epoch (UTC)
    # since when (seconds since the epoch) its status, its alert, its unsaved journal have been
    # as they are: the problem queue orders problems by how long they have stood
    status_since: float | None = None
    alert_since: float | None = None
    unsaved_since: float | None = None
    updates: int = 0  # state messages taken since the hub started
    # the machines heard answering to this number lately, when more than one (R1003), and
    # since when
    machines: tuple[str, ...] = ()
    machines_since: float | None = None
    version: int = 0  # the board's version when this row last changed
    # the event the table says it follows (its state's "event", R1131): on a day, what the
    # glance holds against the event the day gives it (R1174); None: it follows none
    follows: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "online": self.online,
            "family": self.family,
            "format": self.format,
            "round": self.round,
            "game": self.game,
            "in_game": self.in_game,
            "clock": self.clock,
            "scores": dict(self.scores),
            "title": self.title,
            "alert": self.alert,
            "saved": self.saved,
            "heard": self.heard,
            "status_since": self.status_since,
            "alert_since": self.alert_since,
            "unsaved_since": self.unsaved_since,
            "updates": self.updates,
            "machines": list(self.machines),
            "machines_since": self.machines_since,
        }


@dataclass(frozen=True, slots=True)
class Taken:
    """What one message did: ``changed`` the board, or ``complaint``, a line to log (None when
    the message was good, or when the same fault was already named for this table);
    ``notice``: a line to log once, of a good message (two machines on one number: R1003)."""

    changed: bool
    complaint: str | None = None
    notice: str | None = None


@dataclass(slots=True)
class LiveBoard:
    """Every table heard from, by number; ``version`` counts the changes."""

    version: int = 0
    # table -> row, the row changed last at the end: the changes since a version are read
    # from the end, as many as there are, however many tables the hall has
    _rows: dict[int, TableRow] = field(default_factory=dict)
    _faults: dict[int, str] = field(default_factory=dict)  # table -> the fault last named
    _sightings: dict[int, tuple[Sighting, ...]] = field(default_factory=dict)  # R1003
    _noticed: dict[int, tuple[str, ...]] = field(default_factory=dict)  # the machines logged

    def rows(self) -> list[TableRow]:
        return [self._rows[table] for table in sorted(self._rows)]

    def row(self, table: int) -> TableRow | None:
        return self._rows.get(table)

    def changed_since(self, version: int) -> list[TableRow]:
        """The rows that changed after ``version``, by table number."""
        changed = []
        for row in reversed(self._rows.values()):
            if row.version <= version:
                break
            changed.append(row)
        return sorted(changed, key=lambda row: row.table)

    def take_status(self, table: int, payload: bytes, heard: float | None = None) -> Taken:
        """A table's ``online``/``offline``, arrived at ``heard`` (when the hub knows it)."""
        if payload not in (ONLINE.encode(), OFFLINE.encode()):
            return self._fault(table, f"expected {ONLINE} or {OFFLINE}, got {_preview(payload)}")
        online = payload == ONLINE.encode()
        current = self._rows.get(table) or TableRow(table)
        since = current.status_since if current.online == online else heard
        if online:
            return self._put(table, online=online, status_since=since)
        self._sightings.pop(table, None)  # the next machine heard may be its replacement
        return self._put(table, online=online, status_since=since, machines=(), machines_since=None)

    def take_state(self, table: int, payload: bytes, heard: float) -> Taken:
        """A table's state as ``tables/<n>/state`` carries it, arrived at ``heard``."""
        try:
            fields = parse_state(payload)
        except BoardError as error:
            return self._fault(table, str(error))
        machine: Machine | None = fields.pop("machine")
        current = self._rows.get(table) or TableRow(table)
        alert_since = current.alert_since if current.alert == fields["alert"] else heard
        if fields["alert"] is None:
            alert_since = None
        unsaved_since = None if fields["saved"] else (current.unsaved_since or heard)
        machines, notice = self._machines(table, machine, heard)
        taken = self._put(
            table,
            **fields,
            heard=heard,
            updates=current.updates + 1,
            alert_since=alert_since,
            unsaved_since=unsaved_since,
            machines=machines,
            machines_since=_machines_since(current, machines, heard),
        )
        return replace(taken, notice=notice)

    def _machines(
        self, table: int, machine: Machine | None, heard: float
    ) -> tuple[tuple[str, ...], str | None]:
        """The machines heard on ``table`` lately when more than one, and the line to log the
        first time these are heard together (R1003). A state without a machine (a table before
        R1003) changes nothing."""
        seen = self._sightings.get(table, ())
        if machine is not None:
            seen = sighted(seen, machine, heard)
            self._sightings[table] = seen
        names = machine_names(seen) if len(seen) > 1 else ()
        if not names or self._noticed.get(table) == names:
            return names, None
        self._noticed[table] = names
        return names, two_machines_line(table, names)

    def _put(self, table: int, **changes: Any) -> Taken:
        self._faults.pop(table, None)
        current = self._rows.pop(table, None) or TableRow(table)
        self.version += 1
        self._rows[table] = replace(current, **changes, version=self.version)
        return Taken(changed=True)

    def _fault(self, table: int, fault: str) -> Taken:
        if self._faults.get(table) == fault:
            return Taken(changed=False)
        self._faults[table] = fault
        return Taken(changed=False, complaint=fault)


class Board(Protocol):
    """What the page reads of a board: the hall's (``LiveBoard``), or one event's tables of it
    (``EventBoard``)."""

    @property
    def version(self) -> int: ...

    def rows(self) -> list[TableRow]: ...

    def row(self, table: int) -> TableRow | None: ...

    def changed_since(self, version: int) -> list[TableRow]: ...


@dataclass(frozen=True, slots=True)
class EventBoard:
    """One event's tables of the hall's board, on a day of several events (R1144):
    ``playing`` the tables that play for the event now (the day's assignments, read at each
    call, so a table moved is on its new event's grid at its next change or reload). Its
    version is the hall's."""

    board: LiveBoard
    playing: Callable[[], Container[int]]

    @property
    def version(self) -> int:
        return self.board.version

    def rows(self) -> list[TableRow]:
        tables = self.playing()
        return [row for row in self.board.rows() if row.table in tables]

    def row(self, table: int) -> TableRow | None:
        return self.board.row(table) if table in self.playing() else None

    def changed_since(self, version: int) -> list[TableRow]:
        tables = self.playing()
        return [row for row in self.board.changed_since(version) if row.table in tables]


def parse_state(payload: bytes) -> dict[str, Any]:
    """The fields of a table's state the grid shows (firmware_py/table/uplink.table_state);
    BoardError names the first thing that is not as the table sends it."""
    if len(payload) > MAX_STATE_BYTES:
        raise BoardError(f"a state of {len(payload)} bytes: expected at most {MAX_STATE_BYTES}")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BoardError("a state that is not JSON: expected a JSON object") from None
    if not isinstance(data, dict):
        raise BoardError("a state that is not a JSON object")
    session, screen = data.get("session"), data.get("screen")
    if not isinstance(session, dict) or not isinstance(screen, dict):
        raise BoardError("a state without its session and screen objects")
    action = _text(session, "action", "session.action")
    number = session.get("round")
    scores = data.get("scores")
    if (
        not isinstance(scores, dict)
        or len(scores) > MAX_SEATS
        or not all(
            isinstance(seat, str)
            and len(seat) <= MAX_TEXT
            and type(points) is int
            and -MAX_SCORE <= points <= MAX_SCORE
            for seat, points in scores.items()
        )
    ):
        raise BoardError(
            f"scores: expected at most {MAX_SEATS} seats, each with whole points from "
            f"-{MAX_SCORE} to {MAX_SCORE}"
        )
    if number is not None and not (type(number) is int and 1 <= number <= MAX_ROUND):
        raise BoardError(f"session.round: expected a round from 1 to {MAX_ROUND}")
    clock = _text(data, "clock", "clock")
    if clock is not None and len(clock) > MAX_CLOCK:
        raise BoardError(f"clock: expected at most {MAX_CLOCK} characters, like 12:41")
    saved = data.get("saved")
    if not isinstance(saved, bool) or not isinstance(data.get("in_game"), bool):
        raise BoardError("saved, in_game: expected true or false")
    return {
        "family": _text(data, "family", "family"),
        "format": FORMATS.get(action or "", action),
        "round": number,
        "game": _text(data, "game", "game"),
        "in_game": data["in_game"],
        "clock": clock,
        "scores": dict(scores),
        "title": _text(screen, "title", "screen.title"),
        "alert": _text(screen, "alert", "screen.alert"),
        "saved": saved,
        "machine": _machine(data),
        "follows": _follows(data),
    }


def _follows(data: Mapping[str, Any]) -> str | None:
    """The event the state says the table follows: an event's short name, or absent."""
    event = _text(data, "event", "event")
    if event is not None and not SLUG.fullmatch(event):
        raise BoardError("event: expected an event's short name, like combo4-junior")
    return event


def _machine(data: Mapping[str, Any]) -> Machine | None:
    try:
        return parse_machine(data)
    except WireError as error:
        raise BoardError(str(error)) from None


def _machines_since(current: TableRow, machines: tuple[str, ...], heard: float) -> float | None:
    if not machines:
        return None
    return current.machines_since if current.machines else heard


def _text(data: Mapping[str, Any], key: str, name: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise BoardError(f"{name}: expected text of at most {MAX_TEXT} characters")
    return value


def _preview(payload: bytes) -> str:
    return repr(payload[:20]) + ("..." if len(payload) > 20 else "")
