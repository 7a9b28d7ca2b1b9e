"""What every step of the monitor's flow shares: the actions in their log form, a check that
the rules would take an action now, the turn's span, and the short labels the OLED's big text
can hold (15 characters)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware_py.table.prompts import LogAction, Outcome, Prompt
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
SCRATCH_START = "start"  # the start being entered: {"a": 3} (a toss), {"named_by": "A"}...
SCRATCH_DIRECTOR = "director"  # the Director's decisions at the result or count (R840):
# {} the menu, {"move": label, "values": {...}} an infraction being entered
SCRATCH_FLAG = "flag_pressed"  # the holder's flag press during the turn's menu or a number (R260)

# The OLED's top row while time called keeps the Director's entry open (R846): 21 characters.
TIME_CALLED_ALERT = "TIME CALLED: AFTER TD"

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


def flag_after(
    game: PentathlonGame, scratch: Mapping[str, Any], action: LogAction
) -> LogAction | None:
    """The flag pass a press during the entry left for after ``action`` (R260), or None: no
    press, or ``action`` makes it moot (the game ended, the flag passed, the turn was forfeited)."""
    seat = scratch.get(SCRATCH_FLAG)
    if seat is None:
        return None
    try:
        after = apply(game, decode(action))
    except RuleError:
        return None
    passing = act("pass_flag", player=seat)
    return passing if takes(after, passing) else None


def recording(
    game: PentathlonGame, scratch: Mapping[str, Any], label: str, action: LogAction
) -> Outcome:
    """An entry's last answer: ``action``, and then the flag pass pressed meanwhile (R260)."""
    return Outcome(label, action, then=flag_after(game, scratch, action))


def remembers_flag(prompt: Prompt, game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    """A step of the monitor's entry in a turn: the holder's flag button is remembered, not
    lost (R256, R260), and the OLED's top row says so until it passes."""
    assert game.play is not None
    holder = game.play.holder.value

    def on_press(seat: str, what: str) -> Outcome | None:
        if what == "shout" and seat == holder and SCRATCH_FLAG not in scratch:
            return Outcome("flag pressed", scratch={SCRATCH_FLAG: seat})
        return None

    pressed = scratch.get(SCRATCH_FLAG) == holder
    alert = f"{holder} FLAG: PASSES AFTER" if pressed else prompt.alert
    return replace(prompt, on_press=on_press, alert=alert)


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
    announce: bool = False  # flows 2 and 3: remind the holder to announce a changed running score
