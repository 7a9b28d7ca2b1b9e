"""Table journals of flow 3 replay to the decisions they recorded; a new table runs flow 4
(R840, R843, R796).

Flow 3's result and Juggle's count took no NEXT, and its restore of a player who had had no turn
yet said "restored to before B's turn". Flow 4 opens the Director's decisions with NEXT there
(R840) and says such a restore is nothing (R843), so a journal written with flow 3 is replayed
under flow 3's screens and rulings, or its presses would make other decisions and it would be
set aside. Each fixture (``tests/pentathlon_flow3_journals.py``) holds the presses and the
decisions the gametable of flow 3 (commit 7a8b21d) made from them, produced by that code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_py.families.pentathlon.options import FLOW, fresh_options, older_flow, table_settings
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import JournalMismatch, RecordedTable
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.play import RULINGS, RULINGS_R746_R749
from tests import pentathlon_flow3_journals as flow3
from tests.cli_helpers import run
from tests.pentathlon_table_helpers import reopened, write_journal

JOURNALS = {
    "next-at-the-result": (
        "queens-guards",
        flow3.NEXT_AT_THE_RESULT,
        flow3.NEXT_AT_THE_RESULT_DECISIONS,
    ),
    "restore-at-the-first-turn": (
        "juggle",
        flow3.RESTORE_AT_THE_FIRST_TURN,
        flow3.RESTORE_DECISIONS,
    ),
}


def _written(tmp_path: Path, name: str, flow: int) -> tuple[Path, Any, list[dict[str, Any]]]:
    game, presses, decisions = JOURNALS[name]
    path, settings = tmp_path / "journal.db", table_settings(game=game, flow=flow)
    write_journal(path, settings, presses, decisions)
    return path, settings, decisions


def _game(table: RecordedTable) -> PentathlonGame:
    session = table.controller.session
    assert isinstance(session, PentathlonGame)
    return session


@pytest.mark.parametrize("name", JOURNALS)
def test_a_flow_3_journal_replays_to_the_decisions_it_recorded(tmp_path: Path, name: str) -> None:
    path, settings, decisions = _written(tmp_path, name, flow=3)
    journal, table = reopened(path, settings)  # no JournalMismatch
    assert table.committed == decisions
    assert _game(table).rulings == RULINGS_R746_R749
    journal.close()


@pytest.mark.parametrize("name", JOURNALS)
def test_the_same_presses_under_flow_4_are_not_these_decisions(tmp_path: Path, name: str) -> None:
    """What the version is for: each journal went through a screen or a text flow 4 changed."""
    path, settings, _ = _written(tmp_path, name, flow=4)
    with pytest.raises(JournalMismatch, match="replay differs from the record"):
        reopened(path, settings)


def test_a_flow_3_game_keeps_its_restore_text(tmp_path: Path) -> None:
    path, settings, _ = _written(tmp_path, "restore-at-the-first-turn", flow=3)
    journal, table = reopened(path, settings)
    assert _game(table).challenges[0].effect == (
        "the board is restored to before B's turn; A begins a turn"
    )
    journal.close()


def test_a_table_starting_afresh_names_flow_4_and_plays_rulings_4(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.db")
    table = RecordedTable.start(
        journal=journal,
        settings=table_settings(game="juggle"),
        now=0.0,
        read_pin=lambda n: False,
    )
    assert (table.controller.settings.options["flow"], FLOW) == (4, 4)
    assert _game(table).rulings == RULINGS == 4
    journal.close()


def test_the_log_names_a_flow_3_journal_s_rulings() -> None:
    options = table_settings(game="juggle", flow=3).options
    assert older_flow(options) == "flow-3-and-the-rulings-before-R840-R843(R796)"
    assert older_flow(fresh_options(table_settings(game="juggle").options)) is None


def test_the_command_s_card_of_a_flow_3_journal_is_the_table_s(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Rulebook: the score card is "THE ONLY Official Record": `gametable pentathlon card`
    replays a journal under the rulings its table played (R796), so its card says what the
    table's said, not today's text."""
    path, _, _ = _written(tmp_path, "restore-at-the-first-turn", flow=3)
    code, out, err = run(capsys, "pentathlon", "card", str(path))
    assert (code, err) == (0, "")
    assert "the board is restored to before B&#x27;s turn" in out
    assert "no turn yet" not in out
