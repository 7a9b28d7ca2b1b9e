"""Level 3 in the registry and the replay: games by level, Combo 3 and championship logs."""

from __future__ import annotations

import json

import pytest

from rules.actions import decode, encode
from rules.errors import IllegalAction, InvalidInput, InvalidLog
from rules.geoplunge.championship import ChampionshipState, StartChampionship
from rules.geoplunge.games.border_up import BorderUpRules
from rules.geoplunge.games.level3.border_up import BorderUpLevel3
from rules.geoplunge.games.level3.state_iq import StateIQLevel3State
from rules.geoplunge.games.registry import GAMES, LEVEL_3_GAMES, check_level, game_rules
from rules.geoplunge.match import NextGame, StartMatch, TimeUp
from rules.geoplunge.match3 import Match3State, StartMatch3
from rules.geoplunge.replay import (
    GameSession,
    StartGame,
    apply_any_session,
    apply_session,
    replay,
    replay_any,
    replay_log,
    start_any_session,
    start_session,
    summary,
)
from rules.geoplunge.teams import Team

# The registry by level


def test_game_rules_default_to_level_4() -> None:
    assert isinstance(game_rules(1), BorderUpRules)
    assert not isinstance(game_rules(1), BorderUpLevel3)
    assert game_rules(4) is GAMES[4]


def test_level_3_games_are_numbered_1_to_5_like_the_rulebook() -> None:
    assert sorted(LEVEL_3_GAMES) == [1, 2, 3, 4, 5]
    assert [game_rules(n, level=3).title for n in range(1, 6)] == [
        game_rules(n).title for n in range(1, 6)
    ]
    assert isinstance(game_rules(1, level=3), BorderUpLevel3)


def test_an_unknown_level_is_one_line_of_invalid_input() -> None:
    with pytest.raises(InvalidInput, match=r"^level 2: expected 3 or 4$"):
        game_rules(1, level=2)
    with pytest.raises(InvalidInput, match="level 5"):
        check_level(5)


def test_a_level_3_game_number_is_1_to_5() -> None:
    with pytest.raises(InvalidInput, match="game 6"):
        game_rules(6, level=3)


# game.start honours its level


def test_game_start_at_level_3_plays_the_level_3_game() -> None:
    session = start_session(StartGame(game=2, level=3))
    assert isinstance(session, GameSession)
    assert (session.level, type(session.state)) == (3, StateIQLevel3State)


def test_game_start_at_an_unknown_level_is_refused() -> None:
    with pytest.raises(InvalidInput, match="level 7"):
        start_session(StartGame(game=1, level=7))


def test_a_level_3_game_log_replays_with_its_level() -> None:
    lines = [
        '{"action": "game.start", "game": 1, "level": 3, "lead": null}',
        '{"action": "plunge", "plunging": ["A"]}',
        '{"action": "border_up.shout", "shouters": ["A"], "three_o": []}',
        '{"action": "border_up.show", "team": "A", "groups": [["MD", "VA", "NC"], '
        '["TX", "OK", "KS"]], "hand": []}',
    ]
    result = summary(replay_log(lines))
    assert (result["level"], result["result"]["winner"], result["points"]) == (
        3,
        "A",
        {"A": 20, "B": 0},
    )


def test_the_same_showing_fails_at_level_4() -> None:
    lines = [
        '{"action": "game.start", "game": 1, "level": 4}',
        '{"action": "plunge", "plunging": []}',
        '{"action": "border_up.shout", "shouters": ["A"], "three_o": []}',
        '{"action": "border_up.show", "team": "A", "groups": [["MD", "VA", "NC"], '
        '["TX", "OK", "KS"]], "hand": []}',
    ]
    assert summary(replay_log(lines))["result"]["winner"] == "B"


# Combo 3 and championship logs


def test_a_match3_log_replays_and_summarises() -> None:
    lines = [
        json.dumps(encode(StartMatch3(round=2))),
        '{"action": "match.next_game"}',
        '{"action": "match.time_up"}',
    ]
    session = replay_log(lines)
    assert isinstance(session, Match3State)
    result = summary(session)
    assert (result["combo"], result["part"], result["minutes"], result["cycle"]) == (
        3,
        "morning",
        20,
        [1, 2, 3, 4, 5],
    )
    assert (result["over"], result["tie"], result["games"][0]["result"]) == (True, True, None)


def test_a_championship_log_replays_and_summarises() -> None:
    session = replay_any([StartChampionship(games=(1, 2)), NextGame()])
    assert isinstance(session, ChampionshipState)
    result = summary(session)
    assert (result["championship"], result["order"], result["phase"]) == (True, [1, 2], "in_game")
    assert (result["wins"], result["champion"]) == ({"A": 0, "B": 0}, None)


def test_replay_any_equals_replay_for_combo_4_logs() -> None:
    actions = [StartMatch(round=1), NextGame(), TimeUp()]
    assert replay_any(actions) == replay(actions)


def test_the_table_sessions_refuse_a_combo_3_log() -> None:
    with pytest.raises(InvalidLog, match="starts a Combo 3 log"):
        start_session(StartMatch3(round=1))
    with pytest.raises(InvalidLog, match="starts a Combo 3 log"):
        replay([StartChampionship()])


def test_a_start_action_only_starts_a_log() -> None:
    session = start_any_session(StartMatch3(round=1))
    with pytest.raises(InvalidLog, match="only starts"):
        apply_any_session(session, StartChampionship())
    with pytest.raises(InvalidLog, match="only starts"):
        apply_session(start_session(StartGame(game=1)), StartMatch3(round=1))


def test_a_log_must_start_with_a_start_action() -> None:
    with pytest.raises(InvalidLog, match=r"match3\.start, championship\.start or game\.start"):
        replay_log(['{"action": "match.next_game"}'])


def test_refused_combo_3_actions_are_named_with_their_position() -> None:
    lines = ['{"action": "match3.start", "round": 1}', '{"action": "draw_winner", "first": "A"}']
    with pytest.raises(IllegalAction, match=r"action 2 \(draw_winner\): round 1 is a morning"):
        replay_log(lines)


def test_the_afternoon_draw_winner_is_in_the_summary() -> None:
    session = replay_any([StartMatch3(round=7)])
    session = apply_any_session(session, decode({"action": "draw_winner", "first": "B"}))
    assert summary(session)["chooser"] == Team.B.value
