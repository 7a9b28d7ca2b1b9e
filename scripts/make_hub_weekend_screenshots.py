"""Take docs/hub/weekend-*.png: a weekend of three events in two rooms as Playwright's chromium
draws it, from tests/test_day_weekend_browser.py (the day made by the CLI, ``gametable hub run
--day`` on a central mosquitto, two hall brokers bridged to it, a real table in each hall).
Run from the repository root, with Debian's chromium and mosquitto installed:

    PYTHONPATH=. .venv/bin/python scripts/make_hub_weekend_screenshots.py
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from tests.test_day_weekend_browser import a_weekend, check_weekend, start_halls

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ("weekend-day-1280", "weekend-day-390", "weekend-event-1280", "weekend-event-390",
         "weekend-checkin-390", "weekend-cut-1280", "weekend-cut-390", "weekend-closed-1280",
         "weekend-closed-390")  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        halls = start_halls(work / "brokers")
        try:
            seen = asyncio.run(a_weekend(halls, work, work))
        finally:
            halls.stop()
        check_weekend(seen, work)  # the screenshots of a weekend that went as the test says
        (ROOT / "docs" / "hub").mkdir(exist_ok=True)
        for shot in SHOTS:
            shutil.copyfile(work / f"{shot}.png", ROOT / "docs" / "hub" / f"{shot}.png")
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in SHOTS))
    print(f"the weekend took {seen.seconds:.1f} s")


if __name__ == "__main__":
    main()
