"""A day at the table (issue 18): the real daemon for 3 minutes of real time, the unread
``loop://`` scoreboard included, its decisions delivered to the real hub on a real mosquitto
(the hub killed -9 halfway), and long days of 20-minute matches on the headless simulator's
virtual time. The 3-hour form with its figures is ``make soak``; the figures of the virtual
day are in ``make bench``."""

from __future__ import annotations

from pathlib import Path

from bench.day import (
    DAY,
    FILES_MOST,
    STORAGE_TARGET,
    Sample,
    growth_cycle_to_cycle,
    growth_within_long_matches,
    virtual_day,
    watch,
)
from firmware_py.table.journal import PAGE_SIZE

MB = 1_000_000


def test_three_minutes_of_real_play_end_cleanly_with_every_output_and_the_hub_attached(
    tmp_path: Path,
) -> None:
    day = watch(tmp_path, 180.0)  # one run for every assertion: it takes 3 minutes
    assert day.exit_code == 0 and day.stderr == ""
    played = {match["script"]: match for match in day.matches}
    # the first two matches of the day, whole: the second on loop://, which nobody reads
    assert played[DAY[0]]["finished"] and played[DAY[0]]["board"] == "pty"
    assert played[DAY[1]]["finished"] and played[DAY[1]]["board"] == "loop"
    assert day.phone_updates >= len(day.matches)  # the three phones followed the page
    assert day.board_bytes > 0  # the slow board read some of it
    # each match's daemon is freed once collected: only the last, held by the loop's signal
    # handler until the next replaces it (a daemon kept would keep its sockets and memory)
    assert all(match["daemons_left"] <= 1 for match in day.matches)
    assert max(sample.threads for sample in day.samples) <= 16
    # the journal, the board, the page and its 3 phones, the loop's own: never more, all day
    assert max(sample.files for sample in day.samples) <= FILES_MOST
    # the hub link: killed -9 halfway, started again, stopped cleanly at the end
    assert len(day.hub_kills) == len(day.hub_away) == 1  # its page answered again
    assert day.hub_exit_code == 0 and day.hub_stderr == ""
    assert day.hub_samples  # sampled as the table is
    # every decision the table committed is held by the hub's ledger, none twice, none waiting
    # (the last match waited for its confirmation before the table stopped)
    delivery = day.delivery
    assert delivery is not None and delivery.committed > 0
    assert delivery.journals == len(day.matches)  # a journal a match, the last ones carried on
    assert (delivery.lost, delivery.doubled, delivery.waiting) == (0, 0, 0), delivery.examples


def test_a_long_day_of_matches_writes_the_same_each_match(tmp_path: Path) -> None:
    matches = virtual_day(tmp_path, 8)  # 2 h 40 min of play
    # Each entry's checksum covers its wall time, and SQLite keeps an integer in 1 to 8 bytes by
    # its size: the same match may end a page either side. The day's matches may differ by one
    # page, never grow.
    sizes = [match["journal_bytes"] for match in matches]
    assert max(sizes) - min(sizes) <= PAGE_SIZE
    assert len({match["log_lines"] for match in matches}) == 1
    assert all(match["written_bytes"] <= STORAGE_TARGET for match in matches)
    # memory settles: the second half of the day grows by no more than allocator noise
    half = matches[len(matches) // 2 :]
    assert half[-1]["rss"] - half[0]["rss"] <= 2 * MB


def _match(script: str, ended_at: float, rss: int, seconds: float = 60.0) -> dict[str, object]:
    return {
        "script": script,
        "ended_at": ended_at,
        "rss": rss,
        "seconds": seconds,
        "finished": True,
    }


def test_growth_over_the_day_compares_each_script_with_itself_a_cycle_later() -> None:
    cycle = [_match("short", 100.0, 50 * MB), _match("long", 1300.0, 60 * MB)]
    second = [_match("short", 3700.0, 51 * MB), _match("long", 4900.0, 60 * MB)]
    third = [_match("short", 7300.0, 52 * MB), _match("long", 8500.0, 60 * MB)]
    figure = growth_cycle_to_cycle([*cycle, *second, *third], scripts=2)
    # short grows 1 MB an hour, long not at all: the median of (0, 0, 1, 1) is the upper's 1
    assert figure.value.startswith("+1.00 MB/h") and figure.met is False


def test_growth_over_the_day_needs_two_cycles_after_the_first() -> None:
    cycle = [_match("short", 100.0, 50 * MB), _match("long", 1300.0, 60 * MB)]
    figure = growth_cycle_to_cycle([*cycle, _match("short", 3700.0, 80 * MB)], scripts=2)
    assert figure.met is None


def test_growth_within_a_long_match_is_the_slope_of_its_own_samples() -> None:
    match = _match("combo4-match", 1300.0, 0, seconds=1200.0)
    growing = [Sample(at, 50 * MB + int(at * 100), 20, 10) for at in range(0, 1301, 10)]
    figure = growth_within_long_matches([match], growing)
    assert figure.value.startswith("+0.36 MB/h") and figure.met is False  # 100 B/s
    settled = [Sample(at, 50 * MB, 20, 10) for at in range(0, 1301, 10)]
    assert growth_within_long_matches([match], settled).met is True
