"""What the monitor records in a turn: each game's moves, a declared win, a forfeited turn, the
flag. The turn's menu offers only what the rules would take now; a move that carries numbers
(a chip's points, a card's, the stacks) asks for them one by one before it becomes the action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from firmware_py.families.pentathlon.flows.common import (
    SCRATCH_ENTRY,
    act,
    recording,
    remembers_flag,
    takes,
    turn_span,
)
from firmware_py.families.pentathlon.flows.page import facts, number_entry, yes_no_entry
from firmware_py.table.prompts import LogAction, NumberSpec, Outcome, Prompt, choice, number, yes_no
from rules.pentathlon.catalogue import Game
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.play import RULINGS_BEFORE_ISSUE_20, RULINGS_ISSUE_20
from rules.pentathlon.stars_bars import CPA_STACKS, a_stack_can_score, most_stacks

POINTS_HIGH = 999


@dataclass(frozen=True, slots=True)
class Ask:
    """A number (or a yes/no) a move carries, asked before the move is recorded."""

    field: str
    text: str
    high: int = POINTS_HIGH
    yes_no: bool = False
    low: int = 0
    # the most the game's pieces allow now, from the board and the values entered so far (R783)
    limit: Callable[[Any, Mapping[str, Any]], int] | None = None
    # asked only when the pieces allow more than the least (else the least is taken, R783)
    when: Callable[[Any, Mapping[str, Any]], bool] | None = None

    @property
    def least(self) -> Any:
        return False if self.yes_no else self.low

    def most(self, board: Any, values: Mapping[str, Any]) -> int:
        return self.high if self.limit is None else min(self.high, self.limit(board, values))


@dataclass(frozen=True, slots=True)
class Move:
    label: str  # the menu's words (at most 15 characters: the OLED's big text)
    kind: str  # the action, without the family's prefix
    asks: tuple[Ask, ...] = ()
    fields: Mapping[str, Any] = field(default_factory=dict)
    # offered only when the pieces make the move possible (its least entry may be a no-op)
    offered: Callable[[Any], bool] | None = None

    def action(self, values: Mapping[str, Any]) -> LogAction:
        return act(self.kind, **self.fields, **values)

    def trial(self) -> LogAction:
        """The move with its numbers at their least: is it one the rules take now?"""
        return self.action({ask.field: ask.least for ask in self.asks})


def _most_cpa(board: Any, values: Mapping[str, Any]) -> int:
    return most_stacks(board, None)


def _cpa_removable(board: Any, values: Mapping[str, Any]) -> bool:
    return bool(board.cpa_turned_over + values.get("cpa_turned", 0) == CPA_STACKS)


def _most_opa(board: Any, values: Mapping[str, Any]) -> int:
    return most_stacks(board, values.get("cpa_turned", 0))


GAME_MOVES: dict[Game, tuple[Move, ...]] = {
    Game.CONTIG_60: (
        Move("Chip placed", "contig.play", (Ask("score", "Points the chip scores"),)),
        Move("Capture", "contig.capture", (Ask("score", "Points of the captured space"),)),
    ),
    Game.FAB_A_DIFFY: (
        Move("Strip shown", "fab.show"),
        Move("Trick taken", "fab.trick"),
        Move("Capture", "fab.capture"),
        Move("Deck out", "fab.deck_out"),
    ),
    Game.JUGGLE: (),
    Game.QUEENS_AND_GUARDS: (
        Move("Piece moved", "qg.move"),
        Move("Tie: agreed", "qg.tie", fields={"reason": "agreed"}),
        Move("Tie: 6 guards", "qg.tie", fields={"reason": "guards-without-queen"}),
    ),
    Game.STARS_AND_BARS: (
        Move("Card placed", "sb.place", (Ask("points", "Points of the card"),)),
        Move(
            "Stack points",
            "sb.stacks",
            (
                Ask("cpa_turned", "CPA stacks turned over", high=4, limit=_most_cpa),
                Ask("cpa_removed", "4 CPA stacks removed?", yes_no=True, when=_cpa_removable),
                Ask("opa_removed", "OPA stacks removed", high=99, limit=_most_opa),
            ),
            offered=a_stack_can_score,  # not before the board holds a stack to score (R749)
        ),
        Move("Cards out", "sb.cards_out"),
    ),
}
# Stars & Bars' stack points as the flow before issue 20 entered them (R796): the removal of
# the CPA stacks always asked, the stacks up to the entry's own highs, whatever the board holds.
STACKS_BEFORE_ISSUE_20 = Move(
    "Stack points",
    "sb.stacks",
    (
        Ask("cpa_turned", "CPA stacks turned over", high=4),
        Ask("cpa_removed", "4 CPA stacks removed?", yes_no=True),
        Ask("opa_removed", "OPA stacks removed", high=20),
    ),
)


def game_moves(game: PentathlonGame) -> tuple[Move, ...]:
    """The game's moves, as the rulings the game is played under enter them (R796)."""
    moves = GAME_MOVES[game.settings.game]
    if game.play is None or game.play.rulings != RULINGS_BEFORE_ISSUE_20:
        return moves
    return tuple(STACKS_BEFORE_ISSUE_20 if move.kind == "sb.stacks" else move for move in moves)


