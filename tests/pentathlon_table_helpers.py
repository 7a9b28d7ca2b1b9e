"""Driving the Pentathlon table in tests: a virtual table on MockFactory pins and virtual time,
with the monitor's six buttons and each player's flag button and challenge input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from drivers.display import Screen
from drivers.leds import SeatLight
from firmware_py.families.pentathlon.options import table_settings
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import VirtualTable
from firmware_py.table.journal import Journal, wall_now
from firmware_py.table.recorder import JournalMismatch, RecordedTable, settings_to_json
from rules.pentathlon.catalogue import StartMethod
from rules.pentathlon.monitor import PentathlonGame

BUTTONS = ("count", "go", "yes", "no", "undo", "next")


class PTable:
    """One Pentathlon table; each press takes a second of virtual time (a tenth held)."""

    def __init__(
        self,
        *,
        journal: Path | None = None,
        outbox: bool = False,
        wall: Callable[[], str] | None = None,
        **options: Any,
    ) -> None:
        """``wall``: the journal's wall clock (the table's real one if None)."""
        self.events: list[dict[str, Any]] = []
        self.journal = None
        if journal is not None:
            self.journal = Journal.open(journal, outbox=outbox, wall=wall or wall_now)
        self.virtual = VirtualTable(
            table_settings(**options), self.events.append, journal=self.journal
        )
        self.controller = self.virtual.controller
        self.t = self.controller.now

    # --- inputs ---------------------------------------------------------------------------

    def at(self, t: float) -> PTable:
        self.t = t
        self.virtual.advance(t)
        return self

    def wait(self, seconds: float) -> PTable:
        return self.at(self.t + seconds)

    def press(self, name: str, *, hold: float = 0.1) -> PTable:
        self.t += 1.0
        self.virtual.advance(self.t)
        self.virtual.drive(name, True, self.t)
        self.virtual.advance(self.t + hold)
        self.virtual.drive(name, False, self.t + hold)
        return self

    def buttons(self, *names: str) -> PTable:
        for name in names:
            self.press(f"console.{name}")
        return self

    def flag(self, seat: str) -> PTable:
        return self.press(f"{seat}.shout")

    def challenge_input(self, seat: str) -> PTable:
        return self.press(f"{seat}.stand")

    def choose(self, label: str) -> PTable:
        """NEXT until the choice shows ``label``, then YES."""
        options = [option.label for option in self.controller.prompt.options]
        assert label in options, f"{label!r} is not among {options}"
        while self.shown != label:
            self.buttons("next")
        return self.buttons("yes")

    def enter(self, value: int) -> PTable:
        """A number entry: NEXT up to ``value`` from where it stands, then YES."""
        while self.controller.number < value:
            self.buttons("next")
        while self.controller.number > value:
            self.buttons("no")
        return self.buttons("yes")

    def close(self) -> None:
        self.virtual.close()
        if self.journal is not None:
            self.journal.close()

    # --- what the table shows ---------------------------------------------------------------

    @property
    def key(self) -> str:
        return self.controller.prompt.key

    @property
    def prompt(self) -> str:
        return self.controller.prompt.text

    @property
    def shown(self) -> str:
        """The option a choice shows."""
        prompt = self.controller.prompt
        return prompt.options[self.controller.cursor % len(prompt.options)].label

    @property
    def labels(self) -> list[str]:
        return [option.label for option in self.controller.prompt.options]

    @property
    def screen(self) -> Screen:
        return self.controller.view().screen

    @property
    def lights(self) -> dict[str, SeatLight]:
        return dict(self.controller.view().lights)

    @property
    def game(self) -> PentathlonGame:
        session = self.controller.session
        assert isinstance(session, PentathlonGame)
        return session

    def actions(self) -> list[dict[str, Any]]:
        return [
            {k: v for k, v in e.items() if k not in ("t", "event")}
            for e in self.events
            if e["event"] == "action"
        ]

    def kinds(self) -> list[str]:
        return [action["action"].removeprefix("pentathlon.") for action in self.actions()]

    def named(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == event]


def begin(table: PTable, begins: str = "A") -> PTable:
    """The monitor enters a start by which ``begins`` begins, as the game makes it (R788)."""
    method = table.game.rules.starts_by
    if method is StartMethod.DIE_TOSS:  # the lower toss begins
        return table.enter(1 if begins == "A" else 2).enter(2 if begins == "A" else 1)
    if method is StartMethod.STRIP_DRAW:  # the lower strip begins
        low, high = "1/3", "1/2"
        return table.choose(low if begins == "A" else high).choose(high if begins == "A" else low)
    if method is StartMethod.CHIP_IN_HAND:  # the other's hand did not hold the colour
        return table.choose(f"{begins} names").buttons("no")
    return table.choose(f"{begins} draws first").enter(1)  # stars on the first draw


def playing(game: str = "contig-60", begins: str = "A", **options: Any) -> PTable:
    """A table set for ``game`` on which ``begins`` has the flag card: the first turn."""
    table = PTable(game=game, **options)
    begin(table, begins)
    assert table.key in {"p/turn1", "p/turn1/capture"}
    return table


def record_chip(table: PTable, points: int) -> PTable:
    """Contig 60: the holder placed a chip scoring ``points``."""
    table.buttons("yes")  # the menu
    table.choose("Chip placed")
    return table.enter(points)


def deal_cards(table: PTable, rounds: int) -> PTable:
    """Stars & Bars: ``rounds`` rounds of cards placed for 0 points, A beginning."""
    for _ in range(rounds):
        for seat in ("A", "B"):
            table.buttons("yes").choose("Card placed").enter(0)
            table.flag(seat)
    return table


def challenge(table: PTable, by: str, *rules: str) -> PTable:
    """``by`` presses the challenge input and the monitor enters the rules."""
    table.challenge_input(by)
    for rule in rules:
        table.choose(rule)
    count = len(rules)
    return table.choose(f"Done: {count} rule{'s' if count > 1 else ''}")


# --- journals as an earlier gametable wrote them -------------------------------------------


def write_journal(
    path: Path, settings: TableSettings, presses: list[str], decisions: list[dict[str, Any]]
) -> None:
    """The journal entry by entry: its session, each press (down at a whole second, up a tenth
    later, the two pin reads its debounce made), and the decisions it recorded."""
    journal = Journal.open(path)
    journal.add("session", 0.0, {"settings": settings_to_json(settings)})
    for second, name in enumerate(presses, start=1):
        t = float(second)
        journal.add("input", t, {"edge": [name, t, True, t]})
        journal.add("input", t + 0.1, {"edge": [name, t + 0.1, False, t + 0.1]})
        for _ in range(2):
            journal.add("input", t + 0.02, {"read": [name, False]})
    for decision in decisions:
        journal.add("event", decision["t"], decision)
    journal.commit()
    journal.close()


def reopened(path: Path, settings: TableSettings) -> tuple[Journal, RecordedTable]:
    journal = Journal.open(path)
    try:
        table = RecordedTable.start(
            journal=journal, settings=settings, now=0.0, read_pin=lambda name: False
        )
    except JournalMismatch:
        journal.close()
        raise
    return journal, table
