"""Every recovery instruction the table prints, followed literally with a kill -9 at each step of
it (issue 25, R900-R904): shared by ``make test`` (a few trials) and ``make soak`` (many).

Each trial: a table on the hub (its outbox in use) plays a script into its journal and is
killed with SIGKILL at a random moment; the journal is then put in the state an instruction is
printed for (a new match, a damaged journal, a journal of another table, of another schema, a
journal reached through a link); the table is started as it would be and prints the
instruction; the person does what it says, word for word, and each ``gametable run`` of it is
killed with SIGKILL at a random moment before it is ready, and done again, until it is. Then:
every decision the first table showed is in its journal (set aside or not), every decision it
had not delivered waits in the journal now in place (carried), and no line told a person to
move, delete or rename a file of the journal's."""

from __future__ import annotations

import json
import random
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.table.journal_file import connect_read_only
from tests.journal_helpers import CLI, MOCK_TABLE
from tests.recovery_helpers import killed_on_the_hub, run_until_ready, waiting

# Words that would tell a person to handle a journal's own files (R900).
FILE_CHORES = re.compile(
    r"\b(move|delete|remove|rename)\s+(them|it|the file|the journal|its \w+|\S+-(wal|shm))\b",
    re.IGNORECASE,
)
SCRIPTS = ("plunge", "combo4-match")


@dataclass
class Trial:
    """One instruction: how the journal comes to need it, what the table then says (a pattern
    whose first group, if any, is a path the person is told to give), and the command the
    person then runs (``{journal}``, ``{said}`` and ``{config}`` filled in)."""

    name: str
    arrange: Callable[[Path, Path], tuple[Path, Path]]  # (journal, config) -> what run is given
    says: str
    follow: tuple[str, ...]
    first: tuple[str, ...] = ()  # what the table is started with when it says it


@dataclass
class CampaignReport:
    instructions: int = 0
    kills: int = 0
    decisions_checked: int = 0
    lost: int = 0
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"instructions followed {self.instructions}, kills {self.kills}, "
            f"decisions checked {self.decisions_checked}, lost {self.lost}"
        )


def _as_it_is(journal: Path, config: Path) -> tuple[Path, Path]:
    return journal, config


def _damaged(journal: Path, config: Path) -> tuple[Path, Path]:
    """An input entry changed, its checksum left: the journal is damaged, its decisions sound."""
    with sqlite3.connect(journal) as db:
        seq, body = db.execute(
            "SELECT seq, body FROM entries WHERE kind = 'input' ORDER BY seq LIMIT 1"
        ).fetchone()
        db.execute("UPDATE entries SET body = ? WHERE seq = ?", (body + " ", seq))
    db.close()
    return journal, config


def _another_table(journal: Path, config: Path) -> tuple[Path, Path]:
    other = config.with_name("pentathlon.toml")
    other.write_text(MOCK_TABLE + '[table]\nfamily = "pentathlon"\n')
    return journal, other


def _newer_schema(journal: Path, config: Path) -> tuple[Path, Path]:
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.close()
    return journal, config


def _through_a_link(journal: Path, config: Path) -> tuple[Path, Path]:
    link = journal.with_name("latest.db")
    link.symlink_to(journal)
    return link, config


TRIALS = (
    # docs/durability.md: each match begins with --new-journal, a killed table's too
    Trial(
        "the next match after a kill", _as_it_is, "", ("--new-journal",), first=("--new-journal",)
    ),
    Trial("a damaged journal", _damaged, r"the next start begins a new match", ()),
    Trial(
        "a journal of another table",
        _another_table,
        r"begin a new match with gametable run --new-journal",
        ("--new-journal",),
    ),
    Trial(
        "a journal of a newer gametable",
        _newer_schema,
        r"`gametable run --new-journal` moves it aside",
        ("--new-journal",),
    ),
    Trial(
        "a journal through a symbolic link",
        _through_a_link,
        r"symbolic link to (\S+); give that path to --journal",
        ("--new-journal",),
        first=("--new-journal",),
    ),
)


