"""Nothing lost, nothing stuck: the journal, crash recovery, UNDO, and the faults a table
survives (kill -9, contact bounce, stuck inputs, a failing OLED, a vanishing scoreboard, a
full disk). ``make soak`` runs the kill and bounce campaigns longer (GAMETABLE_SOAK=1)."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from luma.core.error import DeviceNotFoundError  # type: ignore[import-untyped]

from drivers.oled import Oled, Screen, open_emulator
from drivers.scoreboard import Link, Scoreboard
from firmware_py.families.geoplunge.table import table_settings
from firmware_py.table.controller import TableSettings
from firmware_py.table.daemon import OledWorker, TableDaemon, main_task_guard
from firmware_py.table.headless import VirtualTable, parse_script, resume_point, run_script
from firmware_py.table.journal import Journal
from firmware_py.table.journal_format import checksum
from firmware_py.table.recorder import JournalMismatch
from tests.faults import SCRIPTS, kill_campaign, recorded_events, reference_run
from tests.soak import SOAK, sized
from tests.test_daemon import _specs

SHORT_SCRIPTS = [
    "shout-won-by-ms",
    "simultaneous-shouts",
    "chummy-no-shout",
    "stuck-buzzer",
    "plunge",
    "guesstimation-two-rounds",  # a three-seat table, guesses from the page and the console
    "states-connect-and-knock",  # claims and a knock typed on the page, the dealer's answers
]


def _lines(name: str) -> list[str]:
    return (SCRIPTS / f"{name}.jsonl").read_text().splitlines()


# --- kill -9 ---------------------------------------------------------------------------------


# one campaign per script, so that parallel workers share them out; the whole match is only
# killed in make soak, where each script takes 250 kills (2 000 in all)
KILLED_SCRIPTS = [*SHORT_SCRIPTS, *(["combo4-match"] if SOAK else [])]


@pytest.mark.parametrize("name", KILLED_SCRIPTS)
def test_kill_minus_9_at_random_points_loses_and_invents_nothing(name: str, tmp_path: Path) -> None:
    """Real SIGKILLs at random moments, 12 per script (84 in all; 2 000 in make soak, whole
    matches included): every decision printed before the kill is in the journal, and the
    restarted table finishes with exactly the record of an uninterrupted run."""
    kills = sized(ci=12, soak=250)
    seed = 20261122 + KILLED_SCRIPTS.index(name)
    report = kill_campaign([name], kills, tmp_path, seed=seed)
    assert report.kills == kills
    assert report.failures == []
    assert report.decisions_checked > kills * 5


class _Died(BaseException):
    """The process dies between two commits."""


def _killed_after(lines: list[str], path: Path, commits: int) -> bool:
    journal = Journal.open(path)
    real_commit = journal.commit
    done = [0]

    def commit() -> None:
        if journal.pending:
            if done[0] >= commits:
                raise _Died
            done[0] += 1
        real_commit()

    journal.commit = commit  # type: ignore[method-assign]
    try:
        run_script(lines, TableSettings(), lambda event: None, journal=journal)
    except _Died:
        return True
    finally:
        journal.close()
    return False


def _played(lines: list[str], path: Path) -> None:
    journal = Journal.open(path)
    try:
        run_script(lines, TableSettings(), lambda event: None, journal=journal)
    finally:
        journal.close()


def _finish(lines: list[str], path: Path) -> list[dict[str, Any]]:
    journal = Journal.open(path)
    settings, steps = parse_script(lines, TableSettings())
    first, levels = resume_point(journal, steps)
    table = VirtualTable(settings, lambda event: None, journal=journal, levels=levels)
    table.play(steps, first=first)
    table.close()
    journal.close()
    return recorded_events(path)


@pytest.mark.parametrize("name", [*SHORT_SCRIPTS, "combo4-match"])
def test_a_stop_after_any_commit_resumes_to_the_same_record(name: str, tmp_path: Path) -> None:
    """Stopped after each commit in turn; the whole match (some 150 commits, each stop replaying
    all before it) after every 5th in make test, after every one in make soak."""
    lines = _lines(name)
    reference, _ = reference_run(lines, tmp_path / "reference.db")
    step = sized(ci=5, soak=1) if name == "combo4-match" else 1
    commits = 0
    while True:
        path = tmp_path / f"stop{commits}.db"
        died = _killed_after(lines, path, commits)
        assert _finish(lines, path) == reference, f"stopped after commit {commits}"
        if not died:
            break
        commits += step
    assert commits > 3


# --- the journal ----------------------------------------------------------------------------


def test_new_journal_moves_the_old_one_aside(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    _played(_lines("plunge"), path)
    Journal.open(path, new=True).close()
    assert list(tmp_path.glob("journal.db.old-*"))
    assert Journal.open(path).is_empty()


def test_undo_is_a_compensating_entry_never_a_deletion(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    lines = [
        '{"setup": {"game": 2}}',
        '{"t": 1, "press": "console.yes"}', '{"t": 1.1, "release": "console.yes"}',
        '{"t": 2, "press": "console.count"}', '{"t": 2.1, "release": "console.count"}',
        '{"t": 9, "press": "console.undo"}', '{"t": 9.1, "release": "console.undo"}',
        '{"t": 10}',
    ]  # fmt: skip
    _played(lines, path)
    events = recorded_events(path)
    kinds = [e["event"] for e in events]
    assert kinds.index("plunge") < kinds.index("undo")  # both kept, in order
    undo = next(e for e in events if e["event"] == "undo")
    assert (undo["what"], undo["t"]) == ("plunge", 9.0)
    with sqlite3.connect(path) as db:
        seqs = [row[0] for row in db.execute("SELECT seq FROM entries ORDER BY seq")]
    assert seqs == list(range(1, len(seqs) + 1))  # nothing ever deleted


def test_a_tampered_journal_does_not_replay(tmp_path: Path) -> None:
    """A decision edited with its checksum made to match: replaying the inputs still tells."""
    path = tmp_path / "journal.db"
    _played(_lines("shout-won-by-ms"), path)
    with sqlite3.connect(path) as db:
        seq, kind, t, wall, body = db.execute(
            'SELECT seq, kind, t, wall, body FROM entries WHERE body LIKE \'%"event":"shout"%\''
        ).fetchone()
        body = body.replace('"first":"B"', '"first":"A"')
        crc = checksum(seq, kind, t, wall, body)
        db.execute("UPDATE entries SET body = ?, crc = ? WHERE seq = ?", (body, crc, seq))
    db.close()
    with pytest.raises(JournalMismatch, match="replay differs"):
        VirtualTable(TableSettings(), lambda e: None, journal=Journal.open(path))


def test_rebuilt_state_equals_the_live_state(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    live = VirtualTable(TableSettings(), lambda e: None, journal=Journal.open(path))
    _, steps = parse_script(_lines("combo4-match"), TableSettings())
    live.play(steps[: len(steps) // 2])
    _stopped(live)
    rebuilt = VirtualTable(TableSettings(), lambda e: None, journal=Journal.open(path))
    assert rebuilt.controller.session == live.controller.session
    assert rebuilt.controller.prompt.key == live.controller.prompt.key
    assert rebuilt.controller.scratch == live.controller.scratch
    assert rebuilt.controller.clock_deadline == live.controller.clock_deadline


# --- timers across a restart -------------------------------------------------------------------


def _chummy_waiting(path: Path) -> VirtualTable:
    lines = [
        '{"setup": {"game": 5}}',
        *(f'{{"t": {t}, "press": "console.{b}"}}\n{{"t": {t + 0.1}, "release": "console.{b}"}}'
          for t, b in ((1, "count"), (7, "yes"), (8, "yes"), (20, "go"))),
        '{"t": 25}',
    ]  # fmt: skip
    settings, steps = parse_script("\n".join(lines).splitlines(), TableSettings())
    table = VirtualTable(settings, lambda e: None, journal=Journal.open(path))
    table.play(steps)
    _stopped(table)
    return table


def _stopped(table: VirtualTable) -> None:
    """The table's process ends as a kill would end it: what it committed stays, and the
    journal is free for the next table (R127)."""
    assert table.recorded is not None
    table.close()
    table.recorded.journal.close()


def _restart(path: Path, now: float, *, elapsed_known: bool = True) -> VirtualTable:
    table = VirtualTable(TableSettings(), lambda e: None, journal=Journal.open(path))
    assert table.recorded is not None
    table.recorded.resume(now, stopped_at=25.0, elapsed_known=elapsed_known)
    return table


def test_a_timer_still_running_resumes_from_its_deadline(tmp_path: Path) -> None:
    _chummy_waiting(tmp_path / "j.db")
    table = _restart(tmp_path / "j.db", 30.0)
    assert table.controller.prompt.key == "ch/waiting1"
    table.advance(35.1)
    assert any(e.get("action") == "chummy.timeout" for e in recorded_events(tmp_path / "j.db"))


def test_a_timer_that_ran_out_while_off_waits_for_the_dealer(tmp_path: Path) -> None:
    _chummy_waiting(tmp_path / "j.db")
    table = _restart(tmp_path / "j.db", 60.0)
    assert table.controller.prompt.key == "recover/chummy"
    table.advance(120.0)  # never silently expired
    assert not any(e.get("action") == "chummy.timeout" for e in recorded_events(tmp_path / "j.db"))


def test_the_dealer_confirms_a_timer_that_ran_out(tmp_path: Path) -> None:
    _chummy_waiting(tmp_path / "j.db")
    table = _restart(tmp_path / "j.db", 60.0)
    table.drive("console.yes", True, 61.0)
    events = recorded_events(tmp_path / "j.db")
    assert {"t": 61.0, "event": "timer_confirmed", "timer": "chummy"} in events
    assert any(e.get("action") == "chummy.timeout" for e in events)


def test_the_dealer_restarts_a_timer_that_ran_out(tmp_path: Path) -> None:
    _chummy_waiting(tmp_path / "j.db")
    table = _restart(tmp_path / "j.db", 60.0)
    table.drive("console.no", True, 61.0)
    assert table.controller.prompt.key == "ch/waiting1"
    assert table.controller.view().screen.big == "15"


def test_after_an_unknown_time_off_every_running_timer_waits(tmp_path: Path) -> None:
    _chummy_waiting(tmp_path / "j.db")
    table = _restart(tmp_path / "j.db", 26.0, elapsed_known=False)
    assert table.controller.prompt.key == "recover/chummy"


def test_the_match_clock_held_after_a_restart_resumes_with_the_time_it_had(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    table = VirtualTable(TableSettings(), lambda e: None, journal=Journal.open(path))
    table.drive("console.go", True, 1.0)
    table.advance(25.0)
    _stopped(table)
    table = _restart(path, 5000.0)
    assert table.controller.prompt.key == "recover/match"
    table.drive("console.no", True, 5001.0)
    assert table.controller.clock_deadline == pytest.approx(5001.0 + 20 * 60 - 24.0)


def test_a_count_cut_short_by_a_restart_is_counted_again(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    table = VirtualTable(table_settings(game=1), lambda e: None, journal=Journal.open(path))
    table.drive("console.count", True, 1.0)
    table.advance(2.5)
    _stopped(table)
    table = _restart(path, 3.0)
    assert table.controller.prompt.key == "bu/plunge"
    assert "count_interrupted" in [e["event"] for e in recorded_events(path)]


# --- contact bounce and stuck inputs -----------------------------------------------------------


def _bounce_storm(seed: int, presses_per_input: int) -> tuple[int, int]:
    """Chatter trains (1-15 transitions, 0.2-1.5 ms apart) around every press and release of
    every input; returns (presses made, presses counted)."""
    draw = random.Random(seed)
    table = VirtualTable(table_settings(game=1), lambda e: None)
    names = [name for name in table.specs if not name.startswith("console.")]  # no flow moves
    t = 1.0
    made = 0
    for _ in range(presses_per_input):
        for name in names:
            for active in (True, False):
                level = not active
                for _ in range(draw.randint(1, 15)):
                    level = not level
                    table.drive(name, level, t)
                    t += draw.uniform(0.0002, 0.0015)
                table.drive(name, active, t)  # the contact settles
                t += 0.05
                table.advance(t)
            made += 1
    table.advance(t + 1.0)
    counted = sum(table.controller.presses[name] for name in names)
    table.close()
    return made, counted


def test_a_bounce_storm_on_every_input_counts_each_press_once() -> None:
    made, counted = _bounce_storm(seed=3, presses_per_input=sized(ci=25, soak=200))
    assert counted == made


def test_a_stuck_buzzer_all_match_long_never_stops_the_other_team(tmp_path: Path) -> None:
    lines = [line for line in _lines("combo4-match") if '"B.shout"' not in line]
    lines.insert(0, '{"t": 0.5, "press": "B.shout"}')  # jammed from the start, never freed
    events: list[dict[str, Any]] = []
    run_script(lines, TableSettings(), events.append)
    stuck = [e for e in events if e["event"] == "stuck"]
    shouts = [e for e in events if e["event"] == "shout"]
    assert stuck and all(e["input"] == "B.shout" for e in stuck)
    assert shouts and all(e["first"] == "A" for e in shouts)
    assert [e for e in events if e["event"] == "match_result"]


@pytest.mark.parametrize("phase", ["bu/race", "ch/reading1", "ds/race1"])
def test_a_buzzer_stuck_at_each_shout_phase_is_flagged_and_recovers(phase: str) -> None:
    game = {"bu": 1, "ch": 5, "ds": 3}[phase[:2]]
    table = VirtualTable(table_settings(game=game), lambda e: None)
    t = 1.0
    table.drive("A.shout", True, t)  # jammed
    for button in ["count"] + (["yes", "yes"] if game == 5 else []):
        table.drive(f"console.{button}", True, t := t + 1)
        table.drive(f"console.{button}", False, t := t + 0.1)
        table.advance(t := t + 5)
    if game != 5:
        table.drive("console.go", True, t := t + 1)
    assert table.controller.prompt.key == phase
    assert table.controller.view().screen.alert == "STUCK A.shout"
    table.drive("A.shout", False, t := t + 1)
    assert table.controller.view().screen.alert is None
    table.drive("B.shout", True, t := t + 1)
    table.advance(t + 1)
    assert table.controller.prompt.key != phase  # B's shout was taken
    table.close()


# --- a failing OLED and a vanishing scoreboard -------------------------------------------------


class _FlakyPanel:
    """luma's dummy device, failing every Nth frame as an I2C bus error would."""

    def __init__(self, every: int, error: Exception) -> None:
        self.device = open_emulator("dummy")
        self.every = every
        self.error = error
        self.calls = 0
        self.failures = 0
        self.invalidated = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.device, name)

    def display(self, image: Any) -> None:
        self.calls += 1
        if self.calls % self.every == 0:
            self.failures += 1
            raise self.error
        self.device.display(image)

    def invalidate(self) -> None:
        self.invalidated += 1


