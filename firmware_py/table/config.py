"""The table's TOML configuration: typed, validated, frozen.

Read like Klipper reads printer.cfg: a small typed reader takes each key it knows, records it,
and afterwards rejects whatever was left over by name, so a typo never silently falls back to a
default. Every error is one line naming the full key path and what was expected, e.g.

    seats.A.shout.pin: expected a GPIO number 0-27 or a name like "GPIO17" or "BOARD11", got "x"

Pins are stored as BCM GPIO numbers (what gpiozero takes as an int), whatever form the file used,
so "GPIO17", "BOARD11" and 17 are the same pin and a pin used twice is caught.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypeVar, cast

from firmware_py.cli_args import print_error
from firmware_py.table.hub_wire import MAX_TABLE
from firmware_py.user_files import MAX_CONFIG, UserFileError, read_limited_bytes
from rules.text import unprintable

TimeUpRule = Literal["abandon", "finish", "tie"]
TableFormat = Literal["combo4", "combo3", "championship"]
FamilyName = Literal["geoplunge", "pentathlon", "guesstimation", "states"]
PinFactoryName = Literal["lgpio", "rpigpio", "mock"]
OledDriver = Literal["ssd1306", "sh1106"]
OledInterface = Literal["i2c", "spi"]
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]
_Choice = TypeVar("_Choice", str, int)

FAMILIES: Final = ("geoplunge", "pentathlon", "guesstimation", "states")
FORMATS: Final = ("combo4", "combo3", "championship")
# The rounds a format has (rules.geoplunge.match3.ROUNDS for Combo 3; a test keeps them equal).
FORMAT_ROUNDS: Final[Mapping[str, int]] = {"combo4": 99, "combo3": 8}
# The Pentathlon's games, its options' ranges and the strips' default partitions
# (firmware_py.families.pentathlon.options and rules.pentathlon; a test keeps them equal).
PENTATHLON_GAMES: Final = ("contig-60", "fab-a-diffy", "juggle", "queens-guards", "stars-bars")
PENTATHLON_MINUTES: Final = (1, 180)
PENTATHLON_CHIPS: Final = (5, 99)
PENTATHLON_TURN_SECONDS: Final = (10, 600)
PENTATHLON_CAPTURE_SECONDS: Final = (1, 60)
PENTATHLON_MONITOR_CHARS: Final = 60  # the Game Monitor's name, as a player's on the card
# Guesstimation's players (one per seat) and its board's length (rules.guesstimation; a test
# keeps them equal).
GUESSTIMATION_SEATS: Final = (3, 6)
GUESSTIMATION_FINISH: Final = (2, 100)
GUESSTIMATION_SAMPLE: Final = "sample"  # the deck that ships with gametable
# STATES's options (firmware_py.families.states.options and rules.states; a test keeps them equal).
STATES_SCORINGS: Final = ("standard", "alternate")
STATES_CONNECTS: Final = ("group", "chain")
STATES_TARGETS: Final = (1, 999)
SEAT_NAMES: Final = "ABCDEF"
MIN_SEATS: Final = 2
BAUDRATES: Final = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200)
# luma.oled's supported panel sizes per driver; anything else fails only at display time.
OLED_SIZES: Final[Mapping[str, tuple[tuple[int, int], ...]]] = {
    "ssd1306": ((128, 64), (128, 32), (96, 16), (64, 48), (64, 32)),
    "sh1106": ((128, 64), (128, 32), (128, 128)),
}

_PIN_EXPECTED: Final = 'a GPIO number 0-27 or a name like "GPIO17" or "BOARD11"'
_MAX_GPIO: Final = 27
# The 40-pin header: physical (BOARD) pin -> BCM GPIO, or what the pin is if it is not a GPIO.
_BOARD: Final[Mapping[int, int | str]] = {
    1: "a 3V3 pin", 2: "a 5V pin", 3: 2, 4: "a 5V pin", 5: 3, 6: "a ground pin",
    7: 4, 8: 14, 9: "a ground pin", 10: 15, 11: 17, 12: 18, 13: 27, 14: "a ground pin",
    15: 22, 16: 23, 17: "a 3V3 pin", 18: 24, 19: 10, 20: "a ground pin", 21: 9, 22: 25,
    23: 11, 24: 8, 25: "a ground pin", 26: 7, 27: 0, 28: 1, 29: 5, 30: "a ground pin",
    31: 6, 32: 12, 33: 13, 34: "a ground pin", 35: 19, 36: 16, 37: 26, 38: 20,
    39: "a ground pin", 40: 21,
}  # fmt: skip
_PIN_NAME: Final = re.compile(r"(GPIO|BCM|BOARD|J8:)(\d{1,2})")
# A host name (letters, digits, dots, hyphens) or an IPv4 or IPv6 address.
_HOST: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*|[0-9A-Fa-f:.]+")
_ABSOLUTE: Final = "an absolute path"
# GPIOs a bus takes when the OLED uses it (the kernel drivers own them, gpiozero must not).
_I2C_PINS: Final[Mapping[int, Mapping[int, str]]] = {
    0: {0: "I2C0 SDA", 1: "I2C0 SCL"},
    1: {2: "I2C1 SDA", 3: "I2C1 SCL"},
}
_SPI_PINS: Final[Mapping[int, Mapping[int, str]]] = {
    0: {9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"},
    1: {19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"},
}
_SPI_CE: Final[Mapping[int, Mapping[int, int]]] = {0: {0: 8, 1: 7}, 1: {0: 18, 1: 17}}
# The on-board UART's pins, taken when the scoreboard is on it rather than on a USB adapter.
_UART_DEVICES: Final = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
_UART_PINS: Final[Mapping[int, str]] = {14: "UART TXD", 15: "UART RXD"}


class ConfigError(Exception):
    """A configuration problem; str() is the one line to show the operator."""


@dataclass(frozen=True)
class InputConfig:
    """A switch on a GPIO. pull_up is the internal resistor; active_high defaults to its opposite
    (a pulled-up switch pulls the line low when pressed), as in gpiozero."""

    pin: int
    pull_up: bool = True
    active_high: bool = False


@dataclass(frozen=True)
class SeatConfig:
    name: str
    stand: InputConfig  # stand-up sensor: a level
    shout: InputConfig  # shout buzzer: an edge
    led: int


@dataclass(frozen=True)
class ConsoleConfig:
    """The dealer's six buttons."""

    count: InputConfig = InputConfig(pin=17)
    go: InputConfig = InputConfig(pin=27)
    yes: InputConfig = InputConfig(pin=22)
    no: InputConfig = InputConfig(pin=23)
    undo: InputConfig = InputConfig(pin=24)
    next: InputConfig = InputConfig(pin=25)


