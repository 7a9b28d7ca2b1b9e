"""What the Pentathlon table shows besides the prompt: the scores on the OLED and the
scoreboard, the OLED's title, the players' LEDs, and the events an action decided.

LEDs: the player with the flag card is lit steady; at the minute the light blinks (the
reminder); during a challenge's time out the challenger's light pulses; once the game has ended
the winner's light (both, for a tie) is steady.
"""

from __future__ import annotations

from typing import Any

from drivers.leds import SeatLight
from firmware_py.table.family import Report
from rules.pentathlon.catalogue import Game
from rules.pentathlon.contig import ContigBoard
from rules.pentathlon.fab_a_diffy import FabBoard
from rules.pentathlon.juggle import JuggleBoards
from rules.pentathlon.monitor import PentathlonGame
from rules.pentathlon.players import Player
from rules.pentathlon.record import challenge_counts, final_scores
from rules.pentathlon.results import Result
from rules.pentathlon.stars_bars import StarsBoard

SHORT_TITLES = {
    Game.CONTIG_60: "CONTIG60",
    Game.FAB_A_DIFFY: "FAB",
    Game.JUGGLE: "JUGGLE",
    Game.QUEENS_AND_GUARDS: "Q&G",
    Game.STARS_AND_BARS: "S&B",
}


def scores(game: PentathlonGame) -> dict[str, int]:
    """Running scores (Contig 60, Stars & Bars), tricks in the game in progress (Fab-a-Diffy),
    empty spaces once counted (Juggle); otherwise nothing to score. Before the start, the
    game's board as it begins: Contig 60's running scores are 60 ("Running Score 60")."""
    board = game.play.board if game.play is not None else game.rules.new_board(game.settings)
    pair = (0, 0)
    if isinstance(board, ContigBoard | StarsBoard):
        pair = board.scores
    elif isinstance(board, FabBoard):
        pair = board.tricks
    elif isinstance(board, JuggleBoards) and board.empty is not None:
        pair = board.empty
    return {"A": pair[0], "B": pair[1]}


def title(game: PentathlonGame) -> str:
    """The game and the round (Fab-a-Diffy: the game of three too); the kernel adds the clock."""
    name = SHORT_TITLES[game.settings.game]
    play = game.play
    if play is None or game.phase == "over":
        return name
    if isinstance(play.board, FabBoard):
        name += f" G{play.board.game_number}"
    return f"{name} R{play.round}"


def light(game: PentathlonGame, seat: str) -> SeatLight:
    player = Player(seat)
    result = game.result or (game.play.pending if game.play is not None else None)
    if result is not None and game.phase in ("result", "over"):
        won = result.winner is None or result.winner is player
        return SeatLight.PLUNGING if won else SeatLight.OFF
    waiting = game.awaiting_ruling
    if waiting is not None:
        return SeatLight.LOCKED if waiting.challenger is player else SeatLight.OFF
    if game.on_turn is player:
        assert game.play is not None
        return SeatLight.WON if game.play.overtime else SeatLight.PLUNGING
    return SeatLight.OFF


def report(before: PentathlonGame, after: PentathlonGame) -> Report:
    events: list[tuple[str, dict[str, Any]]] = []
    if after.play is not None and after.play.overtime and not _overtime(before):
        events.append(("reminder", {"player": after.play.holder.value}))
    for record in after.challenges:
        earlier = (
            before.challenges[record.number - 1]
            if record.number <= len(before.challenges)
            else None
        )
        if record.rulings and (earlier is None or earlier.rulings != record.rulings):
            entry = record.rulings[-1]
            events.append(
                (
                    "ruling",
                    {
                        "challenge": record.number,
                        "challenger": record.challenger.value,
                        "rule": record.rule,
                        "ruling": entry.ruling.value,
                        "by": entry.by.value,
                        "effect": record.effect,
                    },
                )
            )
    for player in Player:
        count = after.strikes(player)
        if count != before.strikes(player) and after.warning(player):
            events.append(
                (
                    "warning",
                    {"player": player.value, "i_ia": count, "warning": after.warning(player)},
                )
            )
    pending = after.play.pending if after.play is not None else None
    earlier_pending = before.play.pending if before.play is not None else None
    if after.result is not None and before.result is None:
        # with the scores and challenges, so the hub can enter the result in the record
        over = {
            **_result(after.result),
            "scores": final_scores(after),
            "challenges": challenge_counts(after),
        }
        if after.infractions:  # only then: a journal without them replays alike (R786, R789)
            over["infractions"] = [
                {"player": i.player.value, "zero_points": i.zero_points, "removal": i.removal}
                for i in after.infractions
            ]
        events.append(("game_over", over))
    elif pending is not None and pending != earlier_pending:
        events.append(("game_result", _result(pending)))
    return Report(events=events)


def _overtime(game: PentathlonGame) -> bool:
    return game.play is not None and game.play.overtime


def _result(result: Result) -> dict[str, Any]:
    return {
        "winner": result.winner.value if result.winner else None,
        "how": result.how.value,
        "detail": result.detail,
    }
