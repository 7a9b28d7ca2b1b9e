"""The Game Monitor types a move's numbers on the table's web page (R482): the monitor's place
on the page (not a player's seat), the number taken as the console's entry would take it, the
rules core's refusals as one line that changes nothing, the whole replayed from the journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.families.pentathlon.flows.page import MONITOR, read_number
from firmware_py.table.headless import Entry
from firmware_py.table.journal import Journal
from firmware_py.table.recorder import RecordedTable
from rules.errors import InvalidInput
from tests.pentathlon_table_helpers import PTable, deal_cards, playing


def typed(table: PTable, value: str, seat: str = MONITOR) -> PTable:
    table.t += 1.0
    table.virtual.enter(Entry(seat, "number", value), table.t)
    return table


def chip_placed(journal: Path | None = None) -> PTable:
    return playing(journal=journal).buttons("yes").choose("Chip placed")


def test_every_step_offers_the_page_s_monitor_place() -> None:
    table = playing()
    assert dict(table.controller.prompt.page.officials) == {MONITOR: "Game Monitor"}
    assert table.controller.prompt.entry is None  # nothing to type until a move asks


def test_the_monitor_types_the_chip_s_points_and_the_running_score_follows() -> None:
    table = chip_placed()
    entry = table.controller.prompt.entry
    assert entry is not None
    assert (entry.seats, entry.label) == ((MONITOR,), "Points the chip scores (0 to 999)")
    typed(table, "37")
    assert table.actions()[-1] == {"action": "pentathlon.contig.play", "score": 37}
    assert table.controller.view().scoreboard.scores == {"A": 23, "B": 60}


def test_stars_and_bars_card_points_come_from_the_page() -> None:
    table = playing("stars-bars").buttons("yes").choose("Card placed")
    typed(table, "45")
    assert table.controller.view().scoreboard.scores == {"A": 45, "B": 0}


def test_stars_and_bars_stack_points_take_numbers_and_a_yes_from_the_page() -> None:
    table = deal_cards(playing("stars-bars"), 10).buttons("yes").choose("Stack points")
    typed(typed(typed(table, "4"), "yes"), "1")
    assert table.actions()[-1] == {
        "action": "pentathlon.sb.stacks", "cpa_turned": 4, "cpa_removed": True, "opa_removed": 1,
    }  # fmt: skip


FULL_WIDTH_3 = "\uff13"  # a digit to str.isdecimal, not to the monitor


@pytest.mark.parametrize("value", ["abc", "-3", "2.5", "1000", FULL_WIDTH_3])
def test_a_number_that_is_not_one_is_one_line_naming_what_was_expected(value: str) -> None:
    with pytest.raises(InvalidInput, match=r"^Points .*: expected a whole number from 0 to 999$"):
        read_number("Points", value, 999)


def test_a_bad_number_from_the_page_changes_nothing() -> None:
    table = chip_placed()
    typed(table, "lots")
    assert table.named("entry_refused")[-1]["reason"] == (
        "Points the chip scores 'lots': expected a whole number from 0 to 999"
    )
    assert table.prompt == "Points the chip scores"
    assert table.kinds()[-1] == "die_toss"


def test_a_number_beyond_the_console_s_range_is_refused_as_the_console_would() -> None:
    table = deal_cards(playing("stars-bars"), 10).buttons("yes").choose("Stack points")
    typed(table, "4")  # four CPA stacks turned over
    typed(table, "no")
    typed(table, "3")  # 24 cards on the board: 16 in the turned CPA stacks, 8 for 2 OPA (R783)
    assert "expected a whole number from 0 to 2" in table.named("entry_refused")[-1]["reason"]
    assert table.prompt == "OPA stacks removed"


def test_a_player_s_seat_cannot_enter_the_monitor_s_numbers() -> None:
    table = typed(chip_placed(), "5", seat="A")
    assert table.named("entry_refused")[-1]["reason"] == "seat A has no number to enter now"


def test_the_monitor_s_entries_rebuild_from_the_journal(tmp_path: Path) -> None:
    table = chip_placed(journal=tmp_path / "journal.db")
    typed(table, "12")
    expected = (table.controller.log, table.controller.view())
    settings = table.controller.settings
    table.close()
    journal = Journal.open(tmp_path / "journal.db")
    try:
        rebuilt = RecordedTable.start(
            journal=journal, settings=settings, now=0.0, read_pin=lambda name: False
        ).controller
    finally:
        journal.close()
    assert (rebuilt.log, rebuilt.view()) == expected
