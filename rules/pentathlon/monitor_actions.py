"""The actions every Pentathlon game takes: the start, who begins, the flag, time, challenges.

Each game's own moves are in its module. Every kind starts with ``pentathlon.`` so a log names
its family. The shell injects ``pentathlon.turn_timeout`` (a player's minute is up) and
``pentathlon.time_called`` (the game time limit); the core keeps no clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import Action, register
from rules.errors import InvalidInput
from rules.pentathlon.catalogue import Game, Ruling
from rules.pentathlon.players import Player
from rules.pentathlon.strips import DEFAULT_PARTITIONS, check_partitions


@register("pentathlon.start")
@dataclass(frozen=True, slots=True)
class StartPentathlon(Action):
    """One game at a table. Every option the rulebook leaves open is explicit here (R230).

    ``minutes``: the game time limit (the shell's clock; recorded). ``chips``: Contig 60 only,
    each player's chips. ``partitions``: Fab-a-Diffy only, the denominators of the strips.
    """

    game: Game
    minutes: int
    chips: int | None = None
    partitions: tuple[int, ...] | None = None


def start_action(
    game: Game, minutes: int, *, chips: int | None = None, partitions: tuple[int, ...] | None = None
) -> StartPentathlon:
    """A start action with the documented defaults filled in, so the log states them."""
    if game is Game.FAB_A_DIFFY and partitions is None:
        partitions = DEFAULT_PARTITIONS
    return check_start(StartPentathlon(game, minutes, chips, partitions))


def check_start(start: StartPentathlon) -> StartPentathlon:
    if start.minutes < 1:
        raise InvalidInput(f"time limit {start.minutes} minutes: expected 1 or more")
    if start.game is Game.CONTIG_60:
        if start.chips is None or start.chips < 5:
            raise InvalidInput(
                f"contig-60 chips {start.chips}: expected each player's chips, 5 or more"
            )
    elif start.chips is not None:
        raise InvalidInput(f"chips: only contig-60 takes chips, not {start.game}")
    if start.game is Game.FAB_A_DIFFY:
        if start.partitions is None:
            raise InvalidInput(
                "fab-a-diffy needs partitions: the strips' denominators, e.g. 2,3,4,6,12"
            )
        check_partitions(start.partitions)
    elif start.partitions is not None:
        raise InvalidInput(f"partitions: only fab-a-diffy takes partitions, not {start.game}")
    return start


@register("pentathlon.die_toss")
@dataclass(frozen=True, slots=True)
class DieToss(Action):
    """Contig 60 and Juggle: each player tosses one die; the lower toss begins."""

    a: int
    b: int


@register("pentathlon.strip_draw")
@dataclass(frozen=True, slots=True)
class StripDraw(Action):
    """Fab-a-Diffy: each player draws a strip, e.g. "5/12"; the lower value begins."""

    a: str
    b: str


@register("pentathlon.begins")
@dataclass(frozen=True, slots=True)
class Begins(Action):
    """The monitor's verdict on who begins: the chip in hand (Queens & Guards), the first star
    card (Stars & Bars), or any game's start decided away from the keyboard."""

    player: Player


@register("pentathlon.pass_flag")
@dataclass(frozen=True, slots=True)
class PassFlag(Action):
    """``player`` passes the flag card: the end of the turn."""

    player: Player


@register("pentathlon.turn_timeout")
@dataclass(frozen=True, slots=True)
class TurnTimeout(Action):
    """From the shell: the player on turn has used the minute. The monitor reminds them."""


@register("pentathlon.forfeit_turn")
@dataclass(frozen=True, slots=True)
class ForfeitTurn(Action):
    """After the reminder the player did not take the turn: it is forfeited; the flag passes."""


@register("pentathlon.time_called")
@dataclass(frozen=True, slots=True)
class TimeCalled(Action):
    """From the shell: the game time limit is reached."""


@register("pentathlon.challenge")
@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """``challenger`` challenges ``rules`` (keys of the game's rules, or "other"), in the
    order announced: one record per rule."""

    challenger: Player
    rules: tuple[str, ...]


@register("pentathlon.rule")
@dataclass(frozen=True, slots=True)
class Rule(Action):
    """The Game Monitor's ruling on the next challenge record not yet ruled."""

    ruling: Ruling


@register("pentathlon.opinion")
@dataclass(frozen=True, slots=True)
class Opinion(Action):
    """A 2nd (Game Leader) or 3rd and final (Tournament Director) ruling on challenge
    ``challenge`` (its number in the game), asked for by ``asked_by``."""

    challenge: int
    asked_by: Player
    ruling: Ruling


@register("pentathlon.declare_win")
@dataclass(frozen=True, slots=True)
class DeclareWin(Action):
    """``player`` declares a win by ``goal`` (one of the game's goals). ``by_monitor``:
    Queens & Guards' monitor declares a win the player did not announce."""

    player: Player
    goal: str
    by_monitor: bool = False


@register("pentathlon.confirm")
@dataclass(frozen=True, slots=True)
class Confirm(Action):
    """The monitor confirms the result: the game is over and the score cards are signed."""


@register("pentathlon.chip_in_hand")
@dataclass(frozen=True, slots=True)
class ChipInHand(Action):
    """Queens & Guards' start: ``named_by`` named the starting colour, the other player picked
    a hand; ``picked_starting``: that hand held the starting colour (its picker begins)."""

    named_by: Player
    picked_starting: bool


STAR_DRAWS_HIGH = 99  # the draws the table's entry counts to (R788)


@register("pentathlon.star_card")
@dataclass(frozen=True, slots=True)
class StarCard(Action):
    """Stars & Bars' start: ``first`` drew first, the players alternating; the first card with
    stars came on draw number ``draw`` (1 is ``first``'s); its drawer begins."""

    first: Player
    draw: int


@register("pentathlon.infraction")
@dataclass(frozen=True, slots=True)
class Infraction(Action):
    """A Code of Conduct infraction by ``player``, "handled by the Tournament Director", whose
    decision it records: "0 points and/or being required to leave the tournament site" (R789);
    neither is a warning, recorded."""

    player: Player
    zero_points: bool = False
    removal: bool = False


@register("pentathlon.director_result")
@dataclass(frozen=True, slots=True)
class DirectorResult(Action):
    """The Tournament Director stopped the game and gave its result: ``winner`` (None: a
    tie). The monitor records it (R789, R748); the monitor then confirms it as any result."""

    winner: Player | None
