"""Take docs/hub/*.png: the tournament day's views as Playwright's chromium draws them (the
public search on a phone, the projector, a round's sheets and its pairings printed to PDF and
drawn by pdftoppm, the undo's confirmation).

The same day as tests/test_hub_page_day_browser.py, on its hall of 128 teams. Run from the
repository root, with Debian's chromium and poppler-utils installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_day_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from tests.test_hub_page_day_browser import a_tournament_day, hall_record

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ("public-390", "projector-1920", "round-sheets-p1", "pairings-sheet", "undo-confirm")


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        asyncio.run(a_tournament_day(hall_record(work / "hall.db"), work))
        (ROOT / "docs" / "hub").mkdir(exist_ok=True)
        for shot in SHOTS:
            shutil.copyfile(work / f"{shot}.png", ROOT / "docs" / "hub" / f"{shot}.png")
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in SHOTS))


if __name__ == "__main__":
    main()
