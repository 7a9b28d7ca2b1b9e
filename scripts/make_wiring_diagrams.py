"""Draw the wiring diagram of every table config the repository ships (config/*.toml but the
sample deck) and turn each into a picture for docs/hardware.md: docs/hardware/<config>.png.
``gametable config wiring`` writes the SVG; chromium (Debian's, headless) screenshots it at the
SVG's own size. Run from the repository root: ``.venv/bin/python scripts/make_wiring_diagrams.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "hardware"
CHROMIUM = "/usr/bin/chromium"
DECK = ROOT / "config" / "guesstimation-sample-deck.toml"


def draw(config: Path, folder: Path) -> Path:
    svg = folder / f"{config.stem}.svg"
    gametable = ROOT / ".venv" / "bin" / "gametable"
    # the config's path as the docs name it, so the picture says where it came from
    subprocess.run(
        [gametable, "config", "wiring", config.relative_to(ROOT), "-o", svg], cwd=ROOT, check=True
    )
    width, height = re.search(r'width="(\d+)" height="(\d+)"', svg.read_text()).groups()  # type: ignore[union-attr]
    png = OUT / f"{config.stem}.png"
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--window-size={width},{height}",
            f"--screenshot={png}",
            svg.as_uri(),
        ],
        check=True,
        capture_output=True,
    )
    return png


def main() -> int:
    OUT.mkdir(exist_ok=True)
    configs = sorted(path for path in (ROOT / "config").glob("*.toml") if path != DECK)
    with tempfile.TemporaryDirectory() as folder:
        made = [draw(config, Path(folder)) for config in configs]
    print(f"wrote {', '.join(path.name for path in made)} in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
