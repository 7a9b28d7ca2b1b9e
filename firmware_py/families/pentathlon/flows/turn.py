"""The turn: the player with the flag card is on turn, and the minute runs.

The turn's screen shows the minute counting down (Fab-a-Diffy first counts the 10-second capture
window); the holder's flag button passes the flag (GO does it for them), a player's challenge
input (``stand``) opens a challenge, YES opens the menu of what may be recorded, NO a challenge
entered from the console. At the minute the OLED, the holder's LED and the scoreboard remind;
the monitor then forfeits the turn (YES) or lets it finish (NO).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from firmware_py.families.pentathlon.flows.common import (
    SCRATCH_CHALLENGE,
    SCRATCH_LATE,
    SCRATCH_MENU,
    FlowSettings,
    act,
    takes,
    turn_span,
)
from firmware_py.table.prompts import Kind, Outcome, Prompt
from rules.pentathlon.contig import ContigBoard
from rules.pentathlon.fab_a_diffy import FabBoard
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.players import of
from rules.pentathlon.stars_bars import StarsBoard

SeatPress = Callable[[str, str], Outcome | None]


def may_challenge(game: PentathlonGame, seat: str) -> bool:
    return takes(game, act("challenge", challenger=seat, rules=["other"]))


def challenge_opened(seat: str | None) -> Outcome:
    return Outcome("challenge", scratch={SCRATCH_CHALLENGE: {} if seat is None else {"by": seat}})


def seat_presses(game: PentathlonGame, *, flag: bool) -> SeatPress:
    """A seat's inputs outside an entry: the holder's flag button passes the flag (``flag``:
    when play may go on), a challenge input opens that player's challenge."""
    holder = game.play.holder.value if game.play is not None else None

    def on_press(seat: str, what: str) -> Outcome | None:
        if what == "shout" and flag and seat == holder:
            return Outcome("flag", act("pass_flag", player=seat))
        if what == "stand" and may_challenge(game, seat):
            return challenge_opened(seat)
        return None

    return on_press


def turn(game: PentathlonGame, scratch: Mapping[str, Any], settings: FlowSettings) -> Prompt:
    play = game.play
    assert play is not None
    holder = play.holder.value
    flag = Outcome("flag", act("pass_flag", player=holder))
    presses = seat_presses(game, flag=True)
    span = turn_span(game)
    late = play.overtime and not scratch.get(SCRATCH_LATE)
    if late and takes(game, act("forfeit_turn")):
        return Prompt(
            key=f"p/turn{play.turn}/late",
            kind=Kind.YES_NO,
            text=f"{holder}: minute up, take the turn",
            options=(
                Outcome("forfeit", act("forfeit_turn")),
                Outcome("finish", scratch={SCRATCH_LATE: True}),
            ),
            hint="YES:forfeit NO:finish",
            go=flag,
            on_press=presses,
            timer_span=span,
            alert=f"{holder}: MINUTE UP",
        )
    timer: tuple[str, float, Outcome] | None = None
    key = f"p/turn{play.turn}"
    if play.overtime:
        key += "/late-on"
    elif isinstance(play.board, FabBoard) and play.board.capture_open:
        timer = ("capture", settings.capture_seconds, Outcome("10 s", act("fab.capture_timeout")))
        key += "/capture"
    else:
        timer = ("turn", settings.turn_seconds, Outcome("minute", act("turn_timeout")))
    return Prompt(
        key=key,
        kind=Kind.YES_NO,
        text=_turn_text(game, announce=settings.announce),
        options=(
            Outcome("menu", scratch={SCRATCH_MENU: True}),
            challenge_opened(None),
        ),
        hint="YES:menu NO:challenge",
        go=flag,
        timer=timer,
        timer_span=span,
        on_press=presses,
        alert=f"{holder}: MINUTE UP" if play.overtime else None,
    )


def _turn_text(game: PentathlonGame, *, announce: bool = False) -> str:
    """Who is on turn, and the reminder and time first: the scoreboard shows 32 characters."""
    play = game.play
    assert play is not None
    said = announcement(game) if announce else None
    if play.overtime:
        text = f"{play.holder}: minute up"
    elif said:
        text = said
    else:
        text = f"{play.holder} on turn"
        if isinstance(play.board, FabBoard):
            text += f", game {play.board.game_number}"
    return text + (", time called" if play.time_called else f", round {play.round}")


def announcement(game: PentathlonGame) -> str | None:
    """The running score the holder must announce before ending the turn, once it has changed
    in the turn (R792): Contig 60 "MUST announce the new total"; Stars & Bars "total points
    gained during a turn AND their accumulated total"."""
    play = game.play
    assert play is not None
    board, start = play.board, of(play.turn_start, play.holder)
    if not isinstance(board, ContigBoard | StarsBoard):
        return None
    now, before = of(board.scores, play.holder), of(start.scores, play.holder)
    if now == before:
        return None
    if isinstance(board, StarsBoard):
        return f"{play.holder}: announce +{now - before}, {now}"
    return f"{play.holder}: announce {now}"
