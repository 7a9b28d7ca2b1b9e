"""``gametable sim --headless --script FILE.jsonl``: a timed input script on virtual time.

Each script line is ``{"t": seconds, "press": INPUT}`` or ``{"t": seconds, "release": INPUT}``
(a stand-up sensor: press = stand up, release = sit down), ``{"t": seconds, "entry": {"seat":
SEAT, "name": WHAT, "value": TEXT}}`` (what a player types on the table's web page, e.g. a
guess), or ``{"t": seconds}`` alone to let time run on to ``t``. An optional first line
``{"setup": {...}}`` sets the table up: ``family``, ``seats`` (a list of seat letters, for a
family played by more than two) and the family's options (GeoPlunge: ``round``, ``game``,
``minutes``, ``on_time_up``). The inputs are driven through gpiozero's MockFactory pins with the
script's times as their edge times, so the real input path is exercised; no real waiting
happens. The daemon's decisions come out as JSON Lines; an entry the table refuses comes out as
``{"event": "entry_refused", ...}`` with its reason (the page's answer: not a decision, never
journaled).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from drivers.inputs import InputBank, InputSpec
from drivers.mockpins import mock_factory
from firmware_py.table.controller import (
    CONSOLE,
    Event,
    TableController,
    TableSettings,
    fresh_settings,
)
from firmware_py.table.family import FamilyOptionsError, PairedMatch, family
from firmware_py.table.journal import Journal, JournalError
from firmware_py.table.recorder import RecordedTable, settings_to_json

# Virtual seconds: far beyond a day of play, and small enough that an edge time keeps its
# microseconds (the shout arbiter compares edges in whole microseconds).
MAX_SECONDS = 1_000_000
SHOWN_CHARS = 40  # a bad value is quoted at most this long in the error line
SEAT_LETTERS = "ABCDEF"  # the config's seats, in order
MAX_ENTRY_CHARS = 300  # an entry's text, as the web page takes it


class ScriptError(Exception):
    """A script line that is not what the simulator expects; str is one line."""


@dataclass(frozen=True, slots=True)
class Entry:
    """What a player types on the table's web page."""

    seat: str
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class ScriptStep:
    t: float
    input: str | None  # None: only let time run on (or an entry)
    active: bool
    entry: Entry | None = None


def input_names(seats: Sequence[str]) -> tuple[str, ...]:
    names = [f"{seat}.{what}" for seat in seats for what in ("stand", "shout")]
    return (*names, *(f"console.{button}" for button in CONSOLE))


def parse_script(
    lines: Iterable[str], settings: TableSettings
) -> tuple[TableSettings, list[ScriptStep]]:
    """The whole script checked, before anything is played or written."""
    known = set(input_names(settings.seats))
    steps: list[ScriptStep] = []
    set_up = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        data = _json_object(line, number)
        if "setup" in data:
            if steps:
                raise ScriptError(f"line {number}: setup must come before the first input")
            if set_up:
                raise ScriptError(f"line {number}: a second setup line: expected one, the first")
            if len(data) > 1:
                extra = ", ".join(sorted(set(data) - {"setup"}))
                raise ScriptError(f"line {number}: a setup line holds only setup, not {extra}")
            settings = _setup(settings, data["setup"], number)
            set_up = True
            known = set(input_names(settings.seats))
            continue
        steps.append(_step(data, number, known, steps[-1].t if steps else 0.0, settings.seats))
    return settings, steps


def _json_object(line: str, number: int) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise ScriptError(f"line {number}: not JSON ({error.msg})") from None
    except RecursionError:
        raise ScriptError(f"line {number}: not JSON we can read (nested too deeply)") from None
    except ValueError:  # Python's limit on the digits of an integer
        raise ScriptError(f"line {number}: not JSON we can read (a number too long)") from None
    if not isinstance(data, dict):
        raise ScriptError(f"line {number}: expected a JSON object, got {_shown(data)}")
    return data


