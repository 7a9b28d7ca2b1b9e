"""The reference scoreboard on a Raspberry Pi Pico (MicroPython): the thin hardware layer.

``main.py`` starts :func:`run`; the tests import this module with stand-ins for MicroPython's
``machine`` and ``framebuf`` to check what goes out on the SPI chain.

It reads the table's lines on UART0 (GP1 = RX, 9600 8N1), hands the bytes to
:class:`scoreboard_fw.board.Board` (the protocol and what the panel shows, pure Python) and
draws the board's three rows with MicroPython's built-in 8x8 font on 24 MAX7219 8x8 LED
modules: three rows of eight, one SPI chain (docs/hardware.md, "The reference board"; R1090).

Flashed with mpremote as docs/hardware.md says: this package into ``:scoreboard_fw/`` and
``scoreboard_fw/main.py`` as ``:main.py``, which MicroPython runs at every power-up.
"""

import time

import framebuf
import machine

from scoreboard_fw.board import WIDTH, Board

UART_ID, UART_RX, BAUDRATE = 0, 1, 9600  # GP1 (pin 2): the table's TX
SPI_ID, SPI_SCK, SPI_MOSI, SPI_CS = 0, 18, 19, 17  # GP18 (pin 24), GP19 (pin 25), GP17 (pin 22)
SPI_HZ = 5000000  # the MAX7219 takes 10 MHz; half leaves room for the wires between strips
ROWS, COLUMNS = 3, WIDTH  # modules: one character per module
MODULES = ROWS * COLUMNS
BRIGHTNESS = 4  # 0 to 15: a hall is not a stadium, and 24 modules at 15 draw over 2 A
RX_BUFFER = 1024  # bytes the UART's interrupt keeps for us: over 1 s of lines at 9600 baud
POLL_SECONDS = 0.005
SCROLL_POLLS = 60  # a row longer than eight characters moves one character every 0.3 s
# MAX7219 registers
DECODE_MODE, INTENSITY, SCAN_LIMIT, SHUTDOWN, DISPLAY_TEST = 0x09, 0x0A, 0x0B, 0x0C, 0x0F


class Panel:
    """24 MAX7219s in one chain, the first module the top row's leftmost, row by row."""

    def __init__(self) -> None:
        self.spi = machine.SPI(
            SPI_ID, baudrate=SPI_HZ, sck=machine.Pin(SPI_SCK), mosi=machine.Pin(SPI_MOSI)
        )
        self.cs = machine.Pin(SPI_CS, machine.Pin.OUT, value=1)
        self.pixels = bytearray(COLUMNS * 8 * ROWS)  # one byte per module per line (HLSB)
        self.frame = framebuf.FrameBuffer(self.pixels, COLUMNS * 8, ROWS * 8, framebuf.MONO_HLSB)
        for register, value in (
            (DISPLAY_TEST, 0),
            (SCAN_LIMIT, 7),
            (DECODE_MODE, 0),
            (INTENSITY, BRIGHTNESS),
            (SHUTDOWN, 1),
        ):
            self._all(register, value)

    def show(self, rows: list[str]) -> None:
        self.frame.fill(0)
        for row, text in enumerate(rows):
            self.frame.text(text, 0, row * 8, 1)
        for line in range(8):
            # the chain shifts: the bytes sent first end up in the last module
            data = bytearray()
            for module in reversed(range(MODULES)):
                row, column = divmod(module, COLUMNS)
                data.append(line + 1)
                data.append(self.pixels[(row * 8 + line) * COLUMNS + column])
            self._send(data)

    def _all(self, register: int, value: int) -> None:
        self._send(bytearray([register, value] * MODULES))

    def _send(self, data: bytearray) -> None:
        self.cs(0)
        self.spi.write(data)
        self.cs(1)


def run(polls: int = -1) -> None:
    """Read and show for ever (or ``polls`` times, for a test)."""
    uart = machine.UART(UART_ID, baudrate=BAUDRATE, rx=machine.Pin(UART_RX), rxbuf=RX_BUFFER)
    board, panel = Board(), Panel()
    done, shown = 0, [""]
    while done != polls:
        waiting = uart.any()
        if waiting:
            board.feed(uart.read(waiting))
        rows = board.rows(done // SCROLL_POLLS)
        if rows != shown:  # SPI only when a row changed: the UART is never kept waiting long
            panel.show(rows)
            shown = rows
        done += 1
        time.sleep(POLL_SECONDS)
