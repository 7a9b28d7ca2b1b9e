"""Properties of the Pentathlon monitor over random games, every game:

- no action stream raises anything but the typed rule errors;
- replaying the log of accepted actions rebuilds the same state and the same record;
- once play has resumed, a ruling never changes;
- three I/IA in force always end the game as a loss for that player.
"""

from __future__ import annotations

import functools
import itertools
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import Action, decode, encode
from rules.errors import RuleError
from rules.pentathlon.catalogue import NOT_CHALLENGEABLE, Game, Ruling
from rules.pentathlon.contig import ContigCapture, ContigPlay
from rules.pentathlon.fab_a_diffy import CaptureTimeout, CaptureTrick, DeckOut, ShowStrip, TakeTrick
from rules.pentathlon.juggle import CountEmpty
from rules.pentathlon.log import replay
from rules.pentathlon.monitor import PentathlonGame, apply
from rules.pentathlon.monitor import start as begin
from rules.pentathlon.monitor_actions import (
    Begins,
    Challenge,
    ChipInHand,
    Confirm,
    DeclareWin,
    DieToss,
    ForfeitTurn,
    Infraction,
    Opinion,
    PassFlag,
    Rule,
    StarCard,
    StartPentathlon,
    StripDraw,
    TimeCalled,
    TurnTimeout,
    start_action,
)
from rules.pentathlon.players import Player
from rules.pentathlon.queens_guards import DeclareTie, MovePiece, TieReason, TrapPenalty
from rules.pentathlon.record import record
from rules.pentathlon.registry import game_rules
from rules.pentathlon.results import How
from rules.pentathlon.stars_bars import CardsOut, PlaceCard, ScoreStacks, StackCount
from tests.soak import sized