def _shown(value: Any) -> str:
    """A bad value as the script wrote it (NaN, 1e+400, "text"), cut short; lists and objects
    by name."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    text = json.dumps(value)
    return text if len(text) <= SHOWN_CHARS else f"{text[: SHOWN_CHARS - 3]}..."


def _setup(settings: TableSettings, setup: Any, number: int) -> TableSettings:
    """``family``, ``seats`` and the family's own options (GeoPlunge: round, game, ...)."""
    if not isinstance(setup, dict):
        raise ScriptError(f"line {number}: setup: expected an object, got {_shown(setup)}")
    options = dict(setup)
    name = options.pop("family", settings.family)
    seats = _seats(options.pop("seats", list(settings.seats)), number)
    if name != settings.family:
        options = {}  # another family's options do not carry over
        options.update(
            {key: value for key, value in setup.items() if key not in ("family", "seats")}
        )
    else:
        options = {**settings.options, **options}
    try:
        if not isinstance(name, str):
            raise FamilyOptionsError("family", f"expected a family's name, got {_shown(name)}")
        family(name).game(options, seats)
    except FamilyOptionsError as error:
        raise ScriptError(f"line {number}: setup.{error.option}: {error.problem}") from None
    return replace(settings, family=name, seats=seats, options=options)


def _seats(value: Any, number: int) -> tuple[str, ...]:
    """The seats, as the config names them: A and B, up to A to F, in that order."""
    expected = f"a list of 2 to {len(SEAT_LETTERS)} seats named A, B, ... in that order"
    if (
        not isinstance(value, list)
        or not 2 <= len(value) <= len(SEAT_LETTERS)
        or value != list(SEAT_LETTERS[: len(value)])
    ):
        shown = json.dumps(value)[:SHOWN_CHARS] if isinstance(value, list) else _shown(value)
        raise ScriptError(f"line {number}: setup.seats: expected {expected}, got {shown}")
    return tuple(value)


def _step(
    data: dict[str, Any], number: int, known: set[str], previous: float, seats: tuple[str, ...]
) -> ScriptStep:
    extra = sorted(set(data) - {"t", "press", "release", "entry"})
    if extra:
        raise ScriptError(
            f"line {number}: unknown key(s) {', '.join(extra)}: expected t, press, release or entry"
        )
    t = _seconds(data.get("t"), number)
    if t < previous:
        raise ScriptError(f"line {number}: t {t:g} is before the previous line's {previous:g}")
    if len({"press", "release", "entry"} & set(data)) > 1:
        raise ScriptError(
            f"line {number}: a line does one thing (press, release or entry), not both"
        )
    if "entry" in data:
        return ScriptStep(t, None, False, _entry(data["entry"], number, seats))
    field = "press" if "press" in data else "release" if "release" in data else None
    if field is None:
        return ScriptStep(t, None, False)
    name = data[field]
    if not isinstance(name, str):
        raise ScriptError(
            f"line {number}: {field}: expected an input name (a string), got {_shown(name)}"
        )
    if name not in known:
        raise ScriptError(
            f"line {number}: {field}: unknown input {name[:SHOWN_CHARS]!r}: "
            f"expected one of {', '.join(sorted(known))}"
        )
    return ScriptStep(t, name, field == "press")


def _entry(value: Any, number: int, seats: tuple[str, ...]) -> Entry:
    """``{"seat": "B", "name": "guess", "value": "29029"}``: the table judges name and value."""
    if not isinstance(value, dict):
        raise ScriptError(
            f"line {number}: entry: expected an object with seat, name and value, "
            f"got {_shown(value)}"
        )
    wanted = {"seat", "name", "value"}
    for problem, keys in (("unknown", set(value) - wanted), ("missing", wanted - set(value))):
        if keys:
            raise ScriptError(
                f"line {number}: entry: {problem} {', '.join(sorted(keys))} "
                "(expected seat, name and value)"
            )
    seat, name, text = value["seat"], value["name"], value["value"]
    if seat not in seats:
        raise ScriptError(
            f"line {number}: entry.seat: expected one of {', '.join(seats)}, got {_shown(seat)}"
        )
    for key, part in (("name", name), ("value", text)):
        if not isinstance(part, str) or not part or len(part) > MAX_ENTRY_CHARS:
            raise ScriptError(
                f"line {number}: entry.{key}: expected text of 1 to {MAX_ENTRY_CHARS} "
                f"characters, got {_shown(part)}"
            )
    return Entry(seat, name, text)


