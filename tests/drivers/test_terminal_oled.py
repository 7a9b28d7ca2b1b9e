"""The simulator's OLED picture: the frame's own pixels, at any terminal size."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops

from drivers.display import Screen
from drivers.oled import render
from drivers.terminal_oled import Encoding, cells, decode, encode, fit

PANEL = (128, 64)


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("1"), b.convert("1")).getbbox() is None


@st.composite
def frames(draw: st.DrawFn) -> Image.Image:
    width = draw(st.integers(1, 40))
    height = draw(st.integers(1, 24))
    bits = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    image = Image.new("1", (width, height))
    image.putdata([255 if bit else 0 for bit in bits])
    return image


@given(frames(), st.sampled_from(["half", "braille"]))
def test_every_pixel_survives_the_terminal_encoding(image: Image.Image, encoding: Encoding) -> None:
    lines = encode(image, encoding)
    assert _same(decode(lines, encoding, image.width, image.height), image)


def test_a_real_frame_round_trips_in_both_encodings() -> None:
    image = render(Screen(title="G1 BORDER-UP 19:58", big="3", lines=("Are you",), footer="GO"))
    for encoding in ("half", "braille"):
        assert _same(decode(encode(image, encoding), encoding, *PANEL), image)


def test_every_row_has_the_width_of_the_picture() -> None:
    image = render(Screen(title="MATCH A0 B0", big="0:0"))
    for encoding in ("half", "braille"):
        lines = encode(image, encoding)
        columns, rows = cells(encoding, *PANEL)
        assert len(lines) == rows
        assert {len(line) for line in lines} == {columns}


def test_a_wide_terminal_gets_one_pixel_per_column() -> None:
    assert fit(*PANEL, columns=200, rows=60) is not None
    assert fit(*PANEL, columns=200, rows=60).encoding == "half"  # type: ignore[union-attr]


def test_an_80_by_24_terminal_gets_braille_with_room_below() -> None:
    chosen = fit(*PANEL, columns=80, rows=24 - 5)
    assert chosen is not None
    assert chosen.encoding == "braille"
    assert (chosen.columns, chosen.rows) == (66, 18)


def test_a_terminal_too_small_for_any_encoding_gets_no_picture() -> None:
    assert fit(*PANEL, columns=60, rows=24) is None
    assert fit(*PANEL, columns=80, rows=10) is None
