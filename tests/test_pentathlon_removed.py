"""A Pentathlete the Tournament Director removed from the site plays no more (issue 26,
finding 6; R987): only the Director's result and the Monitor's confirmation remain.

Rulebook (Code of Conduct): "Such infractions can result in 0 points and/or being required to
leave the tournament site": a player who has left takes no turns, and the game waits for the
result the Director gives (R748).
"""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.pentathlon.catalogue import Game
from rules.pentathlon.contig import ContigPlay
from rules.pentathlon.monitor import start
from rules.pentathlon.monitor_actions import (
    Challenge,
    Confirm,
    DieToss,
    DirectorResult,
    Infraction,
    PassFlag,
    TimeCalled,
    start_action,
)
from rules.pentathlon.play import RULINGS_R746_R749
from rules.pentathlon.results import How
from tests.pentathlon_helpers import MINUTES, A, B, game_of, play
from tests.pentathlon_table_helpers import playing

REMOVED = "A has been removed from the tournament site: the game stops"


def _a_removed() -> object:
    return game_of(Game.CONTIG_60, DieToss(1, 2), ContigPlay(3), Infraction(A, removal=True))


@pytest.mark.parametrize(
    "action",
    [PassFlag(A), ContigPlay(4), Challenge(B, ("other",)), TimeCalled()],
    ids=["flag", "move", "challenge", "time"],
)
def test_a_removed_player_s_game_takes_no_more_play(action: object) -> None:
    state = _a_removed()
    with pytest.raises(IllegalAction, match=REMOVED):
        play(state, action)  # type: ignore[arg-type]


def test_the_director_s_result_and_the_confirmation_remain() -> None:
    state = play(_a_removed(), DirectorResult(B), Confirm())  # type: ignore[arg-type]
    assert state.result is not None
    assert (state.result.winner, state.result.how) == (B, How.DIRECTOR)


def test_the_other_player_s_infraction_is_still_recorded() -> None:
    state = play(_a_removed(), Infraction(B, zero_points=True))  # type: ignore[arg-type]
    assert state.zero_points(B)


def test_a_game_under_earlier_rulings_replays_its_turns_after_a_removal() -> None:
    """R796: a journal of flow 3 or before recorded turns after a removal; it replays so."""
    begun = start(start_action(Game.CONTIG_60, MINUTES, chips=20), rulings=RULINGS_R746_R749)
    state = play(begun, DieToss(1, 2), Infraction(A, removal=True), ContigPlay(3), PassFlag(A))
    assert state.on_turn is B


def test_the_table_shows_only_the_director_s_decisions_once_a_player_is_removed() -> None:
    """Flow 4: the turn's screen gives way to the Director's result, first in the list; the
    flag button passes nothing; the Director's result is confirmed as any result."""
    table = playing("queens-guards")
    table.buttons("yes").choose("Infraction: A").buttons("no", "yes")  # removal
    assert (table.key, table.prompt) == ("p/removed", "A removed: Director's result")
    assert table.labels == ["Director: A win", "Director: B win", "Director: tie", "Infraction: B"]
    moves = len(table.actions())
    table.flag("A")
    assert len(table.actions()) == moves and table.key == "p/removed"
    table.choose("Director: B win").buttons("yes")
    over = table.named("game_over")[-1]
    assert (over["winner"], over["how"]) == ("B", "director")
