"""The dealer's OLED: golden screens, the Oled wrapper, and partial updates on real luma drivers.

Golden images live in tests/drivers/golden/. After an intended change to the drawing,
regenerate them with::

    GAMETABLE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/drivers/test_oled.py

and look at the new PNGs before committing them.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import smbus2
from luma.oled.device import sh1106, ssd1306  # type: ignore[import-untyped]
from PIL import Image, ImageChops

from drivers.oled import (
    Oled,
    OledError,
    OledSpec,
    PartialSH1106,
    PartialSSD1306,
    Screen,
    open_emulator,
    open_oled,
    render,
)

GOLDEN = Path(__file__).parent / "golden"
UPDATE_GOLDEN = os.environ.get("GAMETABLE_UPDATE_GOLDEN") == "1"

FULL_FRAME_BYTES = 128 * 64 // 8

COUNT = Screen(title="BORDER-UP", big="3", footer="GO start  NO stop")
CLOCK = Screen(title="GAME 2  STATE IQ", big="14:59", footer="YES valid  NO not")
CLOCK_TICK = Screen(title="GAME 2  STATE IQ", big="14:58", footer="YES valid  NO not")
A_WINS = Screen(
    title="SHOUT",
    big="A WINS",
    lines=("A 20  B 30", "both plunging +20"),
    footer="YES valid  NO not",
)
ALERT = Screen(
    title="ZAP", big="0:42", lines=("B standing",), footer="UNDO  NEXT", alert="STUCK B.shout"
)
OVERFLOW = Screen(
    title="A VERY LONG TITLE THAT CANNOT FIT",
    big="12345678901234567890",
    lines=("line one is much too long for this screen", "caf\u00e9 \u2603"),
    footer="FOOTER THAT IS FAR TOO LONG TO FIT",
)


# -- golden images ---------------------------------------------------------------------------


def assert_matches_golden(name: str, image: Image.Image) -> None:
    path = GOLDEN / f"{name}.png"
    if UPDATE_GOLDEN:
        GOLDEN.mkdir(exist_ok=True)
        image.save(path)
    regenerate = "GAMETABLE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/drivers/test_oled.py"
    assert path.exists(), f"no golden image {path}: create it with {regenerate}"
    with Image.open(path) as stored:
        golden = stored.copy()
    assert (golden.mode, golden.size) == (image.mode, image.size), f"{name}: mode or size differ"
    box = ImageChops.difference(golden.convert("L"), image.convert("L")).getbbox()
    assert box is None, f"{name}: pixels differ inside {box}; if intended, run {regenerate}"


@pytest.mark.parametrize(
    ("name", "screen"),
    [
        ("count", COUNT),
        ("clock", CLOCK),
        ("a_wins", A_WINS),
        ("alert", ALERT),
        ("overflow", OVERFLOW),
    ],
)
def test_screen_renders_exactly_as_its_golden_image(name: str, screen: Screen) -> None:
    assert_matches_golden(name, render(screen))


def test_render_is_deterministic() -> None:
    assert render(A_WINS).tobytes() == render(A_WINS).tobytes()


def test_too_long_text_is_cut_inside_the_screen() -> None:
    image = render(OVERFLOW)
    left, _top, right, _bottom = image.getbbox() or (0, 0, 0, 0)
    assert left >= 0
    assert right <= 128


def test_a_screen_holds_at_most_two_small_lines() -> None:
    with pytest.raises(ValueError, match="at most 2"):
        Screen(title="X", lines=("1", "2", "3"))


# -- the Oled wrapper on luma's dummy and emulator devices -----------------------------------


def dummy_panel() -> Any:
    """luma's dummy device from open_emulator; ``.image`` is the last frame it was given."""
    return open_emulator("dummy")


def test_dummy_device_keeps_the_shown_image() -> None:
    device = dummy_panel()
    oled = Oled(device=device)
    oled.show(CLOCK)
    assert device.image.tobytes() == render(CLOCK).tobytes()
    assert oled.last_image is not None
    assert oled.last_image.tobytes() == render(CLOCK).tobytes()


def test_show_skips_a_screen_equal_to_the_last_one() -> None:
    device = dummy_panel()
    oled = Oled(device=device)
    oled.show(CLOCK)
    shown = device.image
    oled.show(Screen(title="GAME 2  STATE IQ", big="14:59", footer="YES valid  NO not"))
    assert device.image is shown  # dummy copies on every display(): no call was made