@dataclass(frozen=True)
class TableConfig:
    name: str = "Table 1"
    family: FamilyName = "geoplunge"  # the game family the table runs
    # GeoPlunge only:
    format: TableFormat = "combo4"
    round: int | None = None  # the first match's round; None: 1 (the championship has none)
    match_minutes: int | None = None  # None: the round's length (Combo 4: 20; Combo 3: 20 or 12)
    on_time_up: TimeUpRule = "abandon"
    ptr_early_end: bool = True  # Level 3 Play the Ranks ends at 6 tricks won (R68); false: all 8


@dataclass(frozen=True)
class PentathlonConfig:
    """The Pentathlon's options ([pentathlon], with table.family = "pentathlon"); a key left
    out (None, or a game missing from ``minutes``) takes the family's default."""

    game: str | None = None  # None: the monitor chooses the game at the table
    minutes: tuple[tuple[str, int], ...] = ()  # (game, its time limit) for the games given
    chips: int | None = None
    partitions: tuple[int, ...] | None = None
    turn_seconds: float | None = None
    capture_seconds: float | None = None
    monitor: str = ""  # the Game Monitor's name for the score card; "": a blank line to write on


@dataclass(frozen=True)
class GuesstimationConfig:
    """Guesstimation's options ([guesstimation], with table.family = "guesstimation"); a key
    left out (None) takes the family's default."""

    deck: str | None = None  # "sample" or a deck file's absolute path; None: answers entered
    finish: int | None = None  # spaces from Start to Finish
    players: tuple[str, ...] | None = None  # one name per seat; None: the seats' letters
    seed: int | None = None  # the dice's seed; None: drawn when a new table starts


@dataclass(frozen=True)
class StatesConfig:
    """STATES's options ([states], with table.family = "states"); a key left out (None) takes
    the family's default: seat letters as names, no teams, the standard scoring, knocking on,
    any connected group, the scoring's target, the shipped deck."""

    players: tuple[str, ...] | None = None
    teams: bool | None = None
    scoring: str | None = None
    knocking: bool | None = None
    connect: str | None = None
    target: int | None = None
    deck: str | None = None  # the deck file's path


@dataclass(frozen=True)
class GpioConfig:
    pin_factory: PinFactoryName | None = None  # None: gpiozero's GPIOZERO_PIN_FACTORY decides


@dataclass(frozen=True)
class TimingConfig:
    tie_window_ms: float = 15.0
    debounce_ms: float = 20.0
    settle_ms: float | None = None  # None: the pin factory's own (drivers.pins.SETTLE_MS)
    count_cadence_s: float = 1.0
    chummy_seconds: float = 15.0  # GeoPlunge only


@dataclass(frozen=True)
class OledConfig:
    enabled: bool = True
    driver: OledDriver = "ssd1306"
    interface: OledInterface = "i2c"
    port: int = 1  # the bus: /dev/i2c-1, /dev/spidev0.N; defaults to 1 for i2c, 0 for spi
    address: int = 0x3C  # i2c only
    spi_device: int = 0  # spi only
    dc_pin: int = 24  # spi only: data/command select (luma's default wiring)
    reset_pin: int = 25  # spi only
    rotate: int = 0
    width: int = 128
    height: int = 64


