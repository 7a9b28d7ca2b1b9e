"""Reading the text back out of a rendered OLED frame: each small row's characters, matched cell
by cell against the small font's glyphs (courB08 is a monospaced bitmap font: 6 pixels a
character), so a test checks what the panel shows, not what was asked of it. Some bold glyphs
reach one pixel into the cell on their left, so a cell is known by its first 5 columns."""

from __future__ import annotations

from functools import cache

from PIL import Image

from drivers.display import Screen
from drivers.oled import render

CELL = 6  # pixels a character of the small font
KNOWN_BY = 5  # the columns of a cell no neighbour draws in
ROW = 10  # pixels a small row
CHARS = 21  # a row's characters on a 128-pixel panel


@cache
def _glyphs() -> dict[bytes, str]:
    """Each printable character's cell, drawn as the OLED draws a title."""
    glyphs: dict[bytes, str] = {}
    for code in range(ord("!"), ord("~") + 1):
        char = chr(code)
        middle = CHARS // 2
        frame = render(Screen(title=" " * middle + char + " " * middle))  # alone, at x = 1
        left = 1 + middle * CELL
        glyphs[frame.crop((left, 0, left + KNOWN_BY, ROW)).tobytes()] = char
    assert len(glyphs) == ord("~") - ord("!") + 1, "two glyphs alike in their first columns"
    return glyphs


def row_text(frame: Image.Image, top: int) -> str:
    """The text of the small row starting at pixel row ``top`` of ``frame``: centred, as
    drawn; "" for a blank row. Raises if the row holds anything the font does not draw."""
    row = frame.convert("1").crop((0, top, frame.width, top + ROW))
    if row.getbbox() is None:
        return ""
    glyphs = _glyphs()
    for length in range(frame.width // CELL, 0, -1):
        x = (frame.width - length * CELL) // 2
        cells = [row.crop((x + i * CELL, 0, x + i * CELL + KNOWN_BY, ROW)) for i in range(length)]
        text = [
            " " if cell.getbbox() is None else glyphs.get(cell.tobytes(), "\0") for cell in cells
        ]
        outside = Image.new("1", row.size, 0)
        outside.paste(row.crop((0, 0, x, ROW)), (0, 0))
        outside.paste(row.crop((x + length * CELL, 0, row.width, ROW)), (x + length * CELL, 0))
        if "\0" not in text and outside.getbbox() is None and text[0] != " " != text[-1]:
            return "".join(text)
    raise AssertionError(f"row {top}: not text the OLED's small font draws")
