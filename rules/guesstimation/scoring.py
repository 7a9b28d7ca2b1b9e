"""Judging one question: the closest guess (a standard round) or a one-on-one duel.

Both judges take the guesses as a mapping of player to exact decimal and answer with tuples
sorted by player name, so the verdict does not depend on the order the guesses were entered.
Moves are what the Scoring Rules say (+2 a win, +1 more when exact, the wager in a duel, +3 a
bystander's exact guess); the board keeps every piece between Start and Finish (``session``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from rules.errors import InvalidInput
from rules.guesstimation.numbers import distance

STANDARD_WIN = 2
EXACT_BONUS = 1
BYSTANDER_EXACT = 3
WAGERS = (1, 2, 3)
DEFAULT_WAGER = 2  # "If the Dueler forgets to make the wager, it automatically defaults to 2"


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """``player`` moves ``spaces`` ahead (negative: back), before the board's Start/Finish."""

    player: str
    spaces: int


@dataclass(frozen=True, slots=True)
class Closest:
    """The verdict of a standard round: every player at the closest distance wins."""

    winners: tuple[str, ...]
    distance: Decimal
    exact: tuple[str, ...]  # the winners whose guess is the answer: all of them or none
    moves: tuple[Move, ...]


def check_wager(wager: int | None) -> int:
    """The duel's wager: 1 to 3 spaces, 2 when the Dueler named none."""
    if wager is None:
        return DEFAULT_WAGER
    if wager not in WAGERS:
        raise InvalidInput(f"wager {wager}: expected 1, 2 or 3 spaces (2 if none is named)")
    return wager


def closest_guesses(answer: Decimal, guesses: Mapping[str, Decimal]) -> Closest:
    """Who wins a standard round (or the final question), and how far each winner moves."""
    if not guesses:
        raise InvalidInput("no guesses: expected at least one player's guess")
    distances = {player: distance(guess, answer) for player, guess in guesses.items()}
    best = min(distances.values())
    winners = tuple(sorted(player for player, gap in distances.items() if gap == best))
    exact = winners if best == 0 else ()
    moves = tuple(Move(player, STANDARD_WIN + (EXACT_BONUS if exact else 0)) for player in winners)
    return Closest(winners, best, exact, moves)


@dataclass(frozen=True, slots=True)
class DuelVerdict:
    """A duel: only the two duelists' guesses count; bystanders can only score an exact guess.

    ``winner`` is None while a tie waits for the die (``tied``); the moves then hold only the
    bystanders' exact bonuses.
    """

    dueler: str
    opponent: str
    wager: int
    distances: tuple[Decimal, Decimal]  # (dueler's, opponent's)
    tied: bool
    winner: str | None
    exact: tuple[str, ...]  # every player whose guess is the answer, duelists included
    moves: tuple[Move, ...]

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.opponent if self.winner == self.dueler else self.dueler


def judge_duel(
    answer: Decimal,
    guesses: Mapping[str, Decimal],
    *,
    dueler: str,
    opponent: str,
    wager: int | None = None,
    tie_winner: str | None = None,
) -> DuelVerdict:
    """The duel's verdict; ``tie_winner`` is the duelist who won the die roll after a tie."""
    for role, player in (("dueler", dueler), ("opponent", opponent)):
        if player not in guesses:
            raise InvalidInput(f"the {role} {player} has no guess: expected both duelists' guesses")
    if dueler == opponent:
        raise InvalidInput(f"{dueler} cannot duel themselves: expected another player")
    stake = check_wager(wager)
    gaps = (distance(guesses[dueler], answer), distance(guesses[opponent], answer))
    tied = gaps[0] == gaps[1]
    winner = _duel_winner(dueler, opponent, gaps, tie_winner)
    exact = tuple(sorted(player for player, guess in guesses.items() if guess == answer))
    moves = [Move(player, BYSTANDER_EXACT) for player in exact if player not in (dueler, opponent)]
    if winner is not None:
        loser = opponent if winner == dueler else dueler
        bonus = EXACT_BONUS if winner in exact else 0  # the loser gets none, exact or not
        moves += [Move(winner, stake + bonus), Move(loser, -stake)]
    return DuelVerdict(dueler, opponent, stake, gaps, tied, winner, exact, tuple(sorted(moves)))


def _duel_winner(
    dueler: str, opponent: str, gaps: tuple[Decimal, Decimal], tie_winner: str | None
) -> str | None:
    if gaps[0] != gaps[1]:
        if tie_winner is not None:
            closer = dueler if gaps[0] < gaps[1] else opponent
            raise InvalidInput(f"the duel is not tied ({closer} is closer): no die roll decides it")
        return dueler if gaps[0] < gaps[1] else opponent
    if tie_winner is not None and tie_winner not in (dueler, opponent):
        raise InvalidInput(f"{tie_winner} won the die roll but is not in the duel")
    return tie_winner
