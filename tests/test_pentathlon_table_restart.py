"""The Pentathlon table across a restart, with its journal: the turn's minute and the game's
clock are absolute deadlines; one still running goes on from its deadline, one that ran out
while the table was off waits for the monitor (never silently expired, R252), and a challenge's
time out keeps the clock's time. The rebuilt table is the table that stopped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import VirtualTable
from firmware_py.table.journal import Journal
from tests.faults import recorded_events
from tests.pentathlon_table_helpers import PTable, begin, challenge, record_chip


def _stopped(path: Path, **options: Any) -> PTable:
    """A table whose journal is ``path``, A on turn since t = 1 (the flag received)."""
    table = PTable(journal=path, game="contig-60", **options)
    begin(table, "A")
    return table


def _restart(
    table: PTable, now: float, *, elapsed_known: bool = True, settled: bool = True
) -> VirtualTable:
    assert table.journal is not None
    path, stopped_at = table.journal.path, table.controller.now
    table.close()
    rebuilt = VirtualTable(TableSettings(), lambda event: None, journal=Journal.open(path))
    assert rebuilt.recorded is not None
    rebuilt.recorded.resume(now, stopped_at=stopped_at, elapsed_known=elapsed_known)
    # as the daemon does: the inputs' levels read once the table has resumed
    levels = {name: bool(rebuilt.bank.is_active(name)) for name in rebuilt.specs}
    rebuilt.recorded.prime(levels)
    if settled:  # the settle of a level primed now is read before any press
        rebuilt.advance(now + 0.5)
    return rebuilt


def _tap(table: VirtualTable, name: str, t: float) -> None:
    """A press at ``t``, held a tenth, its settle read before the next input."""
    table.advance(t)
    table.drive(name, True, t)
    table.advance(t + 0.1)
    table.drive(name, False, t + 0.1)
    table.advance(t + 0.5)


def _kinds(path: Path) -> list[str]:
    return [
        event["action"].removeprefix("pentathlon.")
        for event in recorded_events(path)
        if event["event"] == "action"
    ]


def test_the_rebuilt_table_is_the_table_that_stopped(tmp_path: Path) -> None:
    table = record_chip(_stopped(tmp_path / "j.db"), 7).buttons("yes", "next")
    live = table.controller
    session, key, scratch, view = live.session, live.prompt.key, dict(live.scratch), live.view()
    rebuilt = _restart(table, live.now, settled=False).controller
    assert (rebuilt.session, rebuilt.prompt.key, rebuilt.scratch) == (session, key, scratch)
    assert rebuilt.view() == view


def test_a_minute_still_running_goes_on_from_its_deadline(tmp_path: Path) -> None:
    table = _stopped(tmp_path / "j.db").wait(20)
    rebuilt = _restart(table, 40.0)
    assert rebuilt.controller.view().screen.big == "23"  # received at 3.0: 63 - 40
    rebuilt.advance(63.1)
    assert _kinds(tmp_path / "j.db")[-1] == "turn_timeout"


def test_a_minute_that_ran_out_while_off_waits_for_the_monitor(tmp_path: Path) -> None:
    table = _stopped(tmp_path / "j.db").wait(20)
    rebuilt = _restart(table, 500.0)
    assert rebuilt.controller.prompt.key == "recover/turn"
    assert rebuilt.controller.prompt.text == "The turn timer ran out while off: over?"
    rebuilt.advance(5000.0)  # never silently expired
    assert "turn_timeout" not in _kinds(tmp_path / "j.db")


def test_the_monitor_confirms_the_minute_ran_out_and_the_players_are_reminded(
    tmp_path: Path,
) -> None:
    table = _stopped(tmp_path / "j.db").wait(20)
    rebuilt = _restart(table, 500.0)
    _tap(rebuilt, "console.yes", 501.0)
    assert _kinds(tmp_path / "j.db")[-1] == "turn_timeout"
    assert rebuilt.controller.prompt.key == "p/turn1/late"


def test_the_monitor_restarts_the_minute_and_the_turn_has_a_fresh_one(tmp_path: Path) -> None:
    table = _stopped(tmp_path / "j.db").wait(20)
    rebuilt = _restart(table, 500.0)
    _tap(rebuilt, "console.no", 501.0)
    assert rebuilt.controller.prompt.key == "p/turn1"
    assert rebuilt.controller.view().screen.big == "60"
    rebuilt.advance(561.1)
    assert _kinds(tmp_path / "j.db")[-1] == "turn_timeout"


def test_after_an_unknown_time_off_the_running_minute_waits(tmp_path: Path) -> None:
    table = _stopped(tmp_path / "j.db").wait(20)
    rebuilt = _restart(table, 22.0, elapsed_known=False)
    assert rebuilt.controller.prompt.key == "recover/turn"


def test_a_minute_that_ran_out_while_the_monitor_was_entering_a_move_waits_too(
    tmp_path: Path,
) -> None:
    table = _stopped(tmp_path / "j.db").buttons("yes").choose("Chip placed")
    rebuilt = _restart(table, 500.0)
    assert rebuilt.controller.prompt.key == "recover/turn"
    _tap(rebuilt, "console.no", 501.0)  # restart it: the entry is where it was
    assert rebuilt.controller.prompt.key == "p/entry1/contig.play/0"


def test_the_capture_window_is_held_like_the_minute(tmp_path: Path) -> None:
    table = begin(PTable(journal=tmp_path / "j.db", game="fab-a-diffy"), "A")
    rebuilt = _restart(table, 100.0)
    assert rebuilt.controller.prompt.key == "recover/capture"


def test_the_game_clock_that_ran_out_while_off_waits_for_the_monitor(tmp_path: Path) -> None:
    table = _stopped(tmp_path / "j.db", minutes={"contig-60": 5}).flag("A").wait(10)
    rebuilt = _restart(table, 5000.0)
    held = [rebuilt.controller.prompt.key]
    _tap(rebuilt, "console.yes", 5001.0)  # the turn's minute first
    held.append(rebuilt.controller.prompt.key)
    _tap(rebuilt, "console.yes", 5002.0)
    assert held == ["recover/turn", "recover/match"]
    assert _kinds(tmp_path / "j.db")[-2:] == ["turn_timeout", "time_called"]


def test_a_challenge_s_time_out_keeps_the_clock_s_time_across_a_restart(tmp_path: Path) -> None:
    table = challenge(_stopped(tmp_path / "j.db").wait(10), "B", "scoring")
    left = table.controller.view().scoreboard.clock
    assert left is not None
    rebuilt = _restart(table, 9000.0)
    controller = rebuilt.controller
    assert controller.prompt.key == "p/rule1"  # nothing held: no clock ran
    assert controller.view().scoreboard.clock == pytest.approx(left)
    _tap(rebuilt, "console.yes", 9001.0)  # C: B begins a turn
    _tap(rebuilt, "console.yes", 9002.0)  # play on: the clock goes on with its time
    assert controller.clock_deadline == pytest.approx(9002.0 + left)
