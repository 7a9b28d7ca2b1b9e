"""Replay: a JSON Lines log of actions rebuilds the same state and result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.judge.demo import example_log, narrate
from rules.actions import decode, encode
from rules.errors import IllegalAction, InvalidInput, InvalidLog
from rules.geoplunge.championship import ChampionshipState
from rules.geoplunge.match import MatchState, NextGame, StartMatch
from rules.geoplunge.match3 import Match3State
from rules.geoplunge.replay import (
    GameSession,
    StartGame,
    apply_session,
    replay,
    replay_log,
    start_session,
    summary,
)
from rules.geoplunge.teams import Team
from rules.log import dump_log, parse_log

EXAMPLE = Path(__file__).resolve().parents[1] / "firmware_py/judge/examples/combo4-match.jsonl"


def test_example_match_replays_to_its_result() -> None:
    result = summary(replay_log(example_log()))
    assert result["over"] is True
    assert result["scores"] == {"A": 40, "B": 50}
    assert result["winner"] == "B"
    assert [game["game"] for game in result["games"]] == [1, 2, 3, 4, 5, 1]


def test_example_match_plays_every_game_of_the_all_rotation() -> None:
    result = summary(replay_log(example_log()))
    assert [game["result"] is not None for game in result["games"]] == [True] * 5 + [False]


def test_game4_lead_in_an_all_match_is_the_dashing_states_winner() -> None:
    actions = parse_log(example_log())
    session = start_session(actions[0])
    for action in actions[1:]:
        session = apply_session(session, action)
        if isinstance(session, MatchState) and session.current_number == 4:
            assert session.current.context.lead is Team.A
            return
    raise AssertionError("the example never reached Game 4")


def test_game4_first_in_a_call_match_needs_a_statehood_draw() -> None:
    log = [
        StartMatch(round=2),
        decode({"action": "match.picks", "a": [4, 5], "b": [5, 4]}),
        NextGame(),
        decode({"action": "game4.version", "version": "ptb"}),
    ]
    session = replay(log)
    assert isinstance(session, MatchState)
    assert session.current.phase == "statehood_draw"


def test_replaying_twice_gives_equal_states() -> None:
    assert replay_log(example_log()) == replay_log(example_log())


def test_dumped_log_replays_to_the_same_state() -> None:
    actions = parse_log(example_log())
    assert replay_log(dump_log(actions).splitlines()) == replay(actions)


def test_a_single_game_log_starts_with_game_start() -> None:
    lines = [
        '{"action": "game.start", "game": 1}',
        '{"action": "plunge", "plunging": ["A", "B"]}',
        '{"action": "border_up.shout", "shouters": ["B"], "three_o": []}',
        '{"action": "border_up.verdict", "team": "B", "valid": false}',
    ]
    result = summary(replay_log(lines))
    assert result["result"]["winner"] == "A"
    assert result["points"] == {"A": 40, "B": 0}


def test_an_empty_log_is_refused() -> None:
    with pytest.raises(InvalidLog, match="empty"):
        replay_log(["", "  "])


def test_a_log_must_start_with_a_start_action() -> None:
    with pytest.raises(InvalidLog, match="starts with"):
        replay_log(['{"action": "match.time_up"}'])


def test_a_start_action_only_starts_a_log() -> None:
    with pytest.raises(InvalidLog, match="only starts"):
        apply_session(start_session(StartGame(game=1)), StartGame(game=2))


def test_a_line_that_is_not_json_is_named() -> None:
    with pytest.raises(InvalidLog, match="line 2: not JSON"):
        replay_log(['{"action": "game.start", "game": 1}', "{oops"])


def test_an_unknown_action_is_named_with_its_line() -> None:
    with pytest.raises(InvalidLog, match="line 2: unknown action 'dance'"):
        replay_log(['{"action": "game.start", "game": 1}', '{"action": "dance"}'])


def test_a_field_of_the_wrong_type_is_named() -> None:
    with pytest.raises(InvalidLog, match=r"border_up.verdict.valid: expected true or false"):
        decode({"action": "border_up.verdict", "team": "A", "valid": "yes"})


def test_an_unknown_field_is_named() -> None:
    with pytest.raises(InvalidLog, match="unknown field"):
        decode({"action": "match.time_up", "when": 3})


def test_a_missing_field_is_named() -> None:
    with pytest.raises(InvalidLog, match="missing field 'team'"):
        decode({"action": "border_up.verdict", "valid": True})


def test_a_refused_action_is_named_with_its_position() -> None:
    with pytest.raises(IllegalAction, match=r"action 2 \(match.time_up\)"):
        replay_log(['{"action": "game.start", "game": 1}', '{"action": "match.time_up"}'])


def test_game_numbers_are_one_to_five() -> None:
    with pytest.raises(InvalidInput, match="game 6"):
        start_session(StartGame(game=6))


def test_replay_cli_prints_the_final_result_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["winner"], result["scores"]) == ("B", {"A": 40, "B": 50})


def test_replay_cli_bad_log_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"action": "game.start", "game": 1}\n{"action": "plunge", "plunging": ["C"]}\n')
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "line 2" in err and "plunge.plunging[0]" in err


def test_demo_narrates_the_example_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert narrate() == 0
    out = capsys.readouterr().out
    assert "Match over: team B wins, A 40 - B 50." in out
    assert "shuffle: GeoPlunge, Power cards" in out


def test_single_game_session_summary_before_the_result() -> None:
    session = start_session(StartGame(game=5))
    assert isinstance(session, GameSession)
    assert summary(session)["result"] is None


ACTIONS_DOC = Path(__file__).resolve().parents[1] / "docs/actions.md"
GAME_OF_PREFIX = {"border_up": 1, "state_iq": 2, "dashing": 3, "game4": 4, "chummy": 5}


def _documented_examples(fence: str = "jsonl") -> list[list[str]]:
    """The blocks fenced exactly ``fence``: ``jsonl`` for the Level 4 games' actions, replayed
    after a guessed ``game.start``; ``jsonl level=3`` for the Level 3 logs, each complete."""
    import re

    pattern = f"```{re.escape(fence)}\n(.*?)```"
    blocks = re.findall(pattern, ACTIONS_DOC.read_text(encoding="utf-8"), re.S)
    return [block.strip().splitlines() for block in blocks]


def test_docs_give_one_example_per_game_at_least() -> None:
    prefixes = {
        json.loads(line)["action"].split(".")[0]
        for lines in _documented_examples()
        for line in lines
        if "." in json.loads(line)["action"]
    }
    assert prefixes == set(GAME_OF_PREFIX)


@pytest.mark.parametrize("lines", _documented_examples())
def test_every_documented_example_replays_to_a_finished_game(lines: list[str]) -> None:
    kinds = [json.loads(line)["action"] for line in lines]
    prefix = next(kind.split(".")[0] for kind in kinds if "." in kind)
    start = json.dumps({"action": "game.start", "game": GAME_OF_PREFIX[prefix], "lead": "A"})
    session = replay_log([start, *lines])
    assert isinstance(session, GameSession)
    assert session.state.result is not None


LEVEL_3_FENCE = "jsonl level=3"


def test_docs_give_one_complete_log_per_level_3_game_and_format() -> None:
    starts = [json.loads(lines[0]) for lines in _documented_examples(LEVEL_3_FENCE)]
    games = sorted(start["game"] for start in starts if start["action"] == "game.start")
    assert games == [1, 2, 3, 4, 5]
    assert all(start.get("level", 3) == 3 for start in starts)
    kinds = {start["action"] for start in starts}
    assert kinds == {"game.start", "match3.start", "championship.start"}


@pytest.mark.parametrize("lines", _documented_examples(LEVEL_3_FENCE))
def test_every_documented_level_3_log_replays_to_its_end(lines: list[str]) -> None:
    session = replay_log(lines)
    assert [json.dumps(encode(action)) for action in parse_log(lines)] == lines
    if isinstance(session, GameSession):
        assert (session.level, session.state.result is not None) == (3, True)
    else:
        assert isinstance(session, Match3State | ChampionshipState)
        assert session.over
