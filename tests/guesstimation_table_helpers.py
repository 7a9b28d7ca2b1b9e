"""A Guesstimation table on virtual time for tests: buzzers, console buttons and page entries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import Entry, VirtualTable
from firmware_py.table.journal import Journal
from tests.screens import assert_fits_the_oled

NAMES = ("Ann", "Bo", "Cy")
SEATS = ("A", "B", "C")


def settings(seats: tuple[str, ...] = SEATS, **options: Any) -> TableSettings:
    options.setdefault("seed", 2026)
    return TableSettings(seats=seats, family="guesstimation", options=options)


class GuessTable:
    """Ann, Bo and Cy at seats A, B and C (unless told otherwise), the sample deck by default."""

    def __init__(self, *, journal: Path | None = None, **options: Any) -> None:
        options.setdefault("players", list(NAMES))
        options.setdefault("deck", "sample")
        seats = tuple("ABCDEF"[: len(options["players"])])
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

    def press(self, name: str) -> GuessTable:
        self.t += 1.0
        self.virtual.advance(self.t)
        self.virtual.drive(name, True, self.t)
        self.virtual.advance(self.t + 0.1)
        self.virtual.drive(name, False, self.t + 0.1)
        assert_fits_the_oled(self.controller)
        return self

    def buttons(self, *names: str) -> GuessTable:
        for name in names:
            self.press(f"console.{name}")
        return self

    def buzz(self, *seats: str) -> GuessTable:
        for seat in seats:
            self.press(f"{seat}.shout")
        return self

    def enter(self, seat: str, value: str, name: str = "guess") -> GuessTable:
        self.t += 1.0
        self.virtual.enter(Entry(seat, name, value), self.t)
        assert_fits_the_oled(self.controller)
        return self

    def dial(self, value: int) -> GuessTable:
        """The console's number entry: NEXT or NO to ``value``, then YES."""
        self._step_to(value)
        return self.buttons("yes")

    def dial_decimal(self, text: str) -> GuessTable:
        """A decimal on the console (R774): the whole part, then GO and a digit for each
        decimal place, then YES: "2.54" is NEXT NEXT, GO, NEXT x5, GO, NEXT x4, YES."""
        negative = text.startswith("-")
        whole, _, fraction = text.removeprefix("-").partition(".")
        target = -int(whole) if negative else int(whole)
        self._step_to(target)
        for digit in fraction:
            self.buttons("go")
            target = target * 10 + (-int(digit) if negative else int(digit))
            self._step_to(target)
        return self.buttons("yes")

    def _step_to(self, value: int) -> None:
        while self.controller.number != value:
            self.buttons("next" if self.controller.number < value else "no")

    def guesses(self, **values: str) -> GuessTable:
        for seat, value in values.items():
            self.enter(seat, value)
        return self

    def to_guessing(self) -> GuessTable:
        """From the start: everyone rolls (GO), the leader rolls (GO), the question is read."""
        while self.phase in ("first_leader", "question_roll"):
            self.buttons("go")
        if self.phase == "question":
            self.buttons("yes")
        if self.phase == "units":
            self.buttons("yes")
        return self

    @property
    def state(self) -> Any:
        return self.controller.session

    @property
    def phase(self) -> str:
        return str(self.state.phase)

    @property
    def text(self) -> str:
        return self.controller.prompt.text

    def named(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == event]

    def actions(self, kind: str | None = None) -> list[dict[str, Any]]:
        found = self.named("action")
        return [e for e in found if kind is None or e["action"] == f"guesstimation.{kind}"]
