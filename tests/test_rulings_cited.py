"""Every ruling the code, the tests and the docs cite is written in docs/rulings.md, once."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULINGS = ROOT / "docs" / "rulings.md"
CITING = (
    "docs",
    "firmware_py",
    "rules",
    "tests",
    "scripts",
    "bench",
    "config",
    "scoreboard_fw",
    "README.md",
)
CITED_AS = re.compile(r"(?<![A-Za-z0-9_])R(\d{1,4})(?![0-9])")


def _written() -> list[int]:
    return [int(n) for n in re.findall(r"^### R(\d+)\.", RULINGS.read_text(), re.MULTILINE)]


def _citing_files() -> list[Path]:
    found: list[Path] = []
    for name in CITING:
        place = ROOT / name
        files = place.rglob("*") if place.is_dir() else [place]
        found += [f for f in files if f.suffix in {".md", ".py", ".toml", ".js", ".html"}]
    return [f for f in found if f != RULINGS]


def test_every_ruling_is_written_once() -> None:
    assert [n for n, count in Counter(_written()).items() if count > 1] == []


def test_every_ruling_cited_is_written() -> None:
    written = set(_written())
    missing = {
        f"R{n} in {path.relative_to(ROOT)}"
        for path in _citing_files()
        for n in map(int, CITED_AS.findall(path.read_text(errors="replace")))
        if n not in written
    }
    assert sorted(missing) == []
