"""Building STATES games in tests: a complete example deck, stacked deals and played actions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rules.actions import Action
from rules.states.actions import DealHand, Discard, Draw, Source, StartStates
from rules.states.connect import Connection
from rules.states.deck import Deck, deck_from_toml
from rules.states.game import StatesGame, apply_action, new_game
from rules.states.scoring import Scoring

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_DECK_FILE = ROOT / "docs/states/example-deck.toml"
EXAMPLE_DECK = deck_from_toml(EXAMPLE_DECK_FILE.read_text(encoding="utf-8"))


def cards_of(colour: str, deck: Deck = EXAMPLE_DECK) -> list[str]:
    """The example deck's states of ``colour``, in postal-code order."""
    return [code for code, face in deck.faces.items() if face.colour == colour]


def started(
    players: Sequence[str] = ("A", "B"),
    *,
    teams: bool = False,
    scoring: Scoring = Scoring.STANDARD,
    knocking: bool = True,
    connect: Connection = Connection.GROUP,
    deck: Deck = EXAMPLE_DECK,
) -> StatesGame:
    return new_game(
        StartStates(
            tuple(players),
            teams=teams,
            scoring=scoring,
            knocking=knocking,
            connect=connect,
            cards=deck.entries(),
            water_cards=deck.water_cards,
        )
    )


def stacked(
    hands: Sequence[Sequence[str]],
    piles: tuple[str, str],
    top: Sequence[str] = (),
    deck: Deck = EXAMPLE_DECK,
) -> tuple[str, ...]:
    """A deal's order that deals ``hands`` (in turn order from the first player), turns up
    ``piles`` and leaves ``top`` on top of the deck; the rest follows in the deck's order.
    The hands must not hold a bonus state: a dealt bonus state is replaced at once."""
    dealt = [hand[i] for i in range(4) for hand in hands]
    chosen = [*dealt, *piles, *top]
    unused = Counter(deck.cards)
    unused.subtract(chosen)
    assert min(unused.values()) >= 0, f"stacked more than the deck holds: {-unused}"
    rest = []
    for card in deck.cards:
        if unused[card] > 0:
            rest.append(card)
            unused[card] -= 1
    return (*chosen, *rest)


def deal(
    game: StatesGame,
    first: str,
    hands: Sequence[Sequence[str]],
    piles: tuple[str, str],
    top: Sequence[str] = (),
) -> StatesGame:
    return apply_action(game, DealHand(first, stacked(hands, piles, top, game.deck)))


def play(game: StatesGame, *actions: Action) -> StatesGame:
    for action in actions:
        game = apply_action(game, action)
    return game


def turn(player: str, discard: str, source: Source = Source.DECK, pile: int = 1) -> list[Action]:
    """A plain turn: draw, then discard."""
    return [Draw(player, source), Discard(player, discard, pile)]
