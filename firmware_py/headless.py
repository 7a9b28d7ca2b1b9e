"""``gametable sim --headless --script FILE.jsonl``: a timed input script on virtual time.

Each script line is ``{"t": seconds, "press": INPUT}`` or ``{"t": seconds, "release": INPUT}``
(a stand-up sensor: press = stand up, release = sit down), or ``{"t": seconds}`` alone to let
time run on to ``t``. An optional first line ``{"setup": {...}}`` sets the table up (``round``,
``game``, ``minutes``, ``on_time_up``). The inputs are driven through gpiozero's MockFactory
pins with the script's times as their edge times, so the real input path is exercised; no real
waiting happens. The daemon's decisions come out as JSON Lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from drivers.inputs import InputBank, InputSpec
from drivers.mockpins import mock_factory
from firmware_py.table import CONSOLE, Event, TableController, TableSettings
from rules.match import TimeUpRule

SETUP_KEYS = {"round": int, "game": int, "minutes": int, "on_time_up": str}


class ScriptError(Exception):
    """A script line that is not what the simulator expects; str is one line."""


@dataclass(frozen=True, slots=True)
class ScriptStep:
    t: float
    input: str | None  # None: only let time run on
    active: bool


def input_names(seats: Sequence[str]) -> tuple[str, ...]:
    names = [f"{seat}.{what}" for seat in seats for what in ("stand", "shout")]
    return (*names, *(f"console.{button}" for button in CONSOLE))


def parse_script(
    lines: Iterable[str], settings: TableSettings
) -> tuple[TableSettings, list[ScriptStep]]:
    known = set(input_names(settings.seats))
    steps: list[ScriptStep] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise ScriptError(f"line {number}: not JSON ({error.msg})") from None
        if not isinstance(data, dict):
            raise ScriptError(f"line {number}: expected a JSON object")
        if "setup" in data:
            if steps:
                raise ScriptError(f"line {number}: setup must come before the first input")
            settings = _setup(settings, data["setup"], number)
            continue
        steps.append(_step(data, number, known, steps[-1].t if steps else 0.0))
    return settings, steps


def _setup(settings: TableSettings, setup: Any, number: int) -> TableSettings:
    if not isinstance(setup, dict):
        raise ScriptError(f"line {number}: setup: expected an object")
    for key, value in setup.items():
        kind = SETUP_KEYS.get(key)
        if kind is None:
            raise ScriptError(
                f"line {number}: setup.{key}: unknown (expected {', '.join(SETUP_KEYS)})"
            )
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ScriptError(
                f"line {number}: setup.{key}: expected {kind.__name__}, got {value!r}"
            )
    try:
        on_time_up = TimeUpRule(setup.get("on_time_up", settings.on_time_up))
    except ValueError:
        raise ScriptError(
            f"line {number}: setup.on_time_up: expected abandon, finish or tie"
        ) from None
    game = setup.get("game", settings.game)
    if game is not None and not 1 <= game <= 5:
        raise ScriptError(f"line {number}: setup.game: expected 1 to 5, got {game}")
    return replace(
        settings,
        round=setup.get("round", settings.round),
        game=game,
        match_minutes=setup.get("minutes", settings.match_minutes),
        on_time_up=on_time_up,
    )


def _step(data: dict[str, Any], number: int, known: set[str], previous: float) -> ScriptStep:
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or t < 0:
        raise ScriptError(f"line {number}: t: expected seconds (a number >= 0), got {t!r}")
    if t < previous:
        raise ScriptError(f"line {number}: t {t} is before the previous line's {previous}")
    extra = sorted(set(data) - {"t", "press", "release"})
    if extra:
        raise ScriptError(
            f"line {number}: unknown key(s) {', '.join(extra)}: expected t, press or release"
        )
    if "press" in data and "release" in data:
        raise ScriptError(f"line {number}: a line presses or releases one input, not both")
    name = data.get("press", data.get("release"))
    if name is None:
        return ScriptStep(float(t), None, False)
    if name not in known:
        raise ScriptError(
            f"line {number}: unknown input {name!r}: expected one of {', '.join(sorted(known))}"
        )
    return ScriptStep(float(t), name, "press" in data)


class VirtualTable:
    """A controller wired to MockFactory input pins, driven on virtual time."""

    def __init__(self, settings: TableSettings, emit: Callable[[Event], None]) -> None:
        names = input_names(settings.seats)
        self.specs = {
            name: InputSpec(name=name, pin=pin) for pin, name in enumerate(names, start=2)
        }
        self.factory = mock_factory()
        self.controller = TableController(
            settings=settings, emit=emit, now=0.0, read_pin=self._read_pin
        )
        self.bank = InputBank(
            specs=list(self.specs.values()), factory=self.factory, on_edge=self.controller.on_edge
        )
        self.controller.prime({name: self.bank.is_active(name) for name in names})

    def _read_pin(self, name: str) -> bool:
        return bool(self.bank.is_active(name))

    def drive(self, name: str, active: bool, t: float) -> None:
        spec = self.specs[name]
        active_high = spec.active_state if spec.active_state is not None else not spec.pull_up
        self.bank.pin(name).drive_at(active if active_high else not active, t)

    def play(self, steps: Sequence[ScriptStep]) -> None:
        for step in steps:
            self.controller.advance(step.t)
            if step.input is not None:
                self.drive(step.input, step.active, step.t)

    def close(self) -> None:
        self.bank.close()
        self.factory.close()


def run_script(
    lines: Iterable[str], settings: TableSettings, emit: Callable[[Event], None]
) -> None:
    settings, steps = parse_script(lines, settings)
    table = VirtualTable(settings, emit)
    try:
        table.play(steps)
    finally:
        table.close()
