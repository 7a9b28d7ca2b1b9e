"""Table journals of flow 2 replay to the decisions they recorded; a new table runs flow 3
(R746-R749, R796).

Flow 2's menus offered Stars & Bars' "Stack points" at the first turn, "Deck out" with
Fab-a-Diffy's deck whole, and ended with "Flag passes" after an infraction; its rules played on
over 140 without 15 ahead. Flow 3 (R746-R749) changed each, so a journal written with flow 2 is
replayed under flow 2's menus and rulings, or its presses would make other decisions and it
would be set aside. Each fixture (``tests/pentathlon_flow2_journals.py``) holds the presses and
the decisions the gametable of flow 2 (commit 575a6b1) made from them, produced by that code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_py.families.pentathlon.options import (
    FLOW,
    fresh_options,
    older_flow,
    table_settings,
)
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import JournalMismatch, RecordedTable
from rules.pentathlon.fab_a_diffy import FabBoard
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.play import RULINGS, RULINGS_ISSUE_20
from rules.pentathlon.results import How
from rules.pentathlon.stars_bars import StarsBoard
from tests import pentathlon_flow2_journals as flow2
from tests.pentathlon_table_helpers import reopened, write_journal

JOURNALS = {
    "stack-points-at-the-first-turn": (
        "stars-bars",
        flow2.STACKS_AT_THE_FIRST_TURN,
        flow2.STACKS_DECISIONS,
    ),
    "over-140-plays-on": ("stars-bars", flow2.OVER_140_PLAYS_ON, flow2.OVER_140_DECISIONS),
    "flag-passes-after-an-infraction": (
        "stars-bars",
        flow2.FLAG_PASSES_AFTER_AN_INFRACTION,
        flow2.FLAG_PASSES_DECISIONS,
    ),
    "deck-out-at-the-first-turn": (
        "fab-a-diffy",
        flow2.DECK_OUT_AT_THE_FIRST_TURN,
        flow2.DECK_OUT_DECISIONS,
    ),
}


def _written(
    tmp_path: Path, name: str, flow: int
) -> tuple[Path, Any, list[str], list[dict[str, Any]]]:
    game, presses, decisions = JOURNALS[name]
    path, settings = tmp_path / "journal.db", table_settings(game=game, flow=flow)
    write_journal(path, settings, presses, decisions)
    return path, settings, presses, decisions


def _game(table: RecordedTable) -> PentathlonGame:
    session = table.controller.session
    assert isinstance(session, PentathlonGame)
    return session


def _live(tmp_path: Path, game: str, presses: list[str]) -> RecordedTable:
    """A table starting afresh on an empty journal, the presses made as the fixtures made
    them (a second apart, a tenth held)."""
    journal = Journal.open(tmp_path / "live.db")
    table = RecordedTable.start(
        journal=journal, settings=table_settings(game=game), now=0.0, read_pin=lambda n: False
    )
    for second, name in enumerate(presses, start=1):
        t = float(second)
        table.edge(name, t, True, t)
        table.edge(name, t + 0.1, False, t + 0.1)
    return table


@pytest.mark.parametrize("name", JOURNALS)
def test_a_flow_2_journal_replays_to_the_decisions_it_recorded(tmp_path: Path, name: str) -> None:
    path, settings, _, decisions = _written(tmp_path, name, flow=2)
    journal, table = reopened(path, settings)  # no JournalMismatch
    assert table.committed == decisions
    assert _game(table).rulings == RULINGS_ISSUE_20
    journal.close()


@pytest.mark.parametrize("name", JOURNALS)
def test_the_same_presses_under_flow_3_are_not_these_decisions(tmp_path: Path, name: str) -> None:
    """What the version is for: each journal went through a menu or a bound flow 3 changed."""
    path, settings, _, _ = _written(tmp_path, name, flow=3)
    with pytest.raises(JournalMismatch, match="replay differs from the record"):
        reopened(path, settings)


def test_a_flow_2_game_plays_on_over_140_as_it_did(tmp_path: Path) -> None:
    path, settings, _, _ = _written(tmp_path, "over-140-plays-on", flow=2)
    journal, table = reopened(path, settings)
    game = _game(table)
    assert game.play is not None and isinstance(game.play.board, StarsBoard)
    assert (game.phase, game.play.board.scores) == ("play", (141, 127))
    assert table.controller.prompt.key == "p/menu3"
    labels = [option.label for option in table.controller.prompt.options]
    assert labels[:2] == ["Card placed", "Stack points"]  # flow 2's menu: no stack on the board
    journal.close()


def test_a_flow_2_game_keeps_its_deck_out_with_the_deck_whole(tmp_path: Path) -> None:
    path, settings, _, _ = _written(tmp_path, "deck-out-at-the-first-turn", flow=2)
    journal, table = reopened(path, settings)
    game = _game(table)
    assert game.play is not None and isinstance(game.play.board, FabBoard)
    assert (game.play.board.games, game.play.board.game_number) == ((None,), 2)
    journal.close()


def test_a_table_starting_afresh_names_the_latest_flow_not_flow_2(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.db")
    table = RecordedTable.start(
        journal=journal,
        settings=table_settings(game="stars-bars"),
        now=0.0,
        read_pin=lambda n: False,
    )
    assert table.controller.settings.options["flow"] == FLOW > 2
    assert _game(table).rulings == RULINGS > RULINGS_ISSUE_20
    journal.close()


def test_the_log_names_a_flow_2_journal_s_rulings() -> None:
    options = table_settings(game="stars-bars", flow=2).options
    assert older_flow(options) == "flow-2-and-the-rulings-before-R746-R749(R796)"
    assert older_flow(fresh_options(table_settings(game="stars-bars").options)) is None


# --- a new game: flow 3's menus and rulings ----------------------------------------------------


def test_flow_3_offers_no_stack_points_at_the_first_turn(tmp_path: Path) -> None:
    """R749: the presses that chose Stack points under flow 2 show another option."""
    table = _live(tmp_path, "stars-bars", ["console.yes"] * 3)
    labels = [option.label for option in table.controller.prompt.options]
    assert table.controller.prompt.key == "p/menu1" and "Stack points" not in labels


def test_flow_3_ends_stars_and_bars_over_140_with_a_tie(tmp_path: Path) -> None:
    """R747: the round of 141 and 127 ends the game, a tie, where flow 2 played on."""
    table = _live(tmp_path, "stars-bars", flow2.OVER_140_PLAYS_ON[:-1])
    play = _game(table).play
    assert play is not None and play.pending is not None
    assert (play.pending.winner, play.pending.how) == (None, How.AWARD)
    assert "over 140 points, the game ends" in play.pending.detail
    assert table.controller.prompt.key == "p/result"


def test_flow_3_offers_the_director_s_result_after_an_infraction(tmp_path: Path) -> None:
    """R748: NO on the menu's first option after an infraction shows the Director's tie."""
    table = _live(tmp_path, "stars-bars", flow2.FLAG_PASSES_AFTER_AN_INFRACTION[:-1])
    prompt = table.controller.prompt
    assert prompt.options[table.controller.cursor].label == "Director: tie"


def test_flow_3_offers_no_deck_out_with_the_deck_whole(tmp_path: Path) -> None:
    """R746: Deck out only once the deck cannot give the strips a show needs."""
    table = _live(tmp_path, "fab-a-diffy", flow2.DECK_OUT_AT_THE_FIRST_TURN[:6])
    labels = [option.label for option in table.controller.prompt.options]
    assert table.controller.prompt.key == "p/menu1" and "Deck out" not in labels
