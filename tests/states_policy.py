"""A random but sensible STATES player, for property tests: every action it picks is legal.

It reads the game's public fields only and judges legality itself (which pile may be picked
from, who may knock), so a rule the core gets wrong shows up as a refused legal action.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise, permutations

from rules.actions import Action
from rules.atlas import default_atlas
from rules.states.actions import (
    Claim,
    DealHand,
    Discard,
    Draw,
    Knock,
    PlaceWater,
    Reshuffle,
    Source,
)
from rules.states.connect import Connection
from rules.states.deck import WATER
from rules.states.game import StatesGame
from rules.states.hand import Hand

ATLAS = default_atlas()


def next_action(game: StatesGame, rng: random.Random, *, passive: bool = False) -> Action:
    """A legal action; a ``passive`` player never wins a hand (no connecting claim, no knock),
    so hands run long and the deck runs out."""
    hand = game.hand
    if hand is None:
        order = list(game.deck.cards)
        rng.shuffle(order)
        return DealHand(rng.choice(game.may_start_next), tuple(order))
    if not hand.deck:
        order = list(hand.to_reshuffle)
        rng.shuffle(order)
        return Reshuffle(tuple(order))
    player = hand.turn
    held = hand.held_by(player)
    states = [card for card in held if card != WATER]
    if hand.picked:
        winning = connecting_four(states, game.connect)
        if winning is not None and not passive and rng.random() < 0.9:
            return Claim(player, winning)
        wrong = [
            four
            for four in combinations(states, 4)
            if connecting_four(list(four), game.connect) is None
        ]
        if wrong and rng.random() < 0.05:
            return Claim(player, rng.choice(wrong))  # a mistake: play continues
    if not hand.drawn and not passive and may_knock(game, hand) and rng.random() < 0.5:
        return Knock(player)
    sources = pickable(hand)
    if WATER in held and rng.random() < 0.3:
        return PlaceWater(player, rng.choice(sources))
    if not hand.drawn:
        return Draw(player, rng.choice(sources))
    if not states:  # five water cards in a big-water deck: only placing one helps
        return PlaceWater(player, rng.choice(sources))
    return _discard(game, hand, player, states, rng)


def pickable(hand: Hand) -> list[Source]:
    """Where the player may pick up a card now: the deck, or a pile whose top is no water card
    (and whose only card may be taken unless another pile was emptied this turn)."""
    sources = [Source.DECK]
    for source, pile in ((Source.PILE1, hand.piles[0]), (Source.PILE2, hand.piles[1])):
        if not pile or pile[-1] == WATER:
            continue
        if len(pile) == 1 and hand.emptied is not None:
            continue
        sources.append(source)
    return sources


def may_knock(game: StatesGame, hand: Hand) -> bool:
    if not game.knocking or hand.knocker is not None or hand.picked:
        return False
    colours = Counter(game.deck.colour(card) for card in hand.held_by(hand.turn) if card != WATER)
    return any(count >= 3 for count in colours.values())


def connecting_four(states: list[str], rule: Connection) -> tuple[str, ...] | None:
    for four in combinations(states, 4):
        if _connected(four) and (rule is Connection.GROUP or _chained(four)):
            return four
    return None


def _connected(four: tuple[str, ...]) -> bool:
    reached = {four[0]}
    frontier = [four[0]]
    while frontier:
        here = frontier.pop()
        for other in four:
            if other not in reached and ATLAS.borders(here, other):
                reached.add(other)
                frontier.append(other)
    return len(reached) == len(four)


def _chained(four: tuple[str, ...]) -> bool:
    return any(all(ATLAS.borders(a, b) for a, b in pairwise(order)) for order in permutations(four))


def _discard(
    game: StatesGame, hand: Hand, player: str, states: list[str], rng: random.Random
) -> Discard:
    """Mostly the state bordering fewest of the others (keeps a hand growing towards a
    connection), sometimes any; then now and then a water card from in front on a pile."""
    if rng.random() < 0.7:
        card = min(states, key=lambda s: (sum(ATLAS.borders(s, o) for o in states), s))
    else:
        card = rng.choice(states)
    pile = hand.emptied or rng.choice((1, 2))
    block = None
    if WATER in hand.in_front_of(player) and rng.random() < 0.5:
        tops = [hand.piles[0][-1:], hand.piles[1][-1:]]
        tops[pile - 1] = (card,)
        open_piles = [n for n in (1, 2) if tops[n - 1] != (WATER,)]
        block = rng.choice(open_piles) if open_piles else None
    return Discard(player, card, pile, block)
