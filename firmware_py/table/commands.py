"""The table's commands: ``sim``, ``run``, ``config check`` and ``selftest``.

Each returns the process exit status; a problem with the config or the hardware is one line
on stderr (exit 2 for bad input, 1 for hardware that cannot be opened), never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from drivers.display import OledError
from drivers.pins import PinFactoryError, make_pin_factory
from drivers.scoreboard import Scoreboard, ScoreboardError
from firmware_py.table.config import Config, ConfigError, default_config, load_config
from firmware_py.table.controller import TableSettings
from firmware_py.table.daemon import TableDaemon, main_task_guard
from firmware_py.table.family import FamilyOptionsError, family
from firmware_py.table.headless import ScriptError, run_script
from firmware_py.table.journal import Journal, JournalError
from firmware_py.table.notify import Notifier
from firmware_py.table.wiring import input_specs, led_pins, oled_spec, table_settings

if TYPE_CHECKING:
    from drivers.oled import Oled

BAD_INPUT, HARDWARE = 2, 1


def _fail(message: str, code: int) -> int:
    print(f"gametable: error: {message}", file=sys.stderr)
    return code


def _config(path: Path | None) -> Config:
    return default_config() if path is None else load_config(path)


def default_journal() -> Path:
    """systemd's StateDirectory= when run as the service, else the current directory."""
    return Path(os.environ.get("STATE_DIRECTORY", ".")) / "gametable-journal.db"


def open_journal(path: Path, *, new: bool) -> Journal:
    return Journal.open(path, new=new)


def _checked(settings: TableSettings, flags: Mapping[str, object]) -> TableSettings:
    """The settings, once their family accepts the options; an option given as a flag is named
    as the flag (``--round``), one from the config by its name."""
    try:
        family(settings.family).game(settings.options, settings.seats)
    except FamilyOptionsError as error:
        given = flags.get(error.option) is not None
        raise ConfigError(f"--{error.option}: {error.problem}" if given else str(error)) from None
    return settings


def sim(
    *,
    config_path: Path | None,
    script: Path | None,
    game: int | None,
    headless: bool,
    journal_path: Path | None = None,
    table_format: str | None = None,
    first_round: int | None = None,
) -> int:
    flags = {"game": game, "format": table_format, "round": first_round}
    try:
        config = _config(config_path)
        settings = table_settings(
            config, game=game, table_format=table_format, first_round=first_round
        )
        settings = _checked(settings, flags)
    except ConfigError as error:
        return _fail(str(error), BAD_INPUT)
    if headless or script is not None:
        if script is None:
            return _fail("--headless needs --script FILE.jsonl", BAD_INPUT)
        try:
            lines = script.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            return _fail(f"cannot read {script}: {error}", BAD_INPUT)
        journal: Journal | None = None
        try:
            if journal_path is not None:
                journal = open_journal(journal_path, new=False)
            run_script(
                lines,
                settings,
                lambda event: print(json.dumps(event), flush=True),
                journal=journal,
            )
        except ScriptError as error:
            return _fail(f"{script}: {error}", BAD_INPUT)
        except JournalError as error:
            return _fail(str(error), BAD_INPUT)
        finally:
            if journal is not None:
                journal.close()
        return 0
    from firmware_py.table.sim import run_sim

    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return _fail(
            "gametable sim needs a terminal; without one use --headless --script FILE", BAD_INPUT
        )
    return asyncio.run(run_sim(settings))


def setup_logging(level: str) -> None:
    # stdout goes to journald under systemd, which adds the time and the unit itself.
    logging.basicConfig(stream=sys.stdout, level=level, format="%(levelname)s %(message)s")


def _open_oled(config: Config) -> Oled:
    from drivers.oled import Oled, open_oled  # luma and Pillow only when there is a panel

    return Oled(device=open_oled(oled_spec(config)))


def run(
    *, config_path: Path, game: int | None, journal_path: Path | None, new_journal: bool
) -> int:
    try:
        config = load_config(config_path)
        settings = _checked(table_settings(config, game=game), {"game": game})
        specs = input_specs(config)
    except ConfigError as error:
        return _fail(str(error), BAD_INPUT)
    setup_logging(config.log.level)
    try:
        journal = open_journal(journal_path or default_journal(), new=new_journal)
    except JournalError as error:  # a corrupt journal is moved aside, never silently reset
        return _fail(str(error), HARDWARE)
    oled: Oled | None = None
    board: Scoreboard | None = None
    try:
        factory = make_pin_factory(config.gpio.pin_factory)
        if config.oled.enabled:
            oled = _open_oled(config)
        if config.scoreboard.enabled:
            board = Scoreboard(url=config.scoreboard.url, baudrate=config.scoreboard.baudrate)
    except (PinFactoryError, OledError, ScoreboardError) as error:
        if oled is not None:
            oled.close()
        journal.close()
        return _fail(str(error), HARDWARE)
    daemon = TableDaemon(
        settings=settings,
        factory=factory,
        input_specs=specs,
        led_pins=led_pins(config),
        oled=oled,
        scoreboard=board,
        journal=journal,
        notifier=Notifier.from_environ(),
    )
    return main_task_guard(daemon.run())


def selftest(*, config_path: Path | None, seconds: float) -> int:
    from firmware_py.table.selftest import selftest as run_selftest

    try:
        config = _config(config_path)
        specs = input_specs(config)
        factory = make_pin_factory(config.gpio.pin_factory)
        oled = _open_oled(config) if config.oled.enabled else None
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
