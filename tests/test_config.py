"""The table's TOML: every key validated, unknown keys rejected, each error one line naming the
full key path and what was expected."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from firmware_py.table.config import (
    Config,
    ConfigError,
    GpioConfig,
    InputConfig,
    check_config_main,
    default_config,
    describe,
    load_config,
    parse_config,
)

SHIPPED = Path(__file__).resolve().parent.parent / "config" / "table.toml"

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


def parse(text: str) -> Config:
    return parse_config(tomllib.loads(text))


def error(text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        parse(text)
    message = str(caught.value)
    assert "\n" not in message
    return message


def seat(name: str, stand: int, shout: int, led: int) -> str:
    return (
        f"[seats.{name}]\nstand = {{ pin = {stand} }}\nshout = {{ pin = {shout} }}\nled = {led}\n"
    )


# defaults and the shipped file


def test_an_empty_file_gives_the_defaults() -> None:
    assert parse("") == default_config()


def test_a_missing_seats_section_gives_seats_a_and_b() -> None:
    seats = parse("").seats
    assert [s.name for s in seats] == ["A", "B"]
    assert (seats[0].stand.pin, seats[0].shout.pin, seats[0].led) == (5, 6, 13)
    assert (seats[1].stand.pin, seats[1].shout.pin, seats[1].led) == (19, 26, 12)


def test_defaults_match_the_documented_values() -> None:
    config = default_config()
    assert config.table.name == "Table 1"
    assert config.table.on_time_up == "abandon"
    assert config.gpio.pin_factory is None
    assert config.timing.tie_window_ms == 15.0
    assert config.console.next.pin == 25
    assert (config.oled.driver, config.oled.interface, config.oled.address) == (
        "ssd1306",
        "i2c",
        60,
    )
    assert config.scoreboard.url == "/dev/ttyUSB0"
    assert config.log.level == "INFO"


def test_the_shipped_file_equals_the_defaults_except_the_pin_factory() -> None:
    # Documented in the file: pin_factory defaults to GPIOZERO_PIN_FACTORY; a Pi wants lgpio.
    expected = dataclasses.replace(default_config(), gpio=GpioConfig(pin_factory="lgpio"))
    assert load_config(SHIPPED) == expected


def test_the_shipped_file_comments_every_key() -> None:
    for line in SHIPPED.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            assert "#" in line, line


def test_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        default_config().table.round = 2  # type: ignore[misc]


# unknown keys, at every level


def test_unknown_section_is_named() -> None:
    assert error("[olde]\n") == (
        "olde: unknown section "
        "(expected one of table, pentathlon, guesstimation, states, gpio, timing, seats, console, "
        "oled, scoreboard, log, hub, web)"
    )


def test_unknown_key_in_a_section_lists_the_known_ones() -> None:
    assert error('[oled]\ndrivr = "sh1106"\n') == (
        "oled.drivr: unknown key (expected one of enabled, driver, interface, port, address, "
        "spi_device, dc_pin, reset_pin, rotate, width, height)"
    )


def test_unknown_key_in_an_input_is_named() -> None:
    assert error("[console]\ngo = { pin = 27, pullup = false }\n") == (
        "console.go.pullup: unknown key (expected one of pin, pull_up, active_high)"
    )


def test_unknown_key_in_a_seat_is_named() -> None:
    text = TWO_SEATS.replace("led = 12", "led = 12\nbuzzer = 4")
    assert error(text) == "seats.B.buzzer: unknown key (expected one of stand, shout, led)"


def test_unknown_console_button_is_named() -> None:
    assert error("[console]\nstop = { pin = 4 }\n").startswith(
        "console.stop: unknown button (expected one of count, go, yes, no, undo, next)"
    )


def test_a_typo_of_a_required_key_is_reported_as_the_typo() -> None:
    text = TWO_SEATS.replace("stand = { pin = 5 }", "stand = { pn = 5 }")
    assert error(text) == "seats.A.stand.pn: unknown key (did you mean pin?)"


def test_a_missing_required_key_says_what_it_needs() -> None:
    text = TWO_SEATS.replace("led = 12", "")
    assert error(text) == (
        'seats.B.led: missing (expected a GPIO number 0-27 or a name like "GPIO17" or "BOARD11")'
    )


# types and ranges


def test_a_section_must_be_a_table() -> None:
    assert error("oled = 5\n") == "oled: expected a table, got 5"


def test_an_input_must_be_a_table() -> None:
    assert error("[console]\ngo = 27\n") == (
        "console.go: expected a table like { pin = 5, pull_up = true }, got 27"
    )


def test_a_string_is_not_an_integer() -> None:
    assert error('[table]\nmatch_minutes = "20"\n') == (
        'table.match_minutes: expected an integer from 1 to 120, got "20"'
    )


def test_a_boolean_is_not_an_integer() -> None:
    assert error("[table]\nround = true\n") == (
        "table.round: expected an integer from 1 to 99, got true"
    )


def test_a_fraction_is_not_an_integer() -> None:
    assert error("[table]\nmatch_minutes = 20.5\n") == (
        "table.match_minutes: expected an integer from 1 to 120, got 20.5"
    )


def test_match_minutes_above_the_range_is_rejected() -> None:
    assert error("[table]\nmatch_minutes = 121\n").startswith("table.match_minutes: expected")


def test_an_integer_is_accepted_where_a_number_is_expected() -> None:
    assert parse("[timing]\ntie_window_ms = 20\n").timing.tie_window_ms == 20.0


def test_tie_window_below_the_range_is_rejected() -> None:
    assert error("[timing]\ntie_window_ms = 0\n") == (
        "timing.tie_window_ms: expected a number from 1 to 500, got 0"
    )


def test_range_ends_are_inclusive() -> None:
    timing = parse("[timing]\ndebounce_ms = 0\nsettle_ms = 1000\ncount_cadence_s = 0.2\n").timing
    assert (timing.debounce_ms, timing.settle_ms, timing.count_cadence_s) == (0.0, 1000.0, 0.2)


def test_count_cadence_has_a_fractional_lower_bound() -> None:
    assert error("[timing]\ncount_cadence_s = 0.1\n") == (
        "timing.count_cadence_s: expected a number from 0.2 to 5, got 0.1"
    )


def test_nan_is_rejected() -> None:
    assert error("[timing]\nchummy_seconds = nan\n") == (
        "timing.chummy_seconds: expected a number from 1 to 120, got nan"
    )


def test_a_number_is_not_a_boolean() -> None:
    assert error("[oled]\nenabled = 1\n") == "oled.enabled: expected true or false, got 1"


def test_an_unknown_choice_lists_the_choices() -> None:
    assert error('[table]\non_time_up = "stop"\n') == (
        'table.on_time_up: expected one of "abandon", "finish", "tie", got "stop"'
    )


def test_log_level_is_case_sensitive() -> None:
    assert error('[log]\nlevel = "info"\n') == (
        'log.level: expected one of "DEBUG", "INFO", "WARNING", "ERROR", got "info"'
    )


def test_pin_factory_is_one_of_the_known_factories() -> None:
    assert parse('[gpio]\npin_factory = "mock"\n').gpio.pin_factory == "mock"
    assert error('[gpio]\npin_factory = "pigpio"\n') == (
        'gpio.pin_factory: expected one of "lgpio", "rpigpio", "mock", got "pigpio"'
    )


def test_a_fractional_baud_rate_is_rejected() -> None:
    assert error("[scoreboard]\nbaudrate = 9600.0\n").startswith(
        "scoreboard.baudrate: expected one of 1200, 2400, 4800, 9600,"
    )


def test_an_empty_table_name_is_rejected() -> None:
    assert error('[table]\nname = ""\n') == (
        'table.name: expected a non-empty string of at most 32 characters on one line, got ""'
    )


def test_a_table_name_on_two_lines_is_rejected() -> None:
    assert error('[table]\nname = "Table\\n1"\n').startswith("table.name: expected")


def test_a_table_name_with_an_unprintable_character_names_it() -> None:
    assert "(U+200D ZERO WIDTH JOINER is not printable)" in error(
        '[table]\nname = "Table\\u200d1"\n'
    )


def test_a_toml_date_is_shown_as_a_date() -> None:
    assert error("[table]\nname = 2024-05-01\n").endswith("got a date/time")


# pins


def test_a_pin_that_is_not_a_gpio_is_rejected_with_the_accepted_forms() -> None:
    text = TWO_SEATS.replace("shout = { pin = 6 }", 'shout = { pin = "x" }')
    assert error(text) == (
        'seats.A.shout.pin: expected a GPIO number 0-27 or a name like "GPIO17" or "BOARD11", '
        'got "x"'
    )


def test_gpio_28_is_out_of_range() -> None:
    assert error("[console]\ngo = { pin = 28 }\n").endswith("got 28")


@pytest.mark.parametrize("name", ["GPIO17", "BCM17", "BOARD11", "J8:11"])
def test_pin_names_resolve_to_the_bcm_number(name: str) -> None:
    text = f'[console]\ncount = {{ pin = "{name}" }}\n'
    assert parse(text).console.count.pin == 17


def test_a_board_pin_that_is_ground_says_so() -> None:
    assert error('[console]\ngo = { pin = "BOARD6" }\n').endswith('got "BOARD6" (a ground pin)')


def test_an_input_defaults_to_pull_up_and_active_low() -> None:
    assert parse("[console]\ngo = { pin = 27 }\n").console.go == InputConfig(
        pin=27, pull_up=True, active_high=False
    )


def test_a_pulled_down_input_is_active_high() -> None:
    go = parse("[console]\ngo = { pin = 27, pull_up = false }\n").console.go
    assert (go.pull_up, go.active_high) == (False, True)


def test_active_high_against_the_pull_is_refused_naming_the_key() -> None:
    # gpiozero ties the active level to the pull resistor: a pulled-up switch is active low
    with pytest.raises(ConfigError, match=r"^console\.go\.active_high: expected false"):
        parse("[console]\ngo = { pin = 27, pull_up = true, active_high = true }\n")


def test_a_pin_used_twice_names_both_keys() -> None:
    text = TWO_SEATS.replace("led = 12", "led = 17")
    assert error(text) == "console.count.pin: GPIO17 is already used by seats.B.led"


def test_a_pin_used_twice_under_two_names_is_caught() -> None:
    text = '[console]\ngo = { pin = "BOARD11" }\n'  # BOARD11 is GPIO17, the default count
    assert error(text) == "console.go.pin: GPIO17 is already used by console.count.pin"


def test_the_i2c_oled_reserves_gpio2_and_gpio3() -> None:
    text = TWO_SEATS.replace("led = 12", "led = 2")
    assert error(text) == "seats.B.led: GPIO2 is already used by oled.interface (I2C1 SDA)"


def test_a_disabled_oled_frees_its_bus_pins() -> None:
    text = TWO_SEATS.replace("led = 12", "led = 2") + "[oled]\nenabled = false\n"
    assert parse(text).seats[1].led == 2


def test_the_spi_oled_claims_its_data_command_pin() -> None:
    assert error('[oled]\ninterface = "spi"\n') == (
        "console.undo.pin: GPIO24 is already used by oled.dc_pin"
    )


def test_the_spi_oled_defaults_to_bus_0() -> None:
    text = '[oled]\ninterface = "spi"\ndc_pin = 16\nreset_pin = 20\n'
    assert parse(text).oled.port == 0


def test_the_spi_oled_reserves_its_chip_select() -> None:
    text = '[oled]\ninterface = "spi"\ndc_pin = 16\nreset_pin = 20\n[console]\ngo = { pin = 8 }\n'
    assert error(text) == "console.go.pin: GPIO8 is already used by oled.spi_device (SPI0 CE0)"


def test_a_scoreboard_on_the_pi_uart_reserves_gpio14_and_gpio15() -> None:
    text = TWO_SEATS.replace("led = 12", "led = 14") + '[scoreboard]\nurl = "/dev/serial0"\n'
    assert error(text) == "seats.B.led: GPIO14 is already used by scoreboard.url (UART TXD)"


# seats


def test_one_seat_is_not_enough() -> None:
    assert error(seat("A", 5, 6, 13)) == (
        "seats: expected 2 to 6 seats named A, B in that order, got A"
    )


def test_seats_must_be_named_in_order() -> None:
    text = seat("B", 19, 26, 12) + seat("A", 5, 6, 13)
    assert error(text) == "seats: expected 2 to 6 seats named A, B in that order, got B, A"


def test_seats_must_not_skip_a_letter() -> None:
    text = seat("A", 5, 6, 13) + seat("C", 19, 26, 12)
    assert error(text) == "seats: expected 2 to 6 seats named A, B in that order, got A, C"


def test_a_seventh_seat_is_an_unknown_seat() -> None:
    assert error(TWO_SEATS + seat("G", 4, 16, 20)) == (
        "seats.G: unknown seat (expected one of A, B, C, D, E, F)"
    )


def test_seat_names_are_upper_case() -> None:
    assert error(seat("a", 5, 6, 13)).startswith("seats.a: unknown seat")


def test_a_seat_name_is_one_letter() -> None:
    assert error(seat("AB", 5, 6, 13)).startswith("seats.AB: unknown seat")


def test_an_empty_seats_section_is_rejected() -> None:
    assert error("[seats]\n") == "seats: expected 2 to 6 seats named A, B in that order, got none"


def test_six_seats_are_accepted() -> None:
    pins = [(5, 6, 13), (19, 26, 12), (4, 16, 18), (20, 21, 14), (15, 0, 1), (7, 8, 9)]
    text = "".join(seat(n, *p) for n, p in zip("ABCDEF", pins, strict=True))
    assert [s.name for s in parse(text).seats] == list("ABCDEF")


def test_writing_seats_replaces_the_defaults() -> None:
    text = seat("A", 4, 16, 18) + seat("B", 20, 21, 14)
    assert [s.stand.pin for s in parse(text).seats] == [4, 20]


# the OLED


def test_the_i2c_address_may_be_written_in_hex() -> None:
    assert parse("[oled]\naddress = 0x3D\n").oled.address == 0x3D


def test_a_quoted_i2c_address_is_rejected() -> None:
    assert error('[oled]\naddress = "0x3C"\n') == (
        "oled.address: expected the display's I2C address, 0x3C or 0x3D, written as a TOML "
        'integer, got "0x3C"'
    )


@pytest.mark.parametrize("address", ["0x80", "0x08", "0x3E", "60.0", "true"])
def test_the_oled_answers_only_at_0x3c_or_0x3d(address: str) -> None:
    assert error(f"[oled]\naddress = {address}\n").startswith(
        "oled.address: expected the display's I2C address, 0x3C or 0x3D"
    )


def test_rotate_is_a_quarter_turn_count() -> None:
    assert error("[oled]\nrotate = 4\n") == "oled.rotate: expected an integer from 0 to 3, got 4"


def test_the_panel_size_must_suit_the_driver() -> None:
    assert error("[oled]\nwidth = 96\nheight = 32\n") == (
        "oled.width, oled.height: expected a size the ssd1306 supports "
        "(128x64, 128x32, 96x16, 64x48, 64x32), got 96x32"
    )


# files and the check command


def test_a_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    with pytest.raises(ConfigError, match=r"cannot read \S*table\.toml: No such file or directory"):
        load_config(path)


def test_a_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nname = "Table 1"\nround =\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: not valid TOML: ")
    assert "line 3" in str(caught.value)


def test_a_file_that_is_not_utf8_is_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes(b'[table]\nname = "\xff"\n')
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_a_file_error_starts_with_the_path_and_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text("[timing]\ntie_window_ms = 0\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert (
        str(caught.value) == f"{path}: timing.tie_window_ms: expected a number from 1 to 500, got 0"
    )


def test_check_prints_a_summary_and_returns_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_config_main(SHIPPED) == 0
    out, err = capsys.readouterr()
    assert out == f"{SHIPPED}: ok (2 seats, oled ssd1306 on i2c 0x3C, scoreboard /dev/ttyUSB0)\n"
    assert err == ""


def test_check_prints_one_error_line_and_returns_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.toml"
    path.write_text("[oled]\ndrivr = 1\n", encoding="utf-8")
    assert check_config_main(path) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"gametable: error: {path}: oled.drivr: unknown key")


def test_the_summary_names_an_spi_oled_and_what_is_off() -> None:
    text = '[oled]\ninterface = "spi"\ndc_pin = 16\nreset_pin = 20\n[scoreboard]\nenabled = false\n'
    assert describe(parse(text)) == "2 seats, oled ssd1306 on spi 0.0, scoreboard off"
    assert describe(parse("[oled]\nenabled = false\n")).startswith("2 seats, oled off,")


def test_settle_is_the_pin_factorys_own_unless_configured() -> None:
    from firmware_py.table.wiring import settle_seconds

    assert parse("[timing]\n").timing.settle_ms is None
    assert settle_seconds(parse('[gpio]\npin_factory = "lgpio"\n')) == 0.006
    assert settle_seconds(parse('[gpio]\npin_factory = "rpigpio"\n')) == 0.030
    configured = parse('[gpio]\npin_factory = "rpigpio"\n[timing]\nsettle_ms = 50\n')
    assert settle_seconds(configured) == 0.050


def test_a_config_nested_too_deeply_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("[a]\nb = " + "[" * 5000 + "1" + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match="nested too deeply"):
        load_config(path)


# the GeoPlunge format and the rounds it has


def test_format_defaults_to_combo4_with_round_and_length_from_the_format() -> None:
    table = parse("").table
    assert (table.format, table.round, table.match_minutes) == ("combo4", None, None)


def test_an_unknown_format_is_named() -> None:
    assert error('[table]\nformat = "combo5"\n') == (
        'table.format: expected one of "combo4", "combo3", "championship", got "combo5"'
    )


def test_a_combo3_round_is_1_to_8() -> None:
    assert parse('[table]\nformat = "combo3"\nround = 8\n').table.round == 8
    assert error('[table]\nformat = "combo3"\nround = 9\n') == (
        "table.round: expected an integer from 1 to 8 (Combo 3 has 8 rounds), got 9"
    )


def test_the_config_knows_the_rounds_each_format_has() -> None:
    from firmware_py.table.config import FORMAT_ROUNDS
    from rules.geoplunge import match, match3

    assert FORMAT_ROUNDS == {"combo4": match.ROUNDS, "combo3": match3.ROUNDS}


def test_the_config_knows_the_longest_match() -> None:
    assert error("[table]\nmatch_minutes = 121\n") == (
        "table.match_minutes: expected an integer from 1 to 120, got 121"
    )
    from rules.geoplunge.match import LONGEST_MATCH_MINUTES

    assert LONGEST_MATCH_MINUTES == 120


def test_the_championship_takes_no_round() -> None:
    assert error('[table]\nformat = "championship"\nround = 1\n') == (
        'table.round: expected none with format = "championship" (it has no rounds), got 1'
    )


def test_the_championship_takes_no_match_length() -> None:
    assert error('[table]\nformat = "championship"\nmatch_minutes = 20\n') == (
        'table.match_minutes: expected none with format = "championship" (it has no clock), got 20'
    )


# ruling R68: Level 3 Play the Ranks ends at 6 tricks won unless the tournament plays all 8


def test_ptr_early_end_defaults_to_true_and_reaches_the_start_action() -> None:
    from firmware_py.families.geoplunge.options import parse_options
    from firmware_py.families.geoplunge.sessions import first_action
    from firmware_py.table.wiring import table_settings
    from rules.geoplunge.match3 import StartMatch3

    assert parse("").table.ptr_early_end is True
    config = parse('[table]\nformat = "combo3"\nptr_early_end = false\n')
    start = first_action(parse_options(table_settings(config).options))
    assert isinstance(start, StartMatch3)
    assert start.ptr_early_end is False


def test_ptr_early_end_must_be_true_or_false() -> None:
    assert error('[table]\nptr_early_end = "no"\n') == (
        'table.ptr_early_end: expected true or false, got "no"'
    )


# [hub]: the tournament hub (docs/hub.md)

HUB = '[hub]\nenabled = true\nhost = "hub.local"\ntable = 7\n'


def test_the_hub_is_off_by_default_and_then_needs_nothing() -> None:
    hub = parse("").hub
    assert (hub.enabled, hub.host, hub.table) == (False, None, None)


def test_a_table_on_the_hub_is_known_by_its_number() -> None:
    hub = parse(HUB).hub
    assert (hub.host, hub.port, hub.table, hub.username) == ("hub.local", 1883, 7, "7")
    assert hub.password_file == "/etc/gametable/hub-password"


def test_a_table_on_the_hub_needs_the_broker() -> None:
    assert error("[hub]\nenabled = true\ntable = 7\n") == (
        "hub.host: missing (expected the broker's host name or IP address)"
    )


def test_a_table_on_the_hub_needs_its_number() -> None:
    assert error('[hub]\nenabled = true\nhost = "hub.local"\n') == (
        "hub.table: missing (expected this table's number in the tournament, 1 to 999)"
    )


@pytest.mark.parametrize("table", ["0", "1000", "true", '"7"'])
def test_a_table_number_is_1_to_999(table: str) -> None:
    assert error(f'[hub]\nenabled = true\nhost = "h"\ntable = {table}\n').startswith(
        "hub.table: expected this table's number in the tournament, 1 to 999, got "
    )


def test_a_user_name_other_than_the_table_number_is_refused_saying_why() -> None:
    assert error(HUB + 'username = "table7"\n') == (
        'hub.username: expected "7" (the broker lets a table write only under '
        'tables/<its user name>/), got "table7"'
    )


def test_the_broker_is_a_host_name_or_an_address() -> None:
    assert error('[hub]\nhost = "hub local"\n') == (
        'hub.host: expected the broker\'s host name or IP address, got "hub local"'
    )


def test_the_hub_password_file_is_an_absolute_path() -> None:
    assert error(HUB + 'password_file = "hub-password"\n') == (
        'hub.password_file: expected an absolute path, got "hub-password"'
    )


def test_tls_is_a_ca_file_to_trust() -> None:
    assert parse(HUB + 'ca_file = "/etc/gametable/ca.pem"\n').hub.ca_file == "/etc/gametable/ca.pem"


def test_the_summary_names_the_hub() -> None:
    assert describe(parse(HUB)).endswith(", hub hub.local:1883 as table 7")


# --- [web]: the table's own page -------------------------------------------------------------


def test_the_web_page_is_off_by_default_and_would_listen_on_this_machine_only() -> None:
    web = default_config().web
    assert (web.enabled, web.listen, web.port) == (False, "127.0.0.1", 8080)


def test_the_web_page_is_turned_on_with_where_it_listens() -> None:
    web = parse('[web]\nenabled = true\nlisten = "0.0.0.0"\nport = 8000\n').web
    assert (web.enabled, web.listen, web.port) == (True, "0.0.0.0", 8000)
    assert describe(parse("[web]\nenabled = true\n")).endswith(", web page on 127.0.0.1:8080")


def test_the_web_page_s_names_are_host_names_in_lower_case() -> None:
    """R769: the names the page is opened by, besides its address and the Pi's own."""
    assert parse('[web]\nnames = ["Table7.Example.", "scores"]\n').web.names == (
        "table7.example",
        "scores",
    )


def test_an_ipv6_address_is_written_back_in_its_short_form() -> None:
    assert parse('[web]\nlisten = "::0001"\n').web.listen == "::1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('listen = "localhost"', "web.listen: expected an IP address like 127.0.0.1 (this machine"),
        ("listen = 127", "web.listen: expected an IP address"),
        ("port = 0", "web.port: expected an integer from 1 to 65535, got 0"),
        ('port = "80"', 'web.port: expected an integer from 1 to 65535, got "80"'),
        ('enabled = "yes"', 'web.enabled: expected true or false, got "yes"'),
        ("addr = 1", "web.addr: unknown key (expected one of"),
        ('names = "t7.local"', 'web.names: expected an array of host names, like ["table7.local"]'),
        ('names = ["http://t7.local"]', "web.names: 'http://t7.local': expected a host name"),
        ('names = ["t7.local:8080"]', "web.names: 't7.local:8080': expected a host name"),
    ],
)
def test_a_bad_web_key_is_one_line_naming_it(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse(f"[web]\n{text}\n")
    assert str(raised.value).startswith(message)


def test_an_unknown_timing_key_lists_settle_ms_among_the_keys() -> None:
    assert "settle_ms" in error("[timing]\nsettle = 6\n")
