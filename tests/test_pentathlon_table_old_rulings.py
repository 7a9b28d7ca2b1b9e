"""Table journals written before issue 20 replay to the decisions they recorded (R786, R796).

Issue 20 changed what some rulings do and say (R781, R782: an I on Juggle's beginning player's
declared win now ends the game at once; a ruling that ends the game says so; a declared win
"stands") and what Stars & Bars takes and asks (R783, R784: the stacks bounded by the board, the
removal of the CPA stacks asked only when all four are turned over). A journal replays the
presses it recorded, so a journal written before must be replayed under the rulings and screens
it was written with, or it does not replay and is set aside. Each fixture is a journal as the
gametable before issue 20 wrote it (its settings name no flow), built here entry by entry: the
presses it recorded and the decisions it made, in that gametable's words.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from drivers.inputs import InputSpec
from drivers.mockpins import mock_factory
from firmware_py.families.pentathlon.options import table_settings
from firmware_py.table.controller import CONSOLE, TableSettings
from firmware_py.table.daemon import TableDaemon
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import JournalMismatch, RecordedTable
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.play import RULINGS, RULINGS_BEFORE_ISSUE_20
from tests.pentathlon_table_helpers import reopened, write_journal

# Juggle: A begins and declares "board covered" while holding the flag; B challenges it on
# "the board completely covered", ruled I. Before issue 20 the game went on: the declared win
# was confirmed, B lost the next turn, and A's flag pass ended the game with A's win.
JUGGLE_PRESSES = [
    "console.yes",
    "console.yes",
    "console.yes",
    "B.stand",
    "console.next",
    "console.next",
    "console.yes",
    "console.yes",
    "console.next",
    "console.yes",
    "console.yes",
    "console.yes",
    "console.yes",
    "console.yes",
]
JUGGLE_DECISIONS: list[dict[str, Any]] = [
    {"t": 1.0, "event": "clock", "started": True, "minutes": 30},
    {"t": 1.0, "event": "action", "action": "pentathlon.begins", "player": "A"},
    {"t": 1.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 2.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {
        "t": 3.0,
        "event": "action",
        "action": "pentathlon.declare_win",
        "player": "A",
        "goal": "board-covered",
        "by_monitor": False,
    },
    {"t": 3.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 4.0, "event": "prompt", "key": "p/challenge1/rule1", "text": "B challenges: rule?"},
    {"t": 5.0, "event": "option", "key": "p/challenge1/rule1", "shown": "placement"},
    {"t": 6.0, "event": "option", "key": "p/challenge1/rule1", "shown": "board covered"},
    {"t": 7.0, "event": "prompt", "key": "p/challenge1/rule2", "text": "B challenges: rule 2?"},
    {
        "t": 8.0,
        "event": "action",
        "action": "pentathlon.challenge",
        "challenger": "B",
        "rules": ["board-covered"],
    },
    {
        "t": 8.0,
        "event": "prompt",
        "key": "p/rule1",
        "text": "Challenge 1: B on board covered (declared win)",
    },
    {"t": 8.0, "event": "clock", "paused": True, "left": 1793.0},
    {"t": 9.0, "event": "option", "key": "p/rule1", "shown": "I: incorrect"},
    {"t": 10.0, "event": "action", "action": "pentathlon.rule", "ruling": "I"},
    {
        "t": 10.0,
        "event": "ruling",
        "challenge": 1,
        "challenger": "B",
        "rule": "board-covered",
        "ruling": "I",
        "by": "monitor",
        "effect": (
            "the declared win is confirmed; loss of turn: B loses the next turn; "
            "warning to B: 1 I/IA so far: 2 more end the game as a loss"
        ),
    },
    {
        "t": 10.0,
        "event": "warning",
        "player": "B",
        "i_ia": 1,
        "warning": "1 I/IA so far: 2 more end the game as a loss",
    },
    {
        "t": 10.0,
        "event": "prompt",
        "key": "p/ruled1/1",
        "text": (
            "Ch 1 I: the declared win is confirmed; loss of turn: B loses the next turn; "
            "warning to B: 1 I/IA so far: 2 more end the game as a loss"
        ),
    },
    {"t": 11.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 11.0, "event": "clock", "resumed": True, "left": 1793.0},
    {"t": 12.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {"t": 13.0, "event": "action", "action": "pentathlon.pass_flag", "player": "A"},
    {
        "t": 13.0,
        "event": "game_result",
        "winner": "A",
        "how": "goal",
        "detail": "A reached the goal of Juggle",
    },
    {
        "t": 13.0,
        "event": "prompt",
        "key": "p/result",
        "text": "A wins: A reached the goal of Juggle",
    },
    {"t": 14.0, "event": "action", "action": "pentathlon.confirm"},
    {
        "t": 14.0,
        "event": "game_over",
        "winner": "A",
        "how": "goal",
        "detail": "A reached the goal of Juggle",
        "scores": None,
        "challenges": {"A": {"C": 0, "I": 0, "IA": 0}, "B": {"C": 0, "I": 1, "IA": 0}},
    },
    {
        "t": 14.0,
        "event": "prompt",
        "key": "p/over",
        "text": "Game over. A wins: A reached the goal of Juggle",
    },
]


# Stars & Bars: A places a card for 3, B one for 0; at A's second turn "Stack points" with one
# CPA stack turned over, the removal of the CPA stacks asked (and answered NO), no OPA stack. The
# board holds 6 cards: since issue 20 a CPA stack turned over needs 7 (R783).
STARS_PRESSES = [
    "console.yes",
    "console.yes",
    "console.yes",
    "console.next",
    "console.next",
    "console.next",
    "console.yes",
    "A.shout",
    "console.yes",
    "console.yes",
    "console.yes",
    "B.shout",
    "console.yes",
    "console.next",
    "console.yes",
    "console.next",
    "console.yes",
    "console.no",
    "console.yes",
]
STARS_DECISIONS: list[dict[str, Any]] = [
    {"t": 1.0, "event": "clock", "started": True, "minutes": 30},
    {"t": 1.0, "event": "action", "action": "pentathlon.begins", "player": "A"},
    {"t": 1.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 2.0, "event": "prompt", "key": "p/menu1", "text": "A on turn: record"},
    {"t": 3.0, "event": "prompt", "key": "p/entry1/sb.place/0", "text": "Points of the card"},
    {"t": 4.0, "event": "number", "value": 1},
    {"t": 5.0, "event": "number", "value": 2},
    {"t": 6.0, "event": "number", "value": 3},
    {"t": 7.0, "event": "action", "action": "pentathlon.sb.place", "points": 3},
    {"t": 7.0, "event": "prompt", "key": "p/turn1", "text": "A on turn, round 1"},
    {"t": 8.0, "event": "action", "action": "pentathlon.pass_flag", "player": "A"},
    {"t": 8.0, "event": "prompt", "key": "p/turn2", "text": "B on turn, round 1"},
    {"t": 9.0, "event": "prompt", "key": "p/menu2", "text": "B on turn: record"},
    {"t": 10.0, "event": "prompt", "key": "p/entry2/sb.place/0", "text": "Points of the card"},
    {"t": 11.0, "event": "action", "action": "pentathlon.sb.place", "points": 0},
    {"t": 11.0, "event": "prompt", "key": "p/turn2", "text": "B on turn, round 1"},
    {"t": 12.0, "event": "action", "action": "pentathlon.pass_flag", "player": "B"},
    {"t": 12.0, "event": "prompt", "key": "p/turn3", "text": "A on turn, round 2"},
    {"t": 13.0, "event": "prompt", "key": "p/menu3", "text": "A on turn: record"},
    {"t": 14.0, "event": "option", "key": "p/menu3", "shown": "Stack points"},
    {"t": 15.0, "event": "prompt", "key": "p/entry3/sb.stacks/0", "text": "CPA stacks turned over"},
    {"t": 16.0, "event": "number", "value": 1},
    {"t": 17.0, "event": "prompt", "key": "p/entry3/sb.stacks/1", "text": "4 CPA stacks removed?"},
    {"t": 18.0, "event": "prompt", "key": "p/entry3/sb.stacks/2", "text": "OPA stacks removed"},
    {
        "t": 19.0,
        "event": "action",
        "action": "pentathlon.sb.stacks",
        "cpa_turned": 1,
        "cpa_removed": False,
        "opa_removed": 0,
    },
    {"t": 19.0, "event": "prompt", "key": "p/turn3", "text": "A on turn, round 2"},
]


def _before_issue_20(game: str) -> TableSettings:
    """A table's settings as the gametable before issue 20 journaled them: no ``flow``."""
    settings = table_settings(game=game)
    return replace(settings, options={k: v for k, v in settings.options.items() if k != "flow"})


