"""The start of a game: which game (unless the table is set for one), and who begins.

The monitor enters the start as the game makes it (R788): each player's die toss (equal tosses
are recorded and tossed again), each player's strip, who named the starting colour and whether
the other's hand held it, who drew first and on which draw the first card with stars came. The
rules say who begins; with it the first turn and the game's clock begin. A journal of the flow
before (R786) enters who begins alone (``pentathlon.begins``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from firmware_py.families.pentathlon.flows.common import SCRATCH_GAME, SCRATCH_START, act
from firmware_py.families.pentathlon.options import PentathlonOptions
from firmware_py.table.prompts import LogAction, NumberSpec, Outcome, Prompt, choice, number, yes_no
from rules.actions import encode
from rules.pentathlon.catalogue import Game, StartMethod
from rules.pentathlon.monitor import DIE_SIDES, PentathlonGame
from rules.pentathlon.monitor_actions import STAR_DRAWS_HIGH
from rules.pentathlon.registry import game_rules
from rules.pentathlon.strips import deck_strips

WHO_BEGINS = {
    StartMethod.DIE_TOSS: "Who begins? (lower die toss)",
    StartMethod.STRIP_DRAW: "Who begins? (lower strip)",
    StartMethod.CHIP_IN_HAND: "Who begins? (starting colour)",
    StartMethod.FIRST_STAR_CARD: "Who begins? (first star card)",
}


def title(game: Game) -> str:
    return game_rules(game).title


def begin(game: PentathlonGame, scratch: Mapping[str, Any], options: PentathlonOptions) -> Prompt:
    current = game.settings.game
    if options.game is None and not scratch.get(SCRATCH_GAME):
        return _game_choice(current, options)
    if options.records_the_start:
        return _start_entry(game, dict(scratch.get(SCRATCH_START, {})))
    minutes = game.settings.minutes
    outcomes = [
        Outcome(f"{seat} begins", act("begins", player=seat), clock_minutes=minutes)
        for seat in ("A", "B")
    ]
    return choice(f"p/begins/{current.value}", WHO_BEGINS[game.rules.starts_by], outcomes)


def _game_choice(current: Game, options: PentathlonOptions) -> Prompt:
    """The game the table is set for first: YES keeps it; another game starts that game. Either
    way the game is chosen: one YES goes on to who begins (R491)."""
    order = [current, *(game for game in Game if game is not current)]
    chosen = {SCRATCH_GAME: True}
    outcomes = [
        Outcome(title(game), scratch=chosen)
        if game is current
        else Outcome(title(game), scratch=chosen, new_session=encode(options.start(game)))
        for game in order
    ]
    return choice(f"p/game/{current.value}", "Which game?", outcomes)


# -- the start as entered (flows 2, 3) -------------------------------------------------------


def _start_entry(game: PentathlonGame, entered: dict[str, Any]) -> Prompt:
    method = game.rules.starts_by
    again = len(game.start_entries)  # equal tosses or strips so far: the start is entered again
    key = f"p/start/{game.settings.game.value}/{again + 1}"
    more = " again" if again else ""
    if method is StartMethod.DIE_TOSS:
        return _tosses(game, entered, key, more)
    if method is StartMethod.STRIP_DRAW:
        return _strips(game, entered, key, more)
    if method is StartMethod.CHIP_IN_HAND:
        return _chip_in_hand(game, entered, key)
    return _star_card(game, entered, key)


def _begins(game: PentathlonGame, label: str, action: LogAction, *, starts: bool) -> Outcome:
    """The start's last answer; ``starts``: it decides who begins, and the clock starts."""
    minutes = game.settings.minutes if starts else None
    return Outcome(label, action, clock_minutes=minutes)


def _with_start(entered: dict[str, Any], **values: Any) -> dict[str, Any]:
    return {SCRATCH_START: {**entered, **values}}


def _tosses(game: PentathlonGame, entered: dict[str, Any], key: str, more: str) -> Prompt:
    what, kind, high = "die toss", "die_toss", DIE_SIDES
    if "a" not in entered:
        spec = NumberSpec(
            take=lambda a: Outcome(str(a), scratch=_with_start(entered, a=a)),
            start=1,
            low=1,
            high=high,
        )
        return number(f"{key}/a", f"A's {what}{more}", spec)
    a = entered["a"]

    def take(b: int) -> Outcome:
        return _begins(game, str(b), act(kind, a=a, b=b), starts=a != b)

    spec = NumberSpec(take=take, start=1, low=1, high=high)
    return number(f"{key}/b", f"B's {what}{more} (A {a})", spec)


def _strips(game: PentathlonGame, entered: dict[str, Any], key: str, more: str) -> Prompt:
    assert game.settings.partitions is not None
    strips = deck_strips(game.settings.partitions)
    if "a" not in entered:
        options = [Outcome(s, scratch=_with_start(entered, a=s)) for s in strips]
        return choice(f"{key}/a", f"A's strip{more}", options)
    a = entered["a"]
    value = _value(a)
    options = [
        _begins(game, s, act("strip_draw", a=a, b=s), starts=_value(s) != value) for s in strips
    ]
    return choice(f"{key}/b", f"B's strip{more} (A {a})", options)


def _value(strip: str) -> float:
    numerator, denominator = strip.split("/")
    return int(numerator) / int(denominator)


def _chip_in_hand(game: PentathlonGame, entered: dict[str, Any], key: str) -> Prompt:
    if "named_by" not in entered:
        options = [
            Outcome(f"{seat} names", scratch=_with_start(entered, named_by=seat))
            for seat in ("A", "B")
        ]
        return choice(f"{key}/colour", "Who names the starting colour?", options)
    named_by = entered["named_by"]
    picker = "B" if named_by == "A" else "A"

    def picked(starting: bool) -> Outcome:
        action = act("chip_in_hand", named_by=named_by, picked_starting=starting)
        return _begins(game, "yes" if starting else "no", action, starts=True)

    prompt = yes_no(
        f"{key}/hand", f"{picker}'s hand: the starting colour?", picked(True), picked(False)
    )
    return replace(prompt, hint="YES:it is NO:it is not")


def _star_card(game: PentathlonGame, entered: dict[str, Any], key: str) -> Prompt:
    if "first" not in entered:
        options = [
            Outcome(f"{seat} draws first", scratch=_with_start(entered, first=seat))
            for seat in ("A", "B")
        ]
        return choice(f"{key}/first", "Who draws first?", options)
    first = entered["first"]

    def take(draw: int) -> Outcome:
        return _begins(game, str(draw), act("star_card", first=first, draw=draw), starts=True)

    spec = NumberSpec(take=take, start=1, low=1, high=STAR_DRAWS_HIGH)
    return number(f"{key}/draw", f"First stars on draw ({first} drew 1st)", spec)
