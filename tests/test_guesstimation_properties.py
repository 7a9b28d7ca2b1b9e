"""Properties of Guesstimation over random games: the table plays, sometimes out of turn.

Each step draws the action the phase expects (with plausible and implausible values) or, now
and then, any Guesstimation action; refused actions are dropped, as the table would drop them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import Action, decode, encode
from rules.errors import RuleError
from rules.guesstimation.actions import (
    ChooseUnits,
    DeclareDuel,
    ReadQuestion,
    RecordGuess,
    RevealAnswer,
    RollDie,
    StartGuesstimation,
    UnitSystem,
)
from rules.guesstimation.replay import replay
from rules.guesstimation.session import GuesstimationState, apply_action, new_game
from tests.soak import sized

GAMES = settings(
    max_examples=sized(ci=25, soak=100), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# Few distinct values, so ties, exact answers and tied duels are common; some are not numbers.
VALUES = ("1", "2", "3", "3.0", "4", "4.5", "-2", "0.25", "x", "NaN")
STEPS = 250
T = TypeVar("T")


def _starts() -> st.SearchStrategy[StartGuesstimation]:
    return st.builds(
        StartGuesstimation,
        players=st.integers(3, 6).map(lambda n: tuple("ABCDEF"[:n])),
        finish=st.integers(2, 8),
    )


WAGERS = (None, 0, 1, 2, 3, 4)
DIE = (0, 1, 2, 3, 4, 5, 6, 7)
UNITS = tuple(UnitSystem)
KINDS = ("roll", "duel", "question", "units", "guess", "answer")


def _pick(data: st.DataObject, options: Sequence[T]) -> T:
    """One of ``options``: drawn as an index, which keeps long games fast to generate."""
    return options[data.draw(st.integers(0, len(options) - 1))]


def _action(state: GuesstimationState, data: st.DataObject) -> Action:
    """Mostly what the phase expects, from a player who may act; sometimes any action."""
    kind = _expected_kind(state, data) if _pick(data, range(10)) else _pick(data, KINDS)
    players = state.players
    current = state.current
    if kind == "roll":
        if state.rolloff is not None:
            player = _pick(data, state.rolloff.waiting_for or players)
        else:
            player = current.leader if current is not None else _pick(data, players)
        return RollDie(player, _pick(data, DIE))
    if kind == "question":
        return ReadQuestion(chip=_pick(data, (False, True)), measured=_pick(data, (False, True)))
    if kind == "duel":
        dueler = state.chip if state.chip is not None else _pick(data, players)
        return DeclareDuel(dueler, _pick(data, players), _pick(data, WAGERS))
    if kind == "units":
        return ChooseUnits(_pick(data, UNITS))
    if kind == "guess":
        waiting = current.waiting_for_guesses if current is not None else ()
        return RecordGuess(_pick(data, waiting or players), _pick(data, VALUES))
    return RevealAnswer(_pick(data, VALUES))


def _expected_kind(state: GuesstimationState, data: st.DataObject) -> str:
    phase = state.phase
    if phase in ("first_leader", "duel_roll", "chip_roll", "question_roll"):
        return "roll"
    kind = {"question": "question", "units": "units", "guessing": "guess", "answer": "answer"}[
        phase
    ]
    current = state.current
    question = current.question if current is not None else None
    may_duel = question is not None and not question.chip and state.chip is not None
    if may_duel and current is not None and current.duel is None and not current.guesses:
        return _pick(data, ("duel", kind))
    return kind


def _play(
    start: StartGuesstimation, data: st.DataObject
) -> tuple[GuesstimationState, list[Action]]:
    state = new_game(start)
    accepted: list[Action] = [start]
    for _ in range(STEPS):
        if state.over:
            break
        action = _action(state, data)
        try:
            state = apply_action(state, action)
        except RuleError:
            continue  # any other exception fails the test
        accepted.append(action)
        assert all(0 <= position <= state.finish for position in state.positions)
    return state, accepted


@GAMES
@given(start=_starts(), data=st.data())
def test_pieces_never_go_behind_start_nor_past_the_finish(
    start: StartGuesstimation, data: st.DataObject
) -> None:
    state, _ = _play(start, data)
    assert all(0 <= position <= state.finish for position in state.positions)


@GAMES
@given(start=_starts(), data=st.data())
def test_replaying_the_accepted_log_rebuilds_the_same_game(
    start: StartGuesstimation, data: st.DataObject
) -> None:
    live, accepted = _play(start, data)
    log = [decode(json.loads(json.dumps(encode(action)))) for action in accepted]
    assert replay(log) == live


@GAMES
@given(start=_starts(), data=st.data())
def test_a_champion_stands_on_the_finish_and_the_chip_is_a_player_or_the_board(
    start: StartGuesstimation, data: st.DataObject
) -> None:
    state, _ = _play(start, data)
    assert state.chip is None or state.chip in state.players
    if state.champion is not None:
        assert state.position(state.champion) == state.finish
