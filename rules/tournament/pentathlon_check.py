"""A Pentathlon game result checked against itself before the record takes it: its challenges
(three I/IA end the game as a loss for that player: R340) and, where the scores given decide
it, the game's own adjudication from the rules core (R269). A result the scores do not decide
(a goal, a challenged win, no scores given) is taken as entered.

The check is made where a result is entered (the director's command, the hub's apply), not
where the record is read: a record written before it still opens.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon import contig, fab_a_diffy, juggle, stars_bars
from rules.pentathlon.catalogue import Game
from rules.pentathlon.challenges import STRIKES_TO_LOSE
from rules.pentathlon.players import Player
from rules.pentathlon.results import How, Result
from rules.tournament.pentathlon import SIDES, GameResult

# What a game's adjudication can give for these final scores (more than one where the scores
# leave something open).
Adjudication = Callable[[tuple[int, int], How], tuple[Result, ...]]


def check_result(result: GameResult) -> None:
    """Refuse (one line) a result its own challenges or scores contradict."""
    _check_strikes(result)
    _check_game(result)


def _said(result: GameResult) -> str:
    if result.winner is None:
        return f"a tie by {result.how.value}"
    return f"{result.winner} wins by {result.how.value}"


# -- three I/IA (R340) ------------------------------------------------------------------------


def _check_strikes(result: GameResult) -> None:
    strikes = {side: c.i + c.ia for side, c in zip(SIDES, result.challenges, strict=True)}
    counts = f"A has {strikes['A']} I/IA, B {strikes['B']}"
    for side, count in strikes.items():
        if count > STRIKES_TO_LOSE:
            raise IllegalAction(
                f"player {side} has {count} I/IA: the game ends at the third, "
                f"expected {STRIKES_TO_LOSE} at most"
            )
    struck = [side for side, count in strikes.items() if count == STRIKES_TO_LOSE]
    if len(struck) == 2:
        raise IllegalAction(
            f"both players have {STRIKES_TO_LOSE} I/IA: the game ends at the first third, "
            "expected one player at most with 3"
        )
    if result.how is How.THREE_STRIKES:
        loser = "B" if result.winner == "A" else "A"
        if strikes[loser] != STRIKES_TO_LOSE:
            raise IllegalAction(
                f"{_said(result)} ({counts}): a loss by three-i-ia is the loser's, "
                f"expected player {loser} with {STRIKES_TO_LOSE} I/IA"
            )
    elif struck:
        side = struck[0]
        winner = "B" if side == "A" else "A"
        raise IllegalAction(
            f"{_said(result)} ({counts}): {STRIKES_TO_LOSE} I/IA end the game as a loss for "
            f"{side}, expected --winner {winner} --how three-i-ia"
        )


# -- the game's own adjudication (R269) -------------------------------------------------------


def _check_game(result: GameResult) -> None:
    game = result.seat.game
    if game is Game.QUEENS_AND_GUARDS:
        _check_queens_guards(result)
        return
    if result.how is How.AGREEMENT:
        raise IllegalAction(
            f"a tie by agreement in {game.value}: expected agreement in queens-guards only"
        )
    a, b = result.scores
    adjudication = _ADJUDICATIONS.get((game, result.how))
    if a is None or b is None or adjudication is None:
        return
    given: dict[str | None, Result] = {}
    for possible in adjudication((a, b), result.how):
        given.setdefault(None if possible.winner is None else possible.winner.value, possible)
    if result.winner in given:
        return
    gives = " or ".join(
        f"{'a tie' if winner is None else f'{winner} wins'} ({r.detail})"
        for winner, r in given.items()
    )
    raise IllegalAction(
        f"{_said(result)} with scores {a},{b} in {game.value}: the adjudication gives {gives}"
    )


def _check_queens_guards(result: GameResult) -> None:
    if result.scores != (None, None):
        raise InvalidInput("queens-guards keeps no score: expected no scores")
    if result.how is How.TIME_LIMIT and result.winner is not None:
        raise IllegalAction(
            f"{_said(result)} in queens-guards: at the time limit neither player has won, "
            "expected a tie"
        )


def _contig(scores: tuple[int, int], how: How) -> tuple[Result, ...]:
    return (contig.adjudicate(scores, how, how.value),)


def _stars_bars(scores: tuple[int, int], how: How) -> tuple[Result, ...]:
    # An award at a round's end (over 140 and 15 ahead, or 40 ahead) always has the time
    # limit's 15 points ahead, and both players out of cards is the time limit's rule (R242).
    return (stars_bars.time_limit_award(scores, how, how.value),)


def _juggle(empty: tuple[int, int], how: How) -> tuple[Result, ...]:
    if min(empty) < 0:
        raise InvalidInput(f"empty spaces {empty[0]},{empty[1]}: expected 0 or more each")
    return (juggle.count_result(empty),)


def _fab_games(won: tuple[int, int]) -> tuple[Player | None, ...]:
    a, b = won
    if min(won) < 0 or a + b > fab_a_diffy.GAMES:
        raise InvalidInput(
            f"games won {a},{b}: expected 0 or more each, {fab_a_diffy.GAMES} at most in all"
        )
    if max(won) > fab_a_diffy.GAMES_TO_WIN:
        raise InvalidInput(
            f"games won {a},{b}: the match ends once a player has won "
            f"{fab_a_diffy.GAMES_TO_WIN} (R211, R785)"
        )
    return (Player.A,) * a + (Player.B,) * b


def _fab_award(won: tuple[int, int], how: How) -> tuple[Result, ...]:
    return (fab_a_diffy.overall(_fab_games(won)),)


def _fab_time_limit(won: tuple[int, int], how: How) -> tuple[Result, ...]:
    """The games won count the finished games and, from a table of rulings 4, the game the
    time limit decided on its tricks too (R982); a result entered by hand or by an earlier
    table counts finished games only, the game in progress (if any) going to the player with
    more tricks, or tied (R212). Both are taken."""
    games = _fab_games(won)
    if len(games) == fab_a_diffy.GAMES:
        return (fab_a_diffy.timed_overall(games),)
    return tuple(fab_a_diffy.timed_overall((*games, last)) for last in (None, *Player))


# The results the final scores decide (R269); goals and challenged wins are not among them.
_ADJUDICATIONS: dict[tuple[Game, How], Adjudication] = {
    (Game.CONTIG_60, How.TIME_LIMIT): _contig,
    (Game.CONTIG_60, How.AWARD): _contig,  # a score of 0 or less, no chips left (R205)
    (Game.STARS_AND_BARS, How.TIME_LIMIT): _stars_bars,
    (Game.STARS_AND_BARS, How.AWARD): _stars_bars,
    (Game.JUGGLE, How.TIME_LIMIT): _juggle,
    (Game.FAB_A_DIFFY, How.TIME_LIMIT): _fab_time_limit,
    (Game.FAB_A_DIFFY, How.AWARD): _fab_award,
}
