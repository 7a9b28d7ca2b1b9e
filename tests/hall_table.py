"""``python -m tests.hall_table``: one table of the hall campaign, a real process to kill -9.

It is ``gametable run`` with a dealer: the same config (``[gpio] pin_factory = "mock"``, the
``[hub]`` link), the same daemon, and the same path to open the journal, rebuild the table from
it and run (``commands._run_on_journal``: ``--new-journal`` moves the old one aside as it does
there). The dealer (tests/hall_dealer.py) plays on the mock pins from the daemon's loop, in real
time. Started again on the same journal after a kill, the table resumes from it
(docs/durability.md) and the dealer plays on from what it shows.

SIGTERM stops it as it stops ``gametable run``. Once the file ``--leave-when`` names exists the
dealer leaves (it presses nothing more). It stops by itself after ``--lifetime`` seconds, or
when the campaign that started it is gone.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
from pathlib import Path

from drivers.pins import make_pin_factory
from firmware_py import families
from firmware_py.table import commands
from firmware_py.table.config import ConfigError, load_config
from firmware_py.table.daemon import TableDaemon, main_task_guard
from firmware_py.table.notify import Notifier
from firmware_py.table.wiring import input_specs, led_pins, table_settings
from tests.hall_dealer import Dealer

PARENT_CHECK_SECONDS = 1.0
log = logging.getLogger("gametable")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.hall_table")
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--new-journal", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--leave-when", type=Path, help="the dealer leaves once this file exists")
    parser.add_argument("--lifetime", type=float, default=3600.0)
    args = parser.parse_args(argv)
    families.install()
    try:
        config = load_config(args.config)
        settings = table_settings(config)
        hub = commands.hub_link(config)
    except ConfigError as error:
        print(f"hall_table: {error}")
        return 2
    commands.setup_logging(config.log.level)
    daemon = TableDaemon(
        settings=settings,
        factory=make_pin_factory(config.gpio.pin_factory),
        input_specs=input_specs(config),
        led_pins=led_pins(config),
        notifier=Notifier(address=None),
        hub=hub,
    )
    dealer = Dealer(daemon, random.Random(args.seed), leave_when=args.leave_when)
    return main_task_guard(_play(daemon, dealer, args))


async def _play(daemon: TableDaemon, dealer: Dealer, args: argparse.Namespace) -> int:
    playing = asyncio.create_task(dealer.run())
    playing.add_done_callback(lambda task: _dealer_ended(task, daemon))
    watching = asyncio.create_task(_stop_when_orphaned(daemon, args.lifetime))
    try:
        return await commands._run_on_journal(daemon, args.journal, args.new_journal)
    finally:
        playing.cancel()
        watching.cancel()


def _dealer_ended(task: asyncio.Task[None], daemon: TableDaemon) -> None:
    """A dealer that crashed stops its table (the campaign sees it exit and starts it again):
    a table nobody plays would make the campaign's figures quietly smaller."""
    if not task.cancelled() and task.exception() is not None:
        log.critical("event=dealer_crashed error=%r", task.exception())
        daemon.stop()


async def _stop_when_orphaned(daemon: TableDaemon, lifetime: float) -> None:
    """Bounded: the table stops by itself once its time is up or its campaign has gone."""
    parent = os.getppid()
    deadline = asyncio.get_running_loop().time() + lifetime
    while asyncio.get_running_loop().time() < deadline and os.getppid() == parent:
        await asyncio.sleep(PARENT_CHECK_SECONDS)
    daemon.stop()


if __name__ == "__main__":
    raise SystemExit(main())
