"""One card, one story, over random games (issue 26): once a game has a result, no part of the
record the score card prints contradicts it, and the hub is sent the same.

- every declared win's fate is the one the result tells: it stood or was confirmed only for a
  goal result the declarer won (or tied), went to the challenger only for that challenger's
  challenged win, by a Correct challenge of the challenger's; a goal result rests on a
  declaration that stood or was confirmed, a challenged win on one that went to the challenger
  (R980, R981);
- Fab-a-Diffy's games won, as the card and the ``game_over`` count them, give the result's
  winner whenever the result counts games (R982), a third I/IA's among them (R996);
- the ``game_over`` the table sends passes the hub's own check of a result (R269, R340), and the
  standings points each card prints are those the hub counts for it (R985);
- each card says the result's own outcome for its player.
"""

from __future__ import annotations

import contextlib
import re
from html import unescape
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_py.director.hub.wire.apply_pentathlon import _reported, _zero_points
from firmware_py.families.pentathlon.card import card_html
from firmware_py.families.pentathlon.view import report
from rules.actions import Action
from rules.errors import RuleError
from rules.pentathlon.catalogue import Game, Ruling
from rules.pentathlon.fab_a_diffy import FabBoard, ShowStrip, TakeTrick, overall
from rules.pentathlon.juggle import CountEmpty
from rules.pentathlon.monitor import PentathlonGame, apply
from rules.pentathlon.monitor import start as begin
from rules.pentathlon.monitor_actions import (
    Begins,
    Challenge,
    Confirm,
    DeclareWin,
    Opinion,
    PassFlag,
    Rule,
    StartPentathlon,
    TimeCalled,
)
from rules.pentathlon.players import Player
from rules.pentathlon.record import record
from rules.pentathlon.registry import game_rules
from rules.tournament.pentathlon import GameResult, PentathlonPoints, Seat
from rules.tournament.pentathlon_check import check_result
from tests.soak import sized
from tests.test_pentathlon_properties import (
    FUZZ,
    _drive,
    _moves,
    _start,
    games,
    players,
    rulings,
)

OUTCOMES = {"win": "WIN", "tie": "TIE", "loss": "LOSS"}
STOOD = ("standing", "confirmed")


FINISHING_STEPS = 40


def _finishing(state: PentathlonGame) -> Action:
    """The next action of a game played to its end: time called, a pending ruling ruled
    Inappropriate, the holder's turn passed, Juggle's count, the result confirmed."""
    play = state.play
    if play is not None and not play.time_called and state.phase != "challenge":
        return TimeCalled()
    if state.phase == "challenge":
        return Rule(Ruling.INAPPROPRIATE)
    if state.phase == "counting":
        return CountEmpty(2, 7)
    if state.phase == "play" and play is not None:
        return PassFlag(play.holder)
    return Confirm()


def _confirmed(start: StartPentathlon, stream: list[Action]) -> tuple[PentathlonGame, ...]:
    """The game's states before and after the monitor confirms its result, once the random
    stream is played and the game played on to its end; () if it has none."""
    states, _ = _drive(start, stream)
    for _ in range(FINISHING_STEPS):
        if states[-1].result is not None or states[-1].play is None:
            break
        try:
            states.append(apply(states[-1], _finishing(states[-1])))
        except RuleError:
            break
    if states[-1].result is None:
        return ()
    before = next(state for state in reversed(states) if state.result is None)
    return before, states[-1]


def _game_over(before: PentathlonGame, after: PentathlonGame) -> dict[str, Any]:
    (over,) = [fields for name, fields in report(before, after).events if name == "game_over"]
    return over


def _check_fates(data: dict[str, Any]) -> None:
    result = data["result"]
    winner, how = result["winner"], result["how"]
    numbered = {c["number"]: c for c in data["challenges"]}
    for d in data["declarations"]:
        if d["fate"] in STOOD:
            assert how == "goal" and winner in (None, d["player"]), (d, result)
        if d["fate"] == "confirmed":
            assert numbered[d["challenge"]]["ruling"] == "I", d
        if d["fate"] == "to-challenger":
            assert how == "challenged-win" and winner not in (None, d["player"]), (d, result)
            ruling = numbered[d["challenge"]]
            assert (ruling["ruling"], ruling["challenger"]) == ("C", winner), (d, ruling)
    fates = [(d["player"], d["fate"]) for d in data["declarations"]]
    if how == "goal":
        for player in [winner] if winner else ["A", "B"]:
            assert any(p == player and fate in STOOD for p, fate in fates), (fates, result)
    if how == "challenged-win":
        assert any(p != winner and fate == "to-challenger" for p, fate in fates), (fates, result)


