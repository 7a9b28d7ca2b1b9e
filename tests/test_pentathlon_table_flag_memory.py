"""R256/R260: the holder's flag press while the monitor is entering a move (the turn's menu, a
number) is remembered, shown on the OLED, and passes the flag once the entry is recorded;
it is dropped when the entry makes it moot (the game ended, the flag already passed) or is
backed out (UNDO, time called). A challenge's entry does not remember it."""

from __future__ import annotations

from pathlib import Path

from firmware_py.table.controller import TableSettings
from firmware_py.table.headless import VirtualTable
from firmware_py.table.journal import Journal
from tests.pentathlon_table_helpers import PTable, begin, playing

PASSES_AFTER = "A FLAG: PASSES AFTER"


def _entering_a_chip() -> PTable:
    """A on turn; the monitor has chosen 'Chip placed' and is entering its points."""
    table = playing()
    table.buttons("yes").choose("Chip placed")
    assert table.key == "p/entry1/contig.play/0"
    return table


def test_a_flag_press_during_a_number_passes_the_flag_once_the_move_is_recorded() -> None:
    table = _entering_a_chip().flag("A")
    assert table.kinds()[-1] == "die_toss"  # nothing recorded yet: the entry goes on
    table.enter(5)
    assert table.kinds()[-2:] == ["contig.play", "pass_flag"]
    assert table.game.on_turn is not None and table.game.on_turn.value == "B"


def test_the_oled_says_the_flag_passes_after_the_entry() -> None:
    table = _entering_a_chip()
    assert table.screen.alert is None
    table.flag("A")
    assert table.screen.alert == PASSES_AFTER
    table.enter(5)
    assert table.screen.alert is None


def test_a_flag_press_in_the_turn_s_menu_passes_after_the_move_chosen() -> None:
    table = playing("fab-a-diffy").wait(11)  # the capture window has closed
    table.buttons("yes").flag("A").choose("Strip shown")
    assert table.kinds()[-2:] == ["fab.show", "pass_flag"]


def test_the_other_player_s_flag_button_is_not_remembered() -> None:
    table = _entering_a_chip().flag("B")
    assert table.screen.alert is None
    table.enter(5)
    assert table.kinds()[-1] == "contig.play"
    assert table.key == "p/turn1"


def test_undo_backs_out_the_entry_and_drops_the_flag_press() -> None:
    table = _entering_a_chip().flag("A").buttons("undo")
    assert table.key == "p/turn1"
    assert table.screen.alert is None
    record = table.buttons("yes").choose("Chip placed").enter(5)
    assert record.kinds()[-1] == "contig.play"  # the press did not outlive the entry


def test_choosing_flag_passes_in_the_menu_passes_it_once() -> None:
    table = playing().buttons("yes").flag("A").choose("Flag passes")
    assert table.kinds()[-1:] == ["pass_flag"]
    assert table.named("refused") == []
    assert table.key == "p/turn2"


def test_an_entry_that_ends_the_game_drops_the_flag_press() -> None:
    table = playing("queens-guards").buttons("yes").flag("A").choose("Tie: agreed")
    assert table.kinds()[-1] == "qg.tie"
    assert table.named("refused") == []
    assert table.game.phase == "result"


def test_time_called_during_the_entry_drops_the_entry_and_the_flag_press() -> None:
    table = playing(minutes={"contig-60": 1}).buttons("yes").choose("Chip placed").flag("A")
    table.wait(60)
    assert table.kinds()[-1] == "time_called"
    assert table.screen.alert != PASSES_AFTER
    assert "pass_flag" not in table.kinds()


def test_a_flag_press_during_a_challenge_s_entry_is_not_remembered() -> None:
    table = playing().challenge_input("B").flag("A")
    assert table.screen.alert is None
    assert table.controller.scratch.keys() == {"challenge"}


def test_a_restart_keeps_the_remembered_flag_press(tmp_path: Path) -> None:
    path = tmp_path / "table.journal"
    table = PTable(journal=path, game="contig-60")
    begin(table, "A")
    table.buttons("yes").choose("Chip placed").flag("A")
    now = table.controller.now
    table.close()
    rebuilt = VirtualTable(TableSettings(), lambda event: None, journal=Journal.open(path))
    assert rebuilt.recorded is not None
    rebuilt.recorded.resume(now + 1, stopped_at=now, elapsed_known=True)
    rebuilt.recorded.prime({name: bool(rebuilt.bank.is_active(name)) for name in rebuilt.specs})
    rebuilt.advance(now + 1.5)
    controller = rebuilt.controller
    assert controller.view().screen.alert == PASSES_AFTER
    for button in ("next", "next", "yes"):  # 2 points, recorded
        t = controller.now + 1
        rebuilt.advance(t)
        rebuilt.drive(f"console.{button}", True, t)
        rebuilt.advance(t + 0.1)
        rebuilt.drive(f"console.{button}", False, t + 0.1)
    rebuilt.advance(controller.now + 0.5)
    assert [action.kind for action in controller.log[-2:]] == [
        "pentathlon.contig.play",
        "pentathlon.pass_flag",
    ]
    rebuilt.close()
    if rebuilt.recorded.journal is not None:
        rebuilt.recorded.journal.close()
