"""The director's printed pages as chromium prints them on each paper, and each printed page's
words: one way for every test that counts a print's pages (issue 26: A4 and US Letter)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from playwright.async_api import async_playwright

from tests.browser_helpers import CHROMIUM

STYLESHEET = Path(__file__).parent.parent / "firmware_py/director/hub/page/static/page.css"
PAPERS = ("A4", "Letter")


def print_on_papers(html: str, tmp_path: Path) -> dict[str, Path]:
    """``html`` (a page of the director's, its stylesheet put inline) printed by chromium to a
    PDF on each of ``PAPERS``."""
    style = f"<style>{STYLESHEET.read_text()}</style>"
    html = html.replace('<link rel="stylesheet" href="/static/page.css">', style)
    pdfs = {paper: tmp_path / f"sheets-{paper}.pdf" for paper in PAPERS}

    async def scenario() -> None:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM)
            page = await browser.new_page()
            await page.set_content(html)
            for paper, pdf in pdfs.items():
                await page.pdf(path=str(pdf), format=paper)
            await browser.close()

    asyncio.run(scenario())
    return pdfs


def pdf_pages(pdf: Path, *, layout: bool = False) -> list[str]:
    """Each page's words, as ``pdfinfo`` counts the pages and ``pdftotext`` reads them
    (``layout``: in their places on the page, a line of the page a line of text)."""
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True)
    count = int(next(line for line in info.stdout.splitlines() if line.startswith("Pages:"))[6:])
    keep = ["-layout"] if layout else []
    return [
        subprocess.run(
            ["pdftotext", "-f", str(n), "-l", str(n), *keep, str(pdf), "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for n in range(1, count + 1)
    ]
