"""A real table daemon (TableDaemon, mock pins, real clock, a real journal) with its web page on
a real socket, for attacking the page from other processes as hostile phones would.

    PYTHONPATH=. .venv/bin/python tests/attacks/live_table.py [--listen ::] [--port 18080]
        [--players Ann,Bo,Cy,Di] [--deck sample|none] [--family guesstimation|states]

The dealer is a UNIX socket (``/tmp/i19b/dealer.sock``, one command a line, one JSON answer):
``press count`` (any console button or ``A.shout``...), ``code`` (the join code the OLED shows),
``oled`` (the footer and lines), ``phase``, ``shown`` (the request on the OLED), ``scores``.
Not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

from drivers.inputs import InputSpec
from drivers.mockpins import mock_factory
from firmware_py import families
from firmware_py.table.controller import CONSOLE, TableSettings
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.journal import Journal
from firmware_py.table.web.page import TablePage, listen

SOCKET = Path("/tmp/i19b/dealer.sock")


def build(args: argparse.Namespace, journal: Path) -> TableDaemon:
    players = args.players.split(",")
    seats = tuple("ABCDEF"[: len(players)])
    options: dict[str, Any] = {"players": players}
    if args.family == "guesstimation":
        options["seed"] = 2026
        if args.deck != "none":
            options["deck"] = args.deck
    settings = TableSettings(seats=seats, family=args.family, options=options)
    names = [f"{s}.{w}" for s in seats for w in ("stand", "shout")]
    names += [f"console.{button}" for button in CONSOLE]
    daemon = TableDaemon(
        settings=settings,
        factory=mock_factory(),
        input_specs=[InputSpec(name=name, pin=pin) for pin, name in enumerate(names, start=2)],
        led_pins={seat: pin for seat, pin in zip(seats, (20, 21, 16, 26, 19, 13), strict=False)},
        page=TablePage(listen(args.listen, args.port), names=frozenset({"localhost", "table7"})),
    )
    daemon.journal = Journal.open(journal)
    return daemon


async def main(args: argparse.Namespace) -> None:
    journal = Path(tempfile.mkdtemp(prefix="i19b-")) / "journal.db"
    daemon = build(args, journal)
    page = daemon.page
    assert page is not None
    daemon.start_controller(asyncio.get_running_loop().time())
    task = asyncio.create_task(daemon.run())
    while not hasattr(daemon, "leds"):
        await asyncio.sleep(0.01)

    async def press(name: str) -> None:
        pin = daemon.bank.pin(name if "." in name else f"console.{name}")
        pin.drive_low()
        await asyncio.sleep(0.08)
        pin.drive_high()
        await asyncio.sleep(0.08)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while line := (await reader.readline()).decode().strip():
            verb, _, rest = line.partition(" ")
            answer: Any
            if verb == "press":
                for name in rest.split():
                    await press(name)
                answer = {"pressed": rest, "phase": getattr(daemon.controller.session, "phase", "")}
            elif verb == "code":
                answer = {"code": page.access.code}
            elif verb == "shown":
                shown = page.access.shown
                answer = None if shown is None else {"place": shown.place, "number": shown.number}
            elif verb == "oled":
                view = daemon.controller.view()
                answer = {
                    "screen": repr(page.on_oled(view.screen, asyncio.get_running_loop().time()))
                }
            elif verb == "phase":
                answer = {
                    "phase": getattr(daemon.controller.session, "phase", ""),
                    "prompt": daemon.controller.prompt.text,
                }
            elif verb == "state":
                answer = page.state
            elif verb == "journal":
                answer = [e.body for e in Journal.open(journal).entries() if e.kind == "input"]
            else:
                answer = {"error": f"unknown {verb}"}
            writer.write((json.dumps(answer, default=str) + "\n").encode())
            await writer.drain()
        writer.close()

    SOCKET.parent.mkdir(exist_ok=True)
    SOCKET.unlink(missing_ok=True)
    server = await asyncio.start_unix_server(handle, SOCKET)
    print(f"listening on {args.listen}:{page.port} journal {journal}", flush=True)
    async with server:
        await task


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s %(message)s")
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", default="::")
    parser.add_argument("--port", type=int, default=18080)
    parser.add_argument("--players", default="Ann,Bo,Cy,Di")
    parser.add_argument("--deck", default="none")
    parser.add_argument("--family", default="guesstimation")
    families.install()
    asyncio.run(main(parser.parse_args()))
