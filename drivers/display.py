"""What the dealer's display shows and how it is wired, without the display libraries.

The controller builds ``Screen`` values on every change; importing luma and Pillow only where a
panel is really drawn keeps them out of a table that runs without an OLED.
"""

from __future__ import annotations

from dataclasses import dataclass

DRIVERS = ("ssd1306", "sh1106")
INTERFACES = ("i2c", "spi")
MAX_LINES = 2


@dataclass(frozen=True)
class Screen:
    """What the dealer sees. ``lines`` holds at most 2 small lines; ``subtitle`` is a small
    row under the title (the next match's teams, R833), none when empty."""

    title: str
    big: str = ""
    lines: tuple[str, ...] = ()
    footer: str = ""
    alert: str | None = None
    subtitle: str = ""

    def __post_init__(self) -> None:
        if len(self.lines) > MAX_LINES:
            raise ValueError(f"a screen has at most {MAX_LINES} small lines, got {len(self.lines)}")


class OledError(Exception):
    """The OLED cannot be opened; ``str()`` is one line naming the device and the fix."""


class OledWriteError(Exception):
    """The panel did not take a frame (the I2C bus, a loose cable): whatever luma raised for
    it, in one line. The frame may be half drawn: send the next one whole."""


@dataclass(frozen=True)
class OledSpec:
    driver: str = "ssd1306"
    interface: str = "i2c"
    port: int = 1
    address: int = 0x3C
    spi_device: int = 0
    rotate: int = 0
    width: int = 128
    height: int = 64

    def __post_init__(self) -> None:
        if self.driver not in DRIVERS:
            raise ValueError(
                f"oled driver: expected one of {', '.join(DRIVERS)}, got {self.driver!r}"
            )
        if self.interface not in INTERFACES:
            raise ValueError(
                f"oled interface: expected one of {', '.join(INTERFACES)}, got {self.interface!r}"
            )
        if self.rotate not in (0, 1, 2, 3):
            raise ValueError(f"oled rotate: expected 0..3, got {self.rotate!r}")

    @property
    def where(self) -> str:
        if self.interface == "i2c":
            return f"OLED {self.driver} on I2C bus {self.port} address 0x{self.address:02X}"
        return f"OLED {self.driver} on SPI {self.port}.{self.spi_device}"
