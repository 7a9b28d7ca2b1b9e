"""``gametable config wiring CONFIG -o table.svg``: a table's wiring diagram, from its config.

The Raspberry Pi's 40-pin header (J8) with its real pin numbers, BCM names, power and ground
pins, and beside every pin the config uses: the key that uses it, the part on it (a seat's
stand-up sensor, its buzzer, its team LED and resistor, a console button, the OLED's bus, the
scoreboard's UART), and how it is wired (pull, polarity). Below the header, how each kind of
part connects. Plain SVG text, no drawing library: it opens in any browser (docs/hardware.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from firmware_py.cli_args import print_error
from firmware_py.table.config import (
    Config,
    ConfigError,
    InputConfig,
    claimed_pins,
    load_config,
)
from firmware_py.user_files import UserFileError, replace_whole

BAD_INPUT: Final = 2  # as `gametable config check`

# The 40-pin header, physical pin -> BCM GPIO number, or the power rail the pin is.
HEADER: Final[Mapping[int, int | str]] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}  # fmt: skip
# What a GPIO is besides a GPIO, where it matters to a builder (the Pi's own pin functions).
ALT_NAMES: Final[Mapping[int, str]] = {
    0: "ID_SD", 1: "ID_SC", 2: "SDA1", 3: "SCL1", 4: "GPCLK0", 7: "CE1", 8: "CE0", 9: "MISO",
    10: "MOSI", 11: "SCLK", 12: "PWM0", 13: "PWM1", 14: "TXD", 15: "RXD", 18: "PWM0",
    19: "PWM1",
}  # fmt: skip

# A team LED's series resistor: 330 ohm from 3.3 V through a red LED (about 2 V) is about 4 mA,
# well under a Pi pin's 16 mA and, for six LEDs, the header's 50 mA in all (R1022).
LED_RESISTOR: Final = "330 Ω"
# What each family makes of a seat's two inputs, in a builder's words (the families' ROLES), and
# what closes each: an input reads active while its switch is closed (the config ties the active
# level to the pull, so a stand-up sensor must close while the player stands: R1024). None: the
# family reads no such input (R1020).
SEAT_PARTS: Final[Mapping[str, Mapping[str, tuple[str, str] | None]]] = {
    "geoplunge": {
        "stand": ("stand-up sensor", "closed while the team stands"),
        "shout": ("shout buzzer", "a push button"),
    },
    "pentathlon": {
        "stand": ("challenge button", "a push button"),
        "shout": ("flag button", "a push button"),
    },
    "guesstimation": {"stand": None, "shout": ("die button (roll)", "a push button")},
    "states": {
        "stand": ("knock button", "a push button"),
        "shout": ('"STATES!" buzzer', "a push button"),
    },
}
CONSOLE_PARTS: Final[Mapping[str, str]] = {
    "count": "console COUNT button",
    "go": "console GO button",
    "yes": "console YES button",
    "no": "console NO button",
    "undo": "console UNDO button",
    "next": "console NEXT button",
}

# The OLED's own pins on SPI besides the bus's (named as on the modules' silkscreen).
_OLED_LINES: Final[Mapping[str, str]] = {"oled.dc_pin": "DC", "oled.reset_pin": "RES"}
# The module's pin each of the Pi's lines goes to (MISO goes nowhere: a display only listens).
_MODULE_PINS: Final[Mapping[str, str]] = {
    "SDA": "SDA",
    "SCL": "SCL",
    "MOSI": "DIN",
    "SCLK": "CLK",
    "CE0": "CS",
    "CE1": "CS",
    "DC": "DC",
    "RES": "RES",
}

_ROW: Final = 34  # one row of the header: two pins
_TOP: Final = 110
_WIDTH: Final = 1500
_CENTRE: Final = _WIDTH // 2
_POWER_COLOURS: Final[Mapping[str, str]] = {"3V3": "#e8a33d", "5V": "#d9412b", "GND": "#5c5c5c"}
_PART_COLOURS: Final[Mapping[str, str]] = {
    "stand": "#2b7bd9",
    "shout": "#8a3fd1",
    "led": "#2f9e44",
    "console": "#c2255c",
    "oled": "#0c8599",
    "scoreboard": "#e67700",
}
_FREE_COLOUR: Final = "#c8c8c8"
_LEGEND: Final[Mapping[str, str]] = {
    "stand": "stand input",
    "shout": "buzzer",
    "led": "team LED",
    "console": "console button",
    "oled": "OLED",
    "scoreboard": "scoreboard UART",
    "free": "free GPIO",
}
# The header pins the OLED module's power leads go to (any 3V3 and GND pin would do).
OLED_VCC: Final = 1
OLED_GND: Final = 9


@dataclass(frozen=True)
class PinUse:
    """One GPIO the config uses: the key that names it, the part on it and how it is wired."""

    gpio: int
    key: str
    part: str
    wiring: str
    kind: str  # a colour of _PART_COLOURS


def physical_pin(gpio: int) -> int:
    """The header pin (1-40) that carries BCM GPIO ``gpio``."""
    return next(pin for pin, what in HEADER.items() if what == gpio)


def pin_uses(config: Config) -> list[PinUse]:
    """Every GPIO the config takes (as the config check counts them), with its part."""
    seats = {seat.name: seat for seat in config.seats}
    words = SEAT_PARTS[config.table.family]
    uses = []
    for gpio, claim in claimed_pins(config):
        key, _, role = claim.partition(" (")
        role = role.rstrip(")")
        section, _, rest = key.partition(".")
        if section == "seats":
            seat_name, _, what = rest.partition(".")
            seat = seats[seat_name]
            if what == "led":
                part = f"seat {seat_name}'s team LED"
                wiring = f"GPIO → {LED_RESISTOR} → LED + (long leg), LED − → GND; PWM-dimmed"
                uses.append(PinUse(gpio, key, part, wiring, "led"))
            else:
                role_name = what.removesuffix(".pin")
                wired: InputConfig = getattr(seat, role_name)
                uses.append(_seat_input(gpio, key, seat_name, words[role_name], wired))
        elif section == "console":
            button = rest.removesuffix(".pin")
            wired = getattr(config.console, button)
            wiring = _input_wiring(wired, "a push button")
            uses.append(PinUse(gpio, key, CONSOLE_PARTS[button], wiring, "console"))
        elif section == "oled":
            line = role or _OLED_LINES[key]
            wiring = _oled_wiring(config)
            if line.endswith("MISO"):  # the bus takes it, but a display sends nothing back
                wiring = "the SPI bus keeps it; an OLED has no MISO: wire nothing"
            uses.append(PinUse(gpio, key, f"OLED {line}", wiring, "oled"))
        else:
            board = config.scoreboard
            wiring = f"{board.url} at {board.baudrate} 8N1, 3.3 V levels; the table only sends"
            uses.append(PinUse(gpio, key, f"scoreboard {role}", wiring, "scoreboard"))
    return uses


def _seat_input(
    gpio: int, key: str, seat: str, part: tuple[str, str] | None, wired: InputConfig
) -> PinUse:
    role = key.split(".")[2]
    if part is None:  # the family never reads it; the config still gives it a GPIO (R1020)
        rail = "3V3" if wired.pull_up else "GND"
        wiring = f"wire nothing: the pull to {rail} keeps it idle"
        return PinUse(gpio, key, f"seat {seat}'s {role} input, not read by this game", wiring, role)
    name, closed = part
    return PinUse(gpio, key, f"seat {seat}'s {name}", _input_wiring(wired, closed), role)


def _input_wiring(wired: InputConfig, closed: str) -> str:
    if wired.pull_up:
        return f"pull-up, active low: {closed}, from the GPIO to GND"
    return f"pull-down, active high: {closed}, from the GPIO to 3V3"


def _oled_wiring(config: Config) -> str:
    oled = config.oled
    if oled.interface == "i2c":
        return f"{oled.driver} {oled.width}x{oled.height} at 0x{oled.address:02X}; " + (
            "pull-ups on the Pi" if oled.port == 1 else "pull-ups to 3V3 needed"
        )
    return f"{oled.driver} {oled.width}x{oled.height} on SPI{oled.port}.{oled.spi_device}"


def notes(config: Config) -> list[str]:
    """How each kind of part the config uses connects, one line each."""
    lines = [
        "Inputs: a switch between its GPIO and GND (pull-up) or 3V3 (pull-down); the Pi's "
        "internal pull (about 50 kΩ) needs no resistor.",
        f"Software debounce: timing.debounce_ms = {config.timing.debounce_ms:g} ms; a contact "
        "that chatters longer than that needs a larger value.",
    ]
    if config.table.family == "geoplunge":
        lines.append(
            "Stand-up sensors: closed while the team stands, e.g. a lever microswitch under the "
            "seat wired on its NC contact; never a mat on the seat (docs/hardware.md)."
        )
    lines += [
        f"Team LEDs: GPIO → {LED_RESISTOR} resistor → LED anode (+, long leg); cathode (−) → "
        "any GND pin. About 4 mA each (a pin gives at most 16 mA).",
    ]
    oled = config.oled
    if not oled.enabled:
        lines.append("OLED: off (oled.enabled = false).")
    else:
        lines += _oled_notes(config)
    board = config.scoreboard
    if not board.enabled:
        lines.append("Scoreboard: off (scoreboard.enabled = false).")
    elif any(use.kind == "scoreboard" for use in pin_uses(config)):
        lines.append(
            f"Scoreboard on the Pi's UART ({board.url}, {board.baudrate} 8N1): TXD (pin 8) → the "
            "board's RX, GND → its GND; 3.3 V levels. Turn off the serial console."
        )
    else:
        lines.append(
            f"Scoreboard at {board.url} ({board.baudrate} 8N1): a USB serial adapter in a USB "
            "port, not the header; its TX → the board's RX, GND → GND (docs/scoreboard.md)."
        )
    lines.append("Power: the Pi's own 5 V supply; nothing on the table draws from the 5V pins.")
    return lines


def _power_uses(config: Config) -> dict[int, PinUse]:
    """The power pins the OLED takes (header pin -> its use): its VCC and its GND."""
    if not config.oled.enabled:
        return {}
    wiring = "the OLED module's own supply (3.3 V)"
    return {
        OLED_VCC: PinUse(OLED_VCC, "oled.enabled", "OLED VCC", wiring, "oled"),
        OLED_GND: PinUse(OLED_GND, "oled.enabled", "OLED GND", wiring, "oled"),
    }


def _legend(y: int) -> Iterator[str]:
    x = 40
    swatches = [*_POWER_COLOURS.items(), *_PART_COLOURS.items(), ("free", _FREE_COLOUR)]
    for name, colour in swatches:
        yield f'<circle cx="{x + 8}" cy="{y - 5}" r="7" fill="{colour}"/>'
        yield _text(x + 20, y, _LEGEND.get(name, name), size=12)
        x += 40 + 8 * len(_LEGEND.get(name, name))


def _oled_notes(config: Config) -> list[str]:
    """How the OLED's pins connect: the Pi's lines its bus takes, to the module's own pins."""
    oled = config.oled
    bus = f"I2C bus {oled.port}" if oled.interface == "i2c" else f"SPI{oled.port}"
    lines = {
        use.part.removeprefix("OLED "): physical_pin(use.gpio)
        for use in pin_uses(config)
        if use.kind == "oled"
    }
    wires = ", ".join(
        f"{line} (pin {pin}) → {_MODULE_PINS[line.split()[-1]]}"
        for line, pin in lines.items()
        if line.split()[-1] in _MODULE_PINS
    )
    if not wires:  # a bus a device-tree overlay puts on pins of its own choosing
        wires = f"the pins its dtoverlay gives {bus} (not drawn here)"
    where = f"address 0x{oled.address:02X}" if oled.interface == "i2c" else f"CE{oled.spi_device}"
    notes = [
        f"OLED {oled.driver} {oled.width}x{oled.height} on {bus} at {where}: VCC → pin "
        f"{OLED_VCC} (3V3), GND → pin {OLED_GND}, {wires}."
    ]
    if oled.interface == "spi":
        notes[0] += " Enable SPI (raspi-config)."
    elif oled.port == 1:
        notes.append(
            "I2C pull-ups: the Pi has 1.8 kΩ on SDA1/SCL1 already; add none. Enable I2C "
            f"(raspi-config); i2cdetect -y 1 shows {oled.address:02x}."
        )
    else:
        notes.append(
            f"I2C pull-ups: the Pi has none on I2C bus {oled.port}: a module with its own, or "
            f"4.7 kΩ from SDA and from SCL to 3V3; i2cdetect -y {oled.port} shows "
            f"{oled.address:02x}."
        )
    return notes


