"""The actions of STATES in table mode: the cards are dealt by hand, the table keeps the score.

A real table shuffles and deals real cards, so these actions never name a deal or a draw
(R320). They record what the table is told: who starts a hand, a "STATES!" claim (the four
states shown, checked by the rules core, or the dealer's YES/NO), a knock and its cards or
total, the end of the knock's last round, each other player's best colour total, and who holds
the bonus states when a hand is won. Cards are postal codes; a water card is ``"water"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import Action, register
from rules.states.connect import Connection
from rules.states.deck import DEFAULT_WATER_CARDS
from rules.states.scoring import Scoring


@register("states.table_start")
@dataclass(frozen=True, slots=True)
class StartTable(Action):
    """A game in table mode. ``players`` in clockwise seat order (2-4), ``teams`` as in
    ``states.start``; ``target``: the score that wins (None: the scoring's own, 15 or 75);
    ``cards``: the deck's colours and values (``"DE blue 8"``, ``?`` where not known)."""

    players: tuple[str, ...]
    teams: bool = False
    scoring: Scoring = Scoring.STANDARD
    knocking: bool = True
    connect: Connection = Connection.GROUP
    target: int | None = None
    cards: tuple[str, ...] = ()
    water_cards: int = DEFAULT_WATER_CARDS


@register("states.table_hand")
@dataclass(frozen=True, slots=True)
class BeginHand(Action):
    """The cards are dealt at the table; ``first`` plays first (R311)."""

    first: str


@register("states.table_claim")
@dataclass(frozen=True, slots=True)
class ClaimAtTable(Action):
    """A shout of "STATES!" by ``player``. With ``states`` (the four shown, typed on the page)
    the rules core judges them, unless the dealer overruled it: ``overruled`` is the reason and
    the verdict is the opposite of the rules'. Without ``states`` the dealer judged: ``connects``
    is the verdict, and ``values`` the four cards' values (the alternate scoring only: R323)."""

    player: str
    states: tuple[str, ...] = ()
    connects: bool | None = None
    values: int | None = None
    overruled: str | None = None


@register("states.table_knock")
@dataclass(frozen=True, slots=True)
class KnockAtTable(Action):
    """``player`` knocks. ``cards``: the knocker's hand as typed on the page (the rules core
    finds the knocking colour); or ``total``: the knocking cards' total, entered on the
    console, and ``four_card`` for a 4-card knock (R324)."""

    player: str
    cards: tuple[str, ...] = ()
    total: int | None = None
    four_card: bool = False


@register("states.table_last_round")
@dataclass(frozen=True, slots=True)
class LastRoundOver(Action):
    """Every other player has had the one more turn after the knock, and nobody connected."""


@register("states.table_total")
@dataclass(frozen=True, slots=True)
class BestTotal(Action):
    """After a knock's last round: ``player``'s hand (``cards``, from the page) or highest total
    in one colour (``total``, from the console; 0 for a hand of water cards)."""

    player: str
    cards: tuple[str, ...] = ()
    total: int | None = None


@register("states.table_bonus")
@dataclass(frozen=True, slots=True)
class BonusHolders(Action):
    """A hand is won: who has AK and who has HI face up in front of them (None: nobody)."""

    ak: str | None = None
    hi: str | None = None