def _game(table: RecordedTable) -> PentathlonGame:
    session = table.controller.session
    assert isinstance(session, PentathlonGame)
    return session


def test_an_old_juggle_journal_with_an_i_on_a_waiting_declaration_replays(
    tmp_path: Path,
) -> None:
    """Before issue 20: "the declared win is confirmed; loss of turn: B loses the next turn",
    the game ending at A's flag pass. Replayed, it gives back exactly those decisions."""
    path, settings = tmp_path / "journal.db", _before_issue_20("juggle")
    write_journal(path, settings, JUGGLE_PRESSES, JUGGLE_DECISIONS)
    journal, table = reopened(path, settings)  # no JournalMismatch
    assert table.committed == JUGGLE_DECISIONS
    game = _game(table)
    assert (game.phase, game.rulings) == ("over", RULINGS_BEFORE_ISSUE_20)
    assert game.result is not None and game.result.winner is not None
    assert game.result.winner.value == "A"
    journal.close()


def test_an_old_stars_and_bars_journal_with_stack_points_replays(tmp_path: Path) -> None:
    """The stack entry as it was: the removal always asked, the stacks not bounded by the
    board (R783 came with issue 20). The game goes on from where it stood."""
    path, settings = tmp_path / "journal.db", _before_issue_20("stars-bars")
    write_journal(path, settings, STARS_PRESSES, STARS_DECISIONS)
    journal, table = reopened(path, settings)
    assert table.committed == STARS_DECISIONS
    game = _game(table)
    assert game.play is not None and game.play.board.scores == (3 + 2, 0)  # 2 for the stack
    assert table.controller.prompt.key == "p/turn3"  # A's turn goes on
    journal.close()