@pytest.mark.parametrize(
    "error",
    [
        OSError(121, "Remote I/O error"),  # smbus2's i2c_rdwr, as luma passes it on
        DeviceNotFoundError("I2C device not found on address: 0x3C"),  # luma's for EIO
    ],
    ids=["OSError", "DeviceNotFoundError"],
)
def test_an_oled_failing_every_nth_frame_ends_on_the_latest_screen(error: Exception) -> None:
    panel = _FlakyPanel(every=2, error=error)
    oled = Oled(device=panel)
    worker = OledWorker(oled)

    async def drawn() -> None:
        for _ in range(400):
            if not worker._busy:
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the OLED worker never finished")

    async def scenario() -> None:
        for n in range(6):  # each frame is drawn before the next; every 2nd write fails
            worker.want(Screen(title="COUNTDOWN", big=str(n)))
            await drawn()

    asyncio.run(scenario())
    shown = open_emulator("dummy")
    Oled(device=shown).show(Screen(title="COUNTDOWN", big="5"))
    assert panel.device.image.tobytes() == shown.image.tobytes()  # type: ignore[attr-defined]
    assert panel.failures >= 3
    assert panel.invalidated == panel.failures  # each recovery redraws the whole screen


def test_a_lost_scoreboard_is_an_alert_on_the_oled_until_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """R741: the table plays on; the dealer sees why the board is dark; one log line each way."""
    import pty

    from drivers.mockpins import mock_factory

    link = tmp_path / "scoreboard"
    main, child = pty.openpty()
    link.symlink_to(os.ttyname(child))
    board = Scoreboard(url=str(link), write_timeout=0.2, retry_seconds=(0.05,))
    views: list[Any] = []
    daemon = TableDaemon(
        settings=table_settings(game=1),
        factory=mock_factory(),
        input_specs=_specs(),
        led_pins={"A": 20, "B": 21},
        scoreboard=board,
        on_view=views.append,
    )

    async def until(condition: Any, task: asyncio.Task[int]) -> None:
        for _ in range(500):
            if task.done():
                task.result()  # a crash fails the test instead of hanging it
            if condition():
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"timed out: {views[-1] if views else None} {board.link}")

    async def scenario() -> None:
        nonlocal main, child
        task = asyncio.create_task(daemon.run())
        await until(lambda: views and board.drain(0.1), task)
        os.close(main)  # the USB cable is pulled
        os.close(child)
        link.unlink()
        daemon.bank.pin("console.count").drive_low()  # the table plays on: the count runs
        await asyncio.sleep(0.1)
        daemon.bank.pin("console.count").drive_high()
        await until(lambda: views[-1].screen.alert == "SCOREBOARD LOST", task)
        main, child = pty.openpty()  # plugged back in
        link.symlink_to(os.ttyname(child))
        await until(lambda: views[-1].screen.alert is None, task)
        daemon.stop()
        await task

    with caplog.at_level("INFO", logger="gametable"):
        asyncio.run(scenario())
    received = os.read(main, 4096).decode()
    assert "SCORE A=0 B=0" in received and "COUNT" in received  # the whole state again
    lost = [r for r in caplog.records if "event=scoreboard_lost" in r.getMessage()]
    back = [r for r in caplog.records if "event=scoreboard_recovered" in r.getMessage()]
    assert len(lost) == 1 and len(back) == 1
    os.close(main)
    os.close(child)


