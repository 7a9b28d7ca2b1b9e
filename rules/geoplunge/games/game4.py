"""Game 4 (Level 4): turn a Power card for the version, then play PTR1, PTR2 or Border Zap.

The wrapper owns only the version choice; every later action goes to the version's own state
machine, whose state it exposes as ``inner``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.actions import Action, register
from rules.atlas import Atlas
from rules.errors import GameOver, IllegalAction
from rules.geoplunge.games.border_zap import BorderZapRules, BorderZapState
from rules.geoplunge.games.common import GameContext, require_phase
from rules.geoplunge.games.play_the_ranks import PlayTheRanksRules, PlayTheRanksState
from rules.geoplunge.games.tricks import TeamTally
from rules.geoplunge.power import Game4Version
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

VERSION_PHASE = "version"


@register("game4.version")
@dataclass(frozen=True, slots=True)
class ChooseVersion(Action):
    """The version named at the bottom of the Power card turned face-up."""

    version: Game4Version


@dataclass(frozen=True, slots=True)
class Game4State:
    context: GameContext
    inner: PlayTheRanksState | BorderZapState | None = None

    @property
    def version(self) -> Game4Version | None:
        if self.inner is None:
            return None
        if isinstance(self.inner, BorderZapState):
            return Game4Version.PTB
        return self.inner.version

    @property
    def phase(self) -> str:
        return VERSION_PHASE if self.inner is None else self.inner.phase

    @property
    def plunging(self) -> frozenset[Team] | None:
        return None if self.inner is None else self.inner.plunging

    @property
    def result(self) -> GameResult | None:
        return None if self.inner is None else self.inner.result

    @property
    def lead(self) -> Team | None:
        """The team leading the next trick (the match's lead until a draw is needed)."""
        return self.context.lead if self.inner is None else self.inner.lead

    @property
    def tricks_won(self) -> TeamTally:
        return TeamTally() if self.inner is None else self.inner.tricks_won


class Game4Rules:
    number = 4
    key = "game4"
    title = "Play the Ranks or Border Zap"

    def __init__(self, atlas: Atlas | None = None) -> None:
        self._ranks = PlayTheRanksRules(atlas)
        self._zap = BorderZapRules(atlas)

    def start(self, context: GameContext) -> Game4State:
        return Game4State(context=context)

    def apply(self, state: Game4State, action: Action) -> Game4State:
        if state.result is not None:
            raise GameOver("the game is over: it accepts no more actions")
        if isinstance(action, ChooseVersion):
            require_phase(state, VERSION_PHASE)
            return replace(state, inner=self._start_version(state.context, action.version))
        if state.inner is None:
            raise IllegalAction(f"{action.kind!r} before the version: expected game4.version")
        if isinstance(state.inner, BorderZapState):
            return replace(state, inner=self._zap.apply(state.inner, action))
        return replace(state, inner=self._ranks.apply(state.inner, action))

    def _start_version(
        self, context: GameContext, version: Game4Version
    ) -> PlayTheRanksState | BorderZapState:
        if version is Game4Version.PTB:
            return self._zap.start(context)
        return self._ranks.start(context, version)
