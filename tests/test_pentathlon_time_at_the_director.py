"""Time called while the Tournament Director's entry is open (flow 4, R846).

Rulebook (Code of Conduct): "Any infraction of this Code ... will be handled by the Tournament
Director." The Director's decisions are not play: the match clock running out while the
Director's menu or one of its questions is open keeps it open, on screen, where it was; time
called is journaled at once and the OLED's top row says so. A YES or NO pressed within a second
of time called replacing what the monitor was reading (an entry of play, dropped by R259) does
nothing: it was meant for the step that went.
"""

from __future__ import annotations

from pathlib import Path

from firmware_py.families.pentathlon.flows.common import TIME_CALLED_ALERT
from firmware_py.families.pentathlon.options import table_settings
from firmware_py.table.controller import LATE_PRESS
from rules.pentathlon.monitor import PentathlonGame
from tests.pentathlon_table_helpers import PTable, begin, reopened


def _at_the_director_s_question(journal: Path | None = None) -> PTable:
    """Queens & Guards with a minute's limit, a tie agreed, and the Director's infraction of A
    half-entered at the result: "A: Must leave the site?" (the finding's reproduction)."""
    t = PTable(journal=journal, game="queens-guards", minutes={"queens-guards": 1})
    begin(t)
    t.buttons("yes").choose("Tie: agreed")
    t.buttons("next").choose("Infraction: A").buttons("yes")  # 0 points: yes
    assert (t.key, t.prompt) == ("p/result/infraction/A/1", "A: Must leave the site?")
    return t


def _clock_runs_out(t: PTable) -> PTable:
    end = t.controller.clock_deadline
    assert end is not None
    return t.at(end + 0.5)


def test_time_called_at_the_result_keeps_the_director_s_question_and_its_yes_answers_it() -> None:
    """R846: the YES meant for "A: Must leave the site?" records the infraction; it confirmed
    the tie instead, and the infraction was never recorded."""
    t = _at_the_director_s_question()
    end = t.controller.clock_deadline
    assert end is not None
    t.at(end - 0.5).buttons("yes")  # the press lands half a second after time is called
    assert t.kinds()[-2:] == ["time_called", "infraction"]
    assert t.actions()[-1] == {
        "action": "pentathlon.infraction",
        "player": "A",
        "zero_points": True,
        "removal": True,
    }
    assert t.key == "p/result"  # the tie still waits for the monitor's confirmation
    assert t.game.play is not None and t.game.play.time_called


def test_time_called_keeps_the_director_s_menu_where_it_was() -> None:
    """R846: "keeps it open, on screen, exactly where it was": the option on show too."""
    t = PTable(game="queens-guards", minutes={"queens-guards": 1})
    begin(t)
    t.buttons("yes").choose("Tie: agreed")
    t.buttons("next", "next")
    assert (t.key, t.shown) == ("p/result/director", "Infraction: B")
    _clock_runs_out(t)
    assert (t.key, t.shown) == ("p/result/director", "Infraction: B")
    assert t.kinds()[-1] == "time_called"  # journaled at once


def test_the_oled_says_time_was_called_without_losing_the_question() -> None:
    """R846: a line the monitor can see; the question stays on the two lines below it."""
    t = _clock_runs_out(_at_the_director_s_question())
    screen = t.screen
    assert screen.alert == TIME_CALLED_ALERT == "TIME CALLED: AFTER TD"
    assert screen.lines == ("A: Must leave the", "site?")
    assert t.named("kept_open")[-1]["key"] == "p/result/infraction/A/1"
    t.buttons("no")
    assert t.key == "p/result" and t.screen.alert == "TIE"  # the entry done, the line goes


def test_undo_closes_the_kept_entry_and_takes_back_nothing() -> None:
    """R846: time takes effect once the entry is finished or closed; R840: UNDO closes the
    Director's menu and takes nothing back (time called, the clock's, cannot be taken back)."""
    t = _clock_runs_out(_at_the_director_s_question())
    t.buttons("undo")
    assert t.key == "p/result"
    assert t.kinds()[-1] == "time_called"
    t.buttons("undo")
    assert t.kinds()[-1] == "time_called"


def test_time_called_in_play_keeps_an_infraction_s_questions_open() -> None:
    """R846: an infraction entered from the turn's menu is the Director's too: time called
    ends the game (the beginner has not played: R231), the question stays, and its answer is
    recorded before the result is shown."""
    t = PTable(game="contig-60", minutes={"contig-60": 1})
    begin(t)
    t.buttons("yes").choose("Infraction: B").buttons("yes")
    assert t.key == "p/entry1/infraction/1"
    _clock_runs_out(t)
    assert (t.key, t.prompt) == ("p/entry1/infraction/1", "Must leave the site?")
    assert t.game.phase == "result"
    assert t.screen.alert == TIME_CALLED_ALERT
    t.buttons("no")
    assert t.actions()[-1] == {
        "action": "pentathlon.infraction",
        "player": "B",
        "zero_points": True,
        "removal": False,
    }
    assert t.key == "p/result"


def test_time_called_with_the_director_s_question_open_replays_from_the_journal(
    tmp_path: Path,
) -> None:
    """Journaled as every press is: the restarted table shows the same question."""
    path = tmp_path / "journal.db"
    t = _clock_runs_out(_at_the_director_s_question(journal=path))
    before = t.game
    t.close()
    journal, table = reopened(path, table_settings(game="queens-guards", flow=4))
    after = table.controller.session
    assert isinstance(after, PentathlonGame) and after == before
    assert table.controller.prompt.key == "p/result/infraction/A/1"
    journal.close()


def _menu_when_time_is_called() -> tuple[PTable, float]:
    """Contig 60, the beginner's turn menu open when time is called: the game ends at once
    (R231) and the result replaces the menu (R259 drops the entry)."""
    t = PTable(game="contig-60", minutes={"contig-60": 1})
    begin(t)
    t.buttons("yes")
    assert t.key == "p/menu1"
    end = t.controller.clock_deadline
    assert end is not None
    t.at(end + 0.1)
    assert t.key == "p/result"
    return t, end


def _yes_at(t: PTable, at: float) -> None:
    t.virtual.advance(at)
    t.virtual.drive("console.yes", True, at)
    t.virtual.drive("console.yes", False, at + 0.1)


def test_a_yes_within_a_second_of_time_called_replacing_the_step_does_nothing() -> None:
    """R846: the YES was meant for the menu the monitor was reading; it confirmed the result
    that replaced it."""
    t, end = _menu_when_time_is_called()
    _yes_at(t, end + LATE_PRESS - 0.2)
    assert t.key == "p/result"
    assert "confirm" not in t.kinds()


def test_a_yes_a_second_after_time_called_confirms_the_result() -> None:
    """R846: a reaction time's grace, no more: the result is then what the monitor reads."""
    t, end = _menu_when_time_is_called()
    _yes_at(t, end + LATE_PRESS + 0.2)
    assert t.kinds()[-1] == "confirm"
    assert t.key == "p/over"
