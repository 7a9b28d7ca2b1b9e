"""Take docs/hub/field-preview-*.png: the field's preview naming its bad lines, on a laptop
(1280x800) and a phone (390x844), as Playwright's chromium draws them.

The same steps as tests/test_hub_page_field_browser.py. Run from the repository root, with
Debian's chromium installed:
``PYTHONPATH=. .venv/bin/python scripts/make_hub_field_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from tests.test_hub_page_field_browser import SHOTS, a_field_entered, unpaired_record

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    shots = ROOT / "docs" / "hub"
    shots.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        record = unpaired_record(Path(directory) / "tournament.db")
        asyncio.run(a_field_entered(record, shots))
    print("wrote " + ", ".join(f"docs/hub/{shot}.png" for shot in SHOTS))


if __name__ == "__main__":
    main()
