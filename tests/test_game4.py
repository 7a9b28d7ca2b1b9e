"""Game 4 (Level 4): the version choice, delegation, the action log and robustness."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.actions import Action, decode, encode
from rules.atlas import Category, default_atlas
from rules.errors import GameOver, IllegalAction, RuleError
from rules.geoplunge.games.border_zap import BorderZapState, ZapHands, ZapPhase, ZapResult, ZapTrick
from rules.geoplunge.games.common import (
    DeclarePlunge,
    DrawWinner,
    GameContext,
    GameRules,
    StatehoodDraw,
)
from rules.geoplunge.games.game4 import ChooseVersion, Game4Rules, Game4State
from rules.geoplunge.games.play_the_ranks import (
    AnnounceRole,
    BurDealt,
    DealBur,
    DeclarePull,
    KeepBases,
    PlayRanksTrick,
    PlayTheRanksState,
    RanksPhase,
    Role,
    SetGeoStar,
    StarArea,
    TrickResult,
    TurnPowerCards,
    UpTheBur,
)
from rules.geoplunge.power import BASES, Game4Version
from rules.geoplunge.teams import Team
from tests.soak import sized

RULES = Game4Rules()
A, B = Team.A, Team.B
NOBODY: frozenset[Team] = frozenset()
ACTIONS_DOC = Path(__file__).parent.parent / "docs" / "actions.md"

_protocol_check: GameRules[Game4State] = RULES  # mypy: Game4Rules is a GameRules


def _apply(state: Game4State, *actions: Action) -> Game4State:
    for action in actions:
        state = RULES.apply(state, action)
    return state


def _documented_games() -> list[list[dict[str, Any]]]:
    blocks = re.findall(r"```jsonl\n(.*?)```", ACTIONS_DOC.read_text(encoding="utf-8"), re.S)
    games = [[json.loads(line) for line in block.splitlines()] for block in blocks]
    return [game for game in games if game[0]["action"] == "game4.version"]


def _documented_game(version: str, trick_kind: str) -> list[Action]:
    """The one documented Game 4 example of ``version`` whose tricks are ``trick_kind``."""
    (game,) = [
        game
        for game in _documented_games()
        if game[0]["version"] == version and any(line["action"] == trick_kind for line in game)
    ]
    return [decode(line) for line in game]


# The version


def test_game_4_is_number_4() -> None:
    assert (RULES.number, RULES.key, RULES.title) == (4, "game4", "Play the Ranks or Border Zap")


def test_game_starts_by_turning_a_power_card_for_the_version() -> None:
    state = RULES.start(GameContext(lead=A))
    assert (state.phase, state.version, state.result, state.plunging) == (
        "version",
        None,
        None,
        None,
    )
    assert state.lead is A


@pytest.mark.parametrize("version", [Game4Version.PTR1, Game4Version.PTR2])
def test_play_the_ranks_versions_start_with_the_power_cards(version: Game4Version) -> None:
    state = RULES.apply(RULES.start(GameContext(lead=A)), ChooseVersion(version))
    assert isinstance(state.inner, PlayTheRanksState)
    assert (state.version, state.phase) == (version, RanksPhase.POWER_CARDS)


def test_border_zap_version_starts_with_the_plunge() -> None:
    state = RULES.apply(RULES.start(GameContext(lead=B)), ChooseVersion(Game4Version.PTB))
    assert isinstance(state.inner, BorderZapState)
    assert (state.version, state.phase, state.lead) == (Game4Version.PTB, ZapPhase.PLUNGE, B)


def test_without_a_lead_the_version_is_followed_by_the_dealers_draw_winner() -> None:
    state = RULES.apply(RULES.start(GameContext()), ChooseVersion(Game4Version.PTR1))
    state = RULES.apply(state, DrawWinner(first=B))
    assert (state.lead, state.phase) == (B, RanksPhase.POWER_CARDS)


def test_draw_winner_before_the_version_is_refused() -> None:
    with pytest.raises(IllegalAction, match=r"'draw_winner' before the version"):
        RULES.apply(RULES.start(GameContext()), DrawWinner(first=A))


def test_the_wrapper_forwards_zap_results() -> None:
    state = _apply(
        RULES.start(GameContext(lead=A)),
        ChooseVersion(Game4Version.PTB),
        DeclarePlunge(NOBODY),
        ZapResult(B),
    )
    assert (state.tricks_won.a, state.tricks_won.b, state.lead) == (0, 1, B)


def test_without_a_lead_the_version_is_followed_by_a_statehood_draw() -> None:
    state = RULES.apply(RULES.start(GameContext()), ChooseVersion(Game4Version.PTB))
    assert state.phase == "statehood_draw"
    state = RULES.apply(state, StatehoodDraw(a="HI", b="DE"))
    assert state.lead is B


def test_nothing_is_played_before_the_version() -> None:
    with pytest.raises(IllegalAction, match=r"expected game4\.version"):
        RULES.apply(RULES.start(GameContext(lead=A)), DeclarePlunge(NOBODY))


def test_the_version_is_chosen_once() -> None:
    state = RULES.apply(RULES.start(GameContext(lead=A)), ChooseVersion(Game4Version.PTB))
    with pytest.raises(IllegalAction, match="belongs to phase 'version'"):
        RULES.apply(state, ChooseVersion(Game4Version.PTR1))


def test_actions_of_the_other_version_are_refused() -> None:
    state = RULES.apply(RULES.start(GameContext(lead=A)), ChooseVersion(Game4Version.PTR1))
    with pytest.raises(IllegalAction, match="not a Play the Ranks action"):
        RULES.apply(state, ZapHands(("UT",), ("TX",)))


def test_the_wrapper_shows_the_inner_games_plunge_tricks_and_result() -> None:
    state = _apply(
        RULES.start(GameContext(lead=A)),
        ChooseVersion(Game4Version.PTB),
        DeclarePlunge(frozenset({B})),
        ZapTrick("UT", "TX"),
    )
    assert state.plunging == frozenset({B})
    assert (state.tricks_won.a, state.tricks_won.b, state.lead) == (0, 1, B)


def test_finished_game_rejects_every_action_including_the_version() -> None:
    state = _apply(
        RULES.start(GameContext(lead=A)),
        ChooseVersion(Game4Version.PTB),
        DeclarePlunge(NOBODY),
        *(ZapTrick(lead, other) for lead, other in [("UT", "ME"), ("FL", "NH"), ("AL", "AZ")]),
        *(ZapTrick(lead, other) for lead, other in [("AR", "CA"), ("CO", "CT")]),
    )
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, True)
    for action in (ChooseVersion(Game4Version.PTR1), ZapTrick("DE", "GA")):
        with pytest.raises(GameOver):
            RULES.apply(state, action)


# The documented action log


def test_documented_ptr1_game_replays_to_team_b_winning_5_to_3() -> None:
    ptr1 = _documented_game("ptr1", "game4.trick")
    state = _apply(RULES.start(GameContext(lead=A)), *ptr1)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)
    assert (state.tricks_won.a, state.tricks_won.b) == (3, 5)


def test_documented_border_zap_game_replays_to_team_a_winning_4_to_2() -> None:
    ptb = _documented_game("ptb", "game4.zap_trick")
    state = _apply(RULES.start(GameContext(lead=A)), *ptb)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (A, False)


def test_documented_dealer_judged_ptr2_game_replays_to_team_b_winning_the_last_trick() -> None:
    ptr2 = _documented_game("ptr2", "game4.trick_result")
    state = _apply(RULES.start(GameContext(lead=A)), *ptr2)
    assert state.result is not None
    assert (state.result.winner, state.result.bonus) == (B, False)
    assert "4 tricks each: team B won the last trick" in state.result.reason
    assert isinstance(state.inner, PlayTheRanksState)
    assert state.inner.bur_unknown
    assert (state.inner.power_played.a, state.inner.power_played.b) == (2, 2)


def test_documented_dealer_judged_game_without_a_lead_starts_with_the_draw_winner() -> None:
    version, *rest = _documented_game("ptr2", "game4.trick_result")
    state = _apply(RULES.start(GameContext()), version, DrawWinner(first=A), *rest)
    assert state.result is not None
    assert state.result.winner is B


def test_documented_lines_are_exactly_what_encode_produces() -> None:
    for game in _documented_games():
        for line in game:
            assert encode(decode(line)) == line


# Every action round-trips and no action stream breaks the rules core

CODES = default_atlas().codes
CARD = st.sampled_from(CODES) | st.sampled_from(CODES) | st.text(max_size=6)
CARDS = st.lists(CARD, max_size=7).map(tuple)
BASE = st.sampled_from(BASES) | st.integers(-2, 60)
TEAM = st.sampled_from(list(Team))
CATEGORY = st.sampled_from(list(Category))
ANY_ACTION: st.SearchStrategy[Action] = st.one_of(
    st.builds(ChooseVersion, st.sampled_from(list(Game4Version))),
    st.builds(StatehoodDraw, CARD, CARD),
    st.builds(DeclarePlunge, st.frozensets(TEAM)),
    st.builds(TurnPowerCards, st.lists(BASE, max_size=4).map(tuple)),
    st.builds(AnnounceRole, TEAM, st.sampled_from(list(Role))),
    st.builds(UpTheBur, TEAM, st.integers(0, 7)),
    st.builds(KeepBases, TEAM, st.lists(BASE, max_size=3).map(tuple)),
    st.builds(DealBur, CARDS),
    st.builds(DeclarePull, TEAM, st.booleans()),
    st.builds(SetGeoStar, st.sampled_from(list(StarArea)), st.none() | st.integers(-1, 7)),
    st.builds(
        PlayRanksTrick,
        lead=CARD,
        category=CATEGORY,
        other=CARD,
        base=st.none() | BASE,
        lead_power=st.none() | CATEGORY,
        other_power=st.none() | CATEGORY,
        other_power_base=st.none() | BASE,
        change_base=st.booleans(),
    ),
    st.builds(ZapHands, CARDS, CARDS),
    st.builds(ZapTrick, CARD, CARD),
    st.builds(DrawWinner, TEAM),
    st.builds(BurDealt, st.integers(-1, 7)),
    st.builds(TrickResult, TEAM, st.booleans(), st.booleans()),
    st.builds(ZapResult, TEAM),
)
SET_UP = {
    Game4Version.PTR1: [
        ChooseVersion(Game4Version.PTR1),
        TurnPowerCards((1, 30, 50)),
        AnnounceRole(A, Role.CARDS),
        KeepBases(B, (1, 30)),
        DealBur(("FL", "VA")),
        DeclarePull(B, pulling=False),
        DeclarePull(A, pulling=False),
        DeclarePlunge(NOBODY),
        SetGeoStar(StarArea.CAPITAL),
    ],
    Game4Version.PTB: [ChooseVersion(Game4Version.PTB), DeclarePlunge(NOBODY)],
}
SET_UP[Game4Version.PTR2] = [ChooseVersion(Game4Version.PTR2), *SET_UP[Game4Version.PTR1][1:]]
BUR_NOT_ENTERED = [BurDealt(2) if isinstance(a, DealBur) else a for a in SET_UP[Game4Version.PTR2]]


@given(ANY_ACTION)
def test_every_action_round_trips_through_json(action: Action) -> None:
    assert decode(json.loads(json.dumps(encode(action)))) == action


def _run(state: Game4State, actions: list[Action]) -> None:
    """Apply every action: a refusal is a RuleError, and a finished game refuses with GameOver."""
    for action in actions:
        if state.result is not None:
            with pytest.raises(GameOver):
                RULES.apply(state, action)
            continue
        with contextlib.suppress(RuleError):
            state = RULES.apply(state, action)


@settings(max_examples=sized(ci=50, soak=200))
@given(st.sampled_from([None, A, B]), st.lists(ANY_ACTION, max_size=40))
def test_random_action_streams_only_raise_rule_errors(
    lead: Team | None, actions: list[Action]
) -> None:
    _run(RULES.start(GameContext(lead=lead)), actions)


# Mostly well-formed tricks, Power cards on a quarter of the plays, so that random games
# often reach the end.
RARE_POWER = st.sampled_from([None] * 9 + list(Category))


@st.composite
def _plausible_ranks_trick(draw: st.DrawFn) -> PlayRanksTrick:
    other_power = draw(RARE_POWER)
    power_base = draw(st.none() | st.sampled_from(BASES)) if other_power else None
    return PlayRanksTrick(
        lead=draw(st.sampled_from(CODES)),
        category=draw(CATEGORY),
        other=draw(st.sampled_from(CODES)),
        base=draw(st.sampled_from([None, 1, 30, 50])),
        lead_power=draw(RARE_POWER),
        other_power=other_power,
        other_power_base=power_base,
        change_base=power_base is not None and draw(st.booleans()),
    )


@settings(max_examples=sized(ci=75, soak=300))
@given(
    st.sampled_from([Game4Version.PTR1, Game4Version.PTR2]),
    st.lists(_plausible_ranks_trick(), min_size=8, max_size=40),
)
def test_random_ranks_tricks_after_a_valid_set_up_only_raise_rule_errors(
    version: Game4Version, actions: list[Action]
) -> None:
    _run(_apply(RULES.start(GameContext(lead=A)), *SET_UP[version]), actions)


@given(st.lists(st.builds(ZapTrick, st.sampled_from(CODES), st.sampled_from(CODES)), max_size=20))
def test_random_zap_tricks_after_a_valid_set_up_only_raise_rule_errors(
    actions: list[Action],
) -> None:
    _run(_apply(RULES.start(GameContext(lead=A)), *SET_UP[Game4Version.PTB]), actions)


# Result-only tricks (the table's buttons), often with Power cards, mixed with card-level ones
RESULT_ONLY = st.builds(TrickResult, TEAM, st.booleans(), st.booleans())


@settings(max_examples=sized(ci=50, soak=200))
@given(
    st.booleans(),
    st.lists(RESULT_ONLY | _plausible_ranks_trick(), min_size=8, max_size=30),
)
def test_result_only_tricks_mixed_with_card_level_ones_only_raise_rule_errors(
    bur_entered: bool, actions: list[Action]
) -> None:
    set_up = SET_UP[Game4Version.PTR2] if bur_entered else BUR_NOT_ENTERED
    _run(_apply(RULES.start(GameContext(lead=A)), *set_up), actions)


@settings(max_examples=sized(ci=50, soak=200))
@given(st.lists(st.builds(TrickResult, TEAM, st.booleans(), st.booleans()), max_size=12))
def test_result_only_games_keep_their_tallies_consistent(actions: list[TrickResult]) -> None:
    state = _apply(RULES.start(GameContext(lead=A)), *BUR_NOT_ENTERED)
    for action in actions:
        if state.result is not None:
            break
        with contextlib.suppress(IllegalAction):
            state = RULES.apply(state, action)
    inner = state.inner
    assert isinstance(inner, PlayTheRanksState)
    assert inner.tricks_won.a + inner.tricks_won.b == len(inner.tricks) <= 8
    for team in Team:
        assert 0 <= inner.power_cards_left(team) == 2 - inner.power_played[team]
    if inner.tricks:
        assert inner.lead is inner.tricks[-1].winner
    assert (inner.result is not None) == (inner.phase is RanksPhase.OVER)
