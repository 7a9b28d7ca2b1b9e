"""Knocking: who may knock, and who wins when nobody connects after a knock.

A player may knock holding 3 (or 4) state cards of one colour. When every other player has had
one more turn without a connection, the highest total in one colour wins, even a single card's
(the rulebook's note); the knocker wins a tie it is part of, other tied players all win (R313).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.errors import InvalidInput
from rules.states.deck import WATER, Deck

KNOCK_CARDS = 3  # "If you have 3 states of the same color, you may knock"
FOUR_CARD_KNOCK = 4


@dataclass(frozen=True, slots=True)
class ColourTotal:
    """One colour's cards in a hand and their total; ``colour`` None: the hand has no state."""

    colour: str | None
    total: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Showdown:
    knocker: str
    best: tuple[tuple[str, ColourTotal], ...]  # every player's highest colour total, seat order
    winners: tuple[str, ...]  # seat order
    four_card: bool  # the knocker knocked with 4 cards of one colour

    def best_of(self, player: str) -> ColourTotal:
        return dict(self.best)[player]


def colour_totals(cards: Iterable[str], deck: Deck) -> tuple[ColourTotal, ...]:
    """Each colour in a hand with its total, highest total first (then more cards, then name).

    Water cards have no colour. A state without a colour or value in the deck is bad input:
    knocking needs a complete deck (R300)."""
    by_colour: dict[str, list[str]] = {}
    for card in cards:
        if card == WATER:
            continue
        colour, value = deck.colour(card), deck.value(card)
        if colour is None or value is None:
            raise InvalidInput(
                f"{card} has no {'colour' if colour is None else 'value'} in the deck: "
                "expected a deck file with every card's colour and value"
            )
        by_colour.setdefault(colour, []).append(card)
    totals = [
        ColourTotal(colour, sum(_value(card, deck) for card in group), tuple(group))
        for colour, group in by_colour.items()
    ]
    return tuple(sorted(totals, key=lambda t: (-t.total, -len(t.cards), t.colour or "")))


def best_colour(cards: Iterable[str], deck: Deck) -> ColourTotal:
    totals = colour_totals(cards, deck)
    return totals[0] if totals else ColourTotal(None, 0, ())


def knock_colour(cards: Iterable[str], deck: Deck) -> ColourTotal | None:
    """The colour a hand may knock with (3 or 4 of its cards), if any."""
    return next((t for t in colour_totals(cards, deck) if len(t.cards) >= KNOCK_CARDS), None)


def showdown(hands: Sequence[tuple[str, Sequence[str]]], knocker: str, deck: Deck) -> Showdown:
    """Judge a knock nobody answered: ``hands`` are (player, cards) in seat order."""
    best = tuple((player, best_colour(cards, deck)) for player, cards in hands)
    knocking = knock_colour(dict(hands)[knocker], deck)
    four_card = knocking is not None and len(knocking.cards) == FOUR_CARD_KNOCK
    return judge_totals(best, knocker, four_card=four_card)


def judge_totals(
    best: tuple[tuple[str, ColourTotal], ...], knocker: str, *, four_card: bool
) -> Showdown:
    """Judge a knock from each player's highest colour total (seat order): the highest wins,
    the knocker wins a tie it is part of, other tied players all win (R313). The table's mode
    judges totals entered at the table with it (rules/states/table_game.py)."""
    highest = max(total.total for _, total in best)
    tied = tuple(player for player, total in best if total.total == highest)
    winners = (knocker,) if knocker in tied else tied
    return Showdown(knocker, best, winners, four_card)


def _value(card: str, deck: Deck) -> int:
    value = deck.value(card)
    assert value is not None  # checked with the colour above
    return value
