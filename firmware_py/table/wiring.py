"""From the table's config to what the controller and the drivers take."""

from __future__ import annotations

from drivers.display import OledSpec
from drivers.inputs import InputSpec
from drivers.pins import SETTLE_MS, factory_name
from firmware_py.table.config import Config, InputConfig
from firmware_py.table.controller import CONSOLE, TableSettings


def table_settings(
    config: Config,
    *,
    game: int | None = None,
    table_format: str | None = None,
    first_round: int | None = None,
) -> TableSettings:
    """``table_format`` and ``first_round`` (``gametable sim --format --round``) override the
    config's; the family checks the options (``FamilyOptionsError``)."""
    timing = config.timing
    table = config.table
    form = table_format or table.format
    # another format's round and clock do not carry over: the championship has neither
    carried = form == table.format
    return TableSettings(
        seats=tuple(seat.name for seat in config.seats),
        tie_window=timing.tie_window_ms / 1000,
        settle=settle_seconds(config),
        debounce=timing.debounce_ms / 1000,
        count_cadence=timing.count_cadence_s,
        family="geoplunge",
        options={
            "format": form,
            "round": first_round if first_round is not None else table.round if carried else None,
            "minutes": table.match_minutes if carried else None,
            "on_time_up": table.on_time_up,
            "game": game,
            "chummy_seconds": timing.chummy_seconds,
            "ptr_early_end": table.ptr_early_end,
        },
    )


def settle_seconds(config: Config) -> float:
    """The configured settle, else the pin factory's own (lgpio's when none is named yet)."""
    if config.timing.settle_ms is not None:
        return config.timing.settle_ms / 1000
    name = factory_name(config.gpio.pin_factory)
    return SETTLE_MS.get(name or "lgpio", SETTLE_MS["lgpio"]) / 1000


def _spec(name: str, wired: InputConfig) -> InputSpec:
    # the config has checked that the active level is the one the pull resistor gives
    return InputSpec(name=name, pin=wired.pin, pull_up=wired.pull_up)


def input_specs(config: Config) -> list[InputSpec]:
    specs = []
    for seat in config.seats:
        specs.append(_spec(f"{seat.name}.stand", seat.stand))
        specs.append(_spec(f"{seat.name}.shout", seat.shout))
    for button in CONSOLE:
        wired: InputConfig = getattr(config.console, button)
        specs.append(_spec(f"console.{button}", wired))
    return specs


def led_pins(config: Config) -> dict[str, int | str]:
    return {seat.name: seat.led for seat in config.seats}


def oled_spec(config: Config) -> OledSpec:
    oled = config.oled
    return OledSpec(
        driver=oled.driver,
        interface=oled.interface,
        port=oled.port,
        address=oled.address,
        spi_device=oled.spi_device,
        rotate=oled.rotate,
        width=oled.width,
        height=oled.height,
    )
