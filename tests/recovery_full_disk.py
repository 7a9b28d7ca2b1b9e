"""A table's journal on a disk that fills up, and the person doing what the table then says:
run in a mount namespace of its own (``in_a_small_disk``) on a tmpfs of 256 KiB, so nothing
outside it fills. Prints one JSON object: each step's status and lines, and what the journal
held at the start and at the end."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.journal_helpers import CLI, SCRIPTS

UNSHARE = ["unshare", "--mount", "--map-root-user"]
SIZE = "256k"


def in_a_small_disk(place: Path, config: Path, *, new_journal: bool) -> dict[str, Any]:
    """The steps below on a small disk mounted at ``place``; what they found."""
    done = subprocess.run(
        [*UNSHARE, sys.executable, "-m", "tests.recovery_full_disk", str(place), str(config)]
        + (["--new-journal"] if new_journal else []),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _decisions(path: Path) -> list[dict[str, Any]]:
    shown = subprocess.run(
        [*CLI, "journal", "show", "--json", str(path)], capture_output=True, text=True, check=True
    )
    return list(json.loads(shown.stdout)["decisions"])


def _run(config: Path, journal: Path, *extra: str) -> dict[str, Any]:
    from tests.recovery_helpers import run_until_ready

    code, out, err = run_until_ready(config, "--journal", str(journal), *extra)
    return {"code": code, "out": out, "err": err}


def main(place: Path, config: Path, new_journal: bool) -> None:
    place.mkdir(exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE}", "tmpfs", str(place)], check=True)
    journal = place / "journal.db"
    script = str(SCRIPTS / "plunge.jsonl")
    subprocess.run(
        [*CLI, "sim", "--headless", "--script", script, "--journal", str(journal)],
        capture_output=True,
        check=True,
    )
    before = _decisions(journal)
    filler = place / "filler"
    with (
        filler.open("wb") as out,
        Path("/dev/zero").open("rb") as zeros,
        contextlib.suppress(OSError),  # until the disk is full
    ):
        shutil.copyfileobj(zeros, out)
    extra = ("--new-journal",) if new_journal else ()
    full = _run(config, journal, *extra)
    filler.unlink()  # "make room on that disk": a file of the person's own, not the journal's
    again = _run(config, journal, *extra)
    aside = sorted(
        name
        for name in os.listdir(place)
        if ".old-" in name and not name.endswith(("-wal", "-shm", "-journal"))
    )
    after = _decisions(place / aside[0]) if new_journal and aside else _decisions(journal)
    print(json.dumps({"full": full, "again": again, "before": before, "after": after}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), "--new-journal" in sys.argv[3:])
