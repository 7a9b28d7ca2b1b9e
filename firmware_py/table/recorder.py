"""The controller with a journal: every input recorded, every decision committed before shown.

The controller is deterministic, so the journal stores its inputs (edges with their timestamps,
the clock advances that fired something, the pin levels it read) and the events it emitted.
Rebuilding replays the inputs into a fresh controller and checks that it emits exactly the
recorded events: the state after a restart is the state before it, not an approximation. A
journal that does not replay (settings that make no table, an input the controller cannot take,
a decision it would not make) raises ``JournalMismatch``, never whatever the controller raised.
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_py.table.controller import Event, TableController, TableSettings, fresh_settings
from firmware_py.table.family import PairedMatch
from firmware_py.table.journal import (
    Entry,
    Journal,
    JournalCorrupt,
    JournalError,
    JournalWriteError,
)
from rules.actions import encode
from rules.errors import RuleError

# What a controller fed a journal's inputs may raise when the journal is not one it wrote.
REPLAY_ERRORS = (
    LookupError,
    TypeError,
    ValueError,
    ArithmeticError,
    AttributeError,
    AssertionError,
    RecursionError,
    RuleError,
)


class JournalMismatch(JournalCorrupt):
    """Replaying the journal did not give back the recorded decisions."""


class JournalOfAnotherTable(JournalError):
    """The journal was recorded by a table of another family, seats or format than the one the
    config describes (R742): refused before anything is written, and left as it is."""


def check_same_table(journal: Journal, settings: TableSettings) -> None:
    """The journal's first session against the config's table: the family, the seats (each is
    wired: a seat without its buttons and LED cannot play) and the format must be the same
    (R742); the rest (a game, the minutes) is the journal's own, as replay needs (R122). A
    session too malformed to compare is left for the rebuild to refuse as damaged."""
    first = next(iter(journal.entries()), None)
    if first is None or first.kind != "session" or not isinstance(first.body, dict):
        return
    if not isinstance(first.body.get("settings"), dict):
        return
    try:
        recorded = settings_from_json(first.body["settings"])
    except (ValueError, TypeError):
        return
    journal_family, journal_seats, journal_form = _table(recorded)
    config_family, config_seats, config_form = _table(settings)
    # a format left unnamed is the family's default: compared only when both name one
    same_form = None in (journal_form, config_form) or journal_form == config_form
    if (journal_family, journal_seats) != (config_family, config_seats) or not same_form:
        raise JournalOfAnotherTable(
            f"journal {journal.path} was recorded by another table ({_described(recorded)}) "
            f"than the config's ({_described(settings)}): start with the config it was "
            "recorded with, or begin a new match with gametable run --new-journal"
        )


def _table(settings: TableSettings) -> tuple[str, tuple[str, ...], object]:
    return settings.family, tuple(settings.seats), settings.options.get("format")


def _described(settings: TableSettings) -> str:
    family, seats, form = _table(settings)
    text = f"{family}, seats {', '.join(seats)}"
    return f"{text}, format {form}" if form is not None else text


def settings_to_json(settings: TableSettings) -> dict[str, Any]:
    data = dataclasses.asdict(settings)
    data["seats"] = list(settings.seats)
    data["options"] = dict(settings.options)
    return data


def settings_from_json(data: Mapping[str, Any]) -> TableSettings:
    """The settings a session recorded, each checked against the type of its default;
    ``ValueError`` names the first that is wrong. A setting added since the journal was
    written takes its default (replay then shows whether the table still decides alike). The
    family's options are checked by the family when the table is built from them."""
    defaults = TableSettings()
    names = {setting.name for setting in dataclasses.fields(TableSettings)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"unknown settings {', '.join(unknown)}")
    fields: dict[str, Any] = {}
    for name in sorted(set(data)):
        value, default = data[name], getattr(defaults, name)
        if isinstance(default, tuple):  # the seats
            fits = isinstance(value, list) and bool(value)
            fits = fits and all(isinstance(seat, str) for seat in value)
            value = tuple(value) if fits else value
        elif isinstance(default, float):
            fits = type(value) in (int, float) and math.isfinite(value)
        elif isinstance(default, Mapping):  # the family's options
            fits = isinstance(value, dict)
        else:
            fits = type(value) is type(default)
        if not fits:
            raise ValueError(f"setting {name} is {value!r}")
        fields[name] = value
    return TableSettings(**fields)


