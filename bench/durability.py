"""Durability figures: kills survived, decisions checked, bounce presses made vs counted, and
the time to rebuild the table from its journal (target <= 1 s)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.figures import Figure, Section
from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import VirtualTable, run_script
from firmware_py.table.journal import Journal
from tests.faults import SCRIPTS, kill_campaign
from tests.test_durability import SHORT_SCRIPTS, _bounce_storm

KILLS = 40
STORM_PRESSES = 25


def recovery_seconds(workdir: Path) -> float:
    """Rebuild a whole recorded match: open the journal, replay it, check it, ready."""
    path = workdir / "match.db"
    lines = (SCRIPTS / "combo4-match.jsonl").read_text().splitlines()
    recorded = Journal.open(path)
    run_script(lines, TableSettings(), lambda event: None, journal=recorded)
    recorded.close()  # the table stops: its journal is free for the rebuild (R127)
    started = time.perf_counter()
    journal = Journal.open(path)
    VirtualTable(TableSettings(), lambda event: None, journal=journal).close()
    seconds = time.perf_counter() - started
    journal.close()
    return seconds


def durability(kills: int = KILLS, storm_presses: int = STORM_PRESSES) -> Section:
    with tempfile.TemporaryDirectory() as directory:
        workdir = Path(directory)
        report = kill_campaign([*SHORT_SCRIPTS, "combo4-match"], kills, workdir, seed=7)
        rebuild = recovery_seconds(workdir)
    made, counted = _bounce_storm(seed=11, presses_per_input=storm_presses)
    failures = report.failures or []
    survived = f"{report.kills - len(failures)}/{report.kills}"
    worst = report.worst_recovery
    figures = [
        Figure("kill -9 survived (random moments, 6 scripts)", survived, "all", not failures),
        Figure("decisions checked after the restarts", str(report.decisions_checked), "-", None),
        Figure(
            "bounce storm: presses made / counted", f"{made} / {counted}", "equal", made == counted
        ),
        Figure(
            "recovery: rebuild a whole match", f"{rebuild * 1e3:.1f} ms", "<= 1 s", rebuild <= 1
        ),
        Figure("recovery after a kill, worst", f"{worst * 1e3:.1f} ms", "<= 1 s", worst <= 1),
    ]
    how = (
        f"{kills} SIGKILLs at random moments of forked table processes playing the example "
        "scripts with a journal; after each, the table is rebuilt from the journal and the "
        "script finished, and the record must equal an uninterrupted run's with every printed "
        "decision present. Bounce storms: 1-15 transitions 0.2-1.5 ms apart around every press "
        f"and release of every seat input, {storm_presses} presses each, through MockFactory "
        "pins and the controller's debounce. Recovery: perf_counter around opening the journal "
        "of a whole recorded match and rebuilding the table (replay checked against the record)."
    )
    return Section("durability", how, figures)
