"""UNDO after the monitor's confirmation, once the table has sent the result (R998): it takes
the confirmation back at the table as any other decision (the hub keeps what it was sent), and
the monitor's next confirmation is the table's own amendment at the hub (R173), as a GeoPlunge
table's replayed match is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.director.hub.wire.apply import apply_result
from firmware_py.director.record.pentathlon import PentathlonRecord
from firmware_py.director.record.tournament_db import TournamentDB
from firmware_py.families.pentathlon.card import finished_card
from firmware_py.table.hub_wire import Decision
from firmware_py.table.journal import Journal
from rules.pentathlon.catalogue import Game
from rules.pentathlon.monitor_actions import Begins, Confirm, DeclareWin
from rules.pentathlon.record import record as game_record
from rules.tournament.pentathlon import Pentathlete, PentathlonPoints
from tests.pentathlon_helpers import A, game_of
from tests.pentathlon_table_helpers import PTable, begin

NOW = "2026-05-09T09:00:00+00:00"
LATER = "2026-05-09T09:40:00+00:00"


@pytest.fixture
def record(tmp_path: Path) -> Iterator[TournamentDB]:
    """Ann v Ben seated at table 1 for Queens & Guards in round 1."""
    players = (Pentathlete("Ann", "III"), Pentathlete("Ben", "III"))
    made = PentathlonRecord.start(
        tmp_path / "t.db", PentathlonPoints(), players, now=NOW, by="director"
    )
    event = PentathlonRecord(made)
    with made.writing():
        seat = event.event().seat(1, 1, Game.QUEENS_AND_GUARDS, "Ann", "Ben")
        event.add_seat(seat, now=NOW, by="director")
    with made:
        yield made


def confirmed_tie(tmp_path: Path) -> PTable:
    """B begins; a tie by agreement; the monitor confirms it: the table has sent it."""
    table = PTable(journal=tmp_path / "table-1.db", outbox=True, game="queens-guards")
    begin(table, "B").buttons("yes").choose("Tie: agreed").buttons("yes")
    assert table.game.phase == "over"
    return table


def sent_results(journal: Journal) -> list[Decision]:
    """The table's ``game_over`` decisions in its outbox, as the hub reads them."""
    return [
        Decision(out.journal, out.seq, out.wall, out.session, out.event)
        for out in journal.outgoing(after=0, limit=1000)
        if out.event["event"] == "game_over"
    ]


def test_r998_a_log_without_its_confirmation_is_the_result_waiting_for_it() -> None:
    """The rules' side of UNDO (the log replayed without its last action): nothing of the
    confirmation is left, and confirming again gives the same result."""
    waiting = game_of(Game.QUEENS_AND_GUARDS, Begins(A), DeclareWin(A, "queen-surrounded"))
    confirmed = game_of(
        Game.QUEENS_AND_GUARDS, Begins(A), DeclareWin(A, "queen-surrounded"), Confirm()
    )
    assert (waiting.phase, waiting.result) == ("result", None)
    assert waiting.play is not None and confirmed.result == waiting.play.pending


def test_r998_undo_takes_the_confirmation_back_to_the_result_waiting(tmp_path: Path) -> None:
    table = confirmed_tie(tmp_path).buttons("undo")
    assert (table.game.phase, table.game.result, table.key) == ("result", None, "p/result")
    assert table.named("undo")[-1]["what"] == "pentathlon.confirm"
    table.close()


def test_r998_the_confirmation_undone_stays_sent_and_nothing_withdraws_it(
    tmp_path: Path,
) -> None:
    table = confirmed_tie(tmp_path).buttons("undo")
    assert table.journal is not None
    (sent,) = sent_results(table.journal)
    assert sent.event["how"] == "agreement"
    table.close()


def test_r998_the_next_confirmation_with_another_result_is_the_table_s_amendment(
    tmp_path: Path, record: TournamentDB
) -> None:
    table = confirmed_tie(tmp_path).buttons("undo", "undo", "yes").choose("Win: Queen")
    table.buttons("yes")  # the monitor confirms the other result
    assert table.game.phase == "over" and table.game.result is not None
    assert table.journal is not None
    first, second = sent_results(table.journal)
    recorded = apply_result(record, 1, first, now=LATER).event
    assert recorded is not None and recorded.outcome == "recorded"
    amended = apply_result(record, 1, second, now=LATER).event
    assert amended is not None and amended.outcome == "amended"
    (_, entry) = PentathlonRecord(record).history(1, 1)
    assert entry.reason == f"table 1 changed its result at the table (journal entry {second.seq})"
    assert entry.result.winner == table.game.result.winner
    table.close()


def test_r998_the_same_result_confirmed_again_leaves_the_record_unchanged(
    tmp_path: Path, record: TournamentDB
) -> None:
    table = confirmed_tie(tmp_path).buttons("undo", "yes")
    assert table.journal is not None
    first, second = sent_results(table.journal)
    apply_result(record, 1, first, now=LATER)
    again = apply_result(record, 1, second, now=LATER).event
    assert again is not None and again.outcome == "unchanged"
    table.close()


def test_r998_the_card_goes_with_the_confirmation_and_comes_back_with_the_new_result(
    tmp_path: Path,
) -> None:
    table = confirmed_tie(tmp_path).buttons("undo")
    assert finished_card(game_record(table.game)) is None
    table.buttons("undo", "yes").choose("Win: Queen").buttons("yes")
    card = finished_card(game_record(table.game))
    assert card is not None
    assert "B reached the goal" in card and '"result">TIE' not in card
    table.close()