@dataclass(slots=True)
class RecordedTable:
    """Wraps a controller; the shell talks to this and shows nothing until ``saved``."""

    journal: Journal
    controller: TableController
    read_pin: Callable[[str], bool]
    on_event: Callable[[Event], None] = lambda event: None
    committed: list[Event] = field(default_factory=list)
    # the wall time (UTC ISO) of the journal entry of the session's latest rules action: when
    # a confirmed result was confirmed (nothing is applied after it), the card's date (R819);
    # taken from the journal on a rebuild, so that a card printed again shows the same date
    decided_at: str | None = None
    _unsaved: list[Event] = field(default_factory=list)
    _reads: int = 0

    @property
    def saved(self) -> bool:
        """False while a commit is failing: the shell keeps the last saved view on show."""
        return not self._unsaved

    @classmethod
    def start(
        cls,
        *,
        journal: Journal,
        settings: TableSettings,
        now: float,
        read_pin: Callable[[str], bool],
        on_event: Callable[[Event], None] = lambda event: None,
        restart: Mapping[str, Any] | None = None,
    ) -> RecordedTable:
        """A new table on an empty journal, or the rebuilt one on a journal with a session.

        A journal's own settings win over the config's: replay must see what the live table saw.
        """
        entries = list(journal.entries())
        if not entries:
            settings = fresh_settings(settings)  # what the family fixes once, kept in the journal
            table = cls._new(journal, settings, now, read_pin, on_event)
            journal.add("session", now, {"settings": settings_to_json(settings), **(restart or {})})
            table._commit()
            return table
        table = cls._rebuild(journal, entries, read_pin, on_event)
        return table

    @classmethod
    def _new(
        cls,
        journal: Journal,
        settings: TableSettings,
        now: float,
        read_pin: Callable[[str], bool],
        on_event: Callable[[Event], None],
    ) -> RecordedTable:
        # The first prompt, emitted while the controller is built, is not recorded: a replay
        # builds the same controller and sees it again.
        controller = TableController(
            settings=settings, emit=lambda event: None, now=now, read_pin=read_pin
        )
        table = cls(journal, controller, read_pin, on_event)
        controller.emit = table._emitted
        controller.read_pin = table._read_live
        return table

    @classmethod
    def _rebuild(
        cls,
        journal: Journal,
        entries: list[Entry],
        read_pin: Callable[[str], bool],
        on_event: Callable[[Event], None],
    ) -> RecordedTable:
        first = entries[0]
        if first.kind != "session" or "settings" not in first.body:
            raise JournalMismatch(journal.path, "it does not start with a session")
        try:
            settings = settings_from_json(first.body["settings"])
        except ValueError as error:
            raise JournalMismatch(journal.path, f"entry 1: {error}") from None
        reads = deque(
            entry.body["read"][1]
            for entry in entries
            if entry.kind == "input" and "read" in entry.body
        )
        replayed: list[Event] = []

        def replay_read(name: str) -> bool:
            if not reads:
                raise JournalMismatch(journal.path, "a pin read is missing")
            return bool(reads.popleft())

        try:
            controller = TableController(
                settings=settings, emit=replayed.append, now=first.t, read_pin=replay_read
            )
        except REPLAY_ERRORS as error:
            raise JournalMismatch(journal.path, f"entry 1: {_named(error)}") from None
        replayed.clear()  # the first prompt, emitted alike live and on replay
        recorded: list[Event] = []
        decided_at: str | None = None
        for entry in entries[1:]:
            if entry.kind == "input":
                try:
                    _apply_input(controller, entry.body)
                except REPLAY_ERRORS as error:
                    raise JournalMismatch(
                        journal.path, f"entry {entry.seq} does not replay: {_named(error)}"
                    ) from None
            elif entry.kind == "event":
                recorded.append(entry.body)
                decided_at = _decided_at(entry.body, entry.wall, decided_at)
        if replayed != recorded:
            where = next(
                (i for i, (a, b) in enumerate(zip(replayed, recorded, strict=False)) if a != b),
                min(len(replayed), len(recorded)),
            )
            raise JournalMismatch(
                journal.path, f"replay differs from the record at decision {where + 1}"
            )
        table = cls(
            journal, controller, read_pin, on_event, committed=recorded, decided_at=decided_at
        )
        controller.emit = table._emitted
        controller.read_pin = table._read_live
        return table

    # --- inputs (recorded) ----------------------------------------------------------------

    def _read_live(self, name: str) -> bool:
        value = bool(self.read_pin(name))
        self.journal.add("input", self.controller.now, {"read": [name, value]})
        self._reads += 1
        return value

    def prime(self, levels: Mapping[str, bool]) -> None:
        self.journal.add("input", self.controller.now, {"prime": dict(levels)})
        self.controller.prime(levels)
        self._commit()

    def edge(self, name: str, ticks: float, active: bool, now: float) -> None:
        self.journal.add("input", now, {"edge": [name, ticks, active, now]})
        self.controller.on_edge(name, ticks, active, now=now)
        self._commit_if_decided()

    def advance(self, now: float) -> None:
        mark, reads, events = self.journal.pending, self._reads, len(self._unsaved)
        self.journal.add("input", now, {"advance": now})
        self.controller.advance(now)
        if self._reads == reads and len(self._unsaved) == events:
            self.journal.drop_pending_after(mark)  # nothing happened: nothing to record
        else:
            self._commit_if_decided()

    def enter(self, seat: str, name: str, value: str, now: float) -> str | None:
        """An entry from the table's web page. Refused with nothing decided, it leaves no trace
        (a page's bad input changes nothing, not even the journal); the refusal is returned."""
        mark, reads, events = self.journal.pending, self._reads, len(self._unsaved)
        self.journal.add("input", now, {"entry": [seat, name, value, now]})
        refused = self.controller.enter(seat, name, value, now)
        if refused is not None and self._reads == reads and len(self._unsaved) == events:
            self.journal.drop_pending_after(mark)
        else:
            self._commit_if_decided()
        return refused

    def pair(self, paired: PairedMatch | None, now: float) -> None:
        """The hub's pairing for this table, as it arrives or changes: an input like a button's,
        so a replay offers the same next match (R190)."""
        match = None if paired is None else paired.to_json()
        now = float(now)  # the entry's time is a REAL: its checksum is of the float
        self.journal.add("input", now, {"pairing": {"now": now, "match": match}})
        self.controller.pair(paired, now)
        self._commit()

    def mark(self, step: int) -> None:
        """A note for whoever drives the table (a script's step); replay ignores it."""
        self.journal.add("input", self.controller.now, {"mark": step})

    def resume(self, now: float, *, stopped_at: float, elapsed_known: bool) -> None:
        body = {"resume": {"now": now, "stopped_at": stopped_at, "elapsed_known": elapsed_known}}
        self.journal.add("input", now, body)
        self.controller.resume(now, stopped_at=stopped_at, elapsed_known=elapsed_known)
        self._commit()

    # --- events (committed before shown) -----------------------------------------------------

    def _emitted(self, event: Event) -> None:
        # For the hub each decision goes with the start of its session (a match's round): the
        # message then says what it belongs to on its own, whatever arrives before it.
        session = encode(self.controller.log[0]) if self.journal.outbox else None
        wall = self.journal.add("event", self.controller.now, event, session=session)
        self.decided_at = _decided_at(event, wall, self.decided_at)
        self._unsaved.append(event)

    def _commit_if_decided(self) -> None:
        if self._unsaved:
            self._commit()

    def _commit(self) -> None:
        self.journal.commit()  # JournalWriteError leaves everything queued for a retry
        events, self._unsaved = self._unsaved, []
        self.committed.extend(events)
        for event in events:
            self.on_event(event)

    def retry(self) -> bool:
        """Try a failed commit again; True once everything is saved."""
        try:
            self._commit()
        except JournalWriteError:
            return False
        return True

    @property
    def last_time(self) -> float:
        return self.controller.now


def _decided_at(event: Mapping[str, Any], wall: str, before: str | None) -> str | None:
    """When the session's latest rules action was taken, after ``event`` (recorded at
    ``wall``): a new session has taken none yet."""
    if event.get("event") == "action":
        return wall
    if event.get("event") == "session":
        return None
    return before


def _apply_input(controller: TableController, body: Mapping[str, Any]) -> None:
    if "edge" in body:
        name, ticks, active, now = body["edge"]
        controller.on_edge(name, ticks, active, now=now)
    elif "advance" in body:
        controller.advance(body["advance"])
    elif "entry" in body:
        seat, name, value, now = body["entry"]
        controller.enter(seat, name, value, now)
    elif "pairing" in body:
        pairing = body["pairing"]
        match = pairing["match"]
        controller.pair(None if match is None else PairedMatch.from_json(match), pairing["now"])
    elif "prime" in body:
        controller.prime(body["prime"])
    elif "resume" in body:
        resume = body["resume"]
        controller.resume(
            resume["now"], stopped_at=resume["stopped_at"], elapsed_known=resume["elapsed_known"]
        )
    # "read" is fed as the controller asks, "mark" is for whoever drove the table; the journal
    # refuses any other input when it is read (journal_format)


def _named(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
