"""The play at a table: the flag, turns, rounds, the time limit, and each game's hooks.

``Play`` is everything a challenge ruling may change (so a ruling can be replayed from the
state before the challenge when an opinion changes it). Each game plugs in a ``GameRules``:
its board (what the record keeps of the game: scores, chips, tricks...), its moves, what a
Correct ruling does to the board, and when the game ends.

The player with the flag card is on turn; passing it ends the turn. A round is the beginning
player's turn and the second player's. When time is called (R231): a round game finishes the
round in progress; another game ends at once unless the beginning player has already played in
this round, in which case both players complete a turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from rules.actions import Action
from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import (
    ChallengeRule,
    Effect,
    Game,
    StartMethod,
)
from rules.pentathlon.monitor_actions import StartPentathlon
from rules.pentathlon.players import Pair, Player, of, with_value
from rules.pentathlon.results import How, Result

# Which meaning the rulings and bounds changed by issue 20 have in a game (R796): RULINGS, this
# gametable's; RULINGS_BEFORE_ISSUE_20 keeps the earlier texts and effects (an I on Juggle's
# beginning player's declared win, the "so the game ends" and "declared win stands" texts, the
# Stars & Bars stack and cards-out bounds); RULINGS_ISSUE_20 those of issue 20 before the deck
# bound Fab-a-Diffy (R746), over 140 ended Stars & Bars (R747) and the Director's result (R748)
# came; RULINGS_R746_R749 those before a restore of a player who had no turn yet said so (R843).
# A table journal written under one replays the presses it recorded and must give back the
# decisions it recorded.
RULINGS = 4
RULINGS_R746_R749 = 3
RULINGS_ISSUE_20 = 2
RULINGS_BEFORE_ISSUE_20 = 1
RULINGS_VERSIONS = (RULINGS_BEFORE_ISSUE_20, RULINGS_ISSUE_20, RULINGS_R746_R749, RULINGS)


class Fate(StrEnum):
    """What became of a declared win (R780, R781)."""

    STANDING = "standing"  # not decided by a challenge: it stands unless one is
    CONFIRMED = "confirmed"  # challenged and ruled Incorrect: "the declared win is confirmed"
    TO_CHALLENGER = "to-challenger"  # Correct on a rule about the goal: the challenger wins
    WITHDRAWN = "withdrawn"  # Correct on another rule: the declaration goes, play continues
    SET_ASIDE = "set-aside"  # the result was decided otherwise: the record says so (R981)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A win as the player declared it (or the monitor, in Queens & Guards), recorded whatever
    the record says: the challenge, or its absence, decides (R780)."""

    player: Player
    goal: str
    turn: int  # the turn in which it was declared
    by_monitor: bool = False
    record_says: str | None = None  # what the monitor's record says against it, if anything
    fate: Fate = Fate.STANDING
    challenge: int | None = None  # the challenge whose ruling decided its fate


class Check(StrEnum):
    """Which of the game's rules produced a pending result: rechecked after a Correct ruling."""

    END_OF_TURN = "end-of-turn"
    TURN_START = "turn-start"
    ROUND_END = "round-end"
    TIME_LIMIT = "time-limit"
    CARDS_OUT = "cards-out"


