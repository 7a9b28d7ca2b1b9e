"""The end of a game: Juggle's count of empty spaces at the time limit, the result the monitor
confirms (a player may still challenge it), and the next game.

From flow 4 (R840) NEXT on the result and on the count opens the Tournament Director's
decisions: an infraction (0 points, removal) and, once one is recorded, the result the Director
gives. The Director may rule at any moment until the result is confirmed, so the menu is not
the turn's alone; the same actions, journaled and replayed, on the card and to the hub.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from firmware_py.families.pentathlon.flows.common import (
    SCRATCH_COUNT,
    SCRATCH_DIRECTOR,
    TIME_CALLED_ALERT,
    act,
    takes,
)
from firmware_py.families.pentathlon.flows.moves import COMMON_EVENTS, DIRECTOR_RESULTS, Move
from firmware_py.families.pentathlon.flows.turn import challenge_opened, may_challenge, seat_presses
from firmware_py.families.pentathlon.options import PentathlonOptions
from firmware_py.table.prompts import Kind, NumberSpec, Outcome, Prompt, choice, number, yes_no
from rules.actions import encode
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.results import How, Result

SPACES_HIGH = 999


DIRECTOR_OPENED = Outcome("the Director's", scratch={SCRATCH_DIRECTOR: {}})


def director_moves(game: PentathlonGame) -> list[Move]:
    """What the Director may still decide: an infraction of a player not removed and, once one
    is recorded, a result while none of theirs waits (R748, R789). Both players removed and the
    Director's result given leave nothing: NEXT then does nothing (R845)."""
    return [move for move in (*COMMON_EVENTS, *DIRECTOR_RESULTS) if takes(game, move.trial())]


def _director_next(game: PentathlonGame, director: bool) -> Outcome | None:
    """What NEXT does on the result or the count: opens the Director's decisions (flow 4,
    R840) while there is one to take (R845)."""
    return DIRECTOR_OPENED if director and director_moves(game) else None


def counting(game: PentathlonGame, scratch: Mapping[str, Any], *, director: bool = False) -> Prompt:
    """Juggle at the time limit: the monitor counts each board's empty spaces (touching pieces
    challenged now are removed first). ``director``: NEXT opens the Director's (flow 4, R840)."""
    if SCRATCH_COUNT not in scratch:
        opens = _director_next(game, director)
        return Prompt(
            key="p/count",
            kind=Kind.YES_NO,
            text="Time: count the empty spaces",
            options=(Outcome("count", scratch={SCRATCH_COUNT: {}}), challenge_opened(None)),
            hint="YES:ok NO:ch. NEXT:TD" if opens else "YES:ok NO:challenge",
            next=opens,
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


def result(game: PentathlonGame, *, director: bool = False) -> Prompt:
    """The game has ended: YES confirms the result, NO (or a challenge input) challenges it;
    ``director``: NEXT opens the Director's decisions (flow 4, R840)."""
    pending = game.play.pending if game.play else None
    assert pending is not None
    confirm = Outcome("confirm", act("confirm"))
    challengeable = any(may_challenge(game, seat) for seat in ("A", "B"))
    options = (confirm, challenge_opened(None)) if challengeable else (confirm,)
    hint = "YES:ok NO:challenge" if challengeable else "YES: confirm"
    opens = _director_next(game, director)
    if opens:
        hint = "YES:ok NO:ch. NEXT:TD" if challengeable else "YES:confirm NEXT:TD"
    return Prompt(
        key="p/result",
        kind=Kind.YES_NO if challengeable else Kind.CONFIRM,
        text=result_text(pending, short=director),
        options=options,
        hint=hint,
        next=opens,
        on_press=seat_presses(game, flag=False),
        alert=headline(pending),
    )


def directors(game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    """The Tournament Director's decisions once the game has ended or time is up (R840): an
    infraction (R789) and, once one is recorded, the Director's result (R748), as the turn's
    menu offers them; UNDO closes the menu. A challenge input still opens a challenge."""
    entered: dict[str, Any] = dict(scratch[SCRATCH_DIRECTOR])
    where = "p/result" if game.phase == "result" else "p/count"
    if "move" in entered:
        prompt = _infraction(game, entered, where)
    else:
        options = [_opened(move) for move in director_moves(game)]
        prompt = choice(f"{where}/director", "The Director's decision", options)
    # not play: time called keeps the entry open where it was (R846)
    return replace(
        prompt, on_press=seat_presses(game, flag=False), open_at_time_up=TIME_CALLED_ALERT
    )


def removed(game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    """A player the Director removed from the tournament site (R789) plays no more: no turn,
    no count, no challenge; the Director's decisions are what remain, the result first, then
    the Monitor confirms it (R987). Time called does not close it."""
    entered: dict[str, Any] = dict(scratch.get(SCRATCH_DIRECTOR, {}))
    if "move" in entered:
        prompt = _infraction(game, entered, "p/removed")
    else:
        who = "+".join(str(player) for player in game.removed)
        options = [_opened(move) for move in _removed_moves(game)]
        prompt = choice("p/removed", f"{who} removed: Director's result", options)
    return replace(prompt, open_at_time_up=TIME_CALLED_ALERT)


def _removed_moves(game: PentathlonGame) -> list[Move]:
    """The Director's result first: it is what the game waits for (R987)."""
    moves = director_moves(game)
    return [m for m in moves if m in DIRECTOR_RESULTS] + [m for m in moves if m in COMMON_EVENTS]


def _opened(move: Move) -> Outcome:
    if not move.asks:
        return Outcome(move.label, move.action({}))
    return Outcome(move.label, scratch={SCRATCH_DIRECTOR: {"move": move.label, "values": {}}})


def _infraction(game: PentathlonGame, entered: dict[str, Any], where: str) -> Prompt:
    """An infraction's yes/no answers, one by one; the last records it."""
    move = next(move for move in COMMON_EVENTS if move.label == entered["move"])
    values: dict[str, Any] = dict(entered["values"])
    ask = move.asks[len(values)]
    player = move.fields["player"]

    def take(value: bool) -> Outcome:
        done = {**values, ask.field: value}
        if len(done) == len(move.asks):
            return Outcome("yes" if value else "no", move.action(done))
        more = {SCRATCH_DIRECTOR: {"move": move.label, "values": done}}
        return Outcome("yes" if value else "no", scratch=more)

    key = f"{where}/infraction/{player}/{len(values)}"
    return yes_no(key, f"{player}: {ask.text}", take(True), take(False))


def over(game: PentathlonGame, options: PentathlonOptions) -> Prompt:
    """The game is over and the score cards are signed; NEXT sets the table for the next game."""
    assert game.result is not None
    following = Outcome("next game", new_session=encode(options.start(game.settings.game)))
    return Prompt(
        key="p/over",
        kind=Kind.NOTICE,
        text=f"Game over. {result_text(game.result, short=options.director_at_the_result)}",
        hint="NEXT: next game",
        next=following,
        alert=headline(game.result),
    )


def headline(result: Result) -> str:
    return "TIE" if result.winner is None else f"{result.winner} WINS"


def result_text(result: Result, *, short: bool = False) -> str:
    """The result in words; ``short`` (flow 4): the Director's in words the OLED's two lines
    hold (R840), where the detail repeats who won after 30 characters."""
    said = "Tie" if result.winner is None else f"{result.winner} wins"
    if short and result.how is How.DIRECTOR:
        return f"Director: {'a tie' if result.winner is None else said}"
    return f"{said}: {result.detail}"