def test_show_draws_a_changed_screen() -> None:
    device = dummy_panel()
    oled = Oled(device=device)
    oled.show(CLOCK)
    oled.show(CLOCK_TICK)
    assert device.image.tobytes() == render(CLOCK_TICK).tobytes()


def test_clear_blanks_the_panel_and_forgets_the_last_screen() -> None:
    device = dummy_panel()
    oled = Oled(device=device)
    oled.show(CLOCK)
    oled.clear()
    assert device.image.getbbox() is None
    assert oled.last_image is None
    oled.show(CLOCK)
    assert device.image.tobytes() == render(CLOCK).tobytes()


def test_capture_emulator_writes_the_real_frame_to_a_png(tmp_path: Path) -> None:
    device = open_emulator("capture", scale=1, file_template=str(tmp_path / "frame{0}.png"))
    Oled(device=device).show(COUNT)
    with Image.open(tmp_path / "frame1.png") as frame:
        written = frame.convert("1")
    assert written.tobytes() == render(COUNT).tobytes()


def test_an_unknown_emulator_is_rejected_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="expected one of capture, asciiblock, dummy"):
        open_emulator("pygame-window")


def test_an_oled_on_a_missing_i2c_bus_fails_with_one_line_naming_it_and_the_fix() -> None:
    spec = OledSpec(port=99)
    assert not Path("/dev/i2c-99").exists()
    with pytest.raises(OledError) as caught:
        open_oled(spec)
    message = str(caught.value)
    assert message.startswith("OLED ssd1306 on I2C bus 99 address 0x3C: ")
    assert "raspi-config" in message
    assert "\n" not in message


def test_an_oled_that_does_not_answer_names_its_address_and_how_to_find_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class SilentBus:
        """smbus2.SMBus on a bus where nothing answers at the address (EREMOTEIO)."""

        def __init__(self, port: int) -> None:
            self.port = port

        def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

        def close(self) -> None:
            pass

    monkeypatch.setattr(smbus2, "SMBus", SilentBus)
    with pytest.raises(OledError) as caught:
        open_oled(OledSpec(driver="sh1106", address=0x3D))
    assert str(caught.value) == (
        "OLED sh1106 on I2C bus 1 address 0x3D: I2C device not found on address: 0x3D: "
        "check the wiring, the display driver and address (i2cdetect -y 1 lists it)"
    )


def test_oled_spec_rejects_a_bad_rotation() -> None:
    with pytest.raises(ValueError, match=r"rotate: expected 0\.\.3"):
        OledSpec(rotate=4)


# -- partial updates, checked against a model of the controller's RAM ------------------------


class ControllerRam:
    """A luma serial interface standing in for the bus: counts bytes, models the panel RAM.

    Understands what luma's display code sends: SSD1306 COLUMNADDR/PAGEADDR windows with
    horizontal addressing, and SH1106 page + column address commands (132-column RAM).
    """

    def __init__(self, *, sh1106_ram: bool) -> None:
        self.sh1106 = sh1106_ram
        self.columns = 132 if sh1106_ram else 128
        self.ram = [bytearray(self.columns) for _ in range(8)]
        self.data_bytes = 0
        self.command_bytes = 0
        self._window = (0, self.columns - 1, 0, 7)
        self._column = 0
        self._page = 0

    def command(self, *cmd: int) -> None:
        self.command_bytes += len(cmd)
        if len(cmd) == 6 and cmd[0] == 0x21 and cmd[3] == 0x22:  # SSD1306 window
            self._window = (cmd[1], cmd[2], cmd[4], cmd[5])
            self._column, self._page = cmd[1], cmd[4]
        elif len(cmd) == 3 and cmd[0] & 0xF0 == 0xB0 and cmd[1] < 0x10 and cmd[2] & 0xF0 == 0x10:
            self._page = cmd[0] & 0x0F  # SH1106: page, low column nibble, high column nibble
            self._column = (cmd[2] & 0x0F) << 4 | cmd[1]

    def data(self, data: Sequence[int]) -> None:
        self.data_bytes += len(data)
        first_col, last_col, first_page, last_page = self._window
        for byte in data:
            self.ram[self._page][self._column] = byte
            self._column += 1
            if not self.sh1106 and self._column > last_col:
                self._column = first_col
                self._page = first_page if self._page == last_page else self._page + 1

    def cleanup(self) -> None:
        pass

    def reset_counts(self) -> None:
        self.data_bytes = self.command_bytes = 0

    def image(self) -> Image.Image:
        """The 128x64 picture the panel shows (SH1106 shows RAM columns 2..129)."""
        offset = 2 if self.sh1106 else 0
        picture = Image.new("1", (128, 64))
        for page, row in enumerate(self.ram):
            for x in range(128):
                byte = row[x + offset]
                for bit in range(8):
                    if byte >> bit & 1:
                        picture.putpixel((x, page * 8 + bit), 1)
        return picture


