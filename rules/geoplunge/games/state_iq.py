"""Game 2, State IQ (Level 4): each team gets 3 guesses at the state in the other team's hand.

Phases: ``draw`` (statehood draw, or the dealer's ``draw_winner``: rank closer to 1 guesses
first) -> ``plunge`` (each team has looked at its one card) -> ``power`` (the Power card's
clue-letter order, used for both teams) -> ``guessing`` (the first team's 3 guesses, then the
second team's) -> ``over``.

The dealer hears the spoken guesses, so every guess carries the dealer's verdict; the state
named is optional and, when given, is checked against the atlas and the game so far: a state
the game already rules out cannot be a right guess, unless the dealer overrules that check with
a reason (R480), which the guess keeps.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from rules.actions import Action, register
from rules.atlas import Atlas, default_atlas
from rules.errors import IllegalAction, InvalidInput
from rules.geoplunge.games.common import (
    DeclarePlunge,
    DrawWinner,
    GameContext,
    StatehoodDraw,
    check_plunge,
    check_reason,
    draw_result,
    not_this_game,
    require_phase,
)
from rules.geoplunge.power import check_clue_order
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

GUESSES = 3


@register("state_iq.power")
@dataclass(frozen=True, slots=True)
class StateIQPower(Action):
    """The A/B/C order in the upper right corner of the Power card turned face-up, e.g. BAC."""

    clue_order: str


@register("state_iq.guess")
@dataclass(frozen=True, slots=True)
class StateIQGuess(Action):
    """One guess by ``team``; ``correct`` is the dealer's verdict, ``state`` what was said."""

    team: Team
    correct: bool
    state: str | None = None


@register("state_iq.overrule")
@dataclass(frozen=True, slots=True)
class StateIQOverrule(Action):
    """A right guess of ``state`` that the game so far rules out, recorded by the dealer anyway
    with the reason (a judge's ruling, say): the table's page typed it; R480."""

    team: Team
    state: str
    reason: str


@dataclass(frozen=True, slots=True)
class Guess:
    correct: bool
    state: str | None = None  # postal code, when the dealer entered it
    overruled: str | None = None  # the dealer's reason, when the game's check was overruled


@dataclass(frozen=True, slots=True)
class GuessingState:
    """What both levels' State IQ games track; each level says when the first team's turn ends."""

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

    def first_turn_over(self) -> bool:
        """Whether the first guessing team has finished guessing."""
        raise NotImplementedError

    @property
    def guessing_team(self) -> Team | None:
        """The team guessing now: the first team until its turn is over, then the other."""
        if self.phase != "guessing" or self.first_team is None:
            return None
        return self.first_team if not self.first_turn_over() else self.first_team.other

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
        """A, B or C: the Clue-card type the clue-giving team gives before the next guess."""
        number = self.guess_number
        if number is None or self.clue_order is None:
            return None
        return self.clue_order[number - 1]


@dataclass(frozen=True, slots=True)
class StateIQState(GuessingState):
    def first_turn_over(self) -> bool:
        """The first team keeps guessing until it has used all 3."""
        return len(self.first_guesses) >= GUESSES

    def correct(self, team: Team) -> int:
        return sum(1 for guess in self.guesses(team) if guess.correct)

    @property
    def card_number(self) -> int | None:
        """Which of the clue-giving team's cards is being guessed: each correct guess deals one."""
        guessing = self.guessing_team
        return None if guessing is None else self.correct(guessing) + 1

    @property
    def deal_next_card(self) -> Team | None:
        """The team the dealer must deal the next GeoPlunge card to before the next guess."""
        guessing = self.guessing_team
        if guessing is None:
            return None
        made = self.guesses(guessing)
        return guessing.other if made and made[-1].correct else None


StateT = TypeVar("StateT", bound=GuessingState)