def test_an_unread_scoreboard_is_logged_once_and_never_an_alert(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """R741: loop:// (or a pty) nobody reads fills, then keeps the newest values: the table
    plays on, the OLED shows no alert, the log says it once."""
    from drivers.mockpins import mock_factory

    board = Scoreboard(url="loop://", write_timeout=0.2, retry_seconds=(0.05,))
    views: list[Any] = []
    events: list[dict[str, Any]] = []
    daemon = TableDaemon(
        settings=table_settings(game=1, count_cadence=0.01),
        factory=mock_factory(),
        input_specs=_specs(),
        led_pins={"A": 20, "B": 21},
        scoreboard=board,
        on_view=views.append,
        on_event=events.append,
    )

    for n in range(5000):  # a day of lines nobody read: loop:// holds its 4096 bytes
        board.message(f"line {n}")
        board.drain(0.5)
        if board.link is Link.STALLED:
            break

    async def scenario() -> None:
        task = asyncio.create_task(daemon.run())
        while not views:
            await asyncio.sleep(0.01)
        daemon.bank.pin("console.count").drive_low()  # the table plays on: a count to 5...
        await asyncio.sleep(0.05)
        daemon.bank.pin("console.count").drive_high()
        while not any(event["event"] == "plunge" for event in events):  # ...and its decision
            assert not task.done()
            await asyncio.sleep(0.01)
        daemon.stop()
        await task

    with caplog.at_level("INFO", logger="gametable"):
        asyncio.run(scenario())
    assert caplog.text.count("event=scoreboard_stalled") == 1
    assert all(view.screen.alert != "SCOREBOARD LOST" for view in views)
    assert board.link is Link.STALLED


# --- a full disk, a crashed task -----------------------------------------------------------------


def test_a_failed_journal_write_shows_nothing_as_made_and_is_retried(tmp_path: Path) -> None:
    from drivers.mockpins import mock_factory

    views: list[Any] = []
    journal = Journal.open(tmp_path / "j.db")
    daemon = TableDaemon(
        settings=table_settings(game=1, count_cadence=0.01),
        factory=mock_factory(),
        input_specs=_specs(),
        led_pins={"A": 20, "B": 21},
        journal=journal,
        on_view=views.append,
    )
    real = journal.commit
    failing = {"on": False}

    def commit() -> None:
        if failing["on"] and journal.pending:
            from firmware_py.table.journal import JournalWriteError

            raise JournalWriteError("journal: write failed (database or disk is full)")
        real()

    journal.commit = commit  # type: ignore[method-assign]

    async def scenario() -> None:
        task = asyncio.create_task(daemon.run())
        for _ in range(500):
            if task.done():
                task.result()  # a crash fails the test instead of hanging it
            if daemon.recorded is not None and views:
                break
            await asyncio.sleep(0.01)
        failing["on"] = True
        daemon.bank.pin("console.count").drive_low()
        await asyncio.sleep(0.5)
        shown = views[-1]
        assert shown.screen.alert == "JOURNAL ERROR retrying"
        assert shown.screen.big != "5"  # the count's decisions are not shown as made
        failing["on"] = False
        await asyncio.sleep(1.5)
        assert views[-1].screen.alert is None
        daemon.stop()
        await task

    asyncio.run(scenario())
    kinds = [e["event"] for e in recorded_events(tmp_path / "j.db")]
    assert "plunge" in kinds  # recorded once the disk had room again


def test_a_crashed_task_exits_non_zero() -> None:
    async def crash() -> int:
        raise RuntimeError("a bug")

    assert main_task_guard(crash()) == 1


def test_the_daemon_opens_no_network_listener(tmp_path: Path) -> None:
    import signal
    import time

    config = tmp_path / "table.toml"
    config.write_text(
        '[gpio]\npin_factory = "mock"\n[oled]\nenabled = false\n[scoreboard]\nurl = "loop://"\n'
    )
    command = [sys.executable, "-m", "firmware_py.cli", "run", "--config", str(config)]
    process = subprocess.Popen(
        [*command, "--journal", str(tmp_path / "j.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        time.sleep(2.0)
        sockets = set()
        for fd in Path(f"/proc/{process.pid}/fd").iterdir():
            target = os.readlink(fd)
            if target.startswith("socket:["):
                sockets.add(target[8:-1])
        listening = set()
        for table in ("tcp", "tcp6", "udp", "udp6"):
            for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] in ("0A", "07"):  # LISTEN (tcp), an unconnected bound socket (udp)
                    listening.add(fields[9])
        assert not sockets & listening
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)


def test_a_crash_inside_an_edge_callback_ends_the_daemon_non_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from drivers.mockpins import mock_factory
    from firmware_py.table.controller import TableController

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the controller")

    monkeypatch.setattr(TableController, "on_edge", broken)
    daemon = TableDaemon(
        settings=TableSettings(),
        factory=mock_factory(),
        input_specs=_specs(),
        led_pins={"A": 20, "B": 21},
    )

    async def press_then_run() -> int:
        task = asyncio.create_task(daemon.run())
        while not hasattr(daemon, "bank"):
            await asyncio.sleep(0.01)
        daemon.bank.pin("console.go").drive_low()  # a real gpiozero callback
        return await asyncio.wait_for(task, 10)

    assert main_task_guard(press_then_run()) == 1


@pytest.mark.parametrize("t", [7200, 0, 7200.0])
def test_an_entry_at_a_whole_second_reopens_as_recorded(tmp_path: Path, t: float) -> None:
    """A time given as an int is recorded as the float the journal's REAL column gives back, so
    its checksum holds when the journal is read again."""
    path = tmp_path / "j.db"
    journal = Journal.open(path)
    journal.add("input", t, {"advance": t})
    journal.commit()
    journal.close()
    reopened = Journal.open(path)
    try:
        (entry,) = reopened.entries()
    finally:
        reopened.close()
    assert (entry.t, entry.body) == (7200.0 if t else 0.0, {"advance": t})
