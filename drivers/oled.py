"""The dealer's OLED: a screen model, its drawing, and luma devices that send only what changed.

Drawing (:func:`render`) is pure and uses only bitmap fonts, so a screen renders to the same
pixels on every machine (FreeType versions differ; bitmaps do not): Pillow's built-in courB08
for the small rows and luma.core's 8x8 CP437 font, scaled up by whole pixels, for the big text.

Layout on a 128x64 panel (other sizes scale the same way)::

    rows  0- 9  title, centred; an alert replaces it, drawn inverse (white bar, black text)
    rows 10-19  the subtitle, centred, when there is one (the next match's teams)
    rows 10-..  big text (from row 20 under a subtitle), centred, as large as fits (8x8 x 1..5)
    ..          up to 2 small lines, centred, just above the footer
    rows 54-63  footer: what the console buttons mean now

Text that does not fit is cut at the right edge, never wrapped. Characters outside printable
ASCII become "?".

luma's ssd1306/sh1106 ``display()`` always sends the whole frame: 1 KiB, ~23 ms over I2C at
400 kHz, which a countdown would pay every second. :class:`PartialSSD1306` and
:class:`PartialSH1106` use luma's ``diff_to_previous`` framebuffer to find the changed
segments and send only the pages and columns under them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, Protocol

import luma.core.error  # type: ignore[import-untyped]
from luma.core.device import dummy  # type: ignore[import-untyped]
from luma.core.framebuffer import diff_to_previous  # type: ignore[import-untyped]
from luma.core.interface.serial import i2c, spi  # type: ignore[import-untyped]
from luma.core.legacy import text as legacy_text  # type: ignore[import-untyped]
from luma.core.legacy.font import CP437_FONT  # type: ignore[import-untyped]
from luma.oled.device import sh1106, ssd1306  # type: ignore[import-untyped]
from PIL import Image, ImageDraw, ImageFont

from drivers.display import OledError, OledSpec, OledWriteError, Screen

__all__ = [
    "Display",
    "Oled",
    "OledError",
    "OledSpec",
    "OledWriteError",
    "PartialSH1106",
    "PartialSSD1306",
    "Screen",
    "open_emulator",
    "open_oled",
    "render",
]

EMULATORS = ("capture", "asciiblock", "dummy")

# courB08: 6 px per character; its glyphs sit in rows 3..10 of an 11-row cell, so drawing
# 2 rows higher gives a 10-row text row with 1 blank row above and below the glyphs.
_SMALL = ImageFont.load_default_imagefont()
_ROW = 10
_SMALL_RAISE = 2
_MARGIN = 1
_BIG_CELL = 8
_BIG_MAX_SCALE = 5

# luma.oled diff segments: 4x4 over 128x64 gives 32x16 px segments, two pages each.
_SEGMENTS = 16


class Display(Protocol):
    """What :class:`Oled` needs of a luma device (real, emulator or dummy)."""

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def mode(self) -> str: ...

    def display(self, image: Image.Image) -> None: ...

    def clear(self) -> None: ...

    def cleanup(self) -> None: ...


def render(screen: Screen, *, size: tuple[int, int] = (128, 64), mode: str = "1") -> Image.Image:
    """Draw ``screen``; the same screen gives the same pixels everywhere."""
    width, height = size
    image = Image.new(mode, size, "black")
    draw = ImageDraw.Draw(image)

    if screen.alert is not None:
        draw.rectangle((0, 0, width - 1, _ROW - 1), fill="white")
        _small(draw, screen.alert, 0, width, fill="black")
    else:
        _small(draw, screen.title, 0, width, fill="white")
    top = _ROW
    if screen.subtitle:
        _small(draw, screen.subtitle, top, width, fill="white")
        top += _ROW

    bottom = height
    if screen.footer:
        bottom -= _ROW
        _small(draw, screen.footer, bottom, width, fill="white")
    for line in reversed(screen.lines):
        bottom -= _ROW
        _small(draw, line, bottom, width, fill="white")

    if screen.big:
        _big(draw, screen.big, top=top, bottom=bottom, width=width)
    return image


def fits_small(text: str, width: int = 128) -> bool:
    """Whether a line of the small font shows whole on a panel ``width`` pixels wide (a longer
    one is cut at the right: the dealer would lose its end)."""
    return _SMALL.getlength(_printable(text)) <= width - 2 * _MARGIN


def _printable(text: str) -> str:
    return "".join(c if " " <= c <= "~" else "?" for c in text)


def _small(draw: ImageDraw.ImageDraw, text: str, top: int, width: int, *, fill: str) -> None:
    text = _printable(text)
    room = width - 2 * _MARGIN
    while text and _SMALL.getlength(text) > room:
        text = text[:-1]
    if text:
        x = (width - int(_SMALL.getlength(text))) // 2
        draw.text((x, top - _SMALL_RAISE), text, font=_SMALL, fill=fill)


def _big(draw: ImageDraw.ImageDraw, text: str, *, top: int, bottom: int, width: int) -> None:
    # Monospaced on purpose: a ticking clock keeps every other digit where it was, so a
    # partial update only sends the digit that changed.
    text = _printable(text)[: max(0, (width - 2 * _MARGIN) // _BIG_CELL)]
    room_w, room_h = width - 2 * _MARGIN, bottom - top
    if not text or room_h < _BIG_CELL:
        return
    scale = max(
        (
            s
            for s in range(1, _BIG_MAX_SCALE + 1)
            if len(text) * _BIG_CELL * s <= room_w and _BIG_CELL * s <= room_h
        ),
        default=1,
    )
    glyphs = Image.new("1", (len(text) * _BIG_CELL, _BIG_CELL), 0)
    legacy_text(ImageDraw.Draw(glyphs), (0, 0), text, fill=1, font=CP437_FONT)
    glyphs = glyphs.resize((glyphs.width * scale, glyphs.height * scale), Image.Resampling.NEAREST)
    x = (width - glyphs.width) // 2
    y = top + (room_h - glyphs.height) // 2
    draw.bitmap((x, y), glyphs, fill="white")


# -- partial-update devices ---------------------------------------------------------------


def _page_bytes(image: Image.Image, left: int, right: int, page: int) -> bytes:
    """Controller RAM bytes for columns [left, right) of one page: bit 0 is the page's top row."""
    strip = image.crop((left, page * 8, right, page * 8 + 8))
    # Transposed, each column becomes an 8-pixel row that mode "1" packs MSB-first; flipping
    # first puts the page's top pixel in bit 0, as the controller wants.
    column_rows = strip.transpose(Image.Transpose.FLIP_TOP_BOTTOM).transpose(
        Image.Transpose.TRANSPOSE
    )
    return column_rows.tobytes()


