"""Game 2, State IQ (Level 3): one card each, up to 3 guesses; fewer guesses wins.

Phases as at Level 4: ``draw`` (statehood draw, or the dealer's ``draw_winner``: rank closer to
1 guesses first) -> ``plunge`` -> ``power`` (the Power card's clue-letter order, used for both
teams) -> ``guessing`` -> ``over``. The actions are Level 4's (``state_iq.power``,
``state_iq.guess``); what differs is the game they play.

Each team holds one card for the whole game. The first guessing team guesses until it names the
other team's state or has missed 3 times; then the second team guesses, and stops as soon as
the result is decided. Whichever team needs fewer guesses wins; a first-guess win earns the
bonus; neither team guessing, or both in the same number, is a tie (rulings R63, R64).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import InvalidInput
from rules.geoplunge.games.common import GameContext
from rules.geoplunge.games.state_iq import Guess, GuessingState, StateIQRules
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

LEVEL = 3
GUESSES = 3


def solved_in(guesses: tuple[Guess, ...]) -> int | None:
    """The number of the guess that named the state, or None while (or if) it was not named."""
    for number, guess in enumerate(guesses, start=1):
        if guess.correct:
            return number
    return None


def turn_over(guesses: tuple[Guess, ...]) -> bool:
    """A team's turn ends when it names the state or has used its 3 guesses."""
    return solved_in(guesses) is not None or len(guesses) >= GUESSES


def second_turn_over(first: tuple[Guess, ...], second: tuple[Guess, ...]) -> bool:
    """Whether the second guessing team stops: it has won, tied or lost, or has no guess left.

    It has lost once it has missed as many times as the first team needed guesses: a later
    correct guess would take more guesses than the first team took.
    """
    if turn_over(second):
        return True
    needed = solved_in(first)
    return needed is not None and len(second) >= needed


def game_result(
    first_team: Team, first: tuple[Guess, ...], second: tuple[Guess, ...]
) -> GameResult:
    """Fewer guesses wins; a win on the first guess earns the bonus; otherwise a tie."""
    taken = {first_team: solved_in(first), first_team.other: solved_in(second)}
    tally = ", ".join(f"Team {team} {_took(taken[team])}" for team in Team)
    # A team that never named the state counts as needing more than all its guesses.
    needed = {team: taken[team] or GUESSES + 1 for team in Team}
    if needed[Team.A] == needed[Team.B]:
        return GameResult(None, reason=f"tie: {tally}")
    winner = min(Team, key=lambda team: needed[team])
    bonus = needed[winner] == 1
    suffix = "; on the first guess: bonus" if bonus else ""
    return GameResult(winner, bonus=bonus, reason=f"fewer guesses: {tally}{suffix}")


def _took(guesses: int | None) -> str:
    if guesses is None:
        return "did not name the state"
    return f"named the state on guess {guesses}"


@dataclass(frozen=True, slots=True)
class StateIQLevel3State(GuessingState):
    def first_turn_over(self) -> bool:
        """The first team guesses until it names the state or misses 3 times."""
        return turn_over(self.first_guesses)

    def solved_in(self, team: Team) -> int | None:
        """The guess on which ``team`` named its opponent's state, if it has."""
        return solved_in(self.guesses(team))


class StateIQLevel3(StateIQRules[StateIQLevel3State]):
    def start(self, context: GameContext) -> StateIQLevel3State:
        if context.level != LEVEL:
            raise InvalidInput(f"{self.title} (Level 3) level {context.level}: expected level 3")
        return StateIQLevel3State()

    def _result_after_second_guess(
        self, after: StateIQLevel3State, first: Team
    ) -> GameResult | None:
        if second_turn_over(after.first_guesses, after.second_guesses):
            return game_result(first, after.first_guesses, after.second_guesses)
        return None

    def _ruled_out(self, state: StateIQLevel3State, team: Team, code: str) -> str | None:
        missed = {guess.state for guess in state.guesses(team) if not guess.correct}
        if code in missed:
            return f"{code} was already guessed wrong for this card: expected a different state"
        other_card = next(
            (guess.state for guess in state.guesses(team.other) if guess.correct), None
        )
        if code == other_card:
            return (
                f"{code} is Team {team}'s own card (Team {team.other} guessed it): expected "
                "the other card"
            )
        return None