FUZZ = settings(
    max_examples=sized(ci=50, soak=200), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
players = st.sampled_from(list(Player))
rulings = st.sampled_from(list(Ruling))


def _moves(game: Game) -> list[st.SearchStrategy[Action]]:
    small = st.integers(-1, 12)
    if game is Game.CONTIG_60:
        return [st.builds(ContigPlay, small), st.builds(ContigCapture, small)]
    if game is Game.FAB_A_DIFFY:
        kinds = [ShowStrip(), TakeTrick(), CaptureTrick(), CaptureTimeout(), DeckOut()]
        return [st.sampled_from(kinds), st.sampled_from([ShowStrip(), TakeTrick()])]
    if game is Game.JUGGLE:
        return [st.builds(CountEmpty, small, small)]
    if game is Game.QUEENS_AND_GUARDS:
        return [
            st.just(MovePiece()),
            st.builds(DeclareTie, st.sampled_from(list(TieReason))),
            st.builds(TrapPenalty, players),
        ]
    stacks = st.builds(ScoreStacks, st.integers(0, 5), st.booleans(), st.integers(-1, 2))
    return [
        st.builds(PlaceCard, st.integers(-1, 60)),
        stacks,
        st.just(CardsOut()),
        st.builds(StackCount, players, st.integers(0, 9)),
    ]


def _challenges(game: Game) -> st.SearchStrategy[Action]:
    keys = [rule.key for rule in game_rules(game).challenge_rules] + list(NOT_CHALLENGEABLE)[:1]
    announced = st.lists(st.sampled_from(keys), min_size=1, max_size=3, unique=True).map(tuple)
    return st.builds(Challenge, players, announced)


@functools.cache
def actions(game: Game) -> st.SearchStrategy[Action]:
    rules = game_rules(game)
    goals = [*rules.goals, "no-such-goal"]
    challenge = _challenges(game)
    generic: list[st.SearchStrategy[Action]] = [
        st.builds(PassFlag, players),
        st.builds(PassFlag, players),
        st.builds(PassFlag, players),
        st.sampled_from([TurnTimeout(), ForfeitTurn(), TimeCalled(), Confirm()]),
        challenge,
        challenge,
        st.builds(Rule, rulings),
        st.builds(Rule, rulings),
        st.builds(Opinion, st.integers(1, 6), players, rulings),
        st.builds(DeclareWin, players, st.sampled_from(goals), st.booleans()),
        st.builds(Begins, players),
        st.builds(DieToss, st.integers(1, 6), st.integers(1, 6)),
        st.builds(StripDraw, st.sampled_from(["1/2", "1/3", "0/6"]), st.just("5/12")),
        st.builds(ChipInHand, players, st.booleans()),
        st.builds(StarCard, players, st.integers(0, 4)),
        st.builds(Infraction, players, st.booleans(), st.booleans()),
    ]
    return st.one_of(*generic, *_moves(game), *_moves(game))


def _start(game: Game) -> StartPentathlon:
    return start_action(game, 30, chips=6 if game is Game.CONTIG_60 else None)


@functools.cache
def _fitting_in(
    game: Game, phase: str, holder: Player | None, records: int
) -> st.SearchStrategy[Action]:
    latest = st.integers(max(1, records - 2), max(1, records))
    opinion = st.builds(Opinion, latest, players, rulings)
    if phase == "begin":
        return st.builds(Begins, players)
    if phase == "challenge":
        return st.one_of(st.builds(Rule, rulings), opinion)
    challenge = _challenges(game)
    if phase in ("result", "counting"):
        return st.one_of(opinion, challenge, st.just(Confirm()), *_moves(game))
    assert holder is not None
    passes = st.just(PassFlag(holder))
    return st.one_of(passes, passes, opinion, challenge, *_moves(game))


def _fitting(state: PentathlonGame) -> st.SearchStrategy[Action]:
    """Actions the phase is likely to take, so random games get deep: rulings while a
    challenge waits, the holder's passes and moves in play, opinions on the latest records."""
    holder = state.play.holder if state.play else None
    records = min(len(state.challenges), 12)
    return _fitting_in(state.settings.game, state.phase, holder, records)


@functools.cache
def _any_or_fitting(
    game: Game, phase: str, holder: Player | None, records: int
) -> st.SearchStrategy[Action]:
    fitting = _fitting_in(game, phase, holder, records)
    return st.one_of(fitting, fitting, actions(game))


@st.composite
def games(draw: st.DrawFn) -> tuple[StartPentathlon, list[Action]]:
    """A game played 2 parts fitting to 1 part any action: its start and the actions tried."""
    game = draw(st.sampled_from(list(Game)))
    start = _start(game)
    state = begin(start)
    tried: list[Action] = []
    for _ in range(draw(st.integers(5, 60))):
        if state.result is not None:
            break
        holder = state.play.holder if state.play else None
        records = min(len(state.challenges), 12)
        action = draw(_any_or_fitting(game, state.phase, holder, records))
        tried.append(action)
        try:
            state = apply(state, action)
        except RuleError:
            continue
    return start, tried


def _drive(
    start: StartPentathlon, stream: list[Action]
) -> tuple[list[PentathlonGame], list[Action]]:
    """The states after each accepted action, and the accepted log."""
    states = [begin(start)]
    accepted: list[Action] = [start]
    for action in stream:
        try:
            states.append(apply(states[-1], action))
        except RuleError:
            continue
        accepted.append(action)
    return states, accepted


@FUZZ
@given(game=games())
def test_random_games_raise_only_rule_errors_and_replay_to_the_same_record(
    game: tuple[StartPentathlon, list[Action]],
) -> None:
    states, accepted = _drive(*game)
    log = [decode(json.loads(json.dumps(encode(action)))) for action in accepted]
    rebuilt = replay(log)
    assert rebuilt == states[-1]
    assert json.loads(json.dumps(record(rebuilt))) == record(states[-1])


@FUZZ
@given(game=games())
def test_a_ruling_never_changes_after_play_resumes(
    game: tuple[StartPentathlon, list[Action]],
) -> None:
    states, _ = _drive(*game)
    for before, after in itertools.pairwise(states):
        for old in before.challenges:
            if old.final:
                assert after.challenges[old.number - 1].rulings == old.rulings


@FUZZ
@given(game=games())
def test_three_i_or_ia_always_end_the_game_as_a_loss(
    game: tuple[StartPentathlon, list[Action]],
) -> None:
    states, _ = _drive(*game)
    for state in states:
        for player in Player:
            if state.strikes(player) >= 3:
                result = state.result or (state.play.pending if state.play else None)
                assert result is not None
                assert (result.winner, result.how) == (player.other, How.THREE_STRIKES)


@FUZZ
@given(game=games())
def test_a_game_that_is_over_accepts_no_action(
    game: tuple[StartPentathlon, list[Action]],
) -> None:
    states, _ = _drive(*game)
    final = states[-1]
    if final.result is None:
        return
    for action in game[1][:5]:
        try:
            apply(final, action)
        except RuleError:
            continue
        raise AssertionError(f"a game that is over accepted {action.kind}")