@dataclass(frozen=True)
class ScoreboardConfig:
    enabled: bool = True
    url: str = "/dev/ttyUSB0"  # anything pyserial's serial_for_url opens
    baudrate: int = 9600


@dataclass(frozen=True)
class LogConfig:
    level: LogLevel = "INFO"


@dataclass(frozen=True)
class HubConfig:
    """The tournament hub's broker (docs/hub.md). ``username`` is always the table's number:
    the broker's ACL lets a user write only under ``tables/<its name>/``."""

    enabled: bool = False
    host: str | None = None  # required when enabled
    port: int = 1883
    table: int | None = None  # the table's number in the tournament's pairings; required
    username: str | None = None  # the table's number as text
    password_file: str = "/etc/gametable/hub-password"
    ca_file: str | None = None  # TLS to the broker, trusting this CA


@dataclass(frozen=True)
class WebConfig:
    """The table's own web page (docs/web.md): off unless enabled; on this machine only unless
    ``listen`` names another address (0.0.0.0: every network the Pi is on)."""

    enabled: bool = False
    listen: str = "127.0.0.1"
    port: int = 8080
    # names the page is opened by besides any address, localhost and the Pi's own (R769)
    names: tuple[str, ...] = ()


def _default_seats() -> tuple[SeatConfig, ...]:
    return (
        SeatConfig(name="A", stand=InputConfig(pin=5), shout=InputConfig(pin=6), led=13),
        SeatConfig(name="B", stand=InputConfig(pin=19), shout=InputConfig(pin=26), led=12),
    )


@dataclass(frozen=True)
class Config:
    table: TableConfig = TableConfig()
    pentathlon: PentathlonConfig = PentathlonConfig()
    guesstimation: GuesstimationConfig = GuesstimationConfig()
    states: StatesConfig = StatesConfig()
    gpio: GpioConfig = GpioConfig()
    timing: TimingConfig = TimingConfig()
    seats: tuple[SeatConfig, ...] = field(default_factory=_default_seats)
    console: ConsoleConfig = ConsoleConfig()
    oled: OledConfig = OledConfig()
    scoreboard: ScoreboardConfig = ScoreboardConfig()
    log: LogConfig = LogConfig()
    hub: HubConfig = HubConfig()
    web: WebConfig = WebConfig()


def default_config() -> Config:
    """The configuration an empty file gives."""
    return Config()


# The reader


