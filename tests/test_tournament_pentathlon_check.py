"""A Pentathlon result checked against its own scores and challenges before the record takes
it (rules/tournament/pentathlon_check.py): three I/IA end a game as that player's loss (R340);
where the final scores decide the result, the game's own adjudication decides it (R269)."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import Game
from rules.pentathlon.results import How
from rules.tournament.pentathlon import Challenges, GameResult, Seat
from rules.tournament.pentathlon_check import check_result

NONE = Challenges()


def _result(
    game: Game,
    winner: str | None,
    how: How,
    scores: tuple[int | None, int | None] = (None, None),
    challenges: tuple[Challenges, Challenges] = (NONE, NONE),
) -> GameResult:
    return GameResult(Seat(1, 2, game, "Ann", "Ben"), winner, how, scores, challenges)


def test_a_contig_time_limit_result_is_the_lower_score_s_by_3_or_more() -> None:
    with pytest.raises(IllegalAction, match=r"the adjudication gives A wins .*A 25, B 34"):
        check_result(_result(Game.CONTIG_60, "B", How.TIME_LIMIT, (25, 34)))
    check_result(_result(Game.CONTIG_60, "A", How.TIME_LIMIT, (25, 34)))


@pytest.mark.parametrize(
    ("game", "how", "scores", "winner", "gives"),
    [
        (Game.CONTIG_60, How.AWARD, (0, 2), "A", "a tie"),
        (Game.JUGGLE, How.TIME_LIMIT, (4, 9), None, "A wins"),
        (Game.STARS_AND_BARS, How.TIME_LIMIT, (120, 106), "A", "a tie"),
        (Game.STARS_AND_BARS, How.AWARD, (150, 110), "B", "A wins"),
        (Game.FAB_A_DIFFY, How.AWARD, (2, 0), None, "A wins"),
        (Game.FAB_A_DIFFY, How.TIME_LIMIT, (2, 0), "B", "A wins"),
    ],
)
def test_each_game_s_adjudication_decides_a_result_its_scores_decide(
    game: Game, how: How, scores: tuple[int, int], winner: str | None, gives: str
) -> None:
    with pytest.raises(IllegalAction, match=f"the adjudication gives {gives}"):
        check_result(_result(game, winner, how, scores))


def test_fab_a_diffy_at_the_time_limit_leaves_the_game_in_progress_open() -> None:
    # Games won 1-0: the game in progress may go to B (a tie), to A, or be tied (A wins).
    check_result(_result(Game.FAB_A_DIFFY, None, How.TIME_LIMIT, (1, 0)))
    check_result(_result(Game.FAB_A_DIFFY, "A", How.TIME_LIMIT, (1, 0)))
    with pytest.raises(IllegalAction, match=r"A wins .* or a tie"):
        check_result(_result(Game.FAB_A_DIFFY, "B", How.TIME_LIMIT, (1, 0)))


def test_fab_a_diffy_counts_at_most_three_games_won() -> None:
    with pytest.raises(InvalidInput, match=r"games won 2,2: expected .* 3 at most in all"):
        check_result(_result(Game.FAB_A_DIFFY, "A", How.AWARD, (2, 2)))


def test_fab_a_diffy_no_player_wins_a_third_game() -> None:
    """Rulebook: "BEST 2 OUT OF 3 GAMES": the match ends at a player's second game won, so no
    one has won 3 (R211, R785)."""
    with pytest.raises(
        InvalidInput, match=r"games won 3,0: the match ends once a player has won 2"
    ):
        check_result(_result(Game.FAB_A_DIFFY, "A", How.AWARD, (3, 0)))


def test_a_result_whose_scores_are_not_given_is_taken_as_entered() -> None:
    check_result(_result(Game.CONTIG_60, "B", How.TIME_LIMIT))
    check_result(_result(Game.JUGGLE, "A", How.TIME_LIMIT, (None, 3)))


def test_a_goal_or_a_challenged_win_is_not_decided_by_the_scores() -> None:
    check_result(_result(Game.CONTIG_60, "B", How.GOAL, (25, 34)))
    check_result(_result(Game.STARS_AND_BARS, "B", How.CHALLENGED_WIN, (150, 20)))


def test_queens_and_guards_is_a_tie_at_the_time_limit_and_keeps_no_score() -> None:
    with pytest.raises(IllegalAction, match="at the time limit neither player has won"):
        check_result(_result(Game.QUEENS_AND_GUARDS, "A", How.TIME_LIMIT))
    with pytest.raises(InvalidInput, match="queens-guards keeps no score"):
        check_result(_result(Game.QUEENS_AND_GUARDS, None, How.AGREEMENT, (1, 1)))


def test_only_queens_and_guards_ends_by_agreement() -> None:
    with pytest.raises(IllegalAction, match="expected agreement in queens-guards only"):
        check_result(_result(Game.JUGGLE, None, How.AGREEMENT))


def test_a_loss_by_three_i_ia_is_the_player_s_who_has_the_three() -> None:
    b_three = (NONE, Challenges(i=3))
    with pytest.raises(IllegalAction, match="expected player A with 3 I/IA"):
        check_result(_result(Game.CONTIG_60, "B", How.THREE_STRIKES, challenges=b_three))
    check_result(_result(Game.CONTIG_60, "A", How.THREE_STRIKES, challenges=b_three))


def test_a_loss_by_three_i_ia_needs_the_three_recorded() -> None:
    with pytest.raises(IllegalAction, match="A has 0 I/IA, B 2"):
        check_result(
            _result(Game.JUGGLE, "A", How.THREE_STRIKES, challenges=(NONE, Challenges(ia=2)))
        )


def test_no_player_has_more_than_three_i_ia() -> None:
    with pytest.raises(IllegalAction, match=r"player A has 18 I/IA: .*expected 3 at most"):
        check_result(_result(Game.CONTIG_60, "A", How.GOAL, challenges=(Challenges(9, 9, 9), NONE)))


def test_a_player_with_three_i_ia_has_lost_by_three_i_ia() -> None:
    three = (Challenges(i=1, ia=2), NONE)
    for winner, how in (("A", How.GOAL), ("B", How.GOAL), (None, How.TIME_LIMIT)):
        with pytest.raises(IllegalAction, match="expected --winner B --how three-i-ia"):
            check_result(_result(Game.CONTIG_60, winner, how, challenges=three))


def test_only_one_player_reaches_three_i_ia() -> None:
    both = (Challenges(i=3), Challenges(ia=3))
    with pytest.raises(IllegalAction, match="both players have 3 I/IA"):
        check_result(_result(Game.CONTIG_60, "A", How.THREE_STRIKES, challenges=both))
