"""What an action decided, announced as events: a game's result, the score (the championship:
games won), a match's result (the championship: its champion and the games not played)."""

from __future__ import annotations

from typing import Any

from firmware_py.families.geoplunge.sessions import Match, level_of
from firmware_py.table.family import Report
from rules.geoplunge.championship import ChampionshipGame, ChampionshipState
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.match import MatchState
from rules.geoplunge.match3 import Match3State
from rules.geoplunge.replay import AnySession, GameSession
from rules.geoplunge.scoring import GameResult, score_game
from rules.geoplunge.teams import Team

Events = list[tuple[str, dict[str, Any]]]


def report(before: AnySession, after: AnySession) -> Report:
    if isinstance(after, MatchState | Match3State) and isinstance(before, MatchState | Match3State):
        return _match(before, after)
    if isinstance(after, ChampionshipState) and isinstance(before, ChampionshipState):
        return _championship(before, after)
    if isinstance(after, GameSession) and after.state.result is not None:
        return _game(after)
    return Report()


def _match(before: Match, after: Match) -> Report:
    events: Events = []
    message = None
    level = level_of(after)
    if len(after.played) > len(before.played):
        game = after.played[-1]
        events.append(game_result(game.number, level, game.result, game.plunging, game.points))
        message = result_message(game.result)
        a, b = after.scores
        events.append(("score", {"A": a, "B": b}))
    if after.over and not before.over:
        result = after.result
        assert result is not None
        winner = result.winner.value if result.winner else None
        a, b = result.scores
        events.append(("match_result", {"winner": winner, "A": a, "B": b}))
        message = f"MATCH: {winner or 'TIE'} {a}-{b}"
    return Report(events, message)


def _championship(before: ChampionshipState, after: ChampionshipState) -> Report:
    """Games won count, not points (ruling R81): no points, a ``wins`` event, the champion."""
    if len(after.played) == len(before.played):
        return Report()
    game: ChampionshipGame = after.played[-1]
    result = game_result(game.number, 3, game.result, game.plunging, None)
    result[1]["tiebreaker"] = game.tiebreaker
    events: Events = [result, ("wins", _wins(after))]
    message = result_message(game.result)
    champion = after.champion
    if champion is not None:
        events.append(
            (
                "match_result",
                {
                    "champion": champion.value,
                    "wins": _wins(after),
                    "not_played": list(after.not_played),
                },
            )
        )
        message = f"CHAMPION: {champion}"
    return Report(events, message)


def _wins(session: ChampionshipState) -> dict[str, int]:
    return {team.value: session.wins(team) for team in Team}


def _game(session: GameSession) -> Report:
    result = session.state.result
    assert result is not None
    plunging = session.state.plunging or frozenset()
    points = score_game(result, plunging)
    pair = (points[Team.A], points[Team.B])
    events: Events = [
        game_result(session.number, session.level, result, plunging, pair),
        ("score", {"A": pair[0], "B": pair[1]}),
    ]
    return Report(events, result_message(result))


def game_result(
    number: int,
    level: int,
    result: GameResult | None,
    plunging: Any,
    points: tuple[int, int] | None,
) -> tuple[str, dict[str, Any]]:
    """``points`` None: the championship, where games are won and points are not counted."""
    winner = None if result is None or result.winner is None else result.winner.value
    return (
        "game_result",
        {
            "game": number,
            "level": level,
            "title": game_rules(number, level).title,
            "winner": winner,
            "bonus": bool(result and result.bonus),
            "abandoned": result is None,
            "plunging": sorted(team.value for team in plunging),
            "points": None if points is None else {"A": points[0], "B": points[1]},
            "reason": result.reason if result else "time ran out",
        },
    )


def result_message(result: GameResult | None) -> str:
    if result is None:
        return "ABANDONED"
    return f"{result.winner.value} WINS" if result.winner else "TIE"
