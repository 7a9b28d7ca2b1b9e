"""Game 5, Chummy Challenge (Level 3): red and blue questions only.

The Level 3 Power card has one square, red or blue, in its left centre; the dealer asks the
question of that colour (``l3.chummy.question``). Everything else is Level 4's game
(``rules.geoplunge.games.chummy_challenge``): the GeoPlungers, the shouts, the 15 seconds, the
answers and the best-of-three series (ruling R73).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.actions import Action, register
from rules.errors import IllegalAction, InvalidInput
from rules.geoplunge.games.chummy_challenge import ChummyChallenge, ChummyQuestion, ChummyState
from rules.geoplunge.games.common import GameContext, require_phase
from rules.geoplunge.power import QuestionColour

LEVEL = 3
LEVEL_3_COLOURS = (QuestionColour.RED, QuestionColour.BLUE)


@register("l3.chummy.question")
@dataclass(frozen=True, slots=True)
class SquareQuestion(Action):
    """The colour of the square on the top Power card: the dealer asks that question."""

    square: QuestionColour


class ChummyChallengeLevel3(ChummyChallenge):
    def start(self, context: GameContext) -> ChummyState:
        if context.level != LEVEL:
            raise InvalidInput(f"{self.title} (Level 3) level {context.level}: expected level 3")
        return ChummyState()

    def apply(self, state: ChummyState, action: Action) -> ChummyState:
        if isinstance(action, SquareQuestion):
            require_phase(state, "question")
            colour = _square(action.square)
            return replace(state, circles=frozenset({colour}), colour=colour)
        if isinstance(action, ChummyQuestion):
            raise IllegalAction(
                "a Level 3 Power card has one square, no circles: expected l3.chummy.question"
            )
        return super().apply(state, action)


def _square(colour: QuestionColour) -> QuestionColour:
    if colour not in LEVEL_3_COLOURS:
        raise InvalidInput(
            f"a {colour} square: expected red or blue (Level 3 uses only those questions)"
        )
    return colour