def render_svg(config: Config, source: str) -> str:
    """The wiring diagram of ``config`` (read from ``source``) as an SVG document."""
    uses = {use.gpio: use for use in pin_uses(config)}
    notes_top = _TOP + 20 * _ROW + 70
    height = notes_top + 22 * (len(notes(config)) + 1) + 20
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{_WIDTH}" height="{height}" fill="#ffffff"/>',
        _text(40, 40, f"{config.table.name}: wiring ({config.table.family})", size=22, bold=True),
        _text(40, 66, f"from {source}: {len(uses)} GPIOs used", size=13),
        _text(
            40,
            88,
            "Raspberry Pi 40-pin header (J8) as pinout.xyz draws it: odd pins on the left, pin 1 "
            "(square pad) at the top, at the end of the header away from the USB ports.",
            size=13,
        ),
        f'<rect x="{_CENTRE - 34}" y="{_TOP - 8}" width="68" height="{20 * _ROW}" rx="6" '
        'fill="#1d1d1d"/>',
    ]
    power = _power_uses(config)
    for pin, what in HEADER.items():
        use = uses.get(what) if isinstance(what, int) else power.get(pin)
        parts.extend(_pin(pin, what, use))
    parts.extend(_legend(_TOP + 20 * _ROW + 30))
    parts.append(_text(40, notes_top, "How each part connects", size=16, bold=True))
    for number, line in enumerate(notes(config), start=1):
        parts.append(_text(40, notes_top + 22 * number, f"• {line}", size=13))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _pin(pin: int, what: int | str, use: PinUse | None) -> Iterator[str]:
    left = pin % 2 == 1
    y = _TOP + ((pin - 1) // 2) * _ROW + _ROW // 2 - 8
    cx = _CENTRE - 16 if left else _CENTRE + 16
    side = -1 if left else 1
    anchor = "end" if left else "start"
    if isinstance(what, str):
        colour, name, kind = _POWER_COLOURS[what], what, "power"
    else:
        colour = _PART_COLOURS[use.kind] if use is not None else _FREE_COLOUR
        alt = f" {ALT_NAMES[what]}" if what in ALT_NAMES else ""
        name, kind = f"GPIO{what}{alt}", "used" if use is not None else "free"
    data = f'data-pin="{pin}"' + (f' data-gpio="{what}"' if isinstance(what, int) else "")
    if use is not None:
        data += f" data-key={quoteattr(use.key)}"
    yield f'<g class="pin {kind}" {data}>'
    if pin == 1:
        square = f'x="{cx - 8}" y="{y - 8}" width="16" height="16"'
        yield f'<rect {square} fill="{colour}" stroke="#fff"/>'
    else:
        yield f'<circle cx="{cx}" cy="{y}" r="8" fill="{colour}" stroke="#fff"/>'
    yield _text(cx + side * 30, y + 5, str(pin), size=13, anchor=anchor, bold=True)
    name_colour = "#000000" if kind != "free" else "#8a8a8a"
    yield _text(cx + side * 62, y + 5, name, size=13, anchor=anchor, fill=name_colour)
    if use is not None:
        x = cx + side * 210
        yield f'<line x1="{cx + side * 175}" y1="{y}" x2="{x - side * 6}" y2="{y}" ' + (
            f'stroke="{colour}" stroke-width="1" stroke-dasharray="2 3"/>'
        )
        yield _text(x, y + 1, f"{use.key}: {use.part}", size=13, anchor=anchor, bold=True)
        yield _text(x, y + 15, use.wiring, size=11, anchor=anchor, fill="#444444")
    yield "</g>"


def _text(
    x: int,
    y: int,
    text: str,
    *,
    size: int,
    anchor: str = "start",
    bold: bool = False,
    fill: str = "#000000",
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{weight}>'
        f"{escape(text)}</text>"
    )


def wiring_main(path: Path, out: Path | None) -> int:
    """`gametable config wiring PATH [-o OUT]`: the SVG to OUT (or stdout) and 0; a config the
    check refuses is the check's one line and exit code, and nothing is written."""
    try:
        svg = render_svg(load_config(path), str(path))
        if out is None:
            print(svg, end="")
            return 0
        replace_whole(out, svg, "the wiring diagram")  # drawn again from its config: R1021
    except (ConfigError, UserFileError) as error:
        print_error(error)
        return BAD_INPUT
    print(f"wrote {out}")
    return 0
