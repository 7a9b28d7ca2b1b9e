"""``make soak``: the durability figures at length (2 000 kills, long bounce storms), then a day
at the table in real time: the real daemon plays full matches of every family for
``GAMETABLE_SOAK_HOURS`` hours (3 unless told), its page followed by three phones, its
scoreboard a pty read slowly and ``loop://`` read by nobody, its decisions delivered to the real
hub on a real mosquitto, the hub killed (-9) once halfway (bench/day.py)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from bench.day import (
    DAY,
    DRAIN_SECONDS,
    FILES_MOST,
    HUB_RESTART_SECONDS,
    THREADS_MOST,
    Day,
    growth_cycle_to_cycle,
    growth_within_long_matches,
    slope_per_hour,
    storage_figures,
    watch,
)
from bench.durability import durability
from bench.figures import Figure, Section, print_methods, print_table
from firmware_py import families

MB = 1_000_000
HUB_GROWTH_SPAN = 1800.0  # seconds of the restarted hub's samples its RSS growth is taken over


def day_section(day: Day) -> Section:
    matches = day.matches
    finished = [m for m in matches if m["finished"]]
    played = sorted({m["family"] for m in finished})
    left = max((m.get("daemons_left", 0) for m in matches), default=0)
    largest = max((s.rss for s in day.samples), default=0)
    files = [s.files for s in day.samples] or [0]
    threads = [s.threads for s in day.samples] or [0]
    figures = [
        Figure(
            "hours of real time, matches (finished)",
            f"{day.seconds / 3600:.2f} h, {len(matches)} ({len(finished)})",
            ">= 3 h",
            day.seconds >= 3 * 3600 if day.seconds >= 3600 else None,
        ),
        Figure("families played through", ", ".join(played), "all 4", len(played) == 4),
        Figure(
            "daemon exits 0, nothing on stderr",
            f"exit {day.exit_code}, {len(day.stderr)} chars",
            "exit 0, 0 chars",
            day.exit_code == 0 and not day.stderr,
        ),
        *storage_figures(finished or matches),
        growth_within_long_matches(matches, day.samples),
        growth_cycle_to_cycle(matches, len(DAY)),
        Figure(
            "daemons of past matches left once collected",
            str(left),
            "<= 1 (the loop's signal handler holds the last)",
            left <= 1,
        ),
        Figure(  # all four families, the page and Pillow in one process: not run's figure
            "RSS, largest sample (every family loaded)", f"{largest / MB:.1f} MB", "-", None
        ),
        Figure(
            "open files, largest sample",
            str(max(files)),
            f"<= {FILES_MOST}",
            max(files) <= FILES_MOST,
        ),
        Figure(
            "threads, largest sample",
            str(max(threads)),
            f"<= {THREADS_MOST}",
            max(threads) <= THREADS_MOST,
        ),
        Figure(
            "page updates seen by 3 phones", str(day.phone_updates), "> 0", day.phone_updates > 0
        ),
        Figure("bytes the slow board read", str(day.board_bytes), "-", None),
        Figure(
            "matches whose board was stalled at the end",
            str(sum(m["board_link"] == "stalled" for m in matches)),
            "-",
            None,
        ),
        *hub_figures(day),
    ]
    return Section(
        "a day at the table (real daemon, real time)",
        "python -m bench.day: TableDaemon as gametable run builds it, on MockFactory pins "
        "keeping no history of their states (as a Pi's; R1084), the "
        "OLED on luma's dummy device, the web page on 127.0.0.1 followed by 3 server-sent-event "
        "clients, a journal per match on disk; docs/scripts played at their own times (a cycle "
        "of Guesstimation, STATES, Pentathlon Contig 60, a championship, Combo 4, Combo 3); "
        "the scoreboard alternates a pty read 8 bytes a second and loop:// read by nobody. "
        "RSS, open files and threads sampled from /proc every 10 s; bytes written from "
        "/proc/self/io per match. After each match the soak collects the stopped daemon's "
        "reference cycles (gc.collect(): gametable run builds one daemon for its life, the "
        "soak one a match) and counts the daemons left. RSS growth is given twice: within "
        "each match of 15 min or more (one daemon, its first 2 min apart; the largest slope), "
        "and cycle to cycle (each script's RSS at its end against the same script's a cycle "
        "later, the first cycle apart as it loads every family; the median); `gametable "
        "run`'s own RSS (one family) is make bench's. "
        "The hub link: a mosquitto on 127.0.0.1 and `gametable hub run` with its tournament "
        "record (a Combo 4 tournament with nothing paired: the results are refused or not "
        "recorded, and confirmed all the same), each match on a new journal with its outbox "
        "(--new-journal: what the last one had not delivered carried into it), the hub killed "
        "(-9) halfway, once a decision is on its way (the table's outbox, read as its WAL is "
        f"written, not empty), and started again {HUB_RESTART_SECONDS:g} s later (systemd's "
        "RestartSec); the day's last match "
        "waits for the hub's confirmation "
        f"({DRAIN_SECONDS:g} s at most). "
        "Then, everything stopped, the fault campaign's checker (tests/hall_checker.py) reads "
        "the table's journals against the record: a decision is delivered when the hub's "
        "ledger (hub_deliveries: `through` per table and journal) covers it, doubled when the "
        "record holds it twice. The hub's RSS, open files and threads are sampled as the "
        "table's.",
        figures,
    )


def hub_figures(day: Day) -> list[Figure]:
    """What the hub link did all day: nothing lost, nothing doubled, the outbox empty (R744)."""
    delivery = day.delivery
    figures = [
        Figure(
            "hub killed (-9) and started again, at",
            ", ".join(f"{at:.0f} s" for at in day.hub_kills) or "never",
            "once",
            len(day.hub_kills) == 1,
        ),
        Figure(
            "hub exits 0 at the end, nothing on stderr",
            f"exit {day.hub_exit_code}, {len(day.hub_stderr)} chars",
            "exit 0, 0 chars",
            day.hub_exit_code == 0 and not day.hub_stderr,
        ),
    ]
    if delivery is None:
        return [*figures, Figure("decisions delivered to the hub", "not checked", "-", False)]
    carried = sum(m.get("carried", 0) for m in day.matches)
    away = ", ".join(f"{back - killed:.1f} s" for killed, back in day.hub_away)
    drained = day.matches[-1].get("drain_seconds") if day.matches else None
    hub_rss = [s.rss for s in day.hub_samples] or [0]
    # the restarted hub, over the second half of its life (its first minutes warm it up)
    since = max(day.hub_kills, default=0.0)
    restarted = [(s.at, float(s.rss)) for s in day.hub_samples if s.at > since]
    half = restarted[len(restarted) // 2 :]
    span = half[-1][0] - half[0][0] if half else 0.0
    growth = (  # minutes of samples are noise: an hour's slope needs a long enough half
        f"{slope_per_hour(half) / MB:+.2f} MB/h"
        if span >= HUB_GROWTH_SPAN
        else f"too short ({span / 60:.0f} of {HUB_GROWTH_SPAN / 60:.0f} min)"
    )
    figures += [
        Figure(
            "decisions committed, held by the hub's ledger",
            f"{delivery.committed}, {delivery.delivered} ({delivery.journals} journals, "
            f"{delivery.ledger_journals} in the ledger)",
            "all",
            delivery.committed > 0 and delivery.delivered == delivery.committed,
        ),
        Figure("decisions left undelivered", str(delivery.lost), "0", delivery.lost == 0),
        Figure("decisions doubled in the record", str(delivery.doubled), "0", not delivery.doubled),
        Figure("table's outbox at the end", str(delivery.waiting), "0", delivery.waiting == 0),
        Figure(
            "  the table's outbox as the hub was killed",
            "not read" if day.outbox_at_kill is None else str(day.outbox_at_kill),
            "-",
            None,
        ),
        Figure(
            "  hub away (kill -9 to its page answering), decisions committed meanwhile",
            f"{away or 'never'}, {delivery.while_away}",
            "-",
            None,
        ),
        Figure("  carried into the next match's journal", str(carried), "-", None),
        Figure(
            "  results the hub applied, by outcome",
            ", ".join(f"{name} {count}" for name, count in sorted(delivery.outcomes.items()))
            or "none",
            "-",
            None,
        ),
        Figure(
            "  the last match's outbox confirmed in",
            f"not within {DRAIN_SECONDS:g} s" if drained is None else f"{drained:.1f} s",
            "-",
            None,
        ),
        Figure("hub RSS, largest sample", f"{max(hub_rss) / MB:.1f} MB", "-", None),
        Figure("  hub RSS growth per hour, since its restart", growth, "-", None),
        Figure(
            "hub open files, threads: largest sample",
            f"{max((s.files for s in day.hub_samples), default=0)}, "
            f"{max((s.threads for s in day.hub_samples), default=0)}",
            "-",
            None,
        ),
    ]
    return figures


def real_day(hours: float) -> Section:
    with tempfile.TemporaryDirectory(dir="/var/tmp") as directory:
        day = watch(Path(directory), hours * 3600, lambda m: print(m, file=sys.stderr))
    return day_section(day)


def main() -> int:
    families.install()
    hours = float(os.environ.get("GAMETABLE_SOAK_HOURS", "3"))
    sections = [durability(kills=2000, storm_presses=200)]
    sections.append(real_day(hours))
    print_table(sections)
    print_methods(sections)
    figures = [figure for section in sections for figure in section.figures]
    return 0 if all(figure.met is not False for figure in figures) else 1


if __name__ == "__main__":
    raise SystemExit(main())
