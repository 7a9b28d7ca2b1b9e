"""The STATES actions, as a log writes them: ``{"action": "states.KIND", ...}``.

Chance is explicit (R309, R310): ``states.deal`` and ``states.reshuffle`` carry the shuffled
cards, top first, so a log replays the same hands. Cards are postal codes; every water card is
``"water"``. A turn's actions name their player, so an entry for the wrong seat is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.actions import Action, register
from rules.states.connect import Connection
from rules.states.deck import DEFAULT_WATER_CARDS
from rules.states.scoring import Scoring

FAMILY = "states"


class Source(StrEnum):
    """Where a card is picked up from: the deck, or the top of a discard pile."""

    DECK = "deck"
    PILE1 = "pile1"
    PILE2 = "pile2"

    @property
    def pile(self) -> int | None:
        return {Source.PILE1: 1, Source.PILE2: 2}.get(self)


@register("states.start")
@dataclass(frozen=True, slots=True)
class StartStates(Action):
    """A new game. ``players`` in clockwise seat order (2-4); ``teams``: four players, partners
    across the table (seats 1 and 3 against 2 and 4). ``cards``: the deck's colours and values,
    ``"DE blue 8"`` with ``?`` where not known (rules/states/deck.py); knocking and the
    alternate scoring need every card's colour and value (R300)."""

    players: tuple[str, ...]
    teams: bool = False
    scoring: Scoring = Scoring.STANDARD
    knocking: bool = True
    connect: Connection = Connection.GROUP
    cards: tuple[str, ...] = ()
    water_cards: int = DEFAULT_WATER_CARDS


@register("states.deal")
@dataclass(frozen=True, slots=True)
class DealHand(Action):
    """A new hand: ``first`` plays first (the youngest, then a player of a lowest-scoring side:
    R311); ``order`` is the whole shuffled deck, top first."""

    first: str
    order: tuple[str, ...]


@register("states.reshuffle")
@dataclass(frozen=True, slots=True)
class Reshuffle(Action):
    """The deck ran out: the discard piles but their top cards, shuffled, top first (R310)."""

    order: tuple[str, ...]


@register("states.draw")
@dataclass(frozen=True, slots=True)
class Draw(Action):
    """The turn's draw: the top card of the deck or of a discard pile."""

    player: str
    source: Source


@register("states.water")
@dataclass(frozen=True, slots=True)
class PlaceWater(Action):
    """A water card from the hand goes face up in front of ``player``, who picks up another
    card from ``source`` (R306)."""

    player: str
    source: Source


@register("states.knock")
@dataclass(frozen=True, slots=True)
class Knock(Action):
    """At the start of a turn, instead of drawing: 3 or 4 cards of one colour."""

    player: str


@register("states.claim")
@dataclass(frozen=True, slots=True)
class Claim(Action):
    """A shout of "STATES!": the four states ``player`` shows (R304)."""

    player: str
    states: tuple[str, ...]


@register("states.discard")
@dataclass(frozen=True, slots=True)
class Discard(Action):
    """The end of a turn: ``card`` onto discard pile ``pile`` (1 or 2); ``block``: the pile a
    water card from in front of the player is then played on (R306, R307)."""

    player: str
    card: str
    pile: int
    block: int | None = None
