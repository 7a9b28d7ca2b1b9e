"""The table's commands: ``sim``, ``run``, ``config check`` and ``selftest``.

Each returns the process exit status; a problem with the config or the hardware is one line
on stderr (exit 2 for bad input, 1 for hardware that cannot be opened), never a traceback.
``run`` reports a journal it cannot use in one CRITICAL log line instead (R122): it is a
daemon, and its log is where systemd's operator looks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, cast

from drivers.display import OledError
from drivers.pins import ENV_VAR, PinFactoryError, choose_factory, make_pin_factory
from drivers.scoreboard import Scoreboard, ScoreboardError
from firmware_py.cli_args import number_error, print_error
from firmware_py.table.config import (
    Config,
    ConfigError,
    FamilyName,
    default_config,
    load_config,
)
from firmware_py.table.controller import TableSettings
from firmware_py.table.daemon import TableDaemon, main_task_guard
from firmware_py.table.family import FamilyOptionsError, family
from firmware_py.table.headless import ScriptError, parse_script, play_script
from firmware_py.table.journal import Journal, JournalCorrupt, JournalError, JournalWriteError
from firmware_py.table.notify import Notifier
from firmware_py.table.recorder import JournalOfAnotherTable
from firmware_py.table.sim_config import simulator_config
from firmware_py.table.uplink import Broker, HubLink, PasswordFileError, read_password
from firmware_py.table.web.errors import WebListenError
from firmware_py.table.wiring import input_specs, led_pins, oled_spec, table_settings
from firmware_py.user_files import (
    CA_HOLDS,
    MAX_SCRIPT,
    UserFileError,
    read_limited_text,
    require_regular_file,
)

if TYPE_CHECKING:
    from drivers.inputs import InputSpec
    from drivers.oled import Oled
    from firmware_py.table.web.page import TablePage

BAD_INPUT, HARDWARE = 2, 1
log = logging.getLogger("gametable")


def _fail(message: str, code: int) -> int:
    print_error(message)
    return code


def _config(path: Path | None) -> Config:
    return default_config() if path is None else load_config(path)


def _sim_config(path: Path | None, family: str | None) -> Config:
    """The file's config as it is, else the built-in one set up for the family (R490)."""
    if path is not None:
        return load_config(path)
    return simulator_config(cast("FamilyName | None", family))


def default_journal() -> Path:
    """systemd's StateDirectory= when run as the service, else the current directory."""
    return Path(os.environ.get("STATE_DIRECTORY", ".")) / "gametable-journal.db"


def _checked(settings: TableSettings, flags: Mapping[str, object]) -> TableSettings:
    """The settings, once their family accepts the options; an option given as a flag is named
    as the flag (``--round``), one from the config by its name."""
    try:
        family(settings.family).game(settings.options, settings.seats)
    except FamilyOptionsError as error:
        if flags.get(error.option) is not None:
            raise ConfigError(f"--{error.option}: {error.problem}") from None
        if settings.family == "guesstimation" and error.option in GUESSTIMATION_KEYS:
            raise ConfigError(f"guesstimation.{error}") from None  # the config's key path
        raise ConfigError(str(error)) from None
    return settings


GUESSTIMATION_KEYS = ("deck", "finish", "players", "seed")  # [guesstimation]'s, as options


def game_flag(text: str | None) -> int | str | None:
    """``--game``: a number (a GeoPlunge game) or a name (a Pentathlon game); the family
    checks it."""
    if text is None:
        return None
    return int(text) if number_error(text.strip()) is None else text  # 5,000 digits: a name


def sim(
    *,
    config_path: Path | None,
    script: Path | None,
    game: str | None,
    headless: bool,
    journal_path: Path | None = None,
    table_format: str | None = None,
    first_round: int | None = None,
    family: str | None = None,
) -> int:
    flags = {"game": game, "format": table_format, "round": first_round}
    try:
        config = _sim_config(config_path, family)
        settings = table_settings(
            config,
            game=game_flag(game),
            table_format=table_format,
            first_round=first_round,
            family=family,
        )
        settings = _checked(settings, flags)
    except ConfigError as error:
        return _fail(str(error), BAD_INPUT)
    if journal_path is not None and script is None:  # the terminal UI records nothing
        return _fail("--journal needs --headless --script FILE.jsonl", BAD_INPUT)
    if headless or script is not None:
        if script is None:
            return _fail("--headless needs --script FILE.jsonl", BAD_INPUT)
        try:
            lines = read_limited_text(script, MAX_SCRIPT, "a script", "utf-8-sig").splitlines()
        except UserFileError as error:
            return _fail(str(error), BAD_INPUT)
        try:  # the whole script is checked before a journal is created or written
            settings, steps = parse_script(lines, settings)
        except ScriptError as error:
            return _fail(f"{script}: {error}", BAD_INPUT)
        journal: Journal | None = None
        try:
            if journal_path is not None:  # a simulator refuses a damaged journal, never moves it
                journal = Journal.open(journal_path)
            play_script(
                settings,
                steps,
                lambda event: print(json.dumps(event), flush=True),
                journal=journal,
            )
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


def hub_link(config: Config) -> HubLink | None:
    """The link to the tournament hub when the config enables it; its journal comes later."""
    hub = config.hub
    if not hub.enabled:
        return None
    assert hub.host is not None and hub.table is not None  # the config requires them
    try:
        password = read_password(Path(hub.password_file))
        if hub.ca_file is not None:  # OpenSSL would wait forever on a FIFO (R947)
            require_regular_file(Path(hub.ca_file), CA_HOLDS)
        broker = Broker(hub.host, hub.port, hub.table, password, hub.ca_file)
        # a Pentathlon table takes the event's seats (its players' names for the card: R795)
        return HubLink(broker, journal=None, seated=family(config.table.family).seated)
    except PasswordFileError as error:
        raise ConfigError(f"hub.password_file: {error}") from None
    except UserFileError as error:
        raise ConfigError(f"hub.ca_file: {error}") from None
    except (OSError, ValueError) as error:  # paho reading the CA file for TLS
        why = (error.strerror if isinstance(error, OSError) else None) or str(error)
        raise ConfigError(f"hub.ca_file: cannot use {hub.ca_file}: {why}") from None