def _killed_run(config: Path, argv: list[str], after: float) -> str:
    """``gametable run`` killed with SIGKILL ``after`` seconds in (or done by then): its lines."""
    process = subprocess.Popen(
        [*CLI, "run", "--config", str(config), *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    time.sleep(after)
    process.send_signal(signal.SIGKILL)
    out, _ = process.communicate(timeout=30)
    return out


def _holder(place: Path, identity: str) -> Path | None:
    """The journal file in ``place`` whose id is ``identity``."""
    for candidate in sorted(place.glob("journal.db*")):
        if candidate.is_symlink() or candidate.name.endswith(("-wal", "-shm", ".creating")):
            continue
        try:
            with sqlite3.connect(f"file:{candidate}?mode=ro&immutable=1", uri=True) as db:
                row = db.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
            db.close()
        except sqlite3.Error:
            continue
        if row is not None and row[0] == identity:
            return candidate
    return None


def one_trial(trial: Trial, place: Path, draw: random.Random, ready: float) -> CampaignReport:
    report = CampaignReport()
    place.mkdir()
    config = place / "table.toml"
    config.write_text(MOCK_TABLE)
    journal = place / "journal.db"
    script = draw.choice(SCRIPTS)
    shown = killed_on_the_hub(journal, script, at=draw.uniform(0, 0.5))
    if not journal.exists():
        return report  # killed before its journal was made: nothing to recover
    held = waiting(journal)
    identity = _identity(journal)
    given, given_config = trial.arrange(journal, config)
    first = run_until_ready(given_config, "--journal", str(given), *trial.first)
    lines = [first[1] + first[2]]
    problems = []
    said: str | None = None
    if trial.says:
        found = re.search(trial.says, lines[0])
        if found is None:
            problems.append(f"it did not say {trial.says!r}: {lines[0]!r}")
        elif found.groups():
            said = found[1]
    target = said if said is not None else str(given)
    argv = ["--journal", target, *trial.follow]
    if not problems:
        report.instructions += 1
        for _ in range(draw.randint(1, 2)):  # a kill -9 at a random moment of the step
            lines.append(_killed_run(given_config, argv, draw.uniform(0, ready * 1.3)))
            report.kills += 1
        code, out, err = run_until_ready(given_config, *argv)  # done again, as told
        lines.append(out + err)
        if code != 0:
            problems.append(f"the step did not start the table ({code}): {out + err!r}")
    holder = _holder(place, identity)
    recorded = _raw_decisions(holder) if holder is not None else []
    if recorded[: len(shown)] != shown:
        problems.append("a decision the table showed is not in its journal")
    now = waiting(journal) if journal.exists() else set()
    lost = len(held - now)
    report.lost += lost
    report.decisions_checked += len(shown) + len(held)
    if lost:
        problems.append(f"{lost} undelivered decisions are not carried")
    for line in lines:
        if FILE_CHORES.search(line):
            problems.append(f"a line names a chore with the journal's files: {line!r}")
    if problems:
        report.failures.append(f"{trial.name} ({script}): {'; '.join(problems)}")
    return report


def _raw_decisions(path: Path) -> list[dict[str, Any]]:
    """The decisions a journal holds, read without its checks (a damaged one's too)."""
    connection, release = connect_read_only(path)
    try:
        rows = connection.execute("SELECT body FROM entries WHERE kind = 'event' ORDER BY seq")
        return [json.loads(body) for (body,) in rows]
    finally:
        connection.close()
        release()


def _identity(journal: Path) -> str:
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        (value,) = db.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
    db.close()
    return str(value)


def time_to_ready(workdir: Path) -> float:
    """How long ``gametable run`` takes to be ready here: the span the kills are drawn from."""
    config = workdir / "ready.toml"
    config.write_text(MOCK_TABLE)
    started = time.perf_counter()
    run_until_ready(config, "--journal", str(workdir / "ready.db"))
    return time.perf_counter() - started


def campaign(trials: int, workdir: Path, seed: int) -> CampaignReport:
    draw = random.Random(seed)
    ready = time_to_ready(workdir)
    total = CampaignReport()
    for number in range(trials):
        trial = TRIALS[number % len(TRIALS)]
        found = one_trial(trial, workdir / f"trial-{number}", draw, ready)
        total.instructions += found.instructions
        total.kills += found.kills
        total.decisions_checked += found.decisions_checked
        total.lost += found.lost
        total.failures += found.failures
    return total


def main() -> int:
    """``python -m tests.recovery_campaign [--trials N] [--seed S]``: the campaign, its line."""
    import argparse
    import tempfile

    from firmware_py import families

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=len(TRIALS))
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    families.install()
    with tempfile.TemporaryDirectory(prefix="gametable-recovery-") as directory:
        report = campaign(args.trials, Path(directory), seed=args.seed)
    print(report.line())
    for failure in report.failures:
        print(f"FAILED {failure}")
    return 1 if report.failures or report.lost else 0


if __name__ == "__main__":
    raise SystemExit(main())
