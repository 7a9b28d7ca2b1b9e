"""A STATES table on virtual time for tests: buzzers, knock inputs, console buttons and page
entries, every screen checked to fit the OLED."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import Entry, VirtualTable
from firmware_py.table.journal import Journal
from rules.states.table_game import TableGame
from tests.screens import assert_fits_the_oled

NAMES = ("Ann", "Bo")
EXAMPLE_DECK = "docs/states/example-deck.toml"


def settings(seats: tuple[str, ...], **options: Any) -> TableSettings:
    return TableSettings(seats=seats, family="states", options=options)


class StatesTable:
    """Ann and Bo at seats A and B (unless told otherwise), with the example deck."""

    def __init__(self, *, journal: Path | None = None, **options: Any) -> None:
        options.setdefault("players", list(NAMES))
        options.setdefault("deck", EXAMPLE_DECK)
        seats = tuple("ABCD"[: len(options["players"])])
        self.events: list[dict[str, Any]] = []
        self.journal = Journal.open(journal) if journal is not None else None
        self.virtual = VirtualTable(
            settings(seats, **options), self.events.append, journal=self.journal
        )
        self.controller = self.virtual.controller
        self.t = 0.0

    def close(self) -> None:
        self.virtual.close()
        if self.journal is not None:
            self.journal.close()

    def press(self, name: str) -> StatesTable:
        self.t += 1.0
        self.virtual.advance(self.t)
        self.virtual.drive(name, True, self.t)
        self.virtual.advance(self.t + 0.1)
        self.virtual.drive(name, False, self.t + 0.1)
        self.virtual.advance(self.t + 0.5)
        assert_fits_the_oled(self.controller)
        return self

    def buttons(self, *names: str) -> StatesTable:
        for name in names:
            self.press(f"console.{name}")
        return self

    def shout(self, seat: str) -> StatesTable:
        return self.press(f"{seat}.shout")

    def knock(self, seat: str) -> StatesTable:
        return self.press(f"{seat}.stand")

    def enter(self, seat: str, name: str, value: str) -> str | None:
        """A page entry; the refusal's line, or None when the table took it."""
        self.t += 1.0
        before = len(self.named("entry_refused"))
        self.virtual.enter(Entry(seat, name, value), self.t)
        assert_fits_the_oled(self.controller)
        refused = self.named("entry_refused")[before:]
        return str(refused[-1]["reason"]) if refused else None

    def number(self, value: int) -> StatesTable:
        """Enter ``value`` on a number step (NEXT from where it starts), then YES."""
        while self.controller.number < value:
            self.buttons("next")
        while self.controller.number > value:
            self.buttons("no")
        return self.buttons("yes")

    def pick(self, label: str) -> StatesTable:
        """On a choice: NEXT until ``label`` shows, then YES."""
        labels = [option.label for option in self.controller.prompt.options]
        assert label in labels, (label, labels)
        while self.controller.prompt.options[self.controller.cursor].label != label:
            self.buttons("next")
        return self.buttons("yes")

    def begin(self, first: str) -> StatesTable:
        return self.pick(first)

    @property
    def game(self) -> TableGame:
        session = self.controller.session
        assert isinstance(session, TableGame)
        return session

    @property
    def text(self) -> str:
        return self.controller.prompt.text

    def named(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == event]

    def actions(self, kind: str | None = None) -> list[dict[str, Any]]:
        found = self.named("action")
        return [e for e in found if kind is None or e["action"] == f"states.{kind}"]
