"""What every Guesstimation step knows: the table's options, which game of the journal it is,
the keys of its steps, the die, and the deck's question for the round."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.families.guesstimation.dice import card_order, die_roll
from firmware_py.families.guesstimation.options import GuesstimationOptions
from firmware_py.table.prompts import Outcome
from rules.actions import Action, encode
from rules.guesstimation.actions import RollDie
from rules.guesstimation.deck import Card, DeckQuestion
from rules.guesstimation.session import Round

ROLL_HINT = "GO/buzzer: roll"  # the table rolls when the player presses the buzzer (or GO)


@dataclass(frozen=True, slots=True)
class Table:
    """One game at the table: the options and which session of the journal it is."""

    options: GuesstimationOptions
    session: int

    def key(self, *parts: object) -> str:
        """A step's key: a new key is a new step (number entry reset, choice back to the
        first option); the session keeps one game's steps apart from the next game's."""
        return "/".join(str(part) for part in (f"g{self.session}", *parts))

    def roll(self, player: str, *situation: object) -> Outcome:
        """``player`` rolls the table's die, for the situation named (R470)."""
        value = die_roll(self.options.seed, self.session, *situation, player)
        return act(f"rolled {value}", RollDie(player, value))

    def card(self, current: Round) -> Card | None:
        """The round's card: the deck shuffled for this game, a new card each round."""
        deck = self.options.deck
        if deck is None:
            return None
        order = card_order(self.options.seed, self.session, len(deck.cards))
        return deck.cards[order[(current.number - 1) % len(order)]]

    def deck_question(self, current: Round) -> DeckQuestion | None:
        """The deck's question the die picked this round, once it has been rolled."""
        card = self.card(current)
        if card is None or current.die is None:
            return None
        return card.questions[current.die - 1]


def act(label: str, action: Action) -> Outcome:
    """An outcome that applies a rules action."""
    return Outcome(label, encode(action))