def _seconds(value: Any, number: int) -> float:
    """A script time: a finite number of seconds from 0 to MAX_SECONDS (never NaN)."""
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if ok and isinstance(value, float):
        ok = math.isfinite(value)
    if not ok or not 0 <= value <= MAX_SECONDS:
        raise ScriptError(
            f"line {number}: t: expected seconds (a number from 0 to {MAX_SECONDS}), "
            f"got {'nothing' if value is None else _shown(value)}"
        )
    return float(value)


class VirtualTable:
    """A controller wired to MockFactory input pins, driven on virtual time.

    With a journal every input and decision is recorded (decisions reach ``emit`` only once
    committed); on a journal that already holds a session the table is rebuilt from it, and
    ``levels`` gives the inputs' levels at that point (a restart takes no virtual time).
    """

    def __init__(
        self,
        settings: TableSettings,
        emit: Callable[[Event], None],
        *,
        journal: Journal | None = None,
        levels: Mapping[str, bool] | None = None,
    ) -> None:
        names = input_names(settings.seats)
        self.emit = emit
        self.specs = {
            name: InputSpec(name=name, pin=pin) for pin, name in enumerate(names, start=2)
        }
        self.factory = mock_factory()
        self._muted = False
        self.recorded: RecordedTable | None = None
        if journal is not None:
            self.recorded = RecordedTable.start(
                journal=journal, settings=settings, now=0.0, read_pin=self._read_pin, on_event=emit
            )
            self.controller = self.recorded.controller
        else:
            self.controller = TableController(
                settings=fresh_settings(settings), emit=emit, now=0.0, read_pin=self._read_pin
            )
        self.bank = InputBank(
            specs=list(self.specs.values()), factory=self.factory, on_edge=self._edge
        )
        # The levels the inputs had when the table stopped: set after the bank opened (opening
        # applies the pull resistors), without edges: they are primed below, not pressed now.
        self._muted = True
        for name, active in (levels or {}).items():
            self.drive(name, active, self.controller.now)
        self._muted = False
        levels_now = {name: bool(self.bank.is_active(name)) for name in names}
        if self.recorded is not None:
            self.recorded.prime(levels_now)
        else:
            self.controller.prime(levels_now)

    def _read_pin(self, name: str) -> bool:
        return bool(self.bank.is_active(name))

    def _edge(self, name: str, ticks: float, active: bool) -> None:
        if self._muted:
            return
        now = max(ticks, self.controller.now)
        if self.recorded is not None:
            self.recorded.edge(name, ticks, active, now)
        else:
            self.controller.on_edge(name, ticks, active, now=now)

    def advance(self, t: float) -> None:
        if self.recorded is not None:
            self.recorded.advance(t)
        else:
            self.controller.advance(t)

    def pair(self, paired: PairedMatch | None, t: float) -> None:
        """The hub's pairing for this table, as the daemon hands it over (R190)."""
        if self.recorded is not None:
            self.recorded.pair(paired, t)
        else:
            self.controller.pair(paired, t)

    def enter(self, entry: Entry, t: float) -> None:
        """What the web page hands the table; a refusal is printed, as the page would show it."""
        if self.recorded is not None:
            refused = self.recorded.enter(entry.seat, entry.name, entry.value, t)
        else:
            refused = self.controller.enter(entry.seat, entry.name, entry.value, t)
        if refused is not None:
            self.emit(
                {
                    "t": round(t, 4),
                    "event": "entry_refused",
                    "seat": entry.seat,
                    "name": entry.name,
                    "reason": refused,
                }
            )

    @staticmethod
    def _drive_pin(pin: Any, spec: InputSpec, active: bool, t: float) -> None:
        active_high = spec.active_state if spec.active_state is not None else not spec.pull_up
        pin.drive_at(active if active_high else not active, t)

    def drive(self, name: str, active: bool, t: float) -> None:
        self._drive_pin(self.bank.pin(name), self.specs[name], active, t)

    def play(self, steps: Sequence[ScriptStep], *, first: int = 0) -> None:
        for index in range(first, len(steps)):
            step = steps[index]
            self.advance(step.t)
            if self.recorded is not None:
                self.recorded.mark(index)
            if step.input is not None:
                self.drive(step.input, step.active, step.t)
            if step.entry is not None:
                self.enter(step.entry, step.t)

    def close(self) -> None:
        self.bank.close()
        self.factory.close()


