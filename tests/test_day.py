"""A day at the table (issue 18): the real daemon for 3 minutes of real time, the unread
``loop://`` scoreboard included, and long days of 20-minute matches on the headless simulator's
virtual time. The 3-hour form with its figures is ``make soak``; the figures of the virtual
day are in ``make bench``."""

from __future__ import annotations

from pathlib import Path

from bench.day import DAY, FILES_MOST, STORAGE_TARGET, virtual_day, watch

MB = 1_000_000


def test_three_minutes_of_real_play_end_cleanly_with_every_output_attached(
    tmp_path: Path,
) -> None:
    day = watch(tmp_path, 180.0)
    assert day.exit_code == 0 and day.stderr == ""
    played = {match["script"]: match for match in day.matches}
    # the first two matches of the day, whole: the second on loop://, which nobody reads
    assert played[DAY[0]]["finished"] and played[DAY[0]]["board"] == "pty"
    assert played[DAY[1]]["finished"] and played[DAY[1]]["board"] == "loop"
    assert day.phone_updates >= len(day.matches)  # the three phones followed the page
    assert day.board_bytes > 0  # the slow board read some of it
    assert max(sample.threads for sample in day.samples) <= 16
    # the journal, the board, the page and its 3 phones, the loop's own: never more, all day
    assert max(sample.files for sample in day.samples) <= FILES_MOST


def test_a_long_day_of_matches_writes_the_same_each_match(tmp_path: Path) -> None:
    matches = virtual_day(tmp_path, 8)  # 2 h 40 min of play
    assert len({match["journal_bytes"] for match in matches}) == 1
    assert len({match["log_lines"] for match in matches}) == 1
    assert all(match["written_bytes"] <= STORAGE_TARGET for match in matches)
    # memory settles: the second half of the day grows by no more than allocator noise
    half = matches[len(matches) // 2 :]
    assert half[-1]["rss"] - half[0]["rss"] <= 2 * MB