# The events the rulebook names beside the moves (flows 2 and 3, R789-R791): recorded, no challenge.
INFRACTION_ASKS = (
    Ask("zero_points", "0 points (the Director)?", yes_no=True),
    Ask("removal", "Must leave the site?", yes_no=True),
)
EVENT_MOVES: dict[Game, tuple[Move, ...]] = {
    Game.QUEENS_AND_GUARDS: (),  # the trap penalty names the holder's opponent: see below
    Game.STARS_AND_BARS: tuple(
        Move(
            f"Count: {seat} asked",
            "sb.stack_count",
            (Ask("cards", "Cards in the stack", low=1, limit=lambda board, _: board.on_board),),
            {"asked_by": seat},
        )
        for seat in ("A", "B")
    ),
}
COMMON_EVENTS = tuple(
    Move(f"Infraction: {seat}", "infraction", INFRACTION_ASKS, {"player": seat})
    for seat in ("A", "B")
)


# The result the Tournament Director gives on stopping a game for an infraction (R789, R748):
# last in the menu, so the menu before an infraction is as it was (flow 3; the rules of an
# earlier flow's game refuse it, so its menu never offers it).
DIRECTOR_RESULTS = (
    Move("Director: A win", "director_result", fields={"winner": "A"}),
    Move("Director: B win", "director_result", fields={"winner": "B"}),
    Move("Director: tie", "director_result", fields={"winner": None}),
)


def event_moves(game: PentathlonGame) -> list[Move]:
    """The events the monitor may record in this turn (flows 2 and 3)."""
    play = game.play
    assert play is not None
    moves = list(EVENT_MOVES.get(game.settings.game, ()))
    if game.settings.game is Game.QUEENS_AND_GUARDS:
        fields = {"player": play.holder.other.value}
        moves.append(Move("Trap penalty", "qg.trap_penalty", fields=fields))
    return [*moves, *COMMON_EVENTS]


GOAL_LABELS = {
    "five-in-a-row": "Win: 5 in a row",
    "score-zero-or-less": "Win: 0 or less",
    "board-covered": "Win: covered",
    "queen-surrounded": "Win: Queen",
}


