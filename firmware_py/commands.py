"""The table's commands: ``sim``, ``run``, ``config check`` and ``selftest``.

Each returns the process exit status; a problem with the config or the hardware is one line
on stderr (exit 2 for bad input, 1 for hardware that cannot be opened), never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path

from drivers.oled import Oled, OledError, open_oled
from drivers.pins import PinFactoryError, make_pin_factory
from drivers.scoreboard import Scoreboard, ScoreboardError
from firmware_py.config import Config, ConfigError, default_config, load_config
from firmware_py.daemon import TableDaemon
from firmware_py.headless import ScriptError, run_script
from firmware_py.notify import Notifier
from firmware_py.wiring import input_specs, led_pins, oled_spec, table_settings

BAD_INPUT, HARDWARE = 2, 1


def _fail(message: str, code: int) -> int:
    print(f"gametable: error: {message}", file=sys.stderr)
    return code


def _config(path: Path | None) -> Config:
    return default_config() if path is None else load_config(path)


def sim(*, config_path: Path | None, script: Path | None, game: int | None, headless: bool) -> int:
    try:
        config = _config(config_path)
        settings = table_settings(config, game=game)
    except ConfigError as error:
        return _fail(str(error), BAD_INPUT)
    if headless or script is not None:
        if script is None:
            return _fail("--headless needs --script FILE.jsonl", BAD_INPUT)
        try:
            lines = script.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            return _fail(f"cannot read {script}: {error}", BAD_INPUT)
        try:
            run_script(lines, settings, lambda event: print(json.dumps(event), flush=True))
        except ScriptError as error:
            return _fail(f"{script}: {error}", BAD_INPUT)
        return 0
    from firmware_py.sim import run_sim

    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return _fail(
            "gametable sim needs a terminal; without one use --headless --script FILE", BAD_INPUT
        )
    return asyncio.run(run_sim(settings))


def setup_logging(level: str) -> None:
    # stdout goes to journald under systemd, which adds the time and the unit itself.
    logging.basicConfig(stream=sys.stdout, level=level, format="%(levelname)s %(message)s")


def run(*, config_path: Path, game: int | None) -> int:
    try:
        config = load_config(config_path)
        settings = table_settings(config, game=game)
        specs = input_specs(config)
    except ConfigError as error:
        return _fail(str(error), BAD_INPUT)
    setup_logging(config.log.level)
    oled: Oled | None = None
    board: Scoreboard | None = None
    try:
        factory = make_pin_factory(config.gpio.pin_factory)
        if config.oled.enabled:
            oled = Oled(device=open_oled(oled_spec(config)))
        if config.scoreboard.enabled:
            board = Scoreboard(url=config.scoreboard.url, baudrate=config.scoreboard.baudrate)
    except (PinFactoryError, OledError, ScoreboardError) as error:
        if oled is not None:
            oled.close()
        return _fail(str(error), HARDWARE)
    daemon = TableDaemon(
        settings=settings,
        factory=factory,
        input_specs=specs,
        led_pins=led_pins(config),
        oled=oled,
        scoreboard=board,
        notifier=Notifier.from_environ(),
    )
    return asyncio.run(daemon.run())


def selftest(*, config_path: Path | None, seconds: float) -> int:
    from firmware_py.selftest import selftest as run_selftest

    try:
        config = _config(config_path)
        specs = input_specs(config)
        factory = make_pin_factory(config.gpio.pin_factory)
        oled = Oled(device=open_oled(oled_spec(config))) if config.oled.enabled else None
    except ConfigError as error:
        return _fail(str(error), BAD_INPUT)
    except (PinFactoryError, OledError) as error:
        return _fail(str(error), HARDWARE)
    try:
        return asyncio.run(
            run_selftest(
                factory=factory, specs=specs, led_pins=led_pins(config), oled=oled, seconds=seconds
            )
        )
    except KeyboardInterrupt:
        return 1
    finally:
        if oled is not None:
            oled.close()