def _show(value: object) -> str:
    """A value as the operator wrote it in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return "a date/time"  # the only other thing tomllib produces


def _one_of(choices: tuple[object, ...]) -> str:
    return "one of " + ", ".join(_show(choice) for choice in choices)


class _Required:
    """Marks a key that has no default."""


_REQUIRED: Final = _Required()


class _Table:
    """One TOML table being read. Every key taken is recorded; finish() rejects the rest."""

    def __init__(self, data: Mapping[str, Any], path: str) -> None:
        self._data = data
        self._path = path
        self._read: list[str] = []

    def key(self, name: str) -> str:
        return f"{self._path}.{name}" if self._path else name

    def error(self, name: str, expected: str, value: object) -> ConfigError:
        return ConfigError(f"{self.key(name)}: expected {expected}, got {_show(value)}")

    def names(self) -> Iterator[str]:
        """The keys present, in file order (for tables whose keys are data, like [seats])."""
        return iter(self._data)

    def has(self, name: str) -> bool:
        """Whether the key is given (an optional key with no default of its own); the key is
        known either way, so an error about another key lists it."""
        self._read.append(name)
        return name in self._data

    def take(self, name: str, expected: str, default: object) -> object:
        """The raw value, recorded as read; `expected` words the error if it is missing."""
        self._read.append(name)
        if name in self._data:
            return self._data[name]
        if isinstance(default, _Required):
            self._unknown_lookalike(name)
            raise ConfigError(f"{self.key(name)}: missing (expected {expected})")
        return default

    def _unknown_lookalike(self, missing: str) -> None:
        # A required key that is absent is usually a typo of a key that is present: say so.
        unread = [name for name in self._data if name not in self._read]
        close = difflib.get_close_matches(missing, unread, n=1)
        if close:
            raise ConfigError(f"{self.key(close[0])}: unknown key (did you mean {missing}?)")

    def integer(self, name: str, *, lo: int, hi: int, default: int | _Required = _REQUIRED) -> int:
        expected = f"an integer from {lo} to {hi}"
        value = self.take(name, expected, default)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.error(name, expected, value)
        return value

    def optional_integer(self, name: str, *, lo: int, hi: int, note: str = "") -> int | None:
        """An integer from lo to hi, or None when absent; ``note`` says why the range."""
        expected = f"an integer from {lo} to {hi}{note}"
        value = self.take(name, expected, None)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.error(name, expected, value)
        return value

    def absent(self, name: str, why: str) -> None:
        """A key that must not be given here; ``why`` says what makes it meaningless."""
        value = self.take(name, f"none {why}", None)
        if value is not None:
            raise self.error(name, f"none {why}", value)

    def number(
        self, name: str, *, lo: float, hi: float, default: float | _Required = _REQUIRED
    ) -> float:
        expected = f"a number from {lo:g} to {hi:g}"
        value = self.take(name, expected, default)
        # `not lo <= value <= hi` also rejects nan, which TOML allows.
        if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
            raise self.error(name, expected, value)
        return float(value)

    def boolean(self, name: str, *, default: bool | _Required = _REQUIRED) -> bool:
        value = self.take(name, "true or false", default)
        if not isinstance(value, bool):
            raise self.error(name, "true or false", value)
        return value

    def string(self, name: str, *, max_length: int, default: str | _Required = _REQUIRED) -> str:
        expected = f"a non-empty string of at most {max_length} characters on one line"
        value = self.take(name, expected, default)
        if not isinstance(value, str) or not value.strip() or len(value) > max_length:
            raise self.error(name, expected, value)
        at_fault = unprintable(value)
        if at_fault is not None:
            raise self.error(name, f"{expected} ({at_fault} is not printable)", value)
        return value

    def choice(
        self,
        name: str,
        choices: tuple[_Choice, ...],
        *,
        default: _Choice | _Required | None = _REQUIRED,
    ) -> _Choice | None:
        expected = _one_of(choices)
        value = self.take(name, expected, default)
        if value is None and default is None:
            return None
        for choice in choices:
            # Compare types too: 9600.0 == 9600 and True == 1, but neither is a baud rate.
            if type(value) is type(choice) and value == choice:
                return choice
        raise self.error(name, expected, value)

    def integers(self, name: str, *, lo: int, hi: int) -> tuple[int, ...] | None:
        """An array of different integers from lo to hi, or None when absent."""
        expected = f"an array of different integers from {lo} to {hi}, like [2, 3, 4, 6, 12]"
        value = self.take(name, expected, None)
        if value is None:
            return None
        items: list[object] = list(value) if isinstance(value, list) else []
        numbers = tuple(item for item in items if type(item) is int and lo <= item <= hi)
        if not items or len(numbers) != len(items) or len(set(numbers)) != len(numbers):
            # an array is quoted as written (short enough for the one line)
            shown = json.dumps(items, default=str)[:60] if isinstance(value, list) else _show(value)
            raise ConfigError(f"{self.key(name)}: expected {expected}, got {shown}")
        return numbers

    def pin(self, name: str, *, default: int | _Required = _REQUIRED) -> int:
        value = self.take(name, _PIN_EXPECTED, default)
        pin = _parse_pin(value)
        if isinstance(pin, str):
            raise ConfigError(f"{self.key(name)}: expected {_PIN_EXPECTED}, got {pin}")
        return pin

    def table(self, name: str, *, required: bool = False) -> _Table:
        """A sub-table; an absent one reads as empty so every key takes its default."""
        expected = "a table"
        value = self.take(name, expected, _REQUIRED if required else {})
        if not isinstance(value, Mapping):
            raise self.error(name, expected, value)
        return _Table(value, self.key(name))

    def finish(self, what: str = "key") -> None:
        for name in self._data:
            if name not in self._read:
                known = ", ".join(dict.fromkeys(self._read))
                raise ConfigError(f"{self.key(name)}: unknown {what} (expected one of {known})")


def _parse_pin(value: object) -> int | str:
    """The BCM number, or the 'got …' text explaining why the value is not a GPIO."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_GPIO:
        return value
    if isinstance(value, str) and (match := _PIN_NAME.fullmatch(value)):
        scheme, number = match.group(1), int(match.group(2))
        if scheme in ("GPIO", "BCM"):
            if number <= _MAX_GPIO:
                return number
        else:
            board = _BOARD.get(number)
            if isinstance(board, int):
                return board
            if board is not None:
                return f"{_show(value)} ({board})"
    return _show(value)


# Sections


def _input(parent: _Table, name: str, default: InputConfig | None = None) -> InputConfig:
    expected = "a table like { pin = 5, pull_up = true }"
    raw = parent.take(name, expected, _REQUIRED if default is None else default)
    if isinstance(raw, InputConfig):
        return raw
    if not isinstance(raw, Mapping):
        raise parent.error(name, expected, raw)
    table = _Table(raw, parent.key(name))
    pin = table.pin("pin")
    pull_up = table.boolean("pull_up", default=True)
    active_high = table.boolean("active_high", default=not pull_up)
    table.finish()
    if active_high == pull_up:
        # gpiozero ties the active level to the pull resistor (a pulled-up switch is active low)
        raise ConfigError(
            f"{table.key('active_high')}: expected {str(not pull_up).lower()} with pull_up = "
            f"{str(pull_up).lower()} (gpiozero: a pulled-up switch is active low, a pulled-down "
            f"one active high), got {str(active_high).lower()}"
        )
    return InputConfig(pin=pin, pull_up=pull_up, active_high=active_high)


