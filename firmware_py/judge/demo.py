"""``gametable demo`` (``make run`` until the daemon exists): a Combo 4 match, narrated.

Replays an action log step by step through the rules core and says what a dealer would hear.
"""

from __future__ import annotations

import json
from importlib import resources

from rules.actions import encode
from rules.errors import InvalidLog
from rules.geoplunge.games.registry import game_rules
from rules.geoplunge.match import MatchState
from rules.geoplunge.replay import (
    GameSession,
    Session,
    apply_session,
    replay,
    start_session,
    summary,
)
from rules.log import parse_log

EXAMPLE = "examples/combo4-match.jsonl"


def example_log() -> list[str]:
    text = resources.files("firmware_py.judge").joinpath(EXAMPLE).read_text(encoding="utf-8")
    return text.splitlines()


def _describe_game_end(before: MatchState, after: MatchState) -> list[str]:
    game = after.played[-1]
    title = f"Game {game.number} {game_rules(game.number).title}"
    if game.result is None:
        outcome = "abandoned when time ran out: no points"
    elif game.result.winner is None:
        outcome = f"tie ({game.result.reason})"
    else:
        bonus = " with the bonus" if game.result.bonus else ""
        outcome = f"{game.result.winner} wins{bonus} ({game.result.reason})"
    plunging = ",".join(sorted(team.value for team in game.plunging)) or "nobody"
    a, b = after.scores
    lines = [
        f"  = {title}: {outcome}; plunging: {plunging}; "
        f"+{game.points[0]}/+{game.points[1]} -> A {a}, B {b}"
    ]
    if after.shuffle_reminder and not after.over:
        lines.append(f"  ~ shuffle: {', '.join(after.shuffle_reminder)} cards")
    return lines


def _narrate_step(before: Session, after: Session) -> list[str]:
    if not isinstance(before, MatchState) or not isinstance(after, MatchState):
        return [f"  . phase {after.state.phase}"] if hasattr(after, "state") else []
    lines = []
    if after.cycle and not before.cycle:
        lines.append(f"  = Call picks: the match plays games {after.cycle}, repeating")
    if after.current_number is not None and before.current_number is None:
        title = game_rules(after.current_number).title
        lines.append(f"  > Game {after.current_number}: {title}")
    if len(after.played) > len(before.played):
        lines.extend(_describe_game_end(before, after))
    if after.over:
        result = after.result
        assert result is not None
        a, b = result.scores
        verdict = "a tie" if result.winner is None else f"team {result.winner} wins"
        lines.append(f"Time is up. Match over: {verdict}, A {a} - B {b}.")
        decks = ", ".join(after.shuffle_reminder)
        lines.append(f"  ~ shuffle every deck before the next match: {decks}")
    return lines


def narrate(lines: list[str] | None = None, *, as_json: bool = False) -> int:
    actions = parse_log(lines if lines is not None else example_log())
    if not actions:
        raise InvalidLog("the log is empty: expected match.start or game.start first")
    session = start_session(actions[0])
    if as_json:
        print(json.dumps(summary(replay(actions))))
        return 0
    if isinstance(session, MatchState):
        print(f"Round {session.round}: {session.kind.value} match, {session.minutes} minutes")
    for action in actions[1:]:
        after = apply_session(session, action)
        fields = {k: v for k, v in encode(action).items() if k != "action"}
        print(f"  - {action.kind} {json.dumps(fields) if fields else ''}".rstrip())
        for line in _narrate_step(session, after):
            print(line)
        session = after
    if isinstance(session, GameSession):
        print(json.dumps(summary(session)))
    return 0