DRIVERS = [
    pytest.param(PartialSSD1306, ssd1306, False, id="ssd1306"),
    pytest.param(PartialSH1106, sh1106, True, id="sh1106"),
]


@pytest.mark.parametrize(("partial", "_stock", "sh1106_ram"), DRIVERS)
def test_first_frame_is_a_full_frame(partial: type, _stock: type, sh1106_ram: bool) -> None:
    bus = ControllerRam(sh1106_ram=sh1106_ram)
    partial(serial_interface=bus)  # luma's constructor clears the panel: the first frame
    assert bus.data_bytes == FULL_FRAME_BYTES


@pytest.mark.parametrize(("partial", "_stock", "sh1106_ram"), DRIVERS)
def test_an_unchanged_frame_sends_nothing(partial: type, _stock: type, sh1106_ram: bool) -> None:
    bus = ControllerRam(sh1106_ram=sh1106_ram)
    device = partial(serial_interface=bus)
    device.display(render(CLOCK))
    bus.reset_counts()
    device.display(render(CLOCK))
    assert (bus.data_bytes, bus.command_bytes) == (0, 0)


@pytest.mark.parametrize(("partial", "_stock", "sh1106_ram"), DRIVERS)
def test_invalidate_makes_the_next_frame_whole(
    partial: type, _stock: type, sh1106_ram: bool
) -> None:
    bus = ControllerRam(sh1106_ram=sh1106_ram)
    device = partial(serial_interface=bus)
    device.display(render(CLOCK))
    device.invalidate()
    bus.reset_counts()
    device.display(render(CLOCK))
    assert bus.data_bytes == FULL_FRAME_BYTES


@pytest.mark.parametrize(("partial", "_stock", "sh1106_ram"), DRIVERS)
def test_a_countdown_tick_sends_at_most_a_quarter_frame(
    partial: type, _stock: type, sh1106_ram: bool
) -> None:
    bus = ControllerRam(sh1106_ram=sh1106_ram)
    device = partial(serial_interface=bus)
    device.display(render(CLOCK))
    bus.reset_counts()
    device.display(render(CLOCK_TICK))
    assert 0 < bus.data_bytes <= FULL_FRAME_BYTES // 4


@pytest.mark.parametrize(("partial", "_stock", "sh1106_ram"), DRIVERS)
def test_partial_writes_rebuild_the_rendered_image(
    partial: type, _stock: type, sh1106_ram: bool
) -> None:
    bus = ControllerRam(sh1106_ram=sh1106_ram)
    device = partial(serial_interface=bus)
    for screen in (COUNT, CLOCK, CLOCK_TICK, A_WINS, ALERT, OVERFLOW, COUNT):
        device.display(render(screen))
        assert bus.image().tobytes() == render(screen).tobytes()


@pytest.mark.parametrize(("partial", "stock", "sh1106_ram"), DRIVERS)
@pytest.mark.parametrize("rotate", [0, 2])
# luma's own full-frame display() uses Image.getdata, deprecated in Pillow 13.
@pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")
def test_partial_writes_leave_the_ram_as_luma_full_frame_does(
    partial: type, stock: type, sh1106_ram: bool, rotate: int
) -> None:
    # The stock driver is the reference: the same screens, always sent whole.
    reference_bus = ControllerRam(sh1106_ram=sh1106_ram)
    reference = stock(reference_bus, rotate=rotate)
    bus = ControllerRam(sh1106_ram=sh1106_ram)
    device = partial(serial_interface=bus, rotate=rotate)
    for screen in (CLOCK, CLOCK_TICK, ALERT):
        reference.display(render(screen))
        device.display(render(screen))
        assert bus.ram == reference_bus.ram


def test_a_wrong_sized_frame_is_refused() -> None:
    device = PartialSSD1306(serial_interface=ControllerRam(sh1106_ram=False))
    with pytest.raises(ValueError, match="takes a 128x64 mode '1' image"):
        device.display(render(CLOCK, size=(128, 32)))
