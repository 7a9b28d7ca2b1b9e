"""Take docs/pentathlon-guide/card/score-card.png: a Contig 60 game's printable score card as
Playwright's chromium draws it (the game of tests/pentathlon_card_helpers.py: two challenges,
an opinion, time called, the result confirmed), and print it once to a PDF beside the picture
to check that it fits one page, A4 and Letter. Run from the repository root, with Debian's
chromium installed: ``.venv/bin/python scripts/make_pentathlon_card.py``.
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the sample game lives with the tests

from firmware_py.families.pentathlon.card import card_html  # noqa: E402
from rules.pentathlon.log import replay_log  # noqa: E402
from rules.pentathlon.record import record  # noqa: E402
from tests.browser_helpers import CHROMIUM  # noqa: E402
from tests.pentathlon_card_helpers import GAME_LOG  # noqa: E402

OUT = ROOT / "docs/pentathlon-guide/card"
NAMES = {"A": "Ann Lee", "B": "Ben Cho"}


async def take(html: Path) -> list[int]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        page = await browser.new_page(viewport={"width": 820, "height": 760})
        await page.goto(html.as_uri())
        await page.screenshot(path=str(OUT / "score-card.png"), full_page=True)
        printed = [await page.pdf(format=size) for size in ("A4", "Letter")]
        await browser.close()
    return [len(re.findall(rb"/Type\s*/Page[^s]", pdf)) for pdf in printed]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    text = card_html(record(replay_log(GAME_LOG)), names=NAMES, source="a game's log")
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "card.html"
        html.write_text(text, encoding="utf-8")
        pages = asyncio.run(take(html))
    print(f"wrote {OUT / 'score-card.png'}; printed pages: A4 {pages[0]}, Letter {pages[1]}")
    return 0 if pages == [1, 1] else 1


if __name__ == "__main__":
    raise SystemExit(main())
