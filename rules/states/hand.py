"""One hand of STATES as a state machine over the turn actions.

The deal gives each player 4 cards, one at a time from the first player, and turns up one card
on each discard pile (R309). Then turns go clockwise: a draw from the deck or an unblocked pile,
or a knock as the turn's first act; water cards and claims; the discard. The hand ends with a
winning claim, or, after a knock, when every other player has had one more turn. The deck never
stays empty: the piles but their top cards are reshuffled into a new one (R310).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TypeVar

from rules.atlas import Atlas, default_atlas
from rules.errors import IllegalAction, InvalidInput
from rules.states.actions import Source
from rules.states.connect import Connection, check_connection, read_claim
from rules.states.deck import BONUS_STATES, WATER, Deck
from rules.states.knock import Showdown, knock_colour, showdown

HAND_SIZE = 4  # "Always start and end your turn with 4 cards in your hand."
PILES = (1, 2)
T = TypeVar("T")


class WinBy(StrEnum):
    CONNECT = "connect"
    KNOCK = "knock"


@dataclass(frozen=True, slots=True)
class ClaimRecord:
    player: str
    states: tuple[str, ...]
    connects: bool
    reason: str


@dataclass(frozen=True, slots=True)
class HandEnd:
    how: WinBy
    winners: tuple[str, ...]  # seat order
    claim: ClaimRecord | None = None  # the winning claim
    showdown: Showdown | None = None  # the knock's judgement


@dataclass(frozen=True, slots=True)
class Hand:
    number: int
    seats: tuple[str, ...]  # clockwise
    first: str
    deck: tuple[str, ...]  # top first
    piles: tuple[tuple[str, ...], ...]  # the two discard piles, bottom first: [-1] is on top
    held: tuple[tuple[str, ...], ...]  # each seat's hand, in the order the cards came
    in_front: tuple[tuple[str, ...], ...]  # each seat's face-up bonus states and water cards
    turn: str
    knocking: bool  # the game allows knocks
    picked: bool = False  # the player has picked up a card this turn (a draw or a water pick)
    drawn: bool = False  # the turn's draw is done: the discard ends the turn
    emptied: int | None = None  # the pile the player took the only card of: discard there
    knocker: str | None = None
    last_turns: tuple[str, ...] = ()  # after a knock: the players still to have their last turn
    owed: str | None = None  # a bonus state's replacement owed to this player after the reshuffle
    claims: tuple[ClaimRecord, ...] = ()
    end: HandEnd | None = None

    @property
    def phase(self) -> str:
        if self.end is not None:
            return "over"
        if not self.deck:
            return "reshuffle"
        return "discard" if self.drawn else "draw"

    def seat(self, player: str) -> int:
        return self.seats.index(player)

    def held_by(self, player: str) -> tuple[str, ...]:
        return self.held[self.seat(player)]

    def in_front_of(self, player: str) -> tuple[str, ...]:
        return self.in_front[self.seat(player)]

    def blocked(self, pile: int) -> bool:
        cards = self.piles[pile - 1]
        return bool(cards) and cards[-1] == WATER

    @property
    def to_reshuffle(self) -> tuple[str, ...]:
        """The cards a reshuffle takes: every pile's cards but its top one."""
        return tuple(card for pile in self.piles for card in pile[:-1])


def expecting(hand: Hand) -> str:
    """What the hand waits for, for a person."""
    if hand.phase == "over":
        return "nothing: the hand is over"
    if hand.phase == "reshuffle":
        return "the discard piles reshuffled into a new deck (states.reshuffle): the deck ran out"
    if hand.phase == "discard":
        return f"{hand.turn}'s discard (states.discard)"
    if hand.knocker is not None:
        return f"{hand.turn}'s draw (states.draw): a last turn after {hand.knocker}'s knock"
    may_knock = hand.knocking and not hand.picked
    return f"{hand.turn}'s draw (states.draw{' or states.knock' if may_knock else ''})"


def read_card(text: str, atlas: Atlas | None = None) -> str:
    """A card as a log or a person names it: a state, or a water card."""
    if text.strip().lower() == WATER:
        return WATER
    return (atlas or default_atlas()).code(text)


# --- The deal and the reshuffle ----------------------------------------------------------------


