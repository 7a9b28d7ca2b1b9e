"""Take docs/hub/checkin-*.png: a results-staff member's check-in on a phone, the director's
/checkin with a team withdrawn and the release switch, the standings marking the withdrawn
team, and a phone's /public holding the standings back (R1040-R1043), as Playwright's chromium
draws them.

The same steps as tests/test_hub_page_checkin_browser.py. Run from the repository root, with
Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_checkin_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from tests.hub_page_helpers import make_record
from tests.test_hub_page_checkin_browser import SHOTS, a_checkin

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    shots = ROOT / "docs" / "hub"
    shots.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(a_checkin(make_record(Path(directory) / "tournament.db"), shots))
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in SHOTS))


if __name__ == "__main__":
    main()
