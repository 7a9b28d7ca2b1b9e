"""Sessions and replay: a JSON Lines log of actions rebuilds the same state and result.

A log starts with ``match.start`` (a Combo 4 match) or ``game.start`` (one game on its own);
every later line is an action for that session.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from rules.actions import Action, decode, encode, register
from rules.errors import InvalidInput, InvalidLog, RuleError
from rules.games.common import GameContext
from rules.games.registry import game_rules
from rules.match import MatchState, StartMatch, apply_match, new_match
from rules.scoring import GameResult, score_game
from rules.teams import Team


@register("game.start")
@dataclass(frozen=True, slots=True)
class StartGame(Action):
    """One game on its own, outside a match (a judge's ruling, a practice table)."""

    game: int
    level: int = 4
    lead: Team | None = None


@dataclass(frozen=True, slots=True)
class GameSession:
    number: int
    state: Any  # the game's state


Session = MatchState | GameSession


def start_session(action: Action) -> Session:
    if isinstance(action, StartMatch):
        return new_match(action)
    if isinstance(action, StartGame):
        rules = game_rules(action.game)
        return GameSession(action.game, rules.start(GameContext(action.level, action.lead)))
    raise InvalidLog(f"a log starts with match.start or game.start, not {action.kind!r}")


def apply_session(session: Session, action: Action) -> Session:
    if isinstance(action, StartMatch | StartGame):
        raise InvalidLog(f"{action.kind!r} only starts a log")
    if isinstance(session, MatchState):
        return apply_match(session, action)
    return replace(session, state=game_rules(session.number).apply(session.state, action))


def replay(actions: Iterable[Action]) -> Session:
    iterator = iter(actions)
    first = next(iterator, None)
    if first is None:
        raise InvalidLog("the log is empty: expected match.start or game.start first")
    session = start_session(first)
    for action in iterator:
        session = apply_session(session, action)
    return session


def parse_log(lines: Iterable[str]) -> list[Action]:
    """Decode JSON Lines, naming the line of any fault. Blank lines are skipped."""
    actions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise InvalidLog(f"line {number}: not JSON ({error.msg})") from None
        except (ValueError, RecursionError):
            raise InvalidLog(
                f"line {number}: not JSON this table can read (too deep or too long)"
            ) from None
        try:
            actions.append(decode(data))
        except RuleError as error:
            raise _located(error, f"line {number}") from None
    return actions


def _located(error: RuleError, where: str) -> RuleError:
    """The same typed error, its one line prefixed with where it happened."""
    error.args = (f"{where}: {error}",)
    return error


def replay_log(lines: Iterable[str]) -> Session:
    """Replay a log, naming the line of the first action the rules refuse."""
    actions = parse_log(lines)
    if not actions:
        raise InvalidLog("the log is empty: expected match.start or game.start first")
    session = start_session(actions[0])
    for number, action in enumerate(actions[1:], start=2):
        try:
            session = apply_session(session, action)
        except RuleError as error:
            raise _located(error, f"action {number} ({action.kind})") from None
    return session


def dump_log(actions: Iterable[Action]) -> str:
    return "".join(json.dumps(encode(action)) + "\n" for action in actions)


def _result_json(result: GameResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    winner = result.winner.value if result.winner else None
    return {"winner": winner, "bonus": result.bonus, "reason": result.reason}


def summary(session: Session) -> dict[str, Any]:
    """The session's standing as plain JSON data: what ``gametable replay`` prints."""
    if isinstance(session, GameSession):
        state = session.state
        plunging = state.plunging or frozenset()
        points = score_game(state.result, plunging) if state.result else None
        return {
            "game": session.number,
            "title": game_rules(session.number).title,
            "phase": state.phase,
            "plunging": sorted(team.value for team in plunging),
            "result": _result_json(state.result),
            "points": {t.value: p for t, p in points.items()} if points else None,
        }
    a, b = session.scores
    result = session.result
    return {
        "round": session.round,
        "kind": session.kind.value,
        "phase": session.phase,
        "cycle": list(session.cycle),
        "games": [
            {
                "game": game.number,
                "title": game_rules(game.number).title,
                "result": _result_json(game.result),
                "plunging": sorted(team.value for team in game.plunging),
                "points": {"A": game.points[0], "B": game.points[1]},
            }
            for game in session.played
        ],
        "scores": {"A": a, "B": b},
        "over": session.over,
        "winner": (result.winner.value if result.winner else None) if result else None,
        "tie": bool(result and result.winner is None),
    }


def require_level(level: int) -> int:
    if level != 4:
        raise InvalidInput(f"level {level}: expected 4 (Level 3 arrives with the Combo 3 work)")
    return level
