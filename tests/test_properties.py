"""Properties of the whole rules core, over random action streams.

- No action sequence raises anything but the typed rule errors.
- Replaying the log of accepted actions rebuilds an equal state.
- A finished game accepts no action; scores are never negative.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import Action, decode, encode
from rules.errors import RuleError
from rules.games.registry import GAMES
from rules.match import MatchState, StartMatch
from rules.replay import GameSession, Session, StartGame, apply_session, replay, start_session
from tests.strategies import any_action

STARTS = ("match.start", "game.start")
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _starts() -> st.SearchStrategy[Action]:
    games = st.builds(StartGame, game=st.sampled_from(sorted(GAMES)), level=st.just(4))
    matches = st.builds(StartMatch, round=st.integers(min_value=1, max_value=8))
    return st.one_of(games, matches)


def _drive(start: Action, actions: list[Action]) -> tuple[Session, list[Action]]:
    session = start_session(start)
    accepted = [start]
    for action in actions:
        try:
            session = apply_session(session, action)
        except RuleError:
            continue
        accepted.append(action)
    return session, accepted


def _scores_non_negative(session: Session) -> bool:
    if isinstance(session, MatchState):
        return all(points >= 0 for game in session.played for points in game.points)
    return True


@FUZZ
@given(start=_starts(), actions=st.lists(any_action(exclude=STARTS), max_size=60))
def test_random_action_streams_raise_only_rule_errors(start: Action, actions: list[Action]) -> None:
    session, _ = _drive(start, actions)  # any other exception fails the test
    assert _scores_non_negative(session)


@FUZZ
@given(start=_starts(), actions=st.lists(any_action(exclude=STARTS), max_size=60))
def test_replaying_the_accepted_log_rebuilds_the_same_state(
    start: Action, actions: list[Action]
) -> None:
    live, accepted = _drive(start, actions)
    log = [decode(json.loads(json.dumps(encode(action)))) for action in accepted]
    assert replay(log) == live


@FUZZ
@given(
    start=_starts(),
    actions=st.lists(any_action(exclude=STARTS), max_size=60),
    extra=any_action(exclude=STARTS),
)
def test_a_finished_game_accepts_no_action(
    start: Action, actions: list[Action], extra: Action
) -> None:
    session, _ = _drive(start, actions)
    if isinstance(session, GameSession) and session.state.result is not None:
        try:
            apply_session(session, extra)
        except RuleError:
            return
        raise AssertionError(f"a finished game accepted {extra.kind}")
