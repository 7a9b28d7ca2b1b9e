"""The Tournament Director's decisions at the result and at Juggle's count (flow 4, R840).

Rulebook (Code of Conduct): "Any infraction of this Code ... will be handled by the Tournament
Director. Such infractions can result in 0 points and/or being required to leave the tournament
site." The Director may rule at any moment until the monitor confirms the result (R789, R748),
so NEXT on the result and on the count opens the same decisions the turn's menu offers: an
infraction, then the Director's result. Journaled and replayed as any action, on the card, and
in ``game_over`` to the hub.
"""

from __future__ import annotations

from html import unescape
from pathlib import Path

from firmware_py.families.pentathlon.card import card_html
from firmware_py.families.pentathlon.options import table_settings
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.players import Player
from rules.pentathlon.record import record
from rules.pentathlon.results import How
from tests.pentathlon_table_helpers import PTable, begin, playing, reopened


def _tied(table: PTable) -> PTable:
    """Queens & Guards: the players agree on a tie; the result waits for the monitor."""
    table.buttons("yes").choose("Tie: agreed")
    assert table.key == "p/result"
    return table


def test_next_on_the_result_opens_the_director_s_decisions_an_infraction_first() -> None:
    """R789: the Director handles an infraction at any moment before the result is confirmed;
    R748: the Director's result only once an infraction is recorded."""
    table = _tied(playing("queens-guards"))
    assert table.controller.prompt.hint == "YES:ok NO:ch. NEXT:TD"
    table.buttons("next")
    assert (table.key, table.prompt) == ("p/result/director", "The Director's decision")
    assert table.labels == ["Infraction: A", "Infraction: B"]


def test_an_infraction_at_the_result_is_recorded_and_the_result_still_waits() -> None:
    """R789: "0 points and/or being required to leave": the Director's decision, recorded
    beside the result, which the monitor still confirms."""
    table = _tied(playing("queens-guards")).buttons("next")
    table.choose("Infraction: B")
    assert (table.key, table.prompt) == ("p/result/infraction/B/0", "B: 0 points (the Director)?")
    table.buttons("yes", "no")
    assert table.actions()[-1] == {
        "action": "pentathlon.infraction",
        "player": "B",
        "zero_points": True,
        "removal": False,
    }
    assert table.key == "p/result"
    assert table.game.play is not None and table.game.play.pending is not None
    assert table.game.play.pending.how is How.AGREEMENT


def test_the_director_s_result_at_the_result_replaces_it_and_is_confirmed() -> None:
    """R748: "it replaces that result"; the monitor then confirms it; the hub's game_over
    carries it with the infraction (R794)."""
    table = _tied(playing("queens-guards")).buttons("next")
    table.choose("Infraction: A").buttons("no", "yes")  # removal
    table.buttons("next")
    assert table.labels == [
        "Infraction: B",  # A has been removed: no further infraction (R789)
        "Director: A win",
        "Director: B win",
        "Director: tie",
    ]
    table.choose("Director: B win")
    assert table.actions()[-1] == {"action": "pentathlon.director_result", "winner": "B"}
    assert table.prompt == "Director: B wins"  # the OLED's two lines hold it
    table.buttons("yes")
    over = table.named("game_over")[-1]
    assert (over["winner"], over["how"]) == ("B", "director")
    assert over["infractions"] == [{"player": "A", "zero_points": False, "removal": True}]


def test_the_director_s_result_given_at_the_result_is_on_both_cards() -> None:
    """Rulebook: "The Score Card is THE ONLY Official Record": whose result it is (R748)."""
    table = _tied(playing("queens-guards")).buttons("next")
    table.choose("Infraction: A").buttons("yes", "no")
    table.buttons("next").choose("Director: B win").buttons("yes")
    html = unescape(card_html(record(table.game)))
    assert html.count("the Tournament Director's result") == 2
    assert "0 points: a Code of Conduct infraction (the Tournament Director)." in html


def test_undo_closes_the_director_s_menu_and_takes_nothing_back() -> None:
    table = _tied(playing("queens-guards")).buttons("next", "undo")
    assert table.key == "p/result" and table.kinds()[-1] == "qg.tie"


def test_a_challenge_input_in_the_director_s_menu_opens_the_challenge() -> None:
    """Rulebook: a declared or awarded result may still be challenged until it is confirmed."""
    table = _tied(playing("queens-guards")).buttons("next").challenge_input("B")
    assert table.key == "p/challenge1/rule1"


def test_next_on_juggle_s_count_opens_the_director_s_decisions() -> None:
    """R748: the Director's result is taken "while Juggle's spaces are counted"."""
    table = PTable(game="juggle", minutes={"juggle": 1})
    begin(table)
    table.at(61.0).flag("A").flag("B")  # time called; the round completes
    assert table.key == "p/count"
    table.buttons("next").choose("Infraction: B")
    table.buttons("yes", "yes")
    assert table.key == "p/removed"  # B has left the site: no count, the Director's (R987)
    table.choose("Director: A win")
    assert table.key == "p/result"
    game = table.game
    assert game.play is not None and game.play.pending is not None
    assert (game.play.pending.winner, game.play.pending.how) == (Player.A, How.DIRECTOR)


def test_the_director_s_decisions_at_the_result_replay_from_the_journal(tmp_path: Path) -> None:
    """Journaled as every press is: a restarted table is the table that stopped."""
    path = tmp_path / "journal.db"
    table = PTable(journal=path, game="queens-guards")
    begin(table)
    _tied(table).buttons("next").choose("Infraction: A").buttons("yes", "no")
    table.buttons("next").choose("Director: tie")
    before = table.game
    table.close()
    journal, reopened_table = reopened(path, table_settings(game="queens-guards", flow=4))
    after = reopened_table.controller.session
    assert isinstance(after, PentathlonGame) and after == before
    assert reopened_table.controller.prompt.key == "p/result"
    journal.close()


def test_next_does_nothing_once_the_director_has_nothing_left_to_decide() -> None:
    """R845: both players removed and the Director's result given, no decision is left: NEXT
    means nothing there and does nothing (the footer no longer offers it), where it opened a
    menu of no option and stopped the table."""
    table = _tied(playing("queens-guards")).buttons("next")
    table.choose("Infraction: A").buttons("no", "yes")  # removed
    table.buttons("next").choose("Infraction: B").buttons("no", "yes")  # removed too
    table.buttons("next").choose("Director: tie")
    assert table.controller.prompt.hint == "YES: confirm"
    table.buttons("next")
    assert (table.key, table.prompt) == ("p/result", "Director: a tie")
    assert table.controller.idle_presses["next"] == 1
    table.buttons("yes")
    assert table.key == "p/over"
