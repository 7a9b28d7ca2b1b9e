"""The end of a game: Juggle's count of empty spaces at the time limit, the result the monitor
confirms (a player may still challenge it), and the next game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.pentathlon.flows.common import SCRATCH_COUNT, act
from firmware_py.families.pentathlon.flows.turn import challenge_opened, may_challenge, seat_presses
from firmware_py.families.pentathlon.options import PentathlonOptions
from firmware_py.table.prompts import Kind, NumberSpec, Outcome, Prompt, number
from rules.actions import encode
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.results import Result

SPACES_HIGH = 999


def counting(game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    """Juggle at the time limit: the monitor counts each board's empty spaces (touching pieces
    challenged now are removed first)."""
    if SCRATCH_COUNT not in scratch:
        return Prompt(
            key="p/count",
            kind=Kind.YES_NO,
            text="Time: count the empty spaces",
            options=(Outcome("count", scratch={SCRATCH_COUNT: {}}), challenge_opened(None)),
            hint="YES:ok NO:challenge",
            on_press=seat_presses(game, flag=False),
        )
    counted: dict[str, int] = dict(scratch[SCRATCH_COUNT])
    if "a" not in counted:
        spec = NumberSpec(
            take=lambda a: Outcome(str(a), scratch={SCRATCH_COUNT: {"a": a}}), high=SPACES_HIGH
        )
        return number("p/count/a", "Empty spaces on A's board", spec)
    spec = NumberSpec(
        take=lambda b: Outcome(str(b), act("juggle.count", a=counted["a"], b=b)), high=SPACES_HIGH
    )
    return number("p/count/b", "Empty spaces on B's board", spec)


def result(game: PentathlonGame) -> Prompt:
    """The game has ended: YES confirms the result, NO (or a challenge input) challenges it."""
    pending = game.play.pending if game.play else None
    assert pending is not None
    confirm = Outcome("confirm", act("confirm"))
    challengeable = any(may_challenge(game, seat) for seat in ("A", "B"))
    options = (confirm, challenge_opened(None)) if challengeable else (confirm,)
    return Prompt(
        key="p/result",
        kind=Kind.YES_NO if challengeable else Kind.CONFIRM,
        text=result_text(pending),
        options=options,
        hint="YES:ok NO:challenge" if challengeable else "YES: confirm",
        on_press=seat_presses(game, flag=False),
        alert=headline(pending),
    )


def over(game: PentathlonGame, options: PentathlonOptions) -> Prompt:
    """The game is over and the score cards are signed; NEXT sets the table for the next game."""
    assert game.result is not None
    following = Outcome("next game", new_session=encode(options.start(game.settings.game)))
    return Prompt(
        key="p/over",
        kind=Kind.NOTICE,
        text=f"Game over. {result_text(game.result)}",
        hint="NEXT: next game",
        next=following,
        alert=headline(game.result),
    )


def headline(result: Result) -> str:
    return "TIE" if result.winner is None else f"{result.winner} WINS"


def result_text(result: Result) -> str:
    said = "Tie" if result.winner is None else f"{result.winner} wins"
    return f"{said}: {result.detail}"
