"""Game 3, Dashing States (Level 3): up to three sorting races, best of three, no Power card.

Level 3 uses Map cards only, so no Power card names race 3's category: race 3 sorts like race 1,
by state name A to Z (ruling R65). Everything else is Level 4's game
(``rules.geoplunge.games.dashing_states``): the same ``dashing.race`` action, verdicts, card checks
and best-of-three series. Phases: ``plunge`` -> ``race`` (races 1 to 3) -> ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import Action
from rules.errors import IllegalAction, InvalidInput
from rules.geoplunge.games.common import GameContext
from rules.geoplunge.games.dashing_states import (
    DashingCategory,
    DashingState,
    DashingStates,
    first_out_of_order,
    sort_description,
)

LEVEL = 3
RACE_3_SORTS_AS = 1  # race 3 repeats race 1's order: state names A to Z (R65)


def sorting_race(race_number: int) -> int:
    """The Level 4 race whose order a Level 3 race uses: race 3 sorts as race 1."""
    return RACE_3_SORTS_AS if race_number == 3 else race_number


@dataclass(frozen=True, slots=True)
class DashingLevel3State(DashingState):
    """Level 4's Dashing States state without the race-3 ``category`` phase."""

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        if self.plunging is None:
            return "plunge"
        return "race"

    @property
    def sort_by(self) -> str | None:
        return sort_description(sorting_race(self.race_number))


class DashingStatesLevel3(DashingStates):
    """Level 4's game, with race 3 sorted by state name and ``dashing.category`` refused."""

    def start(self, context: GameContext) -> DashingLevel3State:
        if context.level != LEVEL:
            raise InvalidInput(f"{self.title} (Level 3) level {context.level}: expected level 3")
        return DashingLevel3State()

    def apply(self, state: DashingState, action: Action) -> DashingState:
        if isinstance(action, DashingCategory):
            raise IllegalAction(
                "Level 3 Dashing States turns no Power card: race 3 sorts by state name, "
                "A to Z, expected dashing.race"
            )
        return super().apply(state, action)

    def _out_of_order(self, state: DashingState, cards: tuple[str, ...]) -> tuple[str, str] | None:
        """Each race sorted the Level 3 way."""
        return first_out_of_order(sorting_race(state.race_number), cards, atlas=self._atlas)