def _changed_windows(framebuffer: Any, image: Image.Image) -> Iterator[tuple[int, int, int, int]]:
    """(left, right, first_page, last_page) per changed segment; the first frame is whole."""
    for _segment, (left, top, right, bottom) in framebuffer.redraw(image):
        yield left, right, top // 8, (bottom - 1) // 8


def _check_frame(device: Any, image: Image.Image) -> None:
    if image.mode != device.mode or image.size != device.size:
        raise ValueError(
            f"{type(device).__name__} takes a {device.size[0]}x{device.size[1]} "
            f"mode {device.mode!r} image, got {image.size[0]}x{image.size[1]} {image.mode!r}"
        )


class _PartialUpdates:
    """What both partial devices share: a diffing framebuffer set up before luma's __init__
    (which already displays the first, blank frame) and a way to force the next frame whole."""

    def __init__(
        self,
        *,
        serial_interface: Any,
        width: int = 128,
        height: int = 64,
        rotate: int = 0,
        persist: bool = False,
    ) -> None:
        self.framebuffer = diff_to_previous(num_segments=_SEGMENTS)
        # the next class in the MRO is the luma device (ssd1306, sh1106), which takes these
        super().__init__(serial_interface, width=width, height=height, rotate=rotate)  # type: ignore[call-arg]
        self.persist = persist

    def invalidate(self) -> None:
        """Send the next frame whole: after a bus error the panel's RAM is unknown."""
        self.framebuffer = diff_to_previous(num_segments=_SEGMENTS)


class PartialSSD1306(_PartialUpdates, ssd1306):  # type: ignore[misc]  # luma ships no type hints
    """luma's ssd1306, sending only the changed window (COLUMNADDR/PAGEADDR, then its bytes).

    Relies on the horizontal addressing mode that luma's ssd1306 sets up (MEMORYMODE 0x00):
    within the window the controller wraps from the last column to the next page.
    """

    def display(self, image: Image.Image) -> None:
        _check_frame(self, image)
        image = self.preprocess(image)
        for left, right, first, last in _changed_windows(self.framebuffer, image):
            self.command(
                self._const.COLUMNADDR,
                self._colstart + left,
                self._colstart + right - 1,
                self._const.PAGEADDR,
                first,
                last,
            )
            window = b"".join(
                _page_bytes(image, left, right, page) for page in range(first, last + 1)
            )
            self.data(list(window))


class PartialSH1106(_PartialUpdates, sh1106):  # type: ignore[misc]  # luma ships no type hints
    """luma's sh1106, sending only the changed runs: per page, set page and column, then bytes.

    The SH1106 has page addressing only (no window), and its 132-column RAM shows columns
    2..129 on a 128-wide panel: ``page_address_offset`` (2, luma's default) is added to every
    column address.
    """

    def display(self, image: Image.Image) -> None:
        _check_frame(self, image)
        image = self.preprocess(image)
        for left, right, first, last in _changed_windows(self.framebuffer, image):
            column = self._page_address_offset + left
            for page in range(first, last + 1):
                self.command(
                    0xB0 | page,
                    self._const.SETLOWCOLUMN | (column & 0x0F),
                    self._const.SETHIGHCOLUMN | (column >> 4),
                )
                self.data(list(_page_bytes(image, left, right, page)))


