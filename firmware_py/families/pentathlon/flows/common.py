"""What every step of the monitor's flow shares: the actions in their log form, a check that
the rules would take an action now, the turn's span, and the short labels the OLED's big text
can hold (15 characters)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_py.table.prompts import LogAction
from rules.actions import decode
from rules.errors import RuleError
from rules.pentathlon.monitor import PentathlonGame, apply

SCRATCH_CHALLENGE = "challenge"  # a challenge being entered: {"by": seat, "rules": [...], ...}
SCRATCH_MENU = "menu"  # the turn's menu is open
SCRATCH_ENTRY = "entry"  # a move being entered: {"move": label, "values": {...}}
SCRATCH_PLAY_ON = "play_on"  # the monitor ended the time out after a ruling
SCRATCH_OPINION = "opinion"  # an opinion being entered: {"challenge": n, "asked_by": seat}
SCRATCH_LATE = "late"  # the monitor lets a late turn finish
SCRATCH_COUNT = "count"  # Juggle's empty spaces being counted: {"a": n}
SCRATCH_GAME = "game_ok"  # the monitor kept the game the table is set for

# Rule and topic keys longer than the big text, or clearer in other words.
SHORT_LABELS = {
    "score-zero-or-less": "score 0 or less",
    "crown-and-throne": "crown & throne",
    "queen-surrounded": "queen surround",
    "stack-not-turned": "stack unturned",
    "three-strips": "3 strips up",
    "flag": "flag passing",
}
RULINGS = {"C": "C: correct", "I": "I: incorrect", "IA": "IA: inapprop."}


def act(kind: str, **fields: Any) -> LogAction:
    """A Pentathlon action in its log form; ``kind`` without the family's prefix."""
    return {"action": f"pentathlon.{kind}", **fields}


def takes(game: PentathlonGame, action: LogAction) -> bool:
    """The rules would take ``action`` now (the flow offers only what they take)."""
    try:
        apply(game, decode(action))
    except RuleError:
        return False
    return True


def label(key: str) -> str:
    return SHORT_LABELS.get(key, key.replace("-", " "))


def turn_span(game: PentathlonGame) -> str | None:
    """The span of the turn being played: its steps share the turn's minute."""
    if game.phase != "play" or game.play is None:
        return None
    return f"turn{game.play.turn}"


@dataclass(frozen=True, slots=True)
class FlowSettings:
    """The table's options a flow needs."""

    turn_seconds: float
    capture_seconds: float