def test_the_same_journal_under_today_s_flow_is_not_these_decisions(tmp_path: Path) -> None:
    """What the version is for: the same presses with today's flow in the settings are played
    under today's rulings (the I ends the game at once, R781), and the decisions recorded
    before are not theirs."""
    path, settings = tmp_path / "journal.db", table_settings(game="juggle", flow=3)
    write_journal(path, settings, JUGGLE_PRESSES, JUGGLE_DECISIONS)
    with pytest.raises(JournalMismatch, match="replay differs from the record"):
        reopened(path, settings)


def test_a_table_starting_afresh_plays_today_s_rulings(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.db")
    table = RecordedTable.start(
        journal=journal, settings=table_settings(game="juggle"), now=0.0, read_pin=lambda n: False
    )
    assert _game(table).rulings == RULINGS
    journal.close()


def test_the_log_says_the_journal_replays_with_the_flow_before_issue_20(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """One line at the start, never a crash-loop: the journal is replayed as it was written."""
    path, settings = tmp_path / "journal.db", _before_issue_20("juggle")
    write_journal(path, settings, JUGGLE_PRESSES, JUGGLE_DECISIONS)
    names = [f"{s}.{w}" for s in "AB" for w in ("stand", "shout")]
    names += [f"console.{b}" for b in CONSOLE]
    journal = Journal.open(path)
    daemon = TableDaemon(
        settings=settings,
        factory=mock_factory(),
        input_specs=[InputSpec(name=n, pin=pin) for pin, n in enumerate(names, start=2)],
        led_pins={"A": 20, "B": 21},
        journal=journal,
    )
    with caplog.at_level(logging.INFO, logger="gametable"):
        daemon.start_controller(100.0)
    older = [r.getMessage() for r in caplog.records if "event=journal_older" in r.getMessage()]
    assert older == [
        f"event=journal_older journal={path} "
        "replayed_with=flow-1-and-the-rulings-before-issue-20(R786,R796)"
    ]
    assert daemon.controller.prompt.key == "p/over"
    journal.close()
