"""The Guesstimation actions, as a log writes them: ``{"action": "guesstimation.KIND", ...}``.

Numbers travel as text ("29029.5") so a log never passes a guess or an answer through a binary
float; the session reads them with ``numbers.parse_number``. Die rolls carry their value: the
table rolls, the log remembers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.actions import Action, register

FAMILY = "guesstimation"
DEFAULT_FINISH = 20  # spaces from Start to Finish: docs/rulings.md R281


class UnitSystem(StrEnum):
    """The unit system the group chose for a question asked in U.S. and metric terms."""

    US = "us"
    METRIC = "metric"


@register("guesstimation.start")
@dataclass(frozen=True, slots=True)
class StartGuesstimation(Action):
    """A new game: the players in clockwise seat order, every piece on Start."""

    players: tuple[str, ...]
    finish: int = DEFAULT_FINISH


@register("guesstimation.roll")
@dataclass(frozen=True, slots=True)
class RollDie(Action):
    """``player`` rolled ``value`` (1-6): for the first Round Leader, the Round Leader's question
    number, or a roll-off after a tied duel or a tie for the Dueling Chip."""

    player: str
    value: int


@register("guesstimation.question")
@dataclass(frozen=True, slots=True)
class ReadQuestion(Action):
    """The Round Leader read the question the die picked.

    ``chip``: the card marks it as a chip-possession question (question 4 always is).
    ``measured``: it is asked in U.S. and metric terms, so the group picks the units first.
    """

    text: str = ""
    card: str = ""
    chip: bool = False
    measured: bool = False


@register("guesstimation.units")
@dataclass(frozen=True, slots=True)
class ChooseUnits(Action):
    """The unit system the group chose before anyone writes a guess."""

    system: UnitSystem


@register("guesstimation.duel")
@dataclass(frozen=True, slots=True)
class DeclareDuel(Action):
    """The Dueling Chip's holder challenges ``opponent``; ``wager`` 1-3, None for the default 2."""

    dueler: str
    opponent: str
    wager: int | None = None


@register("guesstimation.guess")
@dataclass(frozen=True, slots=True)
class RecordGuess(Action):
    """``player``'s written guess, as a decimal in text."""

    player: str
    value: str


@register("guesstimation.answer")
@dataclass(frozen=True, slots=True)
class RevealAnswer(Action):
    """The answer on the back of the card (or the Round Leader's, without a deck)."""

    value: str
