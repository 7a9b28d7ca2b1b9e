"""The STATES table across a restart, with its journal: the rebuilt table is the table that
stopped, in the middle of a hand, of a claim being judged or of a knock's last round, and it
plays on to the same result. The deck it started with is kept in the journal (R321)."""

from __future__ import annotations

from pathlib import Path

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import Entry, VirtualTable
from firmware_py.table.journal import Journal
from tests.states_table_helpers import StatesTable


def _rebuilt(table: StatesTable) -> VirtualTable:
    assert table.journal is not None
    path = table.journal.path
    table.close()
    rebuilt = VirtualTable(TableSettings(), lambda event: None, journal=Journal.open(path))
    assert rebuilt.recorded is not None
    return rebuilt


def _same(table: StatesTable, rebuilt: VirtualTable) -> None:
    live, again = table.controller, rebuilt.controller
    assert (again.log, again.session, again.scratch, again.prompt.key) == (
        live.log,
        live.session,
        live.scratch,
        live.prompt.key,
    )
    assert again.view() == live.view()


def test_a_claim_checked_on_the_page_survives_a_restart(tmp_path: Path) -> None:
    table = StatesTable(journal=tmp_path / "journal.db").begin("Ann").shout("A")
    table.enter("A", "claim", "UT,CO,KS,OK")
    rebuilt = _rebuilt(table)
    _same(table, rebuilt)
    assert rebuilt.controller.prompt.text == "Ann\nrules say YES. Agree?"


def test_a_knocks_last_round_survives_a_restart_and_is_judged_alike(tmp_path: Path) -> None:
    table = StatesTable(journal=tmp_path / "journal.db").begin("Ann").knock("B")
    table.enter("B", "knock", "DE,OR,NM,water")
    rebuilt = _rebuilt(table)
    _same(table, rebuilt)
    assert rebuilt.recorded is not None
    t = table.t + 1.0  # GO: the last round is over, then Ann's cards from her phone
    rebuilt.advance(t)
    rebuilt.drive("console.go", True, t)
    rebuilt.advance(t + 0.1)
    rebuilt.drive("console.go", False, t + 0.1)
    rebuilt.advance(t + 0.5)
    rebuilt.enter(Entry("A", "cards", "RI,CT,ID,water"), t + 1.0)
    assert rebuilt.controller.session.phase == "bonus"
    assert rebuilt.controller.session.hand.won.winners == ("Bo",)


def test_the_journal_keeps_the_deck_the_table_started_with(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text(Path("docs/states/example-deck.toml").read_text())
    table = StatesTable(journal=tmp_path / "journal.db", deck=str(deck)).begin("Ann")
    deck.write_text("this is no deck any more")
    rebuilt = _rebuilt(table)
    _same(table, rebuilt)