def _table_section(root: _Table) -> TableConfig:
    t = root.table("table")
    d = TableConfig()
    name = t.string("name", max_length=32, default=d.name)
    family = cast(FamilyName, t.choice("family", FAMILIES, default=d.family))
    if family != "geoplunge":
        why = f'with family = "{family}" (a GeoPlunge key)'
        for key in ("format", "round", "match_minutes", "on_time_up", "ptr_early_end"):
            t.absent(key, why)
        t.finish()
        return TableConfig(name=name, family=family)
    table_format = cast(TableFormat, t.choice("format", FORMATS, default=d.format))
    last = FORMAT_ROUNDS.get(table_format)
    if last is None:  # the championship: one final match, games won, no clock
        t.absent("round", 'with format = "championship" (it has no rounds)')
        t.absent("match_minutes", 'with format = "championship" (it has no clock)')
        first_round = minutes = None
    else:
        note = " (Combo 3 has 8 rounds)" if table_format == "combo3" else ""
        first_round = t.optional_integer("round", lo=1, hi=last, note=note)
        minutes = t.optional_integer("match_minutes", lo=1, hi=120)
    config = TableConfig(
        name=name,
        family=family,
        format=table_format,
        round=first_round,
        match_minutes=minutes,
        on_time_up=cast(
            TimeUpRule, t.choice("on_time_up", ("abandon", "finish", "tie"), default=d.on_time_up)
        ),
        ptr_early_end=t.boolean("ptr_early_end", default=d.ptr_early_end),
    )
    t.finish()
    return config


def _pentathlon_section(root: _Table, family: str) -> PentathlonConfig:
    if family != "pentathlon":
        root.absent("pentathlon", f'with table.family = "{family}" (the Pentathlon\'s options)')
        return PentathlonConfig()
    t = root.table("pentathlon")
    game = t.choice("game", PENTATHLON_GAMES, default=None)
    limits = t.table("minutes")
    minutes = tuple(
        (game_name, limits.integer(game_name, lo=PENTATHLON_MINUTES[0], hi=PENTATHLON_MINUTES[1]))
        for game_name in list(limits.names())
        if game_name in PENTATHLON_GAMES
    )
    for game_name in PENTATHLON_GAMES:
        limits.take(game_name, "", None)  # every game is a known key, given or not
    limits.finish("game")
    chips = t.optional_integer("chips", lo=PENTATHLON_CHIPS[0], hi=PENTATHLON_CHIPS[1])
    partitions = t.integers("partitions", lo=1, hi=99)
    config = PentathlonConfig(
        game=game,
        minutes=minutes,
        chips=chips,
        partitions=partitions,
        turn_seconds=_optional_seconds(t, "turn_seconds", PENTATHLON_TURN_SECONDS),
        capture_seconds=_optional_seconds(t, "capture_seconds", PENTATHLON_CAPTURE_SECONDS),
        monitor=_monitor(t),
    )
    t.finish()
    return config


def _monitor(t: _Table) -> str:
    """The Game Monitor's name on the score card's signature line (its spaces as one)."""
    if not t.has("monitor"):
        return ""
    return " ".join(t.string("monitor", max_length=PENTATHLON_MONITOR_CHARS).split())


def _guesstimation_section(root: _Table, family: str) -> GuesstimationConfig:
    if family != "guesstimation":
        why = f'with table.family = "{family}" (Guesstimation\'s options)'
        root.absent("guesstimation", why)
        return GuesstimationConfig()
    t = root.table("guesstimation")
    deck_expected = f'"{GUESSTIMATION_SAMPLE}" or a deck file\'s absolute path (a TOML file)'
    deck = t.take("deck", deck_expected, None)
    if deck is not None and (
        not isinstance(deck, str)
        or not deck.isprintable()
        or (deck != GUESSTIMATION_SAMPLE and not deck.startswith("/"))
    ):
        raise t.error("deck", deck_expected, deck)
    low, high = GUESSTIMATION_FINISH
    config = GuesstimationConfig(
        deck=deck,
        finish=t.optional_integer("finish", lo=low, hi=high, note=" (spaces from Start to Finish)"),
        players=_names(t, "players"),
        seed=t.optional_integer("seed", lo=0, hi=2**63 - 1),
    )
    t.finish()
    return config


def _states_section(root: _Table, family: str) -> StatesConfig:
    if family != "states":
        root.absent("states", f'with table.family = "{family}" (STATES\'s options)')
        return StatesConfig()
    t = root.table("states")
    config = StatesConfig(
        players=_names(t, "players"),
        teams=t.boolean("teams") if t.has("teams") else None,
        scoring=t.choice("scoring", STATES_SCORINGS, default=None),
        knocking=t.boolean("knocking") if t.has("knocking") else None,
        connect=t.choice("connect", STATES_CONNECTS, default=None),
        target=t.optional_integer("target", lo=STATES_TARGETS[0], hi=STATES_TARGETS[1]),
        deck=t.string("deck", max_length=4096) if t.has("deck") else None,
    )
    t.finish()
    return config


