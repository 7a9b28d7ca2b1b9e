"""Take docs/hub/rooms-grid-1280.png: the director's grid grouped by room (R1114), as
Playwright's chromium draws it at 1280x800; and docs/hub/rooms-page-1280.png and
rooms-page-390.png: ``/rooms`` (R1115) at 1280x800 and 390x844, a Remove opened.

The same steps as tests/test_hub_page_rooms_browser.py. Run from the repository root, with
Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_rooms_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from tests.test_hub_page_rooms_browser import (
    ROOMS_SHOTS,
    SHOT,
    rooms_record,
    the_grid,
    the_rooms_page,
)

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    shots = ROOT / "docs" / "hub"
    shots.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        now = datetime.now(UTC).isoformat(timespec="seconds")  # the queue's "since": minutes
        record = rooms_record(Path(directory) / "tournament.db", now)
        asyncio.run(the_grid(record, shots, now))
        asyncio.run(the_rooms_page(record, shots, now))
    for shot in (SHOT, *ROOMS_SHOTS):
        print(f"wrote docs/hub/{shot}.png")


if __name__ == "__main__":
    main()
