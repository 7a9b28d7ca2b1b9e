"""Fab-a-Diffy: the best of 3 games; each game goes to the greater number of 3-strip tricks.

The beginning player alternates from game to game. A game ends when the player on turn cannot
place a strip into the Show Box (``deck_out``). Overall: 2 games won, or 1 won and 2 tied, wins;
1 won each and 1 tied, or 3 tied, is a tie (R211: the player with more games won). At the time
limit an unfinished game goes to the player with more tricks (a tie if equal) and the games not
played count as ties (R212). A third I/IA loses the offender the game in progress and the games
the match would still play (R996). A capture is announced within 10 seconds of receiving the
flag card, before touching a strip: the shell injects ``pentathlon.fab.capture_timeout``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.actions import Action, register
from rules.errors import IllegalAction, InvalidInput
from rules.pentathlon.catalogue import (
    OTHER,
    ChallengeRule,
    Effect,
    Game,
    StartMethod,
)
from rules.pentathlon.monitor_actions import StartPentathlon
from rules.pentathlon.play import (
    RULINGS_ISSUE_20,
    Check,
    GameRules,
    Play,
    first_turn,
    require_turn,
)
from rules.pentathlon.players import Pair, Player, of, with_value
from rules.pentathlon.results import How, Result
from rules.pentathlon.strips import deck_strips

GAMES = 3
GAMES_TO_WIN = 2
FACE_UP = 3  # "ALWAYS 3 STRIPS FACE UP": replenished from the deck before a strip is shown
TRICK_STRIPS = 3  # "3-strip tricks"


@register("pentathlon.fab.show")
@dataclass(frozen=True, slots=True)
class ShowStrip(Action):
    """The player on turn draws a strip and places it in the Show Box: the regular turn."""


@register("pentathlon.fab.trick")
@dataclass(frozen=True, slots=True)
class TakeTrick(Action):
    """The player on turn takes a trick with the Show Box strip, announcing the sentence."""


@register("pentathlon.fab.capture")
@dataclass(frozen=True, slots=True)
class CaptureTrick(Action):
    """The player on turn captures a trick the opponent did not take."""


@register("pentathlon.fab.capture_timeout")
@dataclass(frozen=True, slots=True)
class CaptureTimeout(Action):
    """From the shell: 10 seconds have passed since the flag card was received."""


@register("pentathlon.fab.deck_out")
@dataclass(frozen=True, slots=True)
class DeckOut(Action):
    """The player on turn cannot place a strip into the Show Box: this game ends."""


@dataclass(frozen=True, slots=True)
class FabBoard:
    partitions: tuple[int, ...]
    games: tuple[Player | None, ...] = ()  # finished games' winners; None: a tie
    tricks: Pair[int] = (0, 0)  # in the game in progress
    turn_tricks: Pair[int] = (0, 0)  # tricks each player took in their latest turn
    shown: bool = False  # the player on turn has placed a strip in the Show Box
    tricked: bool = False  # ... has taken a trick with it
    captured: bool = False  # ... has captured a trick this turn
    capture_open: bool = False  # the 10-second capture window is open
    # The deck in the game in progress (R746): strips out of the deck (face up, in the Show
    # Box, in tricks) and strips face up in the rectangles (not counting the Show Box).
    drawn: int = 0
    face_up: int = 0

    @property
    def game_number(self) -> int:
        return len(self.games) + 1

    @property
    def deck_left(self) -> int:
        return len(deck_strips(self.partitions)) - self.drawn

    @property
    def show_needs(self) -> int:
        """Strips a strip shown takes from the deck: those that bring the strips face up back
        to 3 (the game's first show: the 3 centre strips), and the Show Box's (R746)."""
        return max(0, FACE_UP - self.face_up) + 1


def game_winner(tricks: Pair[int]) -> Player | None:
    a, b = tricks
    return None if a == b else (Player.A if a > b else Player.B)


def decided(games: tuple[Player | None, ...]) -> bool:
    """No game left to play can change the overall result."""
    wins = [games.count(player) for player in Player]
    return len(games) >= GAMES or max(wins) >= GAMES_TO_WIN


def check_games(games: tuple[Player | None, ...]) -> tuple[Player | None, ...]:
    """Games as they can have been played: at most 3, none after the match was decided (a
    player with 2 games won: R211, R785)."""
    shown = ",".join("tie" if winner is None else winner.value for winner in games)
    if len(games) > GAMES:
        raise InvalidInput(f"games {shown}: at most {GAMES} games")
    for played in range(1, len(games)):
        if decided(games[:played]):
            raise InvalidInput(
                f"games {shown}: the match was decided after game {played} (R211): no game "
                f"{played + 1} is played (R785)"
            )
    return games


def overall(games: tuple[Player | None, ...]) -> Result:
    """The overall result of 3 games (games not played count as ties, R212)."""
    a, b = games.count(Player.A), games.count(Player.B)
    ties = GAMES - a - b
    winner = None if a == b else (Player.A if a > b else Player.B)
    count = f"games won: A {a}, B {b}; tied {ties}"
    detail = f"{winner} won more games ({count})" if winner else f"as many games won ({count})"
    return Result(winner, How.AWARD, detail)


def timed_overall(games: tuple[Player | None, ...]) -> Result:
    """The overall result at the time limit: the games not played count as ties (R212)."""
    result = overall(games)
    left = GAMES - len(games)
    unplayed = f"; {left} game{'s' if left > 1 else ''} not played, counted as tied" if left else ""
    return replace(result, how=How.TIME_LIMIT, detail=f"time limit: {result.detail}{unplayed}")


class FabADiffy(GameRules):
    game = Game.FAB_A_DIFFY
    title = "Fab-a-Diffy"
    round_game = False
    starts_by = StartMethod.STRIP_DRAW
    challenge_rules: ClassVar[tuple[ChallengeRule, ...]] = (
        ChallengeRule(
            "trick",
            "A trick: two strips whose sum or difference is the Show Box strip, announced",
            (Effect.TRICK_TO_CHALLENGER, Effect.CHALLENGER_BEGINS_TURN),
        ),
        ChallengeRule(
            "capture",
            "A capture",
            (Effect.TRICK_TO_CHALLENGER, Effect.CHALLENGER_BEGINS_TURN),
        ),
        ChallengeRule(
            "touch-take",
            "Touch-take: a touched strip forms a trick or goes from the Show Box",
            (Effect.CHALLENGER_EXTRA_TURN,),
        ),
        ChallengeRule(
            "show-box",
            "Moving the Show Box strip to an empty rectangle at the end of a turn",
            (Effect.CHALLENGER_EXTRA_TURN,),
        ),
        ChallengeRule(OTHER, "Other (not involving a trick)", (Effect.CHALLENGER_EXTRA_TURN,)),
    )
    not_challengeable: ClassVar[dict[str, str]] = {
        "three-strips": "always 3 strips face up is not challengeable: the Monitor makes sure "
        "the player replenishes them",
    }

    def new_board(self, start: StartPentathlon) -> FabBoard:
        assert start.partitions is not None
        return FabBoard(start.partitions)

    def begin_turn(self, board: Any, player: Player, received: bool) -> FabBoard:
        assert isinstance(board, FabBoard)
        # a strip shown and not tricked moves from the Show Box to an empty rectangle
        kept = board.shown and not board.tricked
        return replace(
            board,
            face_up=board.face_up + kept,
            turn_tricks=with_value(board.turn_tricks, player, 0),
            shown=False,
            tricked=False,
            captured=False,
            capture_open=received,  # a regular turn after a C opens no capture window
        )

    def move(self, play: Play, action: Action) -> Play:
        board = play.board
        assert isinstance(board, FabBoard)
        if isinstance(action, CaptureTimeout):
            require_turn(play)
            if not board.capture_open:
                raise IllegalAction("the capture window is not open")
            return replace(play, board=replace(board, capture_open=False))
        if isinstance(action, ShowStrip):
            require_turn(play)
            if board.shown:
                raise IllegalAction(f"{play.holder} has placed a strip in the Show Box this turn")
            if _deck_bounded(play) and board.deck_left < board.show_needs:
                raise IllegalAction(
                    f"no strip to show: {_deck_text(board)}; record Deck out (R746)"
                )
            board = replace(
                board,
                shown=True,
                capture_open=False,
                drawn=board.drawn + board.show_needs,
                face_up=max(board.face_up, FACE_UP),
            )
            return replace(play, board=board, played=True)
        if isinstance(action, TakeTrick):
            require_turn(play)
            if not board.shown or board.tricked:
                raise IllegalAction(
                    "a trick is taken once per turn, with the strip placed in the Show Box"
                )
            # the Show Box strip and 2 strips face up (at least 3 are face up once shown)
            board = replace(board, tricked=True, face_up=max(0, board.face_up - 2))
            return replace(play, board=_trick_to(board, play.holder))
        if isinstance(action, CaptureTrick):
            require_turn(play)
            self._check_capture(play, board)
            face_up = max(0, board.face_up - TRICK_STRIPS)
            board = replace(board, captured=True, capture_open=False, face_up=face_up)
            return replace(play, board=_trick_to(board, play.holder))
        if isinstance(action, DeckOut):
            require_turn(play)
            if board.shown:
                raise IllegalAction(f"{play.holder} has placed a strip in the Show Box this turn")
            if _deck_bounded(play) and board.deck_left >= board.show_needs:
                raise IllegalAction(
                    f"not Deck out: {_deck_text(board)}, enough to show a strip (R746)"
                )
            return self._end_game(play, board)
        return super().move(play, action)

    def _check_capture(self, play: Play, board: FabBoard) -> None:
        if not board.capture_open:
            raise IllegalAction(
                "no capture now: a capture is announced within 10 seconds of receiving the flag "
                "card, before touching a strip"
            )
        if play.round == 1 and play.holder is play.beginner:
            raise IllegalAction("no capture: the opponent has not had a turn in this game")
        if _deck_bounded(play) and board.face_up < TRICK_STRIPS:
            raise IllegalAction(
                f"no capture: a trick takes {TRICK_STRIPS} strips and {board.face_up} "
                f"{'is' if board.face_up == 1 else 'are'} face up (R746)"
            )

    def _end_game(self, play: Play, board: FabBoard) -> Play:
        games = (*board.games, game_winner(board.tricks))
        if decided(games):
            return replace(play, board=replace(board, games=games), pending=overall(games))
        if play.time_called:
            return replace(play, board=replace(board, games=games), pending=timed_overall(games))
        beginner = play.beginner.other  # players alternate beginning the games
        fresh = FabBoard(board.partitions, games)
        following = first_turn(fresh, beginner, self)
        return replace(
            following,
            turn=play.turn + 1,
            lost_turns=play.lost_turns,
            extra_turns=play.extra_turns,
            forfeited=play.forfeited,
            turns_lost=play.turns_lost,
        )

    def correct(
        self, board: Any, effect: Effect, challenger: Player, prior: Any
    ) -> tuple[FabBoard, str]:
        assert isinstance(board, FabBoard)
        if effect is not Effect.TRICK_TO_CHALLENGER:
            return board, ""
        challenged = challenger.other
        if of(board.turn_tricks, challenged) == 0:
            raise IllegalAction(
                f"{challenged} took no trick in the challenged turn: a trick or capture challenge "
                "cannot be Correct (use 'other')"
            )
        board = replace(
            board,
            tricks=with_value(board.tricks, challenged, of(board.tricks, challenged) - 1),
            turn_tricks=with_value(
                board.turn_tricks, challenged, of(board.turn_tricks, challenged) - 1
            ),
        )
        board = replace(
            board, tricks=with_value(board.tricks, challenger, of(board.tricks, challenger) + 1)
        )
        return (
            board,
            f"the trick's 3 strips go to {challenger}: "
            f"tricks A {board.tricks[0]}, B {board.tricks[1]}",
        )

    def time_limit(self, play: Play) -> Result | None:
        board = play.board
        assert isinstance(board, FabBoard)
        return timed_overall((*board.games, game_winner(board.tricks)))

    def scores(self, board: Any) -> dict[str, Any]:
        assert isinstance(board, FabBoard)
        return {
            "games": [_won(winner) for winner in board.games],
            "tricks_in_game_in_progress": {"A": board.tricks[0], "B": board.tricks[1]},
        }

    def final(self, play: Play) -> dict[str, Any]:
        """The games as the result counted them: where the time-limit adjudication decided
        the game in progress on its tricks (R212), that game is one of them, with the tricks
        that decided it (R982); where a third I/IA ended the match, the games it lost the
        offender are among them too, named (R996)."""
        board = play.board
        assert isinstance(board, FabBoard)
        scores = self.scores(board)
        if _decided_in_progress(play):
            scores["games"].append(_won(game_winner(board.tricks)))
            scores["decided_at_time_limit"] = {
                "game": board.game_number,
                "tricks": {"A": board.tricks[0], "B": board.tricks[1]},
            }
        result = play.pending
        if result is not None and result.how is How.TIME_LIMIT and len(scores["games"]) < GAMES:
            # the time limit counts the games not played as tied (R212), and says so (R993)
            scores["not_played"] = GAMES - len(scores["games"])
        if result is not None and result.how is How.THREE_STRIKES and result.winner is not None:
            _count_games_lost_at_three_i_ia(scores, board.games, result.winner)
        return scores


def games_lost_at_three_i_ia(
    games: tuple[Player | None, ...], winner: Player
) -> tuple[Player | None, ...]:
    """The match's games when a third I/IA ends it (R996): "a loss for up to 3 games that are
    allowed to be played in this event". The games finished before the one it came in stand;
    that game and each game the match would still play go to ``winner`` until the match is
    decided; where that leaves as many games won (the offender had won one game and tied one),
    the tied games are losses too. A third I/IA ruled at the result, after the last game
    played had decided the match, came in that last game."""
    counted = games[:-1] if decided(games) else games
    while not decided(counted):
        counted = (*counted, winner)
    if overall(counted).winner is not winner:
        counted = tuple(winner if game is None else game for game in counted)
    return counted


def _count_games_lost_at_three_i_ia(
    scores: dict[str, Any], games: tuple[Player | None, ...], winner: Player
) -> None:
    counted = games_lost_at_three_i_ia(games, winner)
    played = (*games, *(None,) * (len(counted) - len(games)))
    lost = [
        number
        for number, (was, now) in enumerate(zip(played, counted, strict=True), start=1)
        if number > len(games) or was is not now
    ]
    if not lost:  # the games played had given the winner the match already
        return
    scores["games"] = [_won(game) for game in counted]
    scores["lost_at_three_i_ia"] = {"player": winner.other.value, "games": lost}


def _won(winner: Player | None) -> str:
    return "tie" if winner is None else winner.value


def _decided_in_progress(play: Play) -> bool:
    """The result is the time-limit adjudication of the game in progress (``time_limit``),
    not of games all finished (Deck out after time was called: ``_end_game``)."""
    result = play.pending
    return (
        result is not None
        and result.how is How.TIME_LIMIT
        and play.pending_check is Check.TIME_LIMIT
    )


def _deck_bounded(play: Play) -> bool:
    """The strips shown, captured and Deck out are bounded by the deck since rulings 3 (R746);
    a journal played under rulings 1 or 2 replays as it was written (R796)."""
    return play.rulings > RULINGS_ISSUE_20


def _deck_text(board: FabBoard) -> str:
    left = board.deck_left
    return (
        f"the deck has {left} strip{'' if left == 1 else 's'} left and a strip shown needs "
        f"{board.show_needs} ({FACE_UP} face up and the Show Box)"
    )


def _trick_to(board: FabBoard, player: Player) -> FabBoard:
    return replace(
        board,
        tricks=with_value(board.tricks, player, of(board.tricks, player) + 1),
        turn_tricks=with_value(board.turn_tricks, player, of(board.turn_tricks, player) + 1),
    )