def _names(t: _Table, name: str) -> tuple[str, ...] | None:
    """An array of players' names, one per seat in seat order, or None when absent (the rules
    core checks each name when the table starts)."""
    expected = 'an array of the players\' names, one per seat in seat order, like ["Ann", "Bo"]'
    value = t.take(name, expected, None)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise t.error(name, expected, value)
    return tuple(value)


def _check_guesstimation(config: Config) -> None:
    """A Guesstimation table seats 3 to 6 players, and names one per seat if it names any."""
    if config.table.family != "guesstimation":
        return
    low, high = GUESSTIMATION_SEATS
    seats = [seat.name for seat in config.seats]
    if not low <= len(seats) <= high:
        raise ConfigError(
            f"seats: Guesstimation is played by {low} to {high}: expected [seats.A] to "
            f"[seats.{SEAT_NAMES[low - 1]}] at least, got {', '.join(seats)}"
        )
    players = config.guesstimation.players
    if players is not None and len(players) != len(seats):
        raise ConfigError(
            f"guesstimation.players: expected {len(seats)} names, one per seat "
            f"({', '.join(seats)}), got {len(players)}"
        )


def _optional_seconds(t: _Table, name: str, bounds: tuple[int, int]) -> float | None:
    return t.number(name, lo=bounds[0], hi=bounds[1]) if t.has(name) else None


def _gpio_section(root: _Table) -> GpioConfig:
    t = root.table("gpio")
    factory = t.choice("pin_factory", ("lgpio", "rpigpio", "mock"), default=None)
    t.finish()
    return GpioConfig(pin_factory=cast(PinFactoryName | None, factory))


def _timing_section(root: _Table, family: str) -> TimingConfig:
    t = root.table("timing")
    d = TimingConfig()
    if family != "geoplunge":
        t.absent("chummy_seconds", f'with table.family = "{family}" (a GeoPlunge key)')
    config = TimingConfig(
        tie_window_ms=t.number("tie_window_ms", lo=1, hi=500, default=d.tie_window_ms),
        debounce_ms=t.number("debounce_ms", lo=0, hi=500, default=d.debounce_ms),
        settle_ms=t.number("settle_ms", lo=0, hi=1000) if t.has("settle_ms") else None,
        count_cadence_s=t.number("count_cadence_s", lo=0.2, hi=5, default=d.count_cadence_s),
        chummy_seconds=t.number("chummy_seconds", lo=1, hi=120, default=d.chummy_seconds),
    )
    t.finish()
    return config


def _seats_section(root: _Table) -> tuple[SeatConfig, ...]:
    if "seats" not in root.names():
        root.table("seats")
        return _default_seats()
    seats = root.table("seats")
    names = list(seats.names())
    for name in names:
        if name not in tuple(SEAT_NAMES):  # one letter each: "AB" is a substring, not a seat
            raise ConfigError(
                f"{seats.key(name)}: unknown seat (expected one of {', '.join(SEAT_NAMES)})"
            )
    wanted = SEAT_NAMES[: max(len(names), MIN_SEATS)]
    if names != list(wanted):
        raise ConfigError(
            f"seats: expected {MIN_SEATS} to {len(SEAT_NAMES)} seats named "
            f"{', '.join(wanted)} in that order, got {', '.join(names) or 'none'}"
        )
    result = []
    for name in names:
        s = seats.table(name)
        result.append(
            SeatConfig(
                name=name, stand=_input(s, "stand"), shout=_input(s, "shout"), led=s.pin("led")
            )
        )
        s.finish()
    seats.finish("seat")
    return tuple(result)


def _console_section(root: _Table) -> ConsoleConfig:
    t = root.table("console")
    d = ConsoleConfig()
    config = ConsoleConfig(
        count=_input(t, "count", d.count),
        go=_input(t, "go", d.go),
        yes=_input(t, "yes", d.yes),
        no=_input(t, "no", d.no),
        undo=_input(t, "undo", d.undo),
        next=_input(t, "next", d.next),
    )
    t.finish("button")
    return config


def _oled_section(root: _Table) -> OledConfig:
    t = root.table("oled")
    d = OledConfig()
    enabled = t.boolean("enabled", default=d.enabled)
    driver = cast(OledDriver, t.choice("driver", ("ssd1306", "sh1106"), default=d.driver))
    interface = cast(OledInterface, t.choice("interface", ("i2c", "spi"), default=d.interface))
    config = OledConfig(
        enabled=enabled,
        driver=driver,
        interface=interface,
        # The Pi's header exposes I2C bus 1 but SPI bus 0, so the default follows the interface.
        port=t.integer("port", lo=0, hi=20, default=1 if interface == "i2c" else 0),
        address=_i2c_address(t, d.address),
        spi_device=t.integer("spi_device", lo=0, hi=1, default=d.spi_device),
        dc_pin=t.pin("dc_pin", default=d.dc_pin),
        reset_pin=t.pin("reset_pin", default=d.reset_pin),
        rotate=t.integer("rotate", lo=0, hi=3, default=d.rotate),
        width=t.integer("width", lo=1, hi=256, default=d.width),
        height=t.integer("height", lo=1, hi=256, default=d.height),
    )
    t.finish()
    sizes = OLED_SIZES[driver]
    if (config.width, config.height) not in sizes:
        supported = ", ".join(f"{w}x{h}" for w, h in sizes)
        raise ConfigError(
            f"oled.width, oled.height: expected a size the {driver} supports ({supported}), "
            f"got {config.width}x{config.height}"
        )
    return config


