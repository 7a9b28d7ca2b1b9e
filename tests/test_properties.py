"""Properties of the whole rules core, over random action streams.

- No action sequence raises anything but the typed rule errors.
- Replaying the log of accepted actions rebuilds an equal state.
- A finished game accepts no action; scores are never negative.

Every session a log can start is fuzzed: one game at Level 4 or 3, a Combo 4 match, a Combo 3
match and the Combo 3 championship.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import Action, action_class, decode, encode, known_kinds
from rules.errors import RuleError
from rules.geoplunge.championship import StartChampionship
from rules.geoplunge.games.play_the_ranks import TurnPowerCards
from rules.geoplunge.games.registry import GAMES, LEVEL_3_GAMES
from rules.geoplunge.match import MatchState, StartMatch
from rules.geoplunge.match3 import Match3State, StartMatch3
from rules.geoplunge.power import BASES
from rules.geoplunge.replay import (
    AnySession,
    GameSession,
    StartGame,
    apply_any_session,
    replay_any,
    start_any_session,
)
from tests.soak import sized
from tests.strategies import any_action, for_action

STARTS = ("match.start", "game.start", "match3.start", "championship.start")
FUZZ = settings(
    max_examples=sized(ci=75, soak=300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
GUIDED_FUZZ = settings(FUZZ, max_examples=sized(ci=25, soak=100))
# A guided fuzz reaches deeper into the Level 3 sessions: each action is drawn from the kinds
# the session could take now (the game in progress' kinds, or the match's between games).
GAME_PREFIXES: dict[int, tuple[str, ...]] = {
    1: ("border_up.",),
    2: ("state_iq.",),
    3: ("dashing.",),
    4: ("game4.",),
    5: ("chummy.", "l3.chummy."),
}
SHARED_KINDS = ("plunge", "statehood_draw", "draw_winner")
BETWEEN_GAMES_KINDS = (
    "match.next_game",
    "match.time_up",
    "match3.afternoon_picks",
    "statehood_draw",
    "draw_winner",
)


def _starts() -> st.SearchStrategy[Action]:
    games = st.builds(StartGame, game=st.sampled_from(sorted(GAMES)), level=st.just(4))
    level_3_games = st.builds(
        StartGame, game=st.sampled_from(sorted(LEVEL_3_GAMES)), level=st.just(3)
    )
    matches = st.builds(StartMatch, round=st.integers(min_value=1, max_value=8))
    combo_3 = st.builds(StartMatch3, round=st.integers(min_value=1, max_value=8))
    championships = st.one_of(
        st.just(StartChampionship()),
        st.permutations([1, 2, 3, 4, 5]).flatmap(
            lambda games: st.integers(1, 5).map(lambda n: StartChampionship(tuple(games[:n])))
        ),
    )
    return st.one_of(games, level_3_games, matches, combo_3, championships)


def _level_3_starts() -> st.SearchStrategy[Action]:
    return st.one_of(
        st.builds(StartGame, game=st.sampled_from(sorted(LEVEL_3_GAMES)), level=st.just(3)),
        st.builds(StartMatch3, round=st.integers(min_value=1, max_value=8)),
        st.just(StartChampionship()),
    )


def _kinds_for(session: AnySession) -> tuple[str, ...]:
    number = session.number if isinstance(session, GameSession) else session.current_number
    if number is None:
        return BETWEEN_GAMES_KINDS
    kinds = [
        kind
        for kind in known_kinds()
        if kind in SHARED_KINDS or kind.startswith(GAME_PREFIXES[number])
    ]
    return tuple(kinds)


def _action_of(kind: str) -> st.SearchStrategy[Action]:
    """Any action of ``kind``; Power cards with bases only, or the Level 3 games stall there."""
    if kind == "game4.power_cards":
        bases = st.lists(st.sampled_from(BASES), min_size=1, max_size=3).map(tuple)
        return st.builds(TurnPowerCards, bases)
    return for_action(action_class(kind))


def _drive(start: Action, actions: list[Action]) -> tuple[AnySession, list[Action]]:
    session = start_any_session(start)
    accepted = [start]
    for action in actions:
        try:
            session = apply_any_session(session, action)
        except RuleError:
            continue
        accepted.append(action)
    return session, accepted


def _scores_non_negative(session: AnySession) -> bool:
    if isinstance(session, MatchState | Match3State):
        return all(points >= 0 for game in session.played for points in game.points)
    return True


def _finished(session: AnySession) -> bool:
    if isinstance(session, GameSession):
        return session.state.result is not None
    return session.over


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
    assert replay_any(log) == live


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
    if _finished(session):
        try:
            apply_any_session(session, extra)
        except RuleError:
            return
        raise AssertionError(f"a finished session accepted {extra.kind}")


@GUIDED_FUZZ
@given(start=_level_3_starts(), data=st.data())
def test_guided_level_3_streams_raise_only_rule_errors_and_replay_to_the_same_state(
    start: Action, data: st.DataObject
) -> None:
    live = start_any_session(start)
    accepted = [start]
    for _ in range(150):
        if _finished(live):
            break
        kind = data.draw(st.sampled_from(_kinds_for(live)))
        action = data.draw(_action_of(kind))
        try:
            live = apply_any_session(live, action)
        except RuleError:
            continue
        accepted.append(action)
    assert _scores_non_negative(live)
    log = [decode(json.loads(json.dumps(encode(action)))) for action in accepted]
    assert replay_any(log) == live
