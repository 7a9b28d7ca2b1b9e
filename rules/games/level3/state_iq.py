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

from dataclasses import dataclass, replace

from rules.actions import Action
from rules.atlas import Atlas, default_atlas
from rules.errors import IllegalAction, InvalidInput
from rules.games.common import (
    DeclarePlunge,
    DrawWinner,
    GameContext,
    StatehoodDraw,
    check_plunge,
    draw_result,
    not_this_game,
    require_phase,
)
from rules.games.state_iq import Guess, StateIQGuess, StateIQPower
from rules.power import check_clue_order
from rules.scoring import GameResult
from rules.teams import Team

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
class StateIQLevel3State:
    first_team: Team | None = None
    plunging: frozenset[Team] | None = None
    clue_order: str | None = None
    first_guesses: tuple[Guess, ...] = ()
    second_guesses: tuple[Guess, ...] = ()
    result: GameResult | None = None

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        if self.first_team is None:
            return "draw"
        if self.plunging is None:
            return "plunge"
        if self.clue_order is None:
            return "power"
        return "guessing"

    @property
    def second_team(self) -> Team | None:
        return None if self.first_team is None else self.first_team.other

    def guesses(self, team: Team) -> tuple[Guess, ...]:
        return self.first_guesses if team is self.first_team else self.second_guesses

    def solved_in(self, team: Team) -> int | None:
        """The guess on which ``team`` named its opponent's state, if it has."""
        return solved_in(self.guesses(team))

    @property
    def guessing_team(self) -> Team | None:
        """The team guessing now: the first team until it names the state or misses 3 times."""
        if self.phase != "guessing" or self.first_team is None:
            return None
        return self.first_team if not turn_over(self.first_guesses) else self.first_team.other

    @property
    def clue_giving_team(self) -> Team | None:
        guessing = self.guessing_team
        return None if guessing is None else guessing.other

    @property
    def guess_number(self) -> int | None:
        """1, 2 or 3: which of the guessing team's guesses comes next."""
        guessing = self.guessing_team
        return None if guessing is None else len(self.guesses(guessing)) + 1

    @property
    def next_clue_type(self) -> str | None:
        """A, B or C: the Clue-card type given before the next guess (a new clue each guess)."""
        number = self.guess_number
        if number is None or self.clue_order is None:
            return None
        return self.clue_order[number - 1]


class StateIQLevel3:
    number: int = 2
    key: str = "state_iq"
    title: str = "State IQ"

    def __init__(self, atlas: Atlas | None = None) -> None:
        self._atlas = atlas or default_atlas()

    def start(self, context: GameContext) -> StateIQLevel3State:
        if context.level != LEVEL:
            raise InvalidInput(f"{self.title} (Level 3) level {context.level}: expected level 3")
        return StateIQLevel3State()

    def apply(self, state: StateIQLevel3State, action: Action) -> StateIQLevel3State:
        match action:
            case StatehoodDraw() | DrawWinner():
                require_phase(state, "draw")
                return replace(state, first_team=draw_result(action, self._atlas))
            case DeclarePlunge():
                require_phase(state, "plunge")
                return replace(state, plunging=check_plunge(action.plunging))
            case StateIQPower():
                require_phase(state, "power")
                return replace(state, clue_order=check_clue_order(action.clue_order))
            case StateIQGuess():
                require_phase(state, "guessing")
                return self._guess(state, action)
        raise not_this_game(self.title, action)

    def _guess(self, state: StateIQLevel3State, action: StateIQGuess) -> StateIQLevel3State:
        guessing = state.guessing_team
        assert guessing is not None and state.first_team is not None  # phase is "guessing"
        if action.team is not guessing:
            raise IllegalAction(f"Team {action.team} guessed: expected Team {guessing} to guess")
        guess = Guess(action.correct, self._guessed_state(state, guessing, action))
        if guessing is state.first_team:
            return replace(state, first_guesses=(*state.first_guesses, guess))
        after = replace(state, second_guesses=(*state.second_guesses, guess))
        if second_turn_over(after.first_guesses, after.second_guesses):
            result = game_result(state.first_team, after.first_guesses, after.second_guesses)
            return replace(after, result=result)
        return after

    def _guessed_state(
        self, state: StateIQLevel3State, team: Team, action: StateIQGuess
    ) -> str | None:
        """The postal code named, refused when it contradicts what the game already knows."""
        if action.state is None:
            return None
        code = self._atlas.code(action.state)
        if not action.correct:
            return code
        missed = {guess.state for guess in state.guesses(team) if not guess.correct}
        if code in missed:
            raise InvalidInput(
                f"{code} was already guessed wrong for this card: expected a different state"
            )
        other_card = next(
            (guess.state for guess in state.guesses(team.other) if guess.correct), None
        )
        if code == other_card:
            raise InvalidInput(
                f"{code} is Team {team}'s own card (Team {team.other} guessed it): expected "
                "the other card"
            )
        return code