class StateIQRules(ABC, Generic[StateT]):
    """The actions and turn order both levels share; subclasses judge guesses and results."""

    number: int = 2
    key: str = "state_iq"
    title: str = "State IQ"

    def __init__(self, atlas: Atlas | None = None) -> None:
        self._atlas = atlas or default_atlas()

    def apply(self, state: StateT, action: Action) -> StateT:
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
            case StateIQOverrule():
                require_phase(state, "guessing")
                return self._guess(state, action)
        raise not_this_game(self.title, action)

    def _guess(self, state: StateT, action: StateIQGuess | StateIQOverrule) -> StateT:
        guessing = state.guessing_team
        assert guessing is not None and state.first_team is not None  # phase is "guessing"
        if action.team is not guessing:
            raise IllegalAction(f"Team {action.team} guessed: expected Team {guessing} to guess")
        if isinstance(action, StateIQOverrule):
            guess = Guess(True, self._atlas.code(action.state), check_reason(action.reason))
        else:
            guess = Guess(action.correct, self._guessed_state(state, guessing, action))
        if guessing is state.first_team:
            return replace(state, first_guesses=(*state.first_guesses, guess))
        after = replace(state, second_guesses=(*state.second_guesses, guess))
        result = self._result_after_second_guess(after, state.first_team)
        return after if result is None else replace(after, result=result)

    def named(self, state: StateT, text: str) -> tuple[str, str | None]:
        """A state named by the guessing team: its postal code (an unknown name is the atlas's
        ``UnknownState``) and why the game already rules it out as a right guess, if it does.
        The card itself is not known to the table: whether a guess is right is the dealer's."""
        team = state.guessing_team
        if team is None:
            raise IllegalAction("no team is guessing now: expected a guess while one is")
        code = self._atlas.code(text)
        return code, self._ruled_out(state, team, code)

    def _guessed_state(self, state: StateT, team: Team, action: StateIQGuess) -> str | None:
        """The postal code named, refused as a right guess when it contradicts what the game
        already knows (``state_iq.overrule`` records it anyway, with a reason)."""
        if action.state is None:
            return None
        code = self._atlas.code(action.state)
        if not action.correct:
            return code
        ruled_out = self._ruled_out(state, team, code)
        if ruled_out is not None:
            raise InvalidInput(ruled_out)
        return code

    @abstractmethod
    def _ruled_out(self, state: StateT, team: Team, code: str) -> str | None:
        """Why the game so far rules ``code`` out as ``team``'s right guess, or None."""

    @abstractmethod
    def _result_after_second_guess(self, after: StateT, first: Team) -> GameResult | None:
        """The game's result once the second team's turn is over, else None."""


class StateIQ(StateIQRules[StateIQState]):
    def start(self, context: GameContext) -> StateIQState:
        if context.level != 4:
            raise InvalidInput(f"{self.title} level {context.level}: expected level 4")
        return StateIQState()

    def _result_after_second_guess(self, after: StateIQState, first: Team) -> GameResult | None:
        if second_turn_over(after.correct(first), after.second_guesses):
            return _result(after, first)
        return None

    def _ruled_out(self, state: StateIQState, team: Team, code: str) -> str | None:
        if code in _identified(state):
            return (
                f"{code} was already guessed correctly: expected a new card after a correct guess"
            )
        if code in _missed_on_card(state.guesses(team)):
            return f"{code} was already guessed wrong for this card: expected a different state"
        return None


def second_turn_over(first_correct: int, guesses: tuple[Guess, ...]) -> bool:
    """Whether the second guessing team stops after ``guesses``.

    It stops once it has lost (it cannot reach the first team's count even by guessing every
    remaining card) or once it has won without a chance of the bonus (a guess has missed, so 3 of
    3 is out of reach). While a tie is still reachable it has not lost, so it keeps guessing.
    """
    taken = len(guesses)
    correct = sum(1 for guess in guesses if guess.correct)
    left = GUESSES - taken
    if left == 0 or correct + left < first_correct:
        return True
    return correct > first_correct and correct < taken


def _result(state: StateIQState, first: Team) -> GameResult:
    scores = {first: state.correct(first), first.other: state.correct(first.other)}
    tally = f"Team {Team.A} guessed {scores[Team.A]}, Team {Team.B} guessed {scores[Team.B]}"
    if scores[Team.A] == scores[Team.B]:
        return GameResult(None, reason=f"tie: {tally}")
    winner = Team.A if scores[Team.A] > scores[Team.B] else Team.B
    bonus = scores[winner] == GUESSES
    suffix = "; 3 different states: bonus" if bonus else ""
    return GameResult(winner, bonus=bonus, reason=f"{tally}{suffix}")


def _identified(state: StateIQState) -> set[str]:
    everyone = (*state.first_guesses, *state.second_guesses)
    return {guess.state for guess in everyone if guess.correct and guess.state is not None}


def _missed_on_card(guesses: tuple[Guess, ...]) -> set[str]:
    """States already guessed wrong for the card now being guessed (since the last hit)."""
    missed: set[str] = set()
    for guess in reversed(guesses):
        if guess.correct:
            break
        if guess.state is not None:
            missed.add(guess.state)
    return missed
