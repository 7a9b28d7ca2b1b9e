"""Take docs/hub/day-*.png: the tournament day as Playwright's chromium draws it, from
tests/test_hub_page_tournament_day.py (128 teams, 10 rounds, 64 simulated tables behind a
mosquitto of its own). Run from the repository root, with Debian's chromium, mosquitto and
poppler-utils installed:

    PYTHONPATH=. .venv/bin/python scripts/make_hub_tournament_day_screenshots.py
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from tests.hub_hall_helpers import hall_broker
from tests.test_hub_page_tournament_day import TABLES, a_tournament_day, day_record

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ("day-paired-1280", "day-following-1280", "day-settle-1280", "day-missing-390",
         "day-enter-390", "day-undo-1280", "day-close-1280", "day-closed-1280",
         "day-closed-public-390", "day-reopen-1280")  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        broker = hall_broker(work / "broker", TABLES)
        try:
            seen = asyncio.run(a_tournament_day(broker, day_record(work / "day.db"), work))
        finally:
            broker.stop()
        (ROOT / "docs" / "hub").mkdir(exist_ok=True)
        for shot in SHOTS:
            shutil.copyfile(work / f"{shot}.png", ROOT / "docs" / "hub" / f"{shot}.png")
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in SHOTS))
    print(f"the day took {seen.seconds:.1f} s; round 1's sheets {seen.sheet_pages} pages, "
          f"its wall pairings {seen.wall_pages}")  # fmt: skip


if __name__ == "__main__":
    main()