@dataclass(frozen=True, slots=True)
class Play:
    board: Any  # the game's own state: a ContigBoard, FabBoard, ...
    beginner: Player
    holder: Player  # has the flag card: on turn
    turn_start: Pair[Any]  # the board as each player's latest turn began
    round: int = 1
    turn: int = 1  # the turn's number in the event: a turn restarted by a C is a new turn
    played: bool = False  # the holder has played (a chip, strip, piece or card) this turn
    overtime: bool = False  # the minute is up and the monitor has reminded the holder
    lost_turns: Pair[int] = (0, 0)  # turns still to lose: I ruled while not holding the flag
    extra_turns: Pair[int] = (0, 0)  # Fab-a-Diffy: additional turns won by a C
    forfeited: Pair[int] = (0, 0)  # turns forfeited at the one-minute limit
    turns_lost: Pair[int] = (0, 0)  # turns lost to I rulings
    declared: tuple[Player, ...] = ()  # declared wins standing, in order
    declarations: tuple[Declaration, ...] = ()  # every declared win and its fate, in order
    rulings: int = RULINGS  # the meaning of the rulings issue 20 changed (R796)
    time_called: bool = False
    finish_round: int | None = None  # time called: the game ends once this round is complete
    counting: bool = False  # Juggle: the time limit is reached, the monitor counts spaces
    pending: Result | None = None  # the game has ended this way; the monitor confirms it
    pending_check: Check | None = None

    @property
    def second(self) -> Player:
        return self.beginner.other

    def has_had_turn(self, player: Player) -> bool:
        """``player`` has begun a turn in this game: the beginner from the first turn, the
        second player once the flag (or a Correct challenge) has handed them one. A round ends
        after the second player's turn, played or lost, and a lost turn is not a turn (R847):
        with the flag away from them the second player has begun one of the ``round - 1``
        turns past only if not every one of them was lost."""
        if player is self.beginner or player is self.holder:
            return True
        return self.round - 1 > of(self.turns_lost, player)

    @property
    def in_turn(self) -> bool:
        """Turns are being played: no result pending, not counting."""
        return self.pending is None and not self.counting


class GameRules:
    """One game's rules. The defaults: no moves, no automatic ends, a tie at the time limit."""

    game: ClassVar[Game]
    title: ClassVar[str]
    round_game: ClassVar[bool]
    starts_by: ClassVar[StartMethod]
    challenge_rules: ClassVar[tuple[ChallengeRule, ...]]
    not_challengeable: ClassVar[dict[str, str]] = {}
    goals: ClassVar[dict[str, str]] = {}  # the wins a player declares: key -> title
    monitor_declares: ClassVar[bool] = False  # the monitor may declare a win not announced
    note_kinds: ClassVar[tuple[type[Action], ...]] = ()  # the game's own recorded events

    def check_note(self, play: Play, action: Action) -> None:
        """Refuse one of the game's own events the play does not allow now."""

    def new_board(self, start: StartPentathlon) -> Any:
        raise NotImplementedError

    def begin_turn(self, board: Any, player: Player, received: bool) -> Any:
        """``player``'s turn begins (``received``: with the flag, not restarted by a C)."""
        return board

    def move(self, play: Play, action: Action) -> Play:
        raise IllegalAction(f"{action.kind!r} is not a {self.title} action")

    def correct(
        self, board: Any, effect: Effect, challenger: Player, prior: Any
    ) -> tuple[Any, str]:
        """What ``effect`` does to the board; ``prior``: the board as the challenged player's
        latest turn began."""
        return board, ""

    def declaration_doubt(self, play: Play, player: Player, goal: str) -> str | None:
        """What the record says against a declared win (None: nothing). It is never a reason
        to refuse the declaration: the challenge decides (R780)."""
        return None

    def end_of_turn(self, play: Play) -> Result | None:
        return None

    def turn_start(self, play: Play) -> Result | None:
        return None

    def round_end(self, play: Play) -> Result | None:
        return None

    def time_limit(self, play: Play) -> Result | None:
        """The time-limit adjudication; None: the monitor must count first (Juggle)."""
        return Result(None, How.TIME_LIMIT, "time limit: no one has won")

    def recheck(self, play: Play, check: Check) -> Result | None:
        if check is Check.END_OF_TURN:
            return self.end_of_turn(play)
        if check is Check.TURN_START:
            return self.turn_start(play)
        if check is Check.ROUND_END:
            return self.round_end(play) or _time_up(play, self)
        if check is Check.TIME_LIMIT:
            return self.time_limit(play)
        raise NotImplementedError(check)  # a game that sets another check rechecks it

    def scores(self, board: Any) -> dict[str, Any]:
        """The final scores for the record, as plain JSON data."""
        return {}

    def final(self, play: Play) -> dict[str, Any]:
        """The scores as the result counted them (R982): the board's, unless the game's
        time-limit adjudication counts more than the board has finished (Fab-a-Diffy)."""
        return self.scores(play.board)


MAX_POINTS = 999  # points a move carries as announced: the table's three digits (R787)


