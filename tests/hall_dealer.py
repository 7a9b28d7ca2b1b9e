"""The hall campaign's dealer: plays a real table's matches on its mock pins, in real time.

A timed script (docs/scripts) cannot survive a kill -9: the table restarts from its journal at
a step the script did not expect, and every press after it lands on the wrong prompt. So the
dealer does what a dealer does: it reads the prompt the table shows (the controller's own
``prompt``) and presses what it asks for, choosing at random (seeded) among the answers, with a
stray UNDO now and then. Every family's matches go on this way: a GeoPlunge match runs until
its clock runs out (its ``match_result``), and GO at "Match over" starts the next round; a
Pentathlon game ends (``game_over``) and the next begins; Guesstimation and STATES play game
after game.

At the campaign's end the dealer leaves: it presses nothing more, so the table decides only
what its clocks decide, and the campaign can stop it with its outbox empty.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_py.table.prompts import Kind, Prompt

if TYPE_CHECKING:
    from drivers.inputs import InputSpec
    from firmware_py.table.controller import TableController
    from firmware_py.table.daemon import TableDaemon

PRESS_SECONDS = 0.06  # a button held this long: well past the 20 ms debounce
GAP_SECONDS = (0.08, 0.3)  # between two moves, at random
UNDO_CHANCE = 0.02
# What a player types on the table's page: numbers for a guess, words for a state or a claim.
TYPED_WORDS = ("Ohio", "TX", "Utah", "Maine", "Iowa, Ohio, Utah, Idaho", "Texas")


@dataclass(frozen=True, slots=True)
class Tap:
    input: str


@dataclass(frozen=True, slots=True)
class Count:
    """COUNT with some seats' inputs held until the count has been read."""

    held: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Enter:
    seat: str
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Rest:
    seconds: float


Move = Tap | Count | Enter | Rest


def choose(controller: TableController, rng: random.Random) -> list[Move]:
    """The dealer's next moves on the prompt the table shows now."""
    prompt = controller.prompt
    seats = controller.settings.seats
    if rng.random() < UNDO_CHANCE:
        return [Tap("console.undo")]
    if prompt.entry is not None and rng.random() < 0.5:
        waiting = [seat for seat in prompt.entry.seats if seat not in prompt.entry.done]
        if waiting:
            return [Enter(rng.choice(waiting), prompt.entry.name, _typed(prompt, rng))]
    return _buttons(prompt, seats, rng)


def _typed(prompt: Prompt, rng: random.Random) -> str:
    assert prompt.entry is not None
    if prompt.entry.keyboard in ("numeric", "decimal") or rng.random() < 0.5:
        return str(rng.randint(0, 3000))
    return rng.choice(TYPED_WORDS)


def _buttons(prompt: Prompt, seats: tuple[str, ...], rng: random.Random) -> list[Move]:
    kind = prompt.kind
    if kind is Kind.COUNT:
        assert prompt.count is not None
        role = prompt.count.role
        return [Count(tuple(f"{seat}.{role}" for seat in seats if rng.random() < 0.35))]
    if kind is Kind.CHOICE:
        return [*(Tap("console.next") for _ in range(rng.randint(0, 2))), Tap("console.yes")]
    if kind is Kind.YES_NO:
        return [Tap("console.yes" if rng.random() < 0.6 else "console.no")]
    if kind is Kind.CONFIRM:
        return [Tap("console.yes")]
    if kind is Kind.NUMBER:
        return [*(Tap("console.next") for _ in range(rng.randint(0, 3))), Tap("console.yes")]
    if kind is Kind.SHOUT:
        if prompt.opens_on_go and rng.random() < 0.4:
            return [Tap("console.go")]
        return [Tap(f"{rng.choice(seats)}.shout")]
    # a notice: GO or NEXT if they do something here, else a seat's input or the time
    if prompt.go is not None:
        return [Tap("console.go")]
    if prompt.next is not None:
        return [Tap("console.next")]
    if prompt.on_press is not None and rng.random() < 0.5:
        return [Tap(f"{rng.choice(seats)}.{rng.choice(('shout', 'stand'))}")]
    return [Rest(0.4)]


@dataclass(slots=True)
class Dealer:
    """Plays ``daemon``'s table on its mock pins from the daemon's own loop."""

    daemon: TableDaemon
    rng: random.Random
    leave_when: Path | None = None  # the dealer leaves the table once this file exists
    specs: dict[str, InputSpec] = field(default_factory=dict)

    @property
    def gone(self) -> bool:
        return self.leave_when is not None and self.leave_when.exists()

    async def run(self) -> None:
        daemon = self.daemon
        self.specs = {spec.name: spec for spec in daemon.input_specs}
        while not hasattr(daemon, "bank"):  # the daemon opens its inputs once its journal is read
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        while True:
            moves = [Rest(0.5)] if self.gone else choose(daemon.controller, self.rng)
            for move in moves:
                await self._play(move)
            await asyncio.sleep(self.rng.uniform(*GAP_SECONDS))

    async def _play(self, move: Move) -> None:
        if isinstance(move, Tap):
            self._drive(move.input, True)
            await asyncio.sleep(PRESS_SECONDS)
            self._drive(move.input, False)
        elif isinstance(move, Count):
            for name in move.held:
                self._drive(name, True)
            await asyncio.sleep(PRESS_SECONDS)
            self._drive("console.count", True)
            await asyncio.sleep(PRESS_SECONDS)
            self._drive("console.count", False)
            count = self.daemon.controller.settings.count_cadence * 5
            await asyncio.sleep(count + 0.2)
            for name in move.held:
                self._drive(name, False)
        elif isinstance(move, Enter):
            self.daemon.enter(move.seat, move.name, move.value)  # the page's path
        else:
            await asyncio.sleep(move.seconds)

    def _drive(self, name: str, active: bool) -> None:
        """The input's electrical level, as its wiring makes it (a pull-up: active is low)."""
        spec = self.specs[name]
        active_high = spec.active_state if spec.active_state is not None else not spec.pull_up
        pin = self.daemon.bank.pin(name)
        pin.drive_at(active if active_high else not active, time.monotonic())
