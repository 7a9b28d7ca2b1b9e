"""Game 5, Chummy Challenge (Level 4): up to three question challenges, best of three.

Phases per challenge: ``geoplungers`` (each team names its GeoPlunger) -> ``question`` (the Power
card's circles and the colour asked) -> ``reading`` (a shout stops the reading) -> ``waiting`` (the
question was read in full: the shell runs the 15-second timer and injects ``chummy.timeout``)
-> ``answer`` (after a shout: the dealer's verdict on each shouting team's answer). Before the
first challenge, ``plunge``; after the deciding challenge, ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.actions import Action, register
from rules.errors import IllegalAction, InvalidInput
from rules.geoplunge.games.best_of_three import series_result, wins
from rules.geoplunge.games.common import (
    DeclarePlunge,
    GameContext,
    check_plunge,
    not_this_game,
    require_phase,
)
from rules.geoplunge.power import QuestionColour
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

CHUMMY_ANSWER_SECONDS = 15  # after the question is read in full; the shell keeps the clock
MAX_CIRCLES = 2


@register("chummy.geoplungers")
@dataclass(frozen=True, slots=True)
class ChummyGeoPlungers(Action):
    """The player (name or seat) each team seats closest to the dealer for this challenge."""

    a: str
    b: str

    def of(self, team: Team) -> str:
        return self.a if team is Team.A else self.b


@register("chummy.question")
@dataclass(frozen=True, slots=True)
class ChummyQuestion(Action):
    """The top Power card's circle colours and the colour of the question the dealer reads."""

    circles: frozenset[QuestionColour]
    colour: QuestionColour


@register("chummy.read")
@dataclass(frozen=True, slots=True)
class ChummyQuestionRead(Action):
    """The dealer finished reading the question with no shout: the 15 seconds start."""


@register("chummy.shout")
@dataclass(frozen=True, slots=True)
class ChummyShout(Action):
    """The team whose GeoPlunger shouted first, or both when they shouted together."""

    shouters: frozenset[Team]


@register("chummy.answer")
@dataclass(frozen=True, slots=True)
class ChummyAnswer(Action):
    """The dealer's verdict on each shouting team's answer (and only on those)."""

    a_correct: bool | None = None
    b_correct: bool | None = None

    def of(self, team: Team) -> bool | None:
        return self.a_correct if team is Team.A else self.b_correct


@register("chummy.timeout")
@dataclass(frozen=True, slots=True)
class ChummyTimeout(Action):
    """No GeoPlunger shouted within 15 seconds after the question was read: a tied challenge."""


@dataclass(frozen=True, slots=True)
class ChummyState:
    plunging: frozenset[Team] | None = None
    challenges: tuple[Team | None, ...] = ()  # each challenge's winner; None is a tie
    a_geoplungers: tuple[str, ...] = ()  # one per challenge started, in order
    b_geoplungers: tuple[str, ...] = ()
    circles: frozenset[QuestionColour] | None = None  # the current challenge's Power card
    colour: QuestionColour | None = None  # the question being asked
    read: bool = False  # the question was read in full
    shouters: frozenset[Team] | None = None
    result: GameResult | None = None

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        if self.plunging is None:
            return "plunge"
        if len(self.a_geoplungers) == len(self.challenges):
            return "geoplungers"
        if self.colour is None:
            return "question"
        if self.shouters is not None:
            return "answer"
        return "waiting" if self.read else "reading"

    @property
    def challenge_number(self) -> int:
        """The challenge being played, or the last one played once the game is over."""
        return len(self.challenges) if self.result is not None else len(self.challenges) + 1

    def geoplungers(self, team: Team) -> tuple[str, ...]:
        return self.a_geoplungers if team is Team.A else self.b_geoplungers

    def geoplunger(self, team: Team) -> str | None:
        """The team's GeoPlunger for the current challenge, once named."""
        named = self.geoplungers(team)
        return named[-1] if len(named) > len(self.challenges) else None

    @property
    def answer_seconds(self) -> int | None:
        """Seconds the shell allows for a shout now; None when no timer should run."""
        return CHUMMY_ANSWER_SECONDS if self.phase == "waiting" else None

    def wins(self, team: Team) -> int:
        return wins(self.challenges, team)


