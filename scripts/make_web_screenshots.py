"""Take docs/web/*.png: the table's page on a phone, as Playwright's chromium draws it.

A Guesstimation table (the sample deck, the seed of docs/scripts/guesstimation-two-rounds.jsonl)
runs on MockFactory pins with its page on a free port of 127.0.0.1; Ann's phone joins, is
shown waiting to guess (``guessing.png``), and after every guess is in and the answer is read
(``reveal.png``). Run from the repository root, with Debian's chromium installed:
``.venv/bin/python scripts/make_web_screenshots.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright, expect

from firmware_py import families
from tests.test_web_browser import CHROMIUM, PHONE, WAIT_MS, join, press, send_guess, to_guessing
from tests.test_web_daemon import guesstimation_daemon

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs/web"


async def screenshots(journal: Path) -> None:
    daemon = guesstimation_daemon(journal)
    assert daemon.page is not None
    base = f"http://127.0.0.1:{daemon.page.port}/"
    daemon.start_controller(asyncio.get_running_loop().time())
    task = asyncio.create_task(daemon.run())
    while not hasattr(daemon, "leds"):
        await asyncio.sleep(0.01)
    try:
        await to_guessing(daemon)
        code = daemon.page.access.code
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            phones = [await (await browser.new_context(viewport=PHONE)).new_page() for _ in "ABC"]
            for phone, seat in zip(phones, "ABC", strict=True):
                await join(phone, base, seat, code)
            ann, bo, cy = phones
            await send_guess(cy, "1972")
            await expect(ann.locator("#facts")).to_contain_text("Guesses in: Cy", timeout=WAIT_MS)
            await ann.fill("#entry-value", "1968")
            await ann.screenshot(path=str(OUT / "guessing.png"), full_page=True)
            await send_guess(ann, "1968")
            await send_guess(bo, "1969")
            await expect(ann.locator("#rows")).to_be_visible(timeout=WAIT_MS)
            await press(daemon, "console.yes")
            await expect(ann.locator("#facts")).to_contain_text("answer is", timeout=WAIT_MS)
            await ann.screenshot(path=str(OUT / "reveal.png"), full_page=True)
            await browser.close()
    finally:
        daemon.stop()
        await task


if __name__ == "__main__":
    families.install()
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(screenshots(Path(directory) / "journal.db"))
    print(f"wrote {OUT}/guessing.png, {OUT}/reveal.png")
