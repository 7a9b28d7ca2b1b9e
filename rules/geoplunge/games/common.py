"""What every game shares: the plunge declaration, the statehood draw and the game protocol.

The statehood draw is entered either card by card (``statehood_draw``: the two cards drawn) or
as the dealer's verdict (``draw_winner``: the team whose card is closer to 1), for a table
that cannot type state names. Every game that takes one takes the other, in the same phase and
with the same effect; ``draw_result`` reads either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

from rules.actions import Action, register
from rules.atlas import Atlas, default_atlas
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

MAX_REASON = 80  # characters: an overrule's reason is one short line of plain text (R133)


def check_reason(text: str) -> str:
    """A dealer's overrule reason, stripped: one line of 1 to MAX_REASON characters."""
    reason = text.strip()
    if not reason or len(reason) > MAX_REASON or not reason.isprintable():
        raise InvalidInput(
            f"overrule reason {text[:MAX_REASON]!r}: expected 1 to {MAX_REASON} characters "
            "of plain text on one line"
        )
    return reason


@register("plunge")
@dataclass(frozen=True, slots=True)
class DeclarePlunge(Action):
    """Who was standing when the dealer's count reached 5 ("Are you GeoPlunging?")."""

    plunging: frozenset[Team]


@register("statehood_draw")
@dataclass(frozen=True, slots=True)
class StatehoodDraw(Action):
    """Each team draws a GeoPlunge card unseen; statehood rank closer to 1 goes first."""

    a: str
    b: str


@register("draw_winner")
@dataclass(frozen=True, slots=True)
class DrawWinner(Action):
    """The dealer compared the two drawn GeoPlunge cards: ``first``'s statehood rank is closer
    to 1, so it goes first / leads (the cards themselves are not entered)."""

    first: Team


def statehood_draw_winner(draw: StatehoodDraw, atlas: Atlas | None = None) -> Team:
    atlas = atlas or default_atlas()
    card_a, card_b = atlas.lookup(draw.a), atlas.lookup(draw.b)
    if card_a.code == card_b.code:
        raise InvalidInput(f"both teams drew {card_a.code}: each team draws a different card")
    return Team.A if card_a.statehood_rank < card_b.statehood_rank else Team.B


def draw_result(action: StatehoodDraw | DrawWinner, atlas: Atlas | None = None) -> Team:
    """The team that won the statehood draw: judged from the cards, or as the dealer entered it."""
    if isinstance(action, DrawWinner):
        return action.first
    return statehood_draw_winner(action, atlas)


@dataclass(frozen=True, slots=True)
class GameContext:
    """What a game is told by the match it is part of.

    ``lead`` is the team that leads Game 4's first trick by the match's rule (the Dashing
    States winner in an All match, the most recent game's winner in a Call match), or None when
    that game was a tie or has not been played, in which case a statehood draw decides.
    """

    level: int = 4
    lead: Team | None = None
    # Level 3 Play the Ranks: a team that wins 6 tricks wins at once, as at Level 4 (R68);
    # False plays all 8 tricks (the other reading of the rulebook)
    ptr_early_end: bool = True


class GameState(Protocol):
    @property
    def plunging(self) -> frozenset[Team] | None: ...

    @property
    def result(self) -> GameResult | None: ...

    @property
    def phase(self) -> str: ...


StateT = TypeVar("StateT", bound=GameState)


class GameRules(Protocol[StateT]):
    number: int
    key: str
    title: str

    def start(self, context: GameContext) -> StateT: ...

    def apply(self, state: StateT, action: Action) -> StateT: ...


def require_phase(state: GameState, *phases: str) -> None:
    if state.result is not None:
        raise GameOver("the game is over: it accepts no more actions")
    if state.phase not in phases:
        # say where the game is and where this action belongs: "expected plunge" alone read as
        # if the phase expected it
        raise IllegalAction(
            f"not allowed in phase '{state.phase}': this action belongs to phase "
            f"{' or '.join(repr(phase) for phase in phases)}"
        )


def check_plunge(plunging: frozenset[Team]) -> frozenset[Team]:
    if not plunging <= {Team.A, Team.B}:
        raise InvalidInput("plunging teams must be A and/or B")
    return plunging


def not_this_game(title: str, action: Action) -> IllegalAction:
    return IllegalAction(f"{action.kind!r} is not a {title} action")
