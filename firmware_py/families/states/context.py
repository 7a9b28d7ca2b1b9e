"""What every STATES step knows: the table's options and which game of the journal it is."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_py.families.states.options import StatesOptions
from firmware_py.table.prompts import Outcome
from rules.actions import Action, encode

BIG_CHARS = 15  # the OLED's big line: an option's label shows whole within it


@dataclass(frozen=True, slots=True)
class Table:
    options: StatesOptions
    session: int

    def key(self, *parts: object) -> str:
        """A step's key: a new key is a new step; the session keeps games apart."""
        return "/".join(str(part) for part in (f"g{self.session}", *parts))

    def label(self, player: str) -> str:
        """A player as an option's label on the big line."""
        return player[:BIG_CHARS]


def act(label: str, action: Action) -> Outcome:
    """An outcome that applies a rules action."""
    return Outcome(label, encode(action))