def deal(
    number: int,
    seats: tuple[str, ...],
    first: str,
    order: Sequence[str],
    deck: Deck,
    *,
    knocking: bool,
) -> Hand:
    """Deal a shuffled deck (``order``, top first): a bonus state dealt goes face up in front
    of its player, who is dealt another card at once."""
    cards = _same_cards(order, deck.cards, "the deal's order", "every card of the deck")
    start = seats.index(first)
    rotation = seats[start:] + seats[:start]
    held: dict[str, list[str]] = {player: [] for player in seats}
    front: dict[str, list[str]] = {player: [] for player in seats}
    for _ in range(HAND_SIZE):
        for player in rotation:
            card = cards.pop(0)
            while card in BONUS_STATES:
                front[player].append(card)
                card = cards.pop(0)
            held[player].append(card)
    piles = ((cards.pop(0),), (cards.pop(0),))
    return Hand(
        number=number,
        seats=seats,
        first=first,
        deck=tuple(cards),
        piles=piles,
        held=tuple(tuple(held[player]) for player in seats),
        in_front=tuple(tuple(front[player]) for player in seats),
        turn=first,
        knocking=knocking,
    )


def reshuffle(hand: Hand, order: Sequence[str]) -> Hand:
    if hand.phase != "reshuffle":
        raise IllegalAction(
            f"the deck still has {len(hand.deck)} card(s): the piles are reshuffled only when "
            f"it runs out; expected {expecting(hand)}"
        )
    # Never empty: at most 17 cards are held, 2 on top and 2 bonus states and the water cards
    # in front, so at least 29 of the 50 states lie under the tops when the deck runs out.
    assert hand.to_reshuffle
    cards = _same_cards(order, hand.to_reshuffle, "the reshuffle's order", "the piles' cards")
    hand = replace(hand, deck=tuple(cards), piles=tuple(pile[-1:] for pile in hand.piles))
    if hand.owed is not None:
        owed = hand.owed
        hand = _take_from_deck(replace(hand, owed=None), owed)
    return hand


def _same_cards(order: Sequence[str], expected: Iterable[str], what: str, named: str) -> list[str]:
    cards = [read_card(text) for text in order]
    given, wanted = Counter(cards), Counter(expected)
    if given != wanted:
        missing = sorted((wanted - given).elements())
        extra = sorted((given - wanted).elements())
        faults = [f"missing {', '.join(missing)}"] if missing else []
        faults += [f"not expected {', '.join(extra)}"] if extra else []
        raise InvalidInput(
            f"{what} is not {named} ({'; '.join(faults)}): expected {wanted.total()} cards, "
            f"each once and {wanted[WATER]} water card(s)"
        )
    return cards


# --- A turn ------------------------------------------------------------------------------------


def draw(hand: Hand, player: str, source: Source) -> Hand:
    _require(hand, "states.draw", player, "draw")
    return replace(_pick_up(hand, player, source), drawn=True)


def place_water(hand: Hand, player: str, source: Source) -> Hand:
    """A water card from the hand goes face up in front; the player picks up another (R306)."""
    _require(hand, "states.water", player, "draw", "discard")
    seat = hand.seat(player)
    held = list(hand.held[seat])
    if WATER not in held:
        raise IllegalAction(f"{player} holds no water card: expected one in the hand")
    held.remove(WATER)
    hand = replace(
        hand,
        held=_at(hand.held, seat, tuple(held)),
        in_front=_at(hand.in_front, seat, (*hand.in_front[seat], WATER)),
    )
    return _pick_up(hand, player, source)


def knock(hand: Hand, player: str, deck: Deck) -> Hand:
    """Instead of the turn's draw: every other player then has one more turn (R312)."""
    _require(hand, "states.knock", player, "draw")
    if not hand.knocking:
        raise IllegalAction("knocking is off in this game: expected a draw (states.draw)")
    if hand.knocker is not None:
        raise IllegalAction(f"{hand.knocker} has already knocked: one knock a hand")
    if hand.picked:
        raise IllegalAction(
            f"{player} has picked up a card this turn: a knock is the first thing in a turn, "
            "instead of the draw"
        )
    if knock_colour(hand.held_by(player), deck) is None:
        raise IllegalAction(f"{player} cannot knock: expected 3 or 4 states of one colour")
    seat = hand.seat(player)
    others = hand.seats[seat + 1 :] + hand.seats[:seat]
    return _next_turn(replace(hand, knocker=player, last_turns=others), others[0])


def claim(
    hand: Hand,
    player: str,
    states: Sequence[str],
    rule: Connection,
    atlas: Atlas | None = None,
) -> Hand:
    """A "STATES!" claim after a pick-up: a winning claim ends the hand; a wrong one changes nothing
    but the record, and play continues (R304)."""
    _require(hand, "states.claim", player, "draw", "discard")
    if not hand.picked:
        raise IllegalAction(
            f"{player} has not picked up a card this turn: a claim follows a pick-up"
        )
    codes = read_claim(states, atlas)
    missing = [code for code in codes if code not in hand.held_by(player)]
    if missing:
        raise IllegalAction(
            f"{player} does not hold {', '.join(missing)}: expected 4 states in the hand"
        )
    check = check_connection(codes, rule, atlas)
    record = ClaimRecord(player, codes, check.connects, check.reason)
    end = HandEnd(WinBy.CONNECT, (player,), claim=record) if check.connects else None
    return replace(hand, claims=(*hand.claims, record), end=end)