def challenge_winner(shouters: frozenset[Team], correct: frozenset[Team]) -> Team | None:
    """One shouter: it wins if right, else the other team. Both: tie unless exactly one is
    right. No shouter (timeout): tie."""
    if len(shouters) == 1:
        (shouter,) = shouters
        return shouter if shouter in correct else shouter.other
    return next(iter(correct)) if len(correct) == 1 else None


class ChummyChallenge:
    number: int = 5
    key: str = "chummy"
    title: str = "Chummy Challenge"

    def start(self, context: GameContext) -> ChummyState:
        if context.level != 4:
            raise InvalidInput(f"{self.title} level {context.level}: expected level 4")
        return ChummyState()

    def apply(self, state: ChummyState, action: Action) -> ChummyState:
        match action:
            case DeclarePlunge():
                require_phase(state, "plunge")
                return replace(state, plunging=check_plunge(action.plunging))
            case ChummyGeoPlungers():
                require_phase(state, "geoplungers")
                return _name_geoplungers(state, action)
            case ChummyQuestion():
                require_phase(state, "question")
                return replace(state, circles=action.circles, colour=_asked(action))
            case ChummyQuestionRead():
                require_phase(state, "reading")
                return replace(state, read=True)
            case ChummyShout():
                require_phase(state, "reading", "waiting")
                return replace(state, shouters=_shouters(action))
            case ChummyAnswer():
                require_phase(state, "answer")
                assert state.shouters is not None  # phase is "answer"
                correct = _verdicts(state.shouters, action)
                return _end_challenge(state, challenge_winner(state.shouters, correct))
            case ChummyTimeout():
                require_phase(state, "waiting")
                return _end_challenge(state, None)
        raise not_this_game(self.title, action)


def _name_geoplungers(state: ChummyState, action: ChummyGeoPlungers) -> ChummyState:
    named: dict[Team, str] = {}
    for team in Team:
        player = " ".join(action.of(team).split())
        if not player:
            raise InvalidInput(f"Team {team}'s GeoPlunger is blank: expected a player or seat")
        for challenge, earlier in enumerate(state.geoplungers(team), start=1):
            if earlier.casefold() == player.casefold():
                raise IllegalAction(
                    f"Team {team}'s GeoPlunger {player!r} played challenge {challenge}: "
                    "expected a different GeoPlunger for each challenge"
                )
        named[team] = player
    return replace(
        state,
        a_geoplungers=(*state.a_geoplungers, named[Team.A]),
        b_geoplungers=(*state.b_geoplungers, named[Team.B]),
    )


def _asked(action: ChummyQuestion) -> QuestionColour:
    if not 1 <= len(action.circles) <= MAX_CIRCLES:
        raise InvalidInput(
            f"a Power card with {len(action.circles)} circles: expected 1 or {MAX_CIRCLES}"
        )
    if action.colour not in action.circles:
        on_card = " or ".join(sorted(action.circles))
        raise IllegalAction(
            f"the {action.colour} question is not on the Power card: expected {on_card}"
        )
    return action.colour


def _shouters(action: ChummyShout) -> frozenset[Team]:
    if not action.shouters:
        raise InvalidInput("a shout with no team: expected the first team to shout, or both")
    return action.shouters


def _verdicts(shouters: frozenset[Team], action: ChummyAnswer) -> frozenset[Team]:
    """The shouting teams that answered correctly; every shouter needs a verdict."""
    for team in Team:
        verdict = action.of(team)
        field = f"{team.value.lower()}_correct"
        if team in shouters and verdict is None:
            raise InvalidInput(f"Team {team} shouted: expected a verdict {field}")
        if team not in shouters and verdict is not None:
            raise InvalidInput(f"Team {team} did not shout: expected no {field}")
    return frozenset(team for team in shouters if action.of(team))


def _end_challenge(state: ChummyState, winner: Team | None) -> ChummyState:
    challenges = (*state.challenges, winner)
    return replace(
        state,
        challenges=challenges,
        circles=None,
        colour=None,
        read=False,
        shouters=None,
        result=series_result(challenges, "challenge"),
    )
