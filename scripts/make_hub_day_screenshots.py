"""Take docs/hub/day-1280.png and day-390.png: the page of a day of two events (issue 27), the
day at a glance, at 1280x800 and 390x844; and day-event-1280.png and day-event-390.png: one
event's live grid under its own address, as Playwright's chromium draws them.

The same steps as tests/test_hub_page_day_events_browser.py. Run from the repository root, with
Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_day_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from tests.test_hub_page_day_events_browser import SHOTS, day_with_rooms, the_day

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    shots = ROOT / "docs" / "hub"
    shots.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        now = datetime.now(UTC).isoformat(timespec="seconds")  # the queue's "since": minutes
        day = day_with_rooms(Path(directory), now)
        asyncio.run(the_day(day, shots, now, wall=time.time()))
    for shot in SHOTS:
        print(f"wrote docs/hub/{shot}.png")


if __name__ == "__main__":
    main()
