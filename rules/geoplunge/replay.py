"""Sessions and replay: a JSON Lines log of actions rebuilds the same state and result.

A log starts with ``match.start`` (a Combo 4 match), ``match3.start`` (a Combo 3 match),
``championship.start`` (the Combo 3 championship match) or ``game.start`` (one game on its own,
at Level 4 or 3); every later line is an action for that session.

``start_session``, ``apply_session`` and ``replay`` keep to the sessions the table runs (a Combo
4 match or one game, ``Session``); ``start_any_session``, ``apply_any_session``, ``replay_any``
and ``replay_log`` take every log (``AnySession``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from rules.actions import Action, register
from rules.errors import InvalidLog
from rules.geoplunge.championship import (
    ChampionshipState,
    StartChampionship,
    apply_championship,
    new_championship,
)
from rules.geoplunge.games.common import GameContext
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.match import MatchState, PlayedGame, StartMatch, apply_match, new_match
from rules.geoplunge.match3 import Match3State, StartMatch3, apply_match3, new_match3
from rules.geoplunge.scoring import GameResult, score_game
from rules.geoplunge.teams import Team
from rules.log import parse_log, replay_actions


@register("game.start")
@dataclass(frozen=True, slots=True)
class StartGame(Action):
    """One game on its own, outside a match (a judge's ruling, a practice table)."""

    game: int
    level: int = 4
    lead: Team | None = None
    ptr_early_end: bool = True  # Level 3 Play the Ranks ends at 6 tricks (R68)


@dataclass(frozen=True, slots=True)
class GameSession:
    number: int
    state: Any  # the game's state
    level: int = 4


Session = MatchState | GameSession  # what the table runs
Combo3Session = Match3State | ChampionshipState
AnySession = Session | Combo3Session
STARTS = (StartMatch, StartGame, StartMatch3, StartChampionship)
FIRST_LINE = "match.start, match3.start, championship.start or game.start"


def start_session(action: Action) -> Session:
    """A Combo 4 match or one game; a Combo 3 log is refused (use ``start_any_session``)."""
    session = start_any_session(action)
    if isinstance(session, Match3State | ChampionshipState):
        raise InvalidLog(
            f"{action.kind!r} starts a Combo 3 log, which the table does not run: expected "
            "match.start or game.start (gametable replay reads every log)"
        )
    return session


def start_any_session(action: Action) -> AnySession:
    if isinstance(action, StartMatch):
        return new_match(action)
    if isinstance(action, StartMatch3):
        return new_match3(action)
    if isinstance(action, StartChampionship):
        return new_championship(action)
    if isinstance(action, StartGame):
        rules = game_rules(action.game, action.level)
        state = rules.start(GameContext(action.level, action.lead, action.ptr_early_end))
        return GameSession(action.game, state, action.level)
    raise InvalidLog(f"a log starts with {FIRST_LINE}, not {action.kind!r}")


def apply_session(session: Session, action: Action) -> Session:
    if isinstance(action, STARTS):
        raise InvalidLog(f"{action.kind!r} only starts a log")
    if isinstance(session, MatchState):
        return apply_match(session, action)
    rules = game_rules(session.number, session.level)
    return replace(session, state=rules.apply(session.state, action))


def apply_any_session(session: AnySession, action: Action) -> AnySession:
    if isinstance(action, STARTS):
        raise InvalidLog(f"{action.kind!r} only starts a log")
    if isinstance(session, Match3State):
        return apply_match3(session, action)
    if isinstance(session, ChampionshipState):
        return apply_championship(session, action)
    return apply_session(session, action)


def replay(actions: Iterable[Action]) -> Session:
    """Replay a Combo 4 match or one game."""
    return replay_actions(actions, start_session, apply_session, "match.start or game.start")


def replay_any(actions: Iterable[Action]) -> AnySession:
    """Replay any log: a Combo 4 or Combo 3 match, the championship or one game."""
    return replay_actions(actions, start_any_session, apply_any_session, FIRST_LINE)


def replay_log(lines: Iterable[str]) -> AnySession:
    """Replay any log, naming the line of the first action the rules refuse."""
    return replay_actions(
        parse_log(lines), start_any_session, apply_any_session, FIRST_LINE, locate=True
    )


def _result_json(result: GameResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    winner = result.winner.value if result.winner else None
    return {"winner": winner, "bonus": result.bonus, "reason": result.reason}


def summary(session: AnySession) -> dict[str, Any]:
    """The session's standing as plain JSON data: what ``gametable replay`` prints."""
    if isinstance(session, GameSession):
        state = session.state
        plunging = state.plunging or frozenset()
        points = score_game(state.result, plunging) if state.result else None
        return {
            "game": session.number,
            "level": session.level,
            "title": game_rules(session.number, session.level).title,
            "phase": state.phase,
            "plunging": sorted(team.value for team in plunging),
            "result": _result_json(state.result),
            "points": {t.value: p for t, p in points.items()} if points else None,
        }
    if isinstance(session, ChampionshipState):
        return _championship_summary(session)
    a, b = session.scores
    result = session.result
    match_data: dict[str, Any]
    if isinstance(session, Match3State):
        level = 3
        match_data = {
            "combo": 3,
            "level": 3,
            "round": session.round,
            "part": session.part.value,
            "minutes": session.minutes,
            "chooser": session.chooser.value if session.chooser else None,
        }
    else:
        level = 4
        match_data = {"round": session.round, "kind": session.kind.value}
    return {
        **match_data,
        "phase": session.phase,
        "cycle": list(session.cycle),
        "games": [_played_json(game, level) for game in session.played],
        "scores": {"A": a, "B": b},
        "over": session.over,
        "winner": (result.winner.value if result.winner else None) if result else None,
        "tie": bool(result and result.winner is None),
    }


def _played_json(game: PlayedGame, level: int) -> dict[str, Any]:
    return {
        "game": game.number,
        "title": game_rules(game.number, level).title,
        "result": _result_json(game.result),
        "plunging": sorted(team.value for team in game.plunging),
        "points": {"A": game.points[0], "B": game.points[1]},
    }


def _championship_summary(session: ChampionshipState) -> dict[str, Any]:
    champion = session.champion
    return {
        "championship": True,
        "combo": 3,
        "level": 3,
        "phase": session.phase,
        "order": list(session.games),
        "games": [
            {
                "game": game.number,
                "title": game_rules(game.number, 3).title,
                "tiebreaker": game.tiebreaker,
                "result": _result_json(game.result),
                "plunging": sorted(team.value for team in game.plunging),
            }
            for game in session.played
        ],
        "wins": {team.value: session.wins(team) for team in Team},
        "not_played": list(session.not_played),
        "over": session.over,
        "champion": champion.value if champion else None,
    }
