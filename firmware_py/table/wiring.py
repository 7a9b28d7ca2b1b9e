"""From the table's config to what the controller and the drivers take."""

from __future__ import annotations

from typing import Any

from drivers.display import OledSpec
from drivers.inputs import InputSpec
from drivers.pins import SETTLE_MS, factory_name
from firmware_py.table.config import (
    Config,
    GuesstimationConfig,
    InputConfig,
    PentathlonConfig,
    StatesConfig,
)
from firmware_py.table.controller import CONSOLE, TableSettings


def table_settings(
    config: Config,
    *,
    game: int | str | None = None,
    table_format: str | None = None,
    first_round: int | None = None,
    family: str | None = None,
) -> TableSettings:
    """``family``, ``game``, ``table_format`` and ``first_round`` (``gametable sim --family
    --game --format --round``) override the config's; the family checks the options
    (``FamilyOptionsError``). Another family's options do not carry over: a table switched to
    another family than the config's takes that family's defaults."""
    timing = config.timing
    name = family or config.table.family
    carried = name == config.table.family
    if name == "geoplunge":
        options = _geoplunge_options(config, game, table_format, first_round, carried=carried)
    elif name in ("guesstimation", "states"):
        if name == "guesstimation":
            options = _guesstimation_options(config, carried=carried)
        else:
            options = _states_options(config, carried=carried)
        # the other families' flags given to a family without them: it refuses them by name
        flags = {"game": game, "format": table_format, "round": first_round}
        options.update({key: value for key, value in flags.items() if value is not None})
    else:
        options = _pentathlon_options(config, game, carried=carried)
        # GeoPlunge's flags given to another family: it refuses them by name
        flags = {"format": table_format, "round": first_round}
        options.update({key: value for key, value in flags.items() if value is not None})
    return TableSettings(
        seats=tuple(seat.name for seat in config.seats),
        tie_window=timing.tie_window_ms / 1000,
        settle=settle_seconds(config),
        debounce=timing.debounce_ms / 1000,
        count_cadence=timing.count_cadence_s,
        family=name,
        options=options,
    )


def _geoplunge_options(
    config: Config,
    game: int | str | None,
    table_format: str | None,
    first_round: int | None,
    *,
    carried: bool,
) -> dict[str, Any]:
    table = config.table
    form = table_format or table.format
    # another format's round and clock do not carry over: the championship has neither
    carried = carried and form == table.format
    return {
        "format": form,
        "round": first_round if first_round is not None else table.round if carried else None,
        "minutes": table.match_minutes if carried else None,
        "on_time_up": table.on_time_up,
        "game": game,
        "chummy_seconds": config.timing.chummy_seconds,
        "ptr_early_end": table.ptr_early_end,
    }


def _pentathlon_options(config: Config, game: int | str | None, *, carried: bool) -> dict[str, Any]:
    """The [pentathlon] section's keys that were given; the family fills in the rest."""
    section = config.pentathlon if carried else PentathlonConfig()
    given: dict[str, Any] = {
        "game": game if game is not None else section.game,
        "minutes": dict(section.minutes),
        "chips": section.chips,
        "partitions": list(section.partitions) if section.partitions else None,
        "turn_seconds": section.turn_seconds,
        "capture_seconds": section.capture_seconds,
    }
    return {key: value for key, value in given.items() if value is not None}


def _guesstimation_options(config: Config, *, carried: bool) -> dict[str, Any]:
    """The [guesstimation] section's keys that were given; the family fills in the rest."""
    section = config.guesstimation if carried else GuesstimationConfig()
    given: dict[str, Any] = {
        "deck": section.deck,
        "finish": section.finish,
        "players": list(section.players) if section.players is not None else None,
        "seed": section.seed,
    }
    return {key: value for key, value in given.items() if value is not None}


def _states_options(config: Config, *, carried: bool) -> dict[str, Any]:
    """The [states] section's keys that were given; the family fills in the rest."""
    section = config.states if carried else StatesConfig()
    given: dict[str, Any] = {
        "players": list(section.players) if section.players is not None else None,
        "teams": section.teams,
        "scoring": section.scoring,
        "knocking": section.knocking,
        "connect": section.connect,
        "target": section.target,
        "deck": section.deck,
    }
    return {key: value for key, value in given.items() if value is not None}


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
