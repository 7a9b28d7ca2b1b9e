"""Take docs/hub/swap-warning-*.png: a swap of two teams warned of a same-school pair, on a
laptop (1280x800) and a phone (390x844), as Playwright's chromium draws them.

The same steps as tests/test_hub_page_draw_browser.py. Run from the repository root, with
Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_draw_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from tests.hub_page_helpers import make_record
from tests.test_hub_page_draw_browser import SHOTS, a_draw_changed

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    shots = ROOT / "docs" / "hub"
    shots.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        record = make_record(Path(directory) / "tournament.db")
        asyncio.run(a_draw_changed(record, shots))
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in SHOTS))


if __name__ == "__main__":
    main()
