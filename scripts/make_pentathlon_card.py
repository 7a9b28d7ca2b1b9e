"""Print the Pentathlon score cards as a real browser does, and turn the pages into pictures:
docs/pentathlon-guide/card/. The game of tests/pentathlon_card_helpers.py (two challenges, an
opinion, time called, the result confirmed), Ann Lee and Ben Cho at round 2, table 7: chromium
(Playwright, Debian's build) prints each layout to PDF on A4 and on Letter, the script checks
the pages (a card a page: 2; both on one page to cut: 1), and ``pdftoppm`` (poppler-utils) turns
the A4 and Letter pages into PNGs for the monitor's guide. Then the card a table serves
(``/card``): Queens & Guards tied by agreement at a table seated by the hub, confirmed on
18 April 2026 by its journal's clock, with ``[pentathlon] monitor = "Mo Reyes"`` (R795,
R819), printed on A4. Run from the repository root:
``.venv/bin/python scripts/make_pentathlon_card.py``.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the sample game lives with the tests

from firmware_py import families  # noqa: E402
from firmware_py.families.pentathlon.card import Heading, Layout, card_html  # noqa: E402
from firmware_py.table.family import PairedMatch  # noqa: E402
from firmware_py.table.journal import wall_text  # noqa: E402
from firmware_py.table.web.page import TablePage, listen  # noqa: E402
from rules.pentathlon.log import replay_log  # noqa: E402
from rules.pentathlon.record import record  # noqa: E402
from tests.browser_helpers import CHROMIUM  # noqa: E402
from tests.pentathlon_card_helpers import (  # noqa: E402
    GAME_LOG,
    LONG_LINE,
    LONG_NAMES,
    long_game_log,
)
from tests.pentathlon_table_helpers import PTable, begin  # noqa: E402

OUT = ROOT / "docs/pentathlon-guide/card"
NAMES = {"A": "Ann Lee", "B": "Ben Cho"}
HEADING = Heading("Spring Open", "2026-04-18", "III", "2", "7", "Mo Reyes")
PAGES = {Layout.PAGES: 2, Layout.HALVES: 1}
SIZES = ("A4", "Letter")
SEAT = PairedMatch(2, "Ann Lee", "Ben Cho", 7, "queens-guards", "III", "Spring Open")
CONFIRMED = datetime(2026, 4, 18, 15, 0, tzinfo=UTC)  # 10:00 in the table's zone (US Central)


async def printed(html: Path) -> list[bytes]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        page = await browser.new_page()
        await page.goto(html.as_uri())
        pdfs = [await page.pdf(format=size) for size in SIZES]
        await browser.close()
    return pdfs


def pictures(pdf: Path, stem: Path) -> None:
    """Each page of ``pdf`` as ``stem-1.png``, ``stem-2.png``...: 60 dots an inch."""
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(stem)], check=True)


def table_card(folder: Path) -> str:
    """The cards the table's page serves (``/card``) once the monitor confirmed the tie."""
    families.install()
    os.environ["TZ"] = "CST6CDT,M3.2.0,M11.1.0"
    time.tzset()
    table = PTable(
        journal=folder / "journal.db", wall=lambda: wall_text(CONFIRMED), game="queens-guards"
    )
    table.virtual.pair(SEAT, table.t)
    begin(table, "A").buttons("yes").choose("Tie: agreed").buttons("yes")
    page = TablePage(listen("127.0.0.1", 0), monitor="Mo Reyes")
    recorded = table.virtual.recorded
    assert recorded is not None
    page.publish(
        table.controller, table.controller.view(), saved=True, decided_at=recorded.decided_at
    )
    page.sock.close()
    table.close()
    assert page.card is not None
    return page.card


def long_card(folder: Path) -> str:
    """The longest card (R841): 60 challenges, names, event, division and monitor of 60
    characters with no space, a page a card on A4 and Letter; each one's first page, at 80 dots
    an inch so the guide's reader can see its type."""
    heading = Heading(LONG_LINE, "2026-04-18", LONG_LINE, "99", "999", LONG_LINE)
    text = card_html(record(replay_log(long_game_log(60))), names=LONG_NAMES, heading=heading)
    html = folder / "long.html"
    html.write_text(text, encoding="utf-8")
    said = []
    for size, pdf in zip(SIZES, asyncio.run(printed(html)), strict=True):
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        if pages != 2:
            raise SystemExit(f"the 60-challenge card on {size}: {pages} pages, expected 2")
        path = folder / f"long-{size}.pdf"
        path.write_bytes(pdf)
        stem = OUT / f"card-long-{size.lower()}"
        subprocess.run(
            ["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", str(path), str(stem)],
            check=True,
        )
        said.append(f"the 60-challenge card {size}: {pages} page(s), expected 2")
    return "; ".join(said)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    data = record(replay_log(GAME_LOG))
    counts = []
    with tempfile.TemporaryDirectory() as folder:
        for layout, expected in PAGES.items():
            html = Path(folder) / f"{layout.value}.html"
            text = card_html(data, names=NAMES, heading=HEADING, layout=layout)
            html.write_text(text, encoding="utf-8")
            for size, pdf in zip(SIZES, asyncio.run(printed(html)), strict=True):
                pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
                counts.append(f"{layout.value} {size}: {pages} page(s), expected {expected}")
                path = Path(folder) / f"{layout.value}-{size}.pdf"
                path.write_bytes(pdf)
                pictures(path, OUT / f"card-{layout.value}-{size.lower()}")
                if pages != expected:
                    print("; ".join(counts))
                    return 1
        counts.append(long_card(Path(folder)))
        html = Path(folder) / "table.html"
        html.write_text(table_card(Path(folder)), encoding="utf-8")
        pdf = asyncio.run(printed(html))[0]
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        counts.append(f"the table's /card A4: {pages} page(s), expected 2")
        path = Path(folder) / "table-A4.pdf"
        path.write_bytes(pdf)
        pictures(path, OUT / "card-table-a4")
        if pages != 2:
            print("; ".join(counts))
            return 1
    print(f"wrote {OUT}: " + "; ".join(counts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