def _check_games_won(data: dict[str, Any], over: dict[str, Any]) -> None:
    """Fab-a-Diffy: the games counted give the result's winner where the result counts games,
    a third I/IA's loss among them (R996)."""
    result = data["result"]
    games_counted = ("award", "time-limit", "three-i-ia")
    if data["game"] != Game.FAB_A_DIFFY.value or result["how"] not in games_counted:
        return
    games = tuple(None if g == "tie" else Player(g) for g in data["scores"]["games"])
    counted = overall(games).winner
    assert (counted.value if counted else None) == result["winner"], (games, result)
    won = {side: sum(g is Player(side) for g in games) for side in ("A", "B")}
    assert over["scores"] == won


def _cards(html: str) -> list[str]:
    parts = re.split(r'<section class="card[^"]*">', html)[1:]
    return [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", part))) for part in parts]


# enough stories that a contradiction the issue found turns up (each is in 1 story of 15 or so)
STORIES = settings(
    max_examples=sized(ci=200, soak=800),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# every game, those whose results the issue found contradicted twice as often
STORY_GAMES = [*Game, Game.FAB_A_DIFFY, Game.JUGGLE, Game.CONTIG_60]


def _challenge_keys(game: Game) -> list[str]:
    """The game's challengeable rules, its goal rules twice as likely (declared wins)."""
    rules = game_rules(game).challenge_rules
    return [rule.key for rule in rules] + [rule.key for rule in rules if rule.goal] * 2


@st.composite
def stories(draw: st.DrawFn) -> tuple[StartPentathlon, list[Action]]:
    """A game played toward declared wins and their challenges: the holder moves, passes or
    declares, either player challenges (often the goal's rules), each record is ruled, opinions
    change rulings; every action drawn is one the phase may take. Time is called once the story
    is told (``_finishing``)."""
    game = draw(st.sampled_from(STORY_GAMES))
    start = _start(game)
    state = begin(start)
    tried: list[Action] = [Begins(draw(players))]
    state = apply(state, tried[0])
    goals = list(game_rules(game).goals)
    keys = _challenge_keys(game)
    for _ in range(draw(st.integers(3, 30))):
        if state.result is not None:
            break
        phase, play = state.phase, state.play
        assert play is not None
        challenge = st.builds(
            Challenge,
            players,
            st.lists(st.sampled_from(keys), min_size=1, max_size=2, unique=True).map(tuple),
        )
        latest = max(1, len(state.challenges))
        opinion = st.builds(Opinion, st.integers(max(1, latest - 1), latest), players, rulings)
        if phase == "challenge":
            action = draw(st.one_of(st.builds(Rule, rulings), opinion))
        elif phase in ("result", "counting"):
            action = draw(st.one_of(challenge, opinion, *_moves(game)))
        else:
            declare = (
                [st.builds(DeclareWin, st.just(play.holder), st.sampled_from(goals), st.booleans())]
                if goals
                else []
            )
            passes = st.just(PassFlag(play.holder))
            tricks = [st.just(TakeTrick() if play.played else ShowStrip())] * 3  # a trick a turn
            more = tricks if isinstance(play.board, FabBoard) else []
            action = draw(st.one_of(passes, *declare, *declare, challenge, *_moves(game), *more))
        tried.append(action)
        with contextlib.suppress(RuleError):
            state = apply(state, action)
    return start, tried


@STORIES
@given(game=stories())
def test_no_part_of_a_decided_game_s_card_contradicts_its_result(
    game: tuple[StartPentathlon, list[Action]],
) -> None:
    confirmed = _confirmed(*game)
    if not confirmed:
        return
    before, after = confirmed
    data = record(after)
    over = _game_over(before, after)
    _check_fates(data)
    _check_games_won(data, over)
    seat = Seat(1, 1, after.settings.game, "Ann", "Ben")
    stored = GameResult(seat, *_reported(over), _zero_points(over))
    check_result(stored)  # the hub takes it as the rules decided it
    for side, card in zip(("A", "B"), _cards(card_html(data)), strict=True):
        assert OUTCOMES[data["players"][side]["result"]] in card
        worth = stored.points_of(side, PentathlonPoints())
        assert f"this game is worth {worth} point" in card, (side, worth)


def test_a_random_game_reaches_a_confirmed_result_often_enough() -> None:
    """The property above is about decided games: the generator must reach them. Drawn the
    same way every run (derandomized): a share of random draws is a figure, and a test of a
    figure drawn afresh each run fails now and then by chance alone."""
    found = []

    @settings(FUZZ, derandomize=True, max_examples=100)
    @given(game=st.one_of(games(), stories()))
    def decided(game: tuple[StartPentathlon, list[Action]]) -> None:
        found.append(bool(_confirmed(*game)))

    decided()
    assert sum(found) >= len(found) // 2, f"{sum(found)} of {len(found)} games decided"
