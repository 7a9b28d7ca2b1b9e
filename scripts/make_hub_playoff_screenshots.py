"""Take docs/hub/playoff-*.png and projector-*-1920.png: the end of a day with a playoff, as
Playwright's chromium draws it (the bracket on /close, the playoff stopped by a table's
correction and voided from the page, the championship's close, the hall's screen).

The same day as tests/test_hub_page_day_playoff.py. Run from the repository root, with
Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_playoff_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from tests.test_hub_page_day_playoff import a_playoff_day, playoff_record

ROOT = Path(__file__).resolve().parents[1]
SHOTS = (
    "playoff-bracket-1280",
    "playoff-stopped-1280",
    "playoff-close-1280",
    "projector-champion-1920",
    "projector-playoff-1920",
)


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        asyncio.run(a_playoff_day(playoff_record(work / "playoff.db"), work))
        (ROOT / "docs" / "hub").mkdir(exist_ok=True)
        for shot in SHOTS:
            shutil.copyfile(work / f"{shot}.png", ROOT / "docs" / "hub" / f"{shot}.png")
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in SHOTS))


if __name__ == "__main__":
    main()