# The SSD1306 and the SH1106 answer at one of two addresses, chosen by their SA0 pin: any other
# address is a typo that would only show as "no OLED" at the tournament.
OLED_I2C_ADDRESSES: Final = (0x3C, 0x3D)


def _i2c_address(t: _Table, default: int) -> int:
    expected = "the display's I2C address, 0x3C or 0x3D, written as a TOML integer"
    value = t.take("address", expected, default)
    if isinstance(value, bool) or not isinstance(value, int) or value not in OLED_I2C_ADDRESSES:
        raise t.error("address", expected, value)
    return value


def _scoreboard_section(root: _Table) -> ScoreboardConfig:
    t = root.table("scoreboard")
    d = ScoreboardConfig()
    config = ScoreboardConfig(
        enabled=t.boolean("enabled", default=d.enabled),
        url=t.string("url", max_length=256, default=d.url),
        baudrate=cast(int, t.choice("baudrate", BAUDRATES, default=d.baudrate)),
    )
    t.finish()
    return config


def _log_section(root: _Table) -> LogConfig:
    t = root.table("log")
    level = t.choice("level", ("DEBUG", "INFO", "WARNING", "ERROR"), default=LogConfig().level)
    t.finish()
    return LogConfig(level=cast(LogLevel, level))


def _hub_section(root: _Table) -> HubConfig:
    t = root.table("hub")
    d = HubConfig()
    enabled = t.boolean("enabled", default=d.enabled)
    required: _Required | None = _REQUIRED if enabled else None
    host = t.take("host", "the broker's host name or IP address", required)
    if host is not None and not (isinstance(host, str) and _HOST.fullmatch(host)):
        raise t.error("host", "the broker's host name or IP address", host)
    port = t.integer("port", lo=1, hi=65535, default=d.port)
    expected_table = f"this table's number in the tournament, 1 to {MAX_TABLE}"
    table = t.take("table", expected_table, required)
    if table is not None and (
        isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= MAX_TABLE
    ):
        raise t.error("table", expected_table, table)
    username = t.take("username", "the table's number as text", None)
    if username is not None and (table is None or username != str(table)):
        wanted = "the table's number" if table is None else _show(str(table))
        raise t.error(
            "username",
            f"{wanted} (the broker lets a table write only under tables/<its user name>/)",
            username,
        )
    config = HubConfig(
        enabled=enabled,
        host=host,
        port=port,
        table=table,
        username=None if table is None else str(table),
        password_file=_absolute_path(t, "password_file", d.password_file),
        ca_file=_optional_absolute_path(t, "ca_file"),
    )
    t.finish()
    return config


def _web_section(root: _Table) -> WebConfig:
    t = root.table("web")
    d = WebConfig()
    expected = "an IP address like 127.0.0.1 (this machine only) or 0.0.0.0 (every network)"
    listen = t.take("listen", expected, d.listen)
    try:
        address = str(ipaddress.ip_address(listen)) if isinstance(listen, str) else None
    except ValueError:
        address = None
    if address is None:
        raise t.error("listen", expected, listen)
    config = WebConfig(
        enabled=t.boolean("enabled", default=d.enabled),
        listen=address,
        port=t.integer("port", lo=1, hi=65535, default=d.port),
        names=_web_names(t),
    )
    t.finish()
    return config


def _web_names(t: _Table) -> tuple[str, ...]:
    """``web.names``: host names the page is opened by (checked as the hub's --page-name is)."""
    from firmware_py.table.web.guard import name_error  # no aiohttp in it

    expected = 'an array of host names, like ["table7.local"]'
    value = t.take("names", expected, [])
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise t.error("names", expected, value)
    for name in value:
        if (wrong := name_error(name)) is not None:
            raise ConfigError(f"{t.key('names')}: {name[:60]!r}: {wrong}")
    return tuple(name.lower().removesuffix(".") for name in value)


def _absolute_path(t: _Table, name: str, default: str) -> str:
    return _checked_path(t, name, t.take(name, _ABSOLUTE, default))


def _optional_absolute_path(t: _Table, name: str) -> str | None:
    value = t.take(name, _ABSOLUTE, None)
    return None if value is None else _checked_path(t, name, value)


def _checked_path(t: _Table, name: str, value: object) -> str:
    if not isinstance(value, str) or not value.startswith("/") or not value.isprintable():
        raise t.error(name, _ABSOLUTE, value)
    return value


