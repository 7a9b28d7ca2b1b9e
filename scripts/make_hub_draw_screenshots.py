"""Take docs/hub/swap-warning-*.png: a swap of two teams warned of a same-school pair, and
docs/hub/draw-move-*.png: a match about to move to a free table, on a laptop (1280x800) and a
phone (390x844), as Playwright's chromium draws them.

The same steps as tests/test_hub_page_draw_browser.py and
tests/test_hub_page_draw_move_browser.py. Run from the repository root, with
Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_draw_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from tests.hub_page_helpers import make_record
from tests.test_hub_page_draw_browser import SHOTS, a_draw_changed
from tests.test_hub_page_draw_move_browser import SHOTS as MOVE_SHOTS
from tests.test_hub_page_draw_move_browser import a_match_moved, record_with_a_room

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    shots = ROOT / "docs" / "hub"
    shots.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        record = make_record(Path(directory) / "tournament.db")
        asyncio.run(a_draw_changed(record, shots))
        moving = record_with_a_room(Path(directory) / "moving.db")
        asyncio.run(a_match_moved(moving, shots))
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in (*SHOTS, *MOVE_SHOTS)))


if __name__ == "__main__":
    main()
