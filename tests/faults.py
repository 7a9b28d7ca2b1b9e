"""Fault injection shared by the tests and ``make soak``: kill -9 at random points of a
scripted match, then restart from the journal and compare with an uninterrupted run."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import run_script
from firmware_py.table.journal import Journal

SCRIPTS = Path(__file__).resolve().parents[1] / "docs/scripts"


def recorded_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():  # killed before its journal was made
        return []
    journal = Journal.open_read_only(path)  # as `journal show` would, beside a live table
    try:
        return [entry.body for entry in journal.entries() if entry.kind == "event"]
    finally:
        journal.close()


def reference_run(lines: list[str], path: Path) -> tuple[list[dict[str, Any]], float]:
    """The uninterrupted run's recorded decisions, and how long it took."""
    started = time.perf_counter()
    journal = Journal.open(path)
    try:
        run_script(lines, TableSettings(), lambda event: None, journal=journal)
    finally:
        journal.close()
    return recorded_events(path), time.perf_counter() - started


@dataclass(frozen=True, slots=True)
class KillOutcome:
    printed: list[dict[str, Any]]  # what the killed process had printed (shown) before dying
    recorded: list[dict[str, Any]]  # what its journal held after the kill
    final: list[dict[str, Any]]  # the journal after restarting and finishing the script
    recovery_seconds: float  # reopening and rebuilding the table from the journal


def kill_and_resume(lines: list[str], path: Path, delay: float) -> KillOutcome:
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the table, printing each decision once it is committed
        os.close(reader)
        code = 0
        try:
            journal = Journal.open(path)

            def shown(event: dict[str, Any]) -> None:
                os.write(writer, (json.dumps(event) + "\n").encode())

            run_script(lines, TableSettings(), shown, journal=journal)
        except BaseException:
            code = 1
        os._exit(code)
    os.close(writer)
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    with os.fdopen(reader, "rb") as pipe:
        output = [json.loads(line) for line in pipe.read().splitlines() if line.strip()]
    # a refused page entry is printed as the page's answer, not a decision: never journaled
    printed = [event for event in output if event["event"] != "entry_refused"]
    recorded = recorded_events(path)
    started = time.perf_counter()
    journal = Journal.open(path)
    try:
        from firmware_py.table.headless import VirtualTable, parse_script, resume_point

        settings, steps = parse_script(lines, TableSettings())
        first, levels = resume_point(journal, steps)
        table = VirtualTable(settings, lambda event: None, journal=journal, levels=levels)
        recovery = time.perf_counter() - started
        table.play(steps, first=first)
        table.close()
    finally:
        journal.close()
    return KillOutcome(printed, recorded, recorded_events(path), recovery)


@dataclass
class KillReport:
    kills: int = 0
    decisions_checked: int = 0
    worst_recovery: float = 0.0
    failures: list[str] | None = None


def kill_campaign(names: list[str], kills: int, workdir: Path, seed: int) -> KillReport:
    """Kill -9 ``kills`` times at random moments, spread over the named scripts."""
    draw = random.Random(seed)
    report = KillReport(failures=[])
    references = {}
    for name in names:
        lines = (SCRIPTS / f"{name}.jsonl").read_text().splitlines()
        events, seconds = reference_run(lines, workdir / f"{name}.reference.db")
        references[name] = (lines, events, seconds)
    for number in range(kills):
        name = names[number % len(names)]
        lines, reference, seconds = references[name]
        path = workdir / f"{name}.{number}.db"
        outcome = kill_and_resume(lines, path, draw.uniform(0, seconds * 1.1))
        report.kills += 1
        report.decisions_checked += len(outcome.final)
        report.worst_recovery = max(report.worst_recovery, outcome.recovery_seconds)
        problems = []
        if outcome.recorded[: len(outcome.printed)] != outcome.printed:
            problems.append("a printed decision is missing from the journal")
        if outcome.final != reference:
            problems.append("the resumed run differs from the uninterrupted one")
        if problems:
            assert report.failures is not None
            report.failures.append(f"{name} kill {number}: {'; '.join(problems)}")
        for leftover in workdir.glob(f"{name}.{number}.db*"):
            leftover.unlink()
    return report
