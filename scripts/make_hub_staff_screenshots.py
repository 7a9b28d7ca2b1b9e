"""Take docs/hub/staff-*.png: the staff login on a phone, a results-staff member refused a
second result, a table's record with who entered each version and when (laptop and phone), and
the director's staff accounts, as Playwright's chromium draws them.

The same round as tests/test_hub_page_staff_browser.py. Run from the repository root, with
Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_staff_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.hub_page_helpers import make_record
from tests.test_hub_page_staff_browser import SHOTS, a_staff_round

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    shots = ROOT / "docs" / "hub"
    shots.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        # paired a minute ago: the queue's "since" reads as on the day, not months back
        made = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="seconds")
        record = make_record(Path(directory) / "tournament.db", now=made)
        asyncio.run(a_staff_round(record, shots))
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in SHOTS))


if __name__ == "__main__":
    main()
