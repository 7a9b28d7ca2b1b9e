"""Guesstimation is a family of its own: it imports no other game family, only the shared core."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = {"rules", "rules.actions", "rules.errors", "rules.log", "rules.players", "rules.text"}


def test_the_family_loads_only_itself_and_the_shared_core() -> None:
    code = (
        "import sys, rules.guesstimation.replay, rules.guesstimation.deck;"
        "print('\\n'.join(m for m in sys.modules if m.split('.')[0] in ('rules', 'firmware_py')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    outside = {name for name in loaded if not name.startswith("rules.guesstimation")} - SHARED
    assert outside == set()
