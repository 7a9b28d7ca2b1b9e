"""The OLED's real frame as terminal text, at any terminal size, with no private luma method.

The simulator shows the very image the panel would get (luma's ``dummy`` device keeps it). A
128x64 panel is drawn lossless in one of two cell encodings, the larger that fits the terminal:

- ``half``: one pixel column and two pixel rows per cell (``▀``, ``▄``, ``█``, space):
  128x32 cells, for wide terminals;
- ``braille``: two pixel columns and four pixel rows per cell (Unicode braille patterns):
  64x16 cells, which fits an 80x24 terminal with room for the status lines.

Both are exact (every pixel is one dot), so a test can decode a captured pane back into pixels
and compare it with the frame. Rows are returned as strings; where to put them (cursor
positions) is the caller's, so a resize never wraps a line into the next row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from luma.core.device import dummy  # type: ignore[import-untyped]
from PIL import Image

Encoding = Literal["half", "braille"]

# Unicode braille: dot n of a 2x4 cell is bit n-1; dots 1-3 and 7 are the left column, 4-6 and 8
# the right, top to bottom.
_BRAILLE_BASE = 0x2800
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
_HALF = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
_HALF_DECODE = {char: pixels for pixels, char in _HALF.items()}
_CELL = {"half": (1, 2), "braille": (2, 4)}  # pixels per cell: (columns, rows)
BORDER = 2  # a frame line on each side, in cells: shows where the panel ends


@dataclass(frozen=True, slots=True)
class Fit:
    """How a frame of ``width`` x ``height`` pixels is drawn in a terminal."""

    encoding: Encoding
    columns: int  # cells across, the border included
    rows: int  # cells down, the border included


def cells(encoding: Encoding, width: int, height: int) -> tuple[int, int]:
    """The cells (columns, rows) a frame takes, border included."""
    across, down = _CELL[encoding]
    return -(-width // across) + BORDER, -(-height // down) + BORDER


def fit(width: int, height: int, *, columns: int, rows: int) -> Fit | None:
    """The largest encoding whose picture fits ``columns`` x ``rows`` cells, or None."""
    for encoding in ("half", "braille"):
        need_columns, need_rows = cells(encoding, width, height)
        if need_columns <= columns and need_rows <= rows:
            return Fit(encoding, need_columns, need_rows)
    return None


def _lit(image: Image.Image, x: int, y: int) -> bool:
    if x >= image.width or y >= image.height:
        return False
    return bool(image.getpixel((x, y)))


def encode(image: Image.Image, encoding: Encoding) -> list[str]:
    """The frame as rows of cells, framed by a box that shows the panel's edge."""
    image = image.convert("1")
    columns, rows = cells(encoding, image.width, image.height)
    inner = columns - BORDER
    lines = ["┌" + "─" * inner + "┐"]
    for row in range(rows - BORDER):
        if encoding == "half":
            text = "".join(
                _HALF[(_lit(image, x, 2 * row), _lit(image, x, 2 * row + 1))] for x in range(inner)
            )
        else:
            text = "".join(_braille_cell(image, 2 * column, 4 * row) for column in range(inner))
        lines.append("│" + text + "│")
    lines.append("└" + "─" * inner + "┘")
    return lines


def _braille_cell(image: Image.Image, left: int, top: int) -> str:
    code = 0
    for dy, bits in enumerate(_BRAILLE_BITS):
        for dx, bit in enumerate(bits):
            if _lit(image, left + dx, top + dy):
                code |= bit
    return chr(_BRAILLE_BASE + code)


def decode(lines: Sequence[str], encoding: Encoding, width: int, height: int) -> Image.Image:
    """The pixels back from encoded rows (border included): what a person saw, as an image."""
    image = Image.new("1", (width, height))
    for row, line in enumerate(lines[1 : len(lines) - 1]):
        for column, char in enumerate(line[1 : len(line) - 1]):
            for x, y in _cell_pixels(char, encoding, column, row):
                if x < width and y < height:
                    image.putpixel((x, y), 255)
    return image


def _cell_pixels(char: str, encoding: Encoding, column: int, row: int) -> list[tuple[int, int]]:
    if encoding == "half":
        top, bottom = _HALF_DECODE.get(char, (False, False))
        return [(column, 2 * row + i) for i, lit in enumerate((top, bottom)) if lit]
    code = ord(char) - _BRAILLE_BASE if char.strip() else 0
    return [
        (2 * column + dx, 4 * row + dy)
        for dy, bits in enumerate(_BRAILLE_BITS)
        for dx, bit in enumerate(bits)
        if code & bit
    ]


class TerminalPanel(dummy):  # type: ignore[misc]  # luma ships no type hints
    """A luma ``dummy`` device that hands each frame it receives to ``on_frame``: the simulator
    draws exactly the image the panel would get, from the OLED's own thread."""

    def __init__(
        self,
        *,
        on_frame: Callable[[Image.Image], None],
        width: int = 128,
        height: int = 64,
        rotate: int = 0,
    ) -> None:
        super().__init__(width=width, height=height, rotate=rotate, mode="1")
        self._on_frame = on_frame

    def display(self, image: Image.Image) -> None:
        super().display(image)
        self._on_frame(self.image)