def check_points(points: int, name: str) -> int:
    """Announced points (a chip's, a capture's, a card's): whole, 0 to MAX_POINTS (R787)."""
    if not 0 <= points <= MAX_POINTS:
        raise InvalidInput(f"{name} {points}: expected the points as announced, 0 to {MAX_POINTS}")
    return points


def require_turn(play: Play) -> None:
    if not play.in_turn:
        raise IllegalAction("no turn is being played now")


def first_turn(board: Any, beginner: Player, rules: GameRules) -> Play:
    board = rules.begin_turn(board, beginner, received=True)
    return Play(board=board, beginner=beginner, holder=beginner, turn_start=(board, board))


def restart_turn(play: Play, rules: GameRules) -> Play:
    """A Correct challenger who holds the flag begins a turn afresh (a regular turn: no
    capture window)."""
    board = rules.begin_turn(play.board, play.holder, received=False)
    return replace(
        play,
        board=board,
        turn=play.turn + 1,
        played=False,
        overtime=False,
        turn_start=with_value(play.turn_start, play.holder, board),
    )


def hand_flag(play: Play, rules: GameRules, to: Player, *, received: bool = True) -> Play:
    """The holder's turn ends; ``to`` begins a turn (perhaps the holder again)."""
    ends_round = play.holder is play.second and to is play.beginner
    board = rules.begin_turn(play.board, to, received)
    play = replace(
        play,
        board=board,
        holder=to,
        round=play.round + ends_round,
        turn=play.turn + 1,
        played=False,
        overtime=False,
        turn_start=with_value(play.turn_start, to, board),
    )
    if ends_round:
        ended = _round_ended(play, rules)
        if ended.pending is not None or ended.counting:
            return ended
    result = rules.turn_start(play)
    if result is not None:
        return replace(play, pending=result, pending_check=Check.TURN_START)
    if of(play.lost_turns, to) > 0:
        play = replace(
            play,
            lost_turns=with_value(play.lost_turns, to, of(play.lost_turns, to) - 1),
            turns_lost=with_value(play.turns_lost, to, of(play.turns_lost, to) + 1),
        )
        return hand_flag(play, rules, to.other)
    return play


def pass_flag(play: Play, rules: GameRules) -> Play:
    result = rules.end_of_turn(play)
    if result is not None:
        return replace(play, pending=result, pending_check=Check.END_OF_TURN)
    holder = play.holder
    if of(play.extra_turns, holder) > 0:
        extra = with_value(play.extra_turns, holder, of(play.extra_turns, holder) - 1)
        return hand_flag(replace(play, extra_turns=extra), rules, holder)
    return hand_flag(play, rules, holder.other)


def declaration_result(declared: tuple[Player, ...], title: str) -> Result:
    if len(declared) == 1:
        return Result(declared[0], How.GOAL, f"{declared[0]} reached the goal of {title}")
    return Result(None, How.GOAL, "both players reached the goal in the same round")


def _round_ended(play: Play, rules: GameRules) -> Play:
    """A round is complete: a declared win stands, an award is due, or time is up."""
    if play.declared:
        return replace(play, pending=declaration_result(play.declared, rules.title))
    result = rules.round_end(play)
    if result is not None:
        return replace(play, pending=result, pending_check=Check.ROUND_END)
    if _time_is_up(play):
        return end_by_time(play, rules)
    return play


def _time_is_up(play: Play) -> bool:
    return play.finish_round is not None and play.round > play.finish_round


def _time_up(play: Play, rules: GameRules) -> Result | None:
    return rules.time_limit(play) if _time_is_up(play) else None


def end_by_time(play: Play, rules: GameRules) -> Play:
    result = rules.time_limit(play)
    if result is None:
        return replace(play, counting=True)
    return replace(play, pending=result, pending_check=Check.TIME_LIMIT)


def call_time(play: Play, rules: GameRules) -> Play:
    """Time is called: finish the round, let both complete a turn, or end now (R231)."""
    called = replace(play, time_called=True)
    beginner_played = play.holder is play.second or play.played
    # Not in turn: the game has ended already; the plan matters if a ruling reopens play.
    if rules.round_game or beginner_played or not play.in_turn:
        return replace(called, finish_round=play.round)
    return end_by_time(called, rules)
