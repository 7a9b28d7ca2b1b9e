"""Bytes the partial-update OLED devices send per countdown second, against a whole frame.

A counting serial interface stands in for luma's i2c/spi: it records the command and data
bytes each ``display()`` sends. The whole frame is measured, not assumed: luma's own ssd1306
sends it for every frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from luma.oled.device import ssd1306  # type: ignore[import-untyped]

from bench.figures import Figure, Section
from drivers.oled import PartialSH1106, PartialSSD1306, Screen, render
from firmware_py.table.controller import format_clock

TICKS = 60
MATCH_LEFT = 15 * 60  # the clock shows 15:00, then 14:59, ...
CHUMMY = 15  # the Chummy Challenge's 15 seconds on the big digits, over and over


@dataclass(slots=True)
class CountingSerial:
    """luma's serial interface, counting bytes instead of sending them."""

    command_bytes: int = 0
    data_bytes: int = 0

    def command(self, *cmd: int) -> None:
        self.command_bytes += len(cmd)

    def data(self, data: Sequence[int]) -> None:
        self.data_bytes += len(data)

    def cleanup(self) -> None:
        pass

    def reset(self) -> None:
        self.command_bytes = self.data_bytes = 0


def countdown_screen(second: int) -> Screen:
    return Screen(
        title=f"G5 CHUMMY {format_clock(MATCH_LEFT - second)}",
        big=str(CHUMMY - second % CHUMMY),
        lines=("Shout GeoPlunge to", "answer"),
        footer="A 12  B 7",
    )


@dataclass(frozen=True, slots=True)
class TickBytes:
    data: list[int]
    command: list[int]


def bytes_per_tick(device_class: Any) -> TickBytes:
    """Data and command bytes of each tick after the first (whole) countdown frame."""
    serial = CountingSerial()
    device = device_class(serial_interface=serial)
    device.persist = True  # no DISPLAYOFF at exit
    device.display(render(countdown_screen(0)))
    data, command = [], []
    for second in range(1, TICKS + 1):
        serial.reset()
        device.display(render(countdown_screen(second)))
        data.append(serial.data_bytes)
        command.append(serial.command_bytes)
    return TickBytes(data, command)


def full_frame_bytes() -> int:
    serial = CountingSerial()
    device = ssd1306(serial_interface=serial)
    device.persist = True
    serial.reset()
    device.display(render(countdown_screen(0)))
    return serial.data_bytes


def oled_bytes() -> Section:
    full = full_frame_bytes()
    figures = [Figure("full frame, luma ssd1306 (data bytes)", str(full), "-", None)]
    for label, device_class in (("SSD1306", PartialSSD1306), ("SH1106", PartialSH1106)):
        ticks = bytes_per_tick(device_class)
        mean = sum(ticks.data) / len(ticks.data)
        share = 100.0 * mean / full
        worst = max(d + c for d, c in zip(ticks.data, ticks.command, strict=True))
        figures += [
            Figure(
                f"{label} partial: data bytes per tick, mean (% of full)",
                f"{mean:.0f} B ({share:.1f} %)",
                "<= 25 %",
                share <= 25,
            ),
            Figure(f"{label} partial: worst tick, data + command bytes", f"{worst} B", "-", None),
        ]
    how = (
        f"{TICKS} consecutive countdown frames (title 'G5 CHUMMY 14:59' counting down, big "
        f"digits {CHUMMY}..1 over and over, two prompt lines, a score footer) rendered with "
        "drivers.oled.render and shown on PartialSSD1306 / PartialSH1106 over a serial "
        "interface that counts the bytes of command() and data(). The first frame (whole) is "
        "not counted. The full frame is what luma's stock ssd1306.display() sends (data bytes); "
        "the I2C framing (control bytes) is not counted on either side."
    )
    return Section("OLED bytes per countdown tick", how, figures)