def menu_moves(game: PentathlonGame, *, every_declaration: bool = True) -> list[Move]:
    """Everything the monitor may record in this turn now, the game's moves first. A win is
    on offer whenever the holder may declare one, whatever the record says: the challenge
    decides (R780). ``every_declaration`` False: the flow before issue 20, which offered a
    win only where the record allowed it (R786)."""
    play = game.play
    assert play is not None
    holder = play.holder.value
    moves = list(game_moves(game))
    for goal in game.rules.goals:
        if not every_declaration and game.rules.declaration_doubt(play, play.holder, goal):
            continue
        fields = {"player": holder, "goal": goal, "by_monitor": False}
        moves.append(Move(GOAL_LABELS[goal], "declare_win", fields=fields))
        if game.rules.monitor_declares:  # Queens & Guards: a win the player did not announce
            for player in ("A", "B"):
                fields = {"player": player, "goal": goal, "by_monitor": True}
                moves.append(Move(f"Award win: {player}", "declare_win", fields=fields))
    if every_declaration:  # flows 2 and 3: the events beside the moves (R789-R791)
        moves += event_moves(game)
    moves.append(Move("Forfeit turn", "forfeit_turn"))
    moves.append(Move("Flag passes", "pass_flag", fields={"player": holder}))
    if every_declaration:  # flow 3: once an infraction is recorded (R748)
        moves += DIRECTOR_RESULTS
    # a move offered only where the pieces allow it since rulings 3 (R749); the menu of a game
    # under earlier rulings offers what its rules take, as it did (R796)
    bounded = play.rulings > RULINGS_ISSUE_20
    return [
        move
        for move in moves
        if (move.offered is None or not bounded or move.offered(play.board))
        and takes(game, move.trial())
    ]


def menu(
    game: PentathlonGame, scratch: Mapping[str, Any], *, every_declaration: bool = True
) -> Prompt:
    """The turn's menu: NEXT through what may be recorded, YES records it (or asks for its
    numbers), UNDO closes the menu."""
    play = game.play
    assert play is not None
    moves = menu_moves(game, every_declaration=every_declaration)
    options = [_chosen(game, scratch, move) for move in moves]
    prompt = choice(f"p/menu{play.turn}", f"{play.holder} on turn: record", options)
    return _in_turn(prompt, game, scratch)


def _chosen(game: PentathlonGame, scratch: Mapping[str, Any], move: Move) -> Outcome:
    if not move.asks:
        return recording(game, scratch, move.label, move.action({}))
    return Outcome(move.label, scratch={SCRATCH_ENTRY: {"move": move.label, "values": {}}})


def entry(game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    """The next number of a move being entered; the last one records the move."""
    play = game.play
    assert play is not None
    entered = scratch[SCRATCH_ENTRY]
    known = (*game_moves(game), *event_moves(game))
    move = next(move for move in known if move.label == entered["move"])
    values: dict[str, Any] = dict(entered["values"])
    ask = move.asks[len(values)]
    while ask.when is not None and not ask.when(play.board, values):
        values[ask.field] = ask.least  # nothing to ask: the pieces allow only the least
        ask = move.asks[len(values)]
    key = f"p/entry{play.turn}/{move.kind}/{len(values)}"

    def take(value: Any) -> Outcome:
        done = {**values, ask.field: value}
        if len(done) == len(move.asks):
            return recording(game, scratch, str(value), move.action(done))
        return Outcome(str(value), scratch={SCRATCH_ENTRY: {"move": move.label, "values": done}})

    if ask.yes_no:
        prompt = yes_no(key, ask.text, take(True), take(False))
        entry = yes_no_entry(ask.text, take)
    else:
        high = ask.most(play.board, values)
        spec = NumberSpec(take=take, start=ask.low, low=ask.low, high=high)
        prompt = number(key, ask.text, spec)
        entry = number_entry(ask.text, high, take)
    return _in_turn(replace(prompt, entry=entry, page=facts(ask.text)), game, scratch)


def _in_turn(prompt: Prompt, game: PentathlonGame, scratch: Mapping[str, Any]) -> Prompt:
    """A step of the turn: it holds the turn's minute off, it does not restart it, and it
    remembers the holder's flag press for when the entry is recorded."""
    return remembers_flag(replace(prompt, timer_span=turn_span(game)), game, scratch)