# -- opening devices ----------------------------------------------------------------------


def open_oled(spec: OledSpec) -> PartialSSD1306 | PartialSH1106:
    """The real panel: luma's i2c or spi interface under a partial-update device.

    ``persist=True``: when the daemon stops, the panel keeps its last screen instead of going
    dark, so the daemon should show a final screen before it closes the display.
    """
    bus = "I2C" if spec.interface == "i2c" else "SPI"
    try:
        if spec.interface == "i2c":
            interface = i2c(port=spec.port, address=spec.address)
        else:
            interface = spi(port=spec.port, device=spec.spi_device)
    except ImportError as exc:
        raise OledError(f"{spec.where}: {exc}: install gametable[pi] on the Pi") from exc
    except luma.core.error.DevicePermissionError as exc:
        raise OledError(
            f"{spec.where}: {exc}: add the service user to the '{bus.lower()}' group"
        ) from exc
    except (luma.core.error.Error, OSError) as exc:
        enable = "do_i2c" if spec.interface == "i2c" else "do_spi"
        raise OledError(
            f"{spec.where}: {exc}: enable {bus} (sudo raspi-config nonint {enable} 0) "
            f"and check the display port"
        ) from exc

    device_class = PartialSSD1306 if spec.driver == "ssd1306" else PartialSH1106
    try:
        # luma's constructor sends the init sequence: this is where a wrong address shows.
        return device_class(
            serial_interface=interface,
            width=spec.width,
            height=spec.height,
            rotate=spec.rotate,
            persist=True,
        )
    except luma.core.error.DeviceDisplayModeError as exc:
        raise OledError(f"{spec.where}: {exc}: check the display width and height") from exc
    except (luma.core.error.Error, OSError) as exc:
        check = f"i2cdetect -y {spec.port} lists it" if spec.interface == "i2c" else "check it"
        raise OledError(
            f"{spec.where}: {exc}: check the wiring, the display driver and address ({check})"
        ) from exc


def open_emulator(
    kind: str = "capture",
    *,
    width: int = 128,
    height: int = 64,
    rotate: int = 0,
    scale: int = 2,
    file_template: str = "oled_{0:06}.png",
) -> Display:
    """A luma emulator showing the real frames (mode "1", like the panel).

    ``capture`` writes each frame to a numbered PNG (``file_template``), scaled by ``scale``;
    ``asciiblock`` draws in the terminal (stdout must be a terminal); ``dummy`` keeps the last
    image in ``.image``.
    """
    if kind == "dummy":
        return dummy(width=width, height=height, rotate=rotate, mode="1")  # type: ignore[no-any-return]
    if kind not in EMULATORS:
        raise ValueError(f"oled emulator: expected one of {', '.join(EMULATORS)}, got {kind!r}")
    # pygame greets on import; in the terminal emulator that line would tear the picture.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from luma.emulator import device as emulators  # type: ignore[import-untyped]

        if kind == "capture":
            return emulators.capture(  # type: ignore[no-any-return]
                width=width,
                height=height,
                rotate=rotate,
                mode="1",
                transform="identity" if scale > 1 else "none",
                scale=scale,
                file_template=file_template,
            )
        if not hasattr(emulators, "asciiblock"):
            raise OledError("oled emulator 'asciiblock' needs curses and a Unix terminal")
        return emulators.asciiblock(  # type: ignore[no-any-return]
            width=width, height=height, rotate=rotate, mode="1", transform="none", scale=1
        )
    except (ImportError, RuntimeError) as exc:
        raise OledError(
            f"oled emulator {kind!r} is not available ({exc}): pip install 'gametable[sim]'"
        ) from exc


# -- the display the daemon talks to ------------------------------------------------------


class Oled:
    """Shows :class:`Screen` values on a luma device, skipping a screen already shown."""

    def __init__(self, *, device: Display) -> None:
        self._device = device
        self._last_screen: Screen | None = None
        self._last_image: Image.Image | None = None
        self._closed = False

    @property
    def last_image(self) -> Image.Image | None:
        """The image last sent to the device (None before the first screen or after clear)."""
        return self._last_image

    def show(self, screen: Screen) -> None:
        if screen == self._last_screen:
            return
        image = render(screen, size=self._device.size, mode=self._device.mode)
        try:
            self._device.display(image)
        except (luma.core.error.Error, OSError) as exc:
            # luma turns EIO/EREMOTEIO on I2C into DeviceNotFoundError; other errors pass as
            # OSError (smbus2's i2c_rdwr): one kind of failure to the daemon either way
            raise OledWriteError(" ".join(str(exc).split()) or type(exc).__name__) from exc
        self._last_screen = screen
        self._last_image = image

    def clear(self) -> None:
        self._device.clear()
        self._last_screen = None
        self._last_image = None

    def invalidate(self) -> None:
        """Forget what the panel shows (after a bus error): the next screen is sent whole."""
        self._last_screen = None
        invalidate = getattr(self._device, "invalidate", None)
        if invalidate is not None:
            invalidate()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._device.cleanup()
