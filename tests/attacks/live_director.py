"""The director's page (the hub's ``DirectorPage``, a real record) on a real socket, for the
same attacks as the table's (its serving layer is the table's: the same shares and deadlines).

    PYTHONPATH=. .venv/bin/python tests/attacks/live_director.py [--port 18081]

Then e.g. ``PORT=18081 ... slow_body_attack.py`` or ``log_flood_attack.py``. Not a test."""

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

from firmware_py.director.hub.page.server import DirectorPage, listen
from firmware_py.director.hub.wire.board import LiveBoard
from firmware_py.director.record.tournament_db import TournamentDB
from tests.hub_page_helpers import NOW, make_record


async def main(port: int) -> None:
    path = make_record(Path(tempfile.mkdtemp(prefix="i19b-hub-")) / "tournament.db")
    with TournamentDB.open(path) as record:
        page = DirectorPage(listen("0.0.0.0", port), record, LiveBoard(), lambda: NOW)
        await page.start()
        print(f"director's page on 0.0.0.0:{page.port}", flush=True)
        try:
            await asyncio.sleep(3600)
        finally:
            await page.stop()


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s %(message)s")
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=18081)
    asyncio.run(main(parser.parse_args().port))