def discard(
    hand: Hand, player: str, card: str, *, pile: int, block: int | None, deck: Deck
) -> Hand:
    """The end of the turn: a state onto a pile, then maybe a water card from in front (R307)."""
    _require(hand, "states.discard", player, "discard")
    for number, name in ((pile, "pile"), (block, "block")):
        if number is not None and number not in PILES:
            raise InvalidInput(f"{name} {number}: expected discard pile 1 or 2")
    code = read_card(card)
    seat = hand.seat(player)
    if code == WATER:
        raise IllegalAction(
            "a water card is not discarded: expected a state (place a water card in front "
            "with states.water)"
        )
    if code not in hand.held[seat]:
        raise IllegalAction(f"{player} does not hold {code}: expected a card in the hand")
    if hand.emptied is not None and pile != hand.emptied:
        raise IllegalAction(
            f"{player} took the only card of pile {hand.emptied}: expected the discard there"
        )
    held = list(hand.held[seat])
    held.remove(code)
    piles = _at(hand.piles, pile - 1, (*hand.piles[pile - 1], code))
    front = hand.in_front[seat]
    if block is not None:
        if WATER not in front:
            raise IllegalAction(f"{player} has no water card in front to block a pile with")
        if piles[block - 1][-1] == WATER:
            raise IllegalAction(f"pile {block} is already blocked by a water card")
        rest = list(front)
        rest.remove(WATER)
        front = tuple(rest)
        piles = _at(piles, block - 1, (*piles[block - 1], WATER))
    hand = replace(
        hand,
        held=_at(hand.held, seat, tuple(held)),
        piles=piles,
        in_front=_at(hand.in_front, seat, front),
    )
    return _end_turn(hand, deck)


# --- Picking up ----------------------------------------------------------------------------------


def _pick_up(hand: Hand, player: str, source: Source) -> Hand:
    hand = replace(hand, picked=True)
    pile = source.pile
    if pile is None:
        return _take_from_deck(hand, player)
    cards = hand.piles[pile - 1]
    if not cards:
        raise IllegalAction(f"pile {pile} is empty: {player} took its only card this turn")
    if cards[-1] == WATER:
        raise IllegalAction(
            f"pile {pile} is blocked by a water card: no one may pick up it or a card under it"
        )
    if len(cards) == 1 and hand.emptied is not None:
        raise IllegalAction(
            f"pile {pile} has one card: {player} already took the only card of pile "
            f"{hand.emptied} this turn, and one discard cannot refill both (R318)"
        )
    hand = replace(
        hand,
        piles=_at(hand.piles, pile - 1, cards[:-1]),
        emptied=pile if len(cards) == 1 else hand.emptied,
    )
    return _receive(hand, player, cards[-1])


def _take_from_deck(hand: Hand, player: str) -> Hand:
    card, rest = hand.deck[0], hand.deck[1:]
    return _receive(replace(hand, deck=rest), player, card)


def _receive(hand: Hand, player: str, card: str) -> Hand:
    """A card picked up: a bonus state goes face up in front and is replaced from the deck
    (R308), after the reshuffle if it was the deck's last card."""
    seat = hand.seat(player)
    if card not in BONUS_STATES:
        return replace(hand, held=_at(hand.held, seat, (*hand.held[seat], card)))
    hand = replace(hand, in_front=_at(hand.in_front, seat, (*hand.in_front[seat], card)))
    return _take_from_deck(hand, player) if hand.deck else replace(hand, owed=player)


# --- Turns -------------------------------------------------------------------------------------


def _end_turn(hand: Hand, deck: Deck) -> Hand:
    if hand.knocker is None:
        return _next_turn(hand, hand.seats[(hand.seat(hand.turn) + 1) % len(hand.seats)])
    remaining = hand.last_turns[1:]
    if remaining:
        return _next_turn(replace(hand, last_turns=remaining), remaining[0])
    judged = showdown(tuple(zip(hand.seats, hand.held, strict=True)), hand.knocker, deck)
    return replace(hand, last_turns=(), end=HandEnd(WinBy.KNOCK, judged.winners, showdown=judged))


def _next_turn(hand: Hand, player: str) -> Hand:
    return replace(hand, turn=player, picked=False, drawn=False, emptied=None)


def _require(hand: Hand, kind: str, player: str, *phases: str) -> None:
    if player not in hand.seats:
        raise InvalidInput(f"unknown player {player!r}: expected one of {', '.join(hand.seats)}")
    if hand.phase not in phases:
        raise IllegalAction(f"{kind} is not allowed now: expected {expecting(hand)}")
    if player != hand.turn:
        raise IllegalAction(f"it is {hand.turn}'s turn, not {player}'s")


def _at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])