def claimed_pins(config: Config) -> list[tuple[int, str]]:
    """Every GPIO the table takes, each with the key that takes it (a bus's pins with their
    role, e.g. ``oled.interface (I2C1 SDA)``), buses first; a pin used twice is listed twice.
    ``gametable config wiring`` draws these; the config check refuses a pin listed twice."""
    claims: list[tuple[int, str]] = []
    oled = config.oled
    if oled.enabled and oled.interface == "i2c":
        claims += [
            (pin, f"oled.interface ({role})") for pin, role in _I2C_PINS.get(oled.port, {}).items()
        ]
    if oled.enabled and oled.interface == "spi":
        claims += [
            (pin, f"oled.interface ({role})") for pin, role in _SPI_PINS.get(oled.port, {}).items()
        ]
        if (ce := _SPI_CE.get(oled.port, {}).get(oled.spi_device)) is not None:
            claims.append((ce, f"oled.spi_device (SPI{oled.port} CE{oled.spi_device})"))
        claims += [(oled.dc_pin, "oled.dc_pin"), (oled.reset_pin, "oled.reset_pin")]
    if config.scoreboard.enabled and config.scoreboard.url in _UART_DEVICES:
        claims += [(pin, f"scoreboard.url ({role})") for pin, role in _UART_PINS.items()]
    for seat in config.seats:
        claims.append((seat.stand.pin, f"seats.{seat.name}.stand.pin"))
        claims.append((seat.shout.pin, f"seats.{seat.name}.shout.pin"))
        claims.append((seat.led, f"seats.{seat.name}.led"))
    for button in ("count", "go", "yes", "no", "undo", "next"):
        claims.append((getattr(config.console, button).pin, f"console.{button}.pin"))
    return claims


def _check_pins(config: Config) -> None:
    """No GPIO may serve two purposes: the error names both keys. Buses are claimed first, so
    the error lands on the switch or LED the operator can move."""
    used: dict[int, str] = {}
    for pin, key in claimed_pins(config):
        if pin in used:
            raise ConfigError(f"{key}: GPIO{pin} is already used by {used[pin]}")
        used[pin] = key


def parse_config(data: Mapping[str, Any]) -> Config:
    """Validate a parsed TOML document; raises ConfigError naming the first bad key."""
    root = _Table(data, "")
    table = _table_section(root)
    config = Config(
        table=table,
        pentathlon=_pentathlon_section(root, table.family),
        guesstimation=_guesstimation_section(root, table.family),
        states=_states_section(root, table.family),
        gpio=_gpio_section(root),
        timing=_timing_section(root, table.family),
        seats=_seats_section(root),
        console=_console_section(root),
        oled=_oled_section(root),
        scoreboard=_scoreboard_section(root),
        log=_log_section(root),
        hub=_hub_section(root),
        web=_web_section(root),
    )
    root.finish("section")
    _check_guesstimation(config)
    _check_pins(config)
    return config


def load_config(path: Path) -> Config:
    """Read and validate a TOML file; every error is one line starting with the path."""
    try:
        text = read_limited_bytes(path, MAX_CONFIG, "a table's TOML")
    except UserFileError as error:
        raise ConfigError(str(error)) from None
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid TOML: expected UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not a table config: nested too deeply") from None
    try:
        return parse_config(data)
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None


def describe(config: Config) -> str:
    """One line summing up what the table will drive."""
    oled = config.oled
    if not oled.enabled:
        display = "oled off"
    elif oled.interface == "i2c":
        display = f"oled {oled.driver} on i2c 0x{oled.address:02X}"
    else:
        display = f"oled {oled.driver} on spi {oled.port}.{oled.spi_device}"
    board = f"scoreboard {config.scoreboard.url}" if config.scoreboard.enabled else "scoreboard off"
    hub = config.hub
    reports = f", hub {hub.host}:{hub.port} as table {hub.table}" if hub.enabled else ""
    web = config.web
    page = f", web page on {_host_port(web.listen, web.port)}" if web.enabled else ""
    if web.enabled and not oled.enabled:
        page += ", its join code in the log (the OLED is off)"
    return f"{len(config.seats)} seats, {display}, {board}{reports}{page}"


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def check_config_main(path: Path) -> int:
    """`gametable config check PATH`: 0 and a summary, or 2 and the one error line on stderr."""
    try:
        config = load_config(path)
    except ConfigError as error:
        print_error(error)
        return 2
    print(f"{path}: ok ({describe(config)})")
    return 0


__all__ = [
    "Config",
    "ConfigError",
    "ConsoleConfig",
    "GpioConfig",
    "GuesstimationConfig",
    "HubConfig",
    "InputConfig",
    "LogConfig",
    "OledConfig",
    "PentathlonConfig",
    "ScoreboardConfig",
    "SeatConfig",
    "StatesConfig",
    "TableConfig",
    "TimingConfig",
    "WebConfig",
    "check_config_main",
    "claimed_pins",
    "default_config",
    "describe",
    "load_config",
    "parse_config",
]