def run(
    *, config_path: Path, game: str | None, journal_path: Path | None, new_journal: bool
) -> int:
    try:
        config = load_config(config_path)
        settings = _checked(table_settings(config, game=game_flag(game)), {"game": game})
        specs = input_specs(config)
        hub = hub_link(config)
    except ConfigError as error:
        return _fail(str(error), BAD_INPUT)
    setup_logging(config.log.level)
    oled: Oled | None = None
    board: Scoreboard | None = None
    choice = choose_factory(config.gpio.pin_factory)
    if choice.overrides is not None:  # the environment's pin factory, not the file's (R750)
        log.warning(
            "event=pin_factory name=%s source=%s overrides=%s",
            choice.name,
            choice.source,
            choice.overrides,
        )
    elif choice.source == ENV_VAR:
        log.info("event=pin_factory name=%s source=%s", choice.name, choice.source)
    try:  # the hardware before the journal: a table that cannot start records nothing
        factory = make_pin_factory(config.gpio.pin_factory)
        if config.oled.enabled:
            oled = _open_oled(config)
        if config.scoreboard.enabled:
            board = Scoreboard(url=config.scoreboard.url, baudrate=config.scoreboard.baudrate)
        page = web_page(config)
    except (PinFactoryError, OledError, ScoreboardError, WebListenError) as error:
        for device in (oled, board):
            if device is not None:
                device.close()
        return _fail(str(error), HARDWARE)
    daemon = TableDaemon(
        settings=settings,
        factory=factory,
        input_specs=specs,
        led_pins=led_pins(config),
        oled=oled,
        scoreboard=board,
        notifier=Notifier.from_environ(),
        hub=hub,
        page=page,
    )
    return main_task_guard(_run_on_journal(daemon, journal_path or default_journal(), new_journal))


def web_page(config: Config) -> TablePage | None:
    """The table's web page, listening where the config says, or None when it is off."""
    if not config.web.enabled:
        return None
    import socket

    from firmware_py.table.web.guard import served_names
    from firmware_py.table.web.page import TablePage, listen  # aiohttp only when it serves

    # without the OLED the join code has nowhere to be shown at the table: the log says it
    return TablePage(
        listen(config.web.listen, config.web.port),
        code_in_log=not config.oled.enabled,
        names=served_names(config.web.listen, config.web.names, socket.gethostname()),
        monitor=config.pentathlon.monitor,
    )


async def _run_on_journal(daemon: TableDaemon, path: Path, new_journal: bool) -> int:
    """Open the journal and rebuild the table from it before anything runs. A journal that
    cannot be used is one CRITICAL line (R120, R122): a damaged one is moved aside and the
    status is 1 (systemd's restart begins a new match); anything else is left as it was, 2."""
    try:
        journal = daemon.journal = Journal.open(
            path, new=new_journal, move_damaged_aside=True, outbox=daemon.hub is not None
        )
        if journal.carried_over or journal.lost_over:
            level = logging.WARNING if journal.lost_over else logging.INFO
            log.log(
                level,
                "event=journal_carried decisions=%d lost=%d",
                journal.carried_over,
                journal.lost_over,
            )
        if daemon.hub is not None:
            daemon.hub.journal = journal
        try:
            daemon.start_controller(asyncio.get_running_loop().time())
        except JournalCorrupt as error:  # it does not replay
            raise journal.set_aside(error.reason) from None
        except (JournalWriteError, JournalOfAnotherTable):  # nothing written: left as it was
            journal.close()  # its writer's marker goes with the place (R914)
            raise
    except JournalError as error:
        log.critical("event=journal_refused error=%s", error)
        for device in (daemon.oled, daemon.scoreboard):
            if device is not None:
                device.close()
        if daemon.page is not None:
            await daemon.page.stop()
        moved = isinstance(error, JournalCorrupt) and error.moved_to is not None
        return HARDWARE if moved or isinstance(error, JournalWriteError) else BAD_INPUT
    return await daemon.run()


def _asked_inputs(config: Config) -> tuple[list[InputSpec], list[str]]:
    """The inputs selftest asks to be pressed, and the names of the seat inputs the config's
    family never reads (a Guesstimation seat's stand: R1020), which nobody wires or presses."""
    unread_roles = family(config.table.family).unread
    asked: list[InputSpec] = []
    unread: list[str] = []
    for spec in input_specs(config):
        owner, _, role = spec.name.partition(".")
        if owner != "console" and role in unread_roles:
            unread.append(spec.name)
        else:
            asked.append(spec)
    return asked, unread


def selftest(*, config_path: Path | None, seconds: float) -> int:
    from firmware_py.table.selftest import selftest as run_selftest

    try:
        config = _config(config_path)
        specs, unread = _asked_inputs(config)
        # which factory, and why: the environment's GPIOZERO_PIN_FACTORY wins (R750)
        print(choose_factory(config.gpio.pin_factory).describe(), flush=True)
        factory = make_pin_factory(config.gpio.pin_factory)
        oled = _open_oled(config) if config.oled.enabled else None
    except ConfigError as error:
        return _fail(str(error), BAD_INPUT)
    except (PinFactoryError, OledError) as error:
        return _fail(str(error), HARDWARE)
    if unread:
        print(f"not read by {config.table.family} (wire nothing): {', '.join(unread)}")
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
