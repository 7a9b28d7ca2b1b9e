"""``gametable config wiring``: the Pi's 40-pin header with every pin a config uses, its part and
its wiring, and only those; a refused config is refused as ``gametable config check`` refuses
it; the SVG is written whole or not at all (docs/hardware.md)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.table.config import _parse_pin, load_config
from firmware_py.table.wiring_diagram import HEADER, render_svg

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "config" / "guesstimation-sample-deck.toml"  # a deck, not a table's config
EXAMPLES = sorted(path for path in (ROOT / "config").glob("*.toml") if path != DECK)
SVG = "{http://www.w3.org/2000/svg}"
GROUNDS = {6, 9, 14, 20, 25, 30, 34, 39}
TWO_SEATS = """
[seats.A]
stand = { pin = 5 }
shout = { pin = 6 }
led = 13
[seats.B]
stand = { pin = 19 }
shout = { pin = 26 }
led = 12
"""


def used_pins(svg: str) -> dict[int, str]:
    """GPIO -> the config key the diagram draws on it, for every GPIO drawn as used."""
    root = ET.fromstring(svg)
    return {
        int(group.attrib["data-gpio"]): group.attrib["data-key"]
        for group in root.iter(f"{SVG}g")
        if group.attrib.get("class") == "pin used"
    }


def pin_texts(svg: str, pin: int) -> list[str]:
    """The texts drawn beside header pin ``pin``."""
    root = ET.fromstring(svg)
    (group,) = (g for g in root.iter(f"{SVG}g") if g.attrib.get("data-pin") == str(pin))
    return [text.text or "" for text in group.iter(f"{SVG}text")]


def diagram_of(tmp_path: Path, toml: str) -> str:
    path = tmp_path / "table.toml"
    path.write_text(toml, encoding="utf-8")
    return render_svg(load_config(path), str(path))


# the 40-pin header


def test_the_header_has_forty_pins_with_3v3_5v_and_ground_where_the_pi_has_them() -> None:
    assert sorted(HEADER) == list(range(1, 41))
    assert {pin for pin, what in HEADER.items() if what == "3V3"} == {1, 17}
    assert {pin for pin, what in HEADER.items() if what == "5V"} == {2, 4}
    assert {pin for pin, what in HEADER.items() if what == "GND"} == GROUNDS


def test_bcm_2_and_3_are_sda1_and_scl1_on_pins_3_and_5(tmp_path: Path) -> None:
    svg = diagram_of(tmp_path, "")
    assert "GPIO2 SDA1" in pin_texts(svg, 3)
    assert "GPIO3 SCL1" in pin_texts(svg, 5)
    assert "3V3" in pin_texts(svg, 1)


def test_the_header_has_every_gpio_0_to_27_once() -> None:
    assert sorted(what for what in HEADER.values() if isinstance(what, int)) == list(range(28))


@pytest.mark.parametrize("pin", range(1, 41))
def test_the_header_agrees_with_the_board_pin_names_the_config_takes(pin: int) -> None:
    gpio = _parse_pin(f"BOARD{pin}")
    if isinstance(HEADER[pin], int):
        assert gpio == HEADER[pin]
    else:
        assert isinstance(gpio, str)  # a power pin is refused as a pin


# every example config


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_the_diagram_draws_every_pin_an_example_config_uses_and_only_those(path: Path) -> None:
    config = load_config(path)
    expected = {}
    for seat in config.seats:
        expected[seat.stand.pin] = f"seats.{seat.name}.stand.pin"
        expected[seat.shout.pin] = f"seats.{seat.name}.shout.pin"
        expected[seat.led] = f"seats.{seat.name}.led"
    for button in ("count", "go", "yes", "no", "undo", "next"):
        expected[getattr(config.console, button).pin] = f"console.{button}.pin"
    # the examples' OLED is on I2C bus 1 and their scoreboard on USB: no UART pins
    assert (config.oled.interface, config.oled.port, config.scoreboard.url) == (
        "i2c",
        1,
        "/dev/ttyUSB0",
    )
    expected |= {2: "oled.interface", 3: "oled.interface"}
    assert used_pins(render_svg(config, str(path))) == expected


def test_the_examples_are_the_shipped_table_and_the_six_seat_table() -> None:
    assert [path.name for path in EXAMPLES] == ["six-seats.toml", "table.toml"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_each_example_has_its_diagram_in_docs_hardware_md(path: Path) -> None:
    png = f"hardware/{path.stem}.png"
    assert (ROOT / "docs" / png).is_file()
    assert f"({png})" in (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")


def test_the_diagram_is_one_well_formed_svg_document(tmp_path: Path) -> None:
    root = ET.fromstring(diagram_of(tmp_path, ""))
    assert root.tag == f"{SVG}svg"


# parts, pulls and polarity


def test_a_pulled_up_input_is_a_switch_to_ground_active_low(tmp_path: Path) -> None:
    texts = pin_texts(diagram_of(tmp_path, TWO_SEATS), 29)  # GPIO5
    assert texts[-2:] == [
        "seats.A.stand.pin: seat A's stand-up sensor",
        "pull-up, active low: closed while the team stands, from the GPIO to GND",
    ]


def test_a_pulled_down_input_is_a_switch_to_3v3_active_high(tmp_path: Path) -> None:
    toml = TWO_SEATS.replace("shout = { pin = 6 }", "shout = { pin = 6, pull_up = false }")
    texts = pin_texts(diagram_of(tmp_path, toml), 31)  # GPIO6
    assert texts[-1] == "pull-down, active high: a push button, from the GPIO to 3V3"


def test_a_geoplunge_diagram_says_what_closes_a_stand_up_sensor(tmp_path: Path) -> None:
    """R1024: closed while the team stands; a mat on the seat is the wrong way round."""
    assert (
        "Stand-up sensors: closed while the team stands, e.g. a lever microswitch under the seat "
        "wired on its NC contact; never a mat on the seat (docs/hardware.md)."
        in diagram_of(tmp_path, TWO_SEATS)
    )


def test_another_familys_diagram_has_no_stand_up_sensor(tmp_path: Path) -> None:
    assert "Stand-up sensors" not in diagram_of(tmp_path, '[table]\nfamily = "states"\n')


def test_a_team_led_is_drawn_with_its_resistor(tmp_path: Path) -> None:
    texts = pin_texts(diagram_of(tmp_path, TWO_SEATS), 33)  # GPIO13
    assert texts[-2:] == [
        "seats.A.led: seat A's team LED",
        "GPIO → 330 Ω → LED + (long leg), LED − → GND; PWM-dimmed",
    ]


def test_the_oled_on_i2c_names_its_driver_size_and_address(tmp_path: Path) -> None:
    svg = diagram_of(tmp_path, '[oled]\ndriver = "sh1106"\naddress = 0x3D\n')
    assert pin_texts(svg, 3)[-2:] == [
        "oled.interface: OLED I2C1 SDA",
        "sh1106 128x64 at 0x3D; pull-ups on the Pi",
    ]
    assert pin_texts(svg, 1)[-2] == "oled.enabled: OLED VCC"


def test_an_oled_on_i2c_bus_1_is_wired_to_pins_3_and_5_with_the_pis_pull_ups(
    tmp_path: Path,
) -> None:
    svg = diagram_of(tmp_path, "")
    assert "VCC → pin 1 (3V3), GND → pin 9, I2C1 SDA (pin 3) → SDA, I2C1 SCL (pin 5) → SCL." in svg
    assert "I2C pull-ups: the Pi has 1.8 kΩ on SDA1/SCL1 already; add none." in svg


def test_an_oled_on_i2c_bus_0_needs_pull_ups_of_its_own(tmp_path: Path) -> None:
    """The Pi's 1.8 kΩ pull-ups are on GPIO2 and GPIO3 only, not on bus 0's GPIO0 and GPIO1."""
    svg = diagram_of(tmp_path, "[oled]\nport = 0\n")
    assert "I2C0 SDA (pin 27) → SDA, I2C0 SCL (pin 28) → SCL." in svg
    assert "the Pi has none on I2C bus 0" in svg
    assert pin_texts(svg, 27)[-1] == "ssd1306 128x64 at 0x3C; pull-ups to 3V3 needed"
    assert "add none" not in svg


def test_an_oled_on_an_overlays_i2c_bus_says_its_pins_are_not_drawn(tmp_path: Path) -> None:
    svg = diagram_of(tmp_path, "[oled]\nport = 3\n")
    assert "the pins its dtoverlay gives I2C bus 3 (not drawn here)" in svg
    assert not {0, 1, 2, 3} & set(used_pins(svg))


def test_an_oled_turned_off_leaves_sda_and_scl_free(tmp_path: Path) -> None:
    svg = diagram_of(tmp_path, "[oled]\nenabled = false\n")
    assert not {2, 3} & set(used_pins(svg))
    assert "OLED: off (oled.enabled = false)." in svg


def test_an_oled_on_spi_takes_its_bus_chip_select_dc_and_reset(tmp_path: Path) -> None:
    toml = '[oled]\ninterface = "spi"\n[console]\nundo = { pin = 16 }\nnext = { pin = 20 }\n'
    used = used_pins(diagram_of(tmp_path, toml))
    assert {gpio: used[gpio] for gpio in (8, 9, 10, 11, 24, 25)} == {
        8: "oled.spi_device",
        9: "oled.interface",
        10: "oled.interface",
        11: "oled.interface",
        24: "oled.dc_pin",
        25: "oled.reset_pin",
    }
    assert not {2, 3} & set(used)


def test_an_oled_on_spi_is_wired_pin_by_pin_and_its_miso_to_nothing(tmp_path: Path) -> None:
    toml = '[oled]\ninterface = "spi"\n[console]\nundo = { pin = 16 }\nnext = { pin = 20 }\n'
    svg = diagram_of(tmp_path, toml)
    assert pin_texts(svg, 21)[-1] == "the SPI bus keeps it; an OLED has no MISO: wire nothing"
    assert (
        "VCC → pin 1 (3V3), GND → pin 9, SPI0 MOSI (pin 19) → DIN, SPI0 SCLK (pin 23) → CLK, "
        "SPI0 CE0 (pin 24) → CS, DC (pin 18) → DC, RES (pin 22) → RES." in svg
    )


def test_a_scoreboard_on_the_pis_uart_takes_txd_and_rxd(tmp_path: Path) -> None:
    svg = diagram_of(tmp_path, '[scoreboard]\nurl = "/dev/serial0"\n')
    assert {gpio: key for gpio, key in used_pins(svg).items() if gpio in (14, 15)} == {
        14: "scoreboard.url",
        15: "scoreboard.url",
    }
    assert pin_texts(svg, 8)[-2] == "scoreboard.url: scoreboard UART TXD"


def test_a_scoreboard_on_usb_takes_no_header_pin(tmp_path: Path) -> None:
    svg = diagram_of(tmp_path, "")
    assert not {14, 15} & set(used_pins(svg))
    assert "a USB serial adapter in a USB port, not the header" in svg


def test_each_family_names_a_seats_inputs_in_its_own_words(tmp_path: Path) -> None:
    svg = diagram_of(tmp_path, '[table]\nfamily = "pentathlon"\n')
    assert pin_texts(svg, 29)[-2] == "seats.A.stand.pin: seat A's challenge button"
    assert pin_texts(svg, 31)[-2] == "seats.A.shout.pin: seat A's flag button"


def test_guesstimations_unread_stand_input_is_drawn_with_nothing_to_wire() -> None:
    """R1020: Guesstimation reads no stand input, but each seat still names a free GPIO."""
    svg = render_svg(load_config(ROOT / "config" / "six-seats.toml"), "six-seats.toml")
    assert pin_texts(svg, 8)[-2:] == [
        "seats.E.stand.pin: seat E's stand input, not read by this game",
        "wire nothing: the pull to 3V3 keeps it idle",
    ]


def test_a_table_name_with_markup_characters_stays_one_svg_document(tmp_path: Path) -> None:
    svg = diagram_of(tmp_path, '[table]\nname = "<A & B> \\"1\\""\n')
    root = ET.fromstring(svg)
    assert any(text.text == '<A & B> "1": wiring (geoplunge)' for text in root.iter(f"{SVG}text"))


# the command


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_writes_the_svg_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table.svg"
    assert run(capsys, "config", "wiring", EXAMPLES[-1], "-o", out) == (0, f"wrote {out}\n", "")
    assert used_pins(out.read_text(encoding="utf-8"))


def test_without_o_the_svg_goes_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "config", "wiring", EXAMPLES[-1])
    assert (code, err) == (0, "")
    assert out == render_svg(load_config(EXAMPLES[-1]), str(EXAMPLES[-1]))


@pytest.mark.parametrize(
    "toml",
    ["[seats.A]\nstand = { pin = 5 }\n", "[oled]\ndrivr = 1\n", "[table\n", "[seats.A]\nled = 2\n"],
    ids=["missing-key", "unknown-key", "bad-toml", "pin-used-twice"],
)
def test_a_refused_config_is_refused_as_config_check_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], toml: str
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(toml, encoding="utf-8")
    out = tmp_path / "table.svg"
    checked = run(capsys, "config", "check", config)
    drawn = run(capsys, "config", "wiring", config, "-o", out)
    assert drawn == checked
    code, stdout, stderr = drawn
    assert (code, stdout, stderr.count("\n")) == (2, "", 1)
    assert stderr.startswith(f"gametable: error: {config}: ")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["table.toml"]


def test_a_refused_config_leaves_the_diagram_there_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[oled]\ndrivr = 1\n", encoding="utf-8")
    out = tmp_path / "table.svg"
    out.write_text("the old diagram", encoding="utf-8")
    assert run(capsys, "config", "wiring", config, "-o", out)[0] == 2
    assert out.read_text(encoding="utf-8") == "the old diagram"


def test_o_a_directory_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "config", "wiring", EXAMPLES[-1], "-o", tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        f"gametable: error: {tmp_path} is a directory: expected a regular file (or nothing) "
        "to write the wiring diagram to\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_o_in_a_directory_that_is_not_there_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "missing" / "table.svg"
    code, stdout, err = run(capsys, "config", "wiring", EXAMPLES[-1], "-o", out)
    assert (code, stdout) == (2, "")
    assert err == f"gametable: error: cannot write {out}: No such file or directory\n"
    assert list(tmp_path.iterdir()) == []


def test_o_under_a_file_is_one_line_and_leaves_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine", encoding="utf-8")
    out = blocker / "table.svg"
    code, _, err = run(capsys, "config", "wiring", EXAMPLES[-1], "-o", out)
    assert (code, err) == (2, f"gametable: error: cannot use {out}: Not a directory\n")
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]
    assert blocker.read_text(encoding="utf-8") == "mine"


def test_a_diagram_there_is_replaced_whole_with_no_file_left_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table.svg"
    out.write_text("the old diagram", encoding="utf-8")
    assert run(capsys, "config", "wiring", EXAMPLES[-1], "-o", out)[0] == 0
    assert out.read_text(encoding="utf-8") == render_svg(
        load_config(EXAMPLES[-1]), str(EXAMPLES[-1])
    )
    assert [path.name for path in tmp_path.iterdir()] == ["table.svg"]


def test_o_a_symbolic_link_is_refused_and_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "elsewhere.svg"
    target.write_text("kept", encoding="utf-8")
    link = tmp_path / "table.svg"
    link.symlink_to(target)
    code, _, err = run(capsys, "config", "wiring", EXAMPLES[-1], "-o", link)
    assert code == 2
    assert err.startswith(f"gametable: error: {link} is a symbolic link: expected a regular file")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "kept"