def resume_point(journal: Journal, steps: Sequence[ScriptStep]) -> tuple[int, dict[str, bool]]:
    """Where a script picks up on a journal: after the last step recorded, with the levels the
    inputs had then."""
    marks = [
        entry.body["mark"]
        for entry in journal.entries()
        if entry.kind == "input" and "mark" in entry.body
    ]
    first = marks[-1] + 1 if marks else 0
    levels: dict[str, bool] = {}
    for step in steps[:first]:
        if step.input is not None:
            levels[step.input] = step.active
    return first, levels


def _check_same_setup(journal: Journal, settings: TableSettings) -> None:
    """A journal resumed by a script is the one that script recorded: the same family, kernel
    settings and options (a journal may hold more options: what the table fixed when it began,
    such as a seed)."""
    first = next(iter(journal.entries()), None)
    if first is None or first.kind != "session" or "settings" not in first.body:
        return  # a new journal, or one the recorder itself will refuse
    recorded = first.body["settings"]
    wanted = settings_to_json(settings)
    options = recorded.get("options") if isinstance(recorded.get("options"), dict) else {}
    differs = [
        name for name, value in wanted.items() if name != "options" and recorded.get(name) != value
    ]
    fixed = _fresh_options(settings)
    differs += [
        f"options.{name}"
        for name, value in wanted["options"].items()
        if options.get(name) not in (value, fixed.get(name))
    ]
    if differs:
        raise JournalError(
            f"journal {journal.path} was recorded with another setup ({', '.join(differs)} "
            "differ): expected the script that recorded it, or a new --journal"
        )


def _fresh_options(settings: TableSettings) -> dict[str, Any]:
    """The options as a new table records them (a deck file's path read into the deck it
    holds), in the journal's JSON form; empty when the family cannot read them now."""
    try:
        fresh = family(settings.family).fresh(settings.options)
    except FamilyOptionsError:
        return {}
    fixed: dict[str, Any] = json.loads(json.dumps(fresh))
    return fixed


def run_script(
    lines: Iterable[str],
    settings: TableSettings,
    emit: Callable[[Event], None],
    *,
    journal: Journal | None = None,
) -> None:
    settings, steps = parse_script(lines, settings)
    play_script(settings, steps, emit, journal=journal)


def play_script(
    settings: TableSettings,
    steps: Sequence[ScriptStep],
    emit: Callable[[Event], None],
    *,
    journal: Journal | None = None,
) -> None:
    """Play a script already checked by ``parse_script``; a journal it resumes must have been
    recorded with the same setup (``JournalError`` otherwise, nothing written)."""
    if journal is not None:
        _check_same_setup(journal, settings)
    first, levels = resume_point(journal, steps) if journal is not None else (0, {})
    table = VirtualTable(settings, emit, journal=journal, levels=levels)
    try:
        table.play(steps, first=first)
    finally:
        table.close()
