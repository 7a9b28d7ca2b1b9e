"""Take docs/hub-page.png and docs/hub-sheet.png: the director's page on a laptop and a match's
result sheet as printed, as Playwright's chromium draws them.

The same round as tests/test_hub_page_browser.py: a mosquitto of its own on a free loopback
port, the hub and its page, two tables publishing their state, the director logged in entering
table 2's result. Run from the repository root, with Debian's chromium and mosquitto installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_page_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.hub_helpers import Broker
from tests.hub_page_helpers import make_record
from tests.test_hub_page_browser import a_directors_round

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        broker = Broker(Path(directory) / "broker")
        broker.directory.mkdir()
        broker.start()
        try:
            # made a minute ago: the queue's "since" reads as on the day, not months back
            made = (datetime.now(UTC) - timedelta(minutes=1)).isoformat(timespec="seconds")
            record = make_record(Path(directory) / "tournament.db", now=made)
            asyncio.run(a_directors_round(broker, record, ROOT / "docs"))
        finally:
            broker.stop()
    print("wrote docs/hub-page.png and docs/hub-sheet.png")


if __name__ == "__main__":
    main()
