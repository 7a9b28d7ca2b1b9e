"""Properties of Guesstimation over random games: the table plays, sometimes out of turn.

Each step draws the action the phase expects (with plausible and implausible values) or, now
and then, any Guesstimation action; refused actions are dropped, as the table would drop them.
"""

from __future__ import annotations

import json

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

GAMES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Few distinct values, so ties, exact answers and tied duels are common; some are not numbers.
VALUES = ("1", "2", "3", "3.0", "4", "4.5", "-2", "0.25", "x", "NaN")
STEPS = 250


def _starts() -> st.SearchStrategy[StartGuesstimation]:
    return st.builds(
        StartGuesstimation,
        players=st.integers(3, 6).map(lambda n: tuple("ABCDEF"[:n])),
        finish=st.integers(2, 8),
    )


def _action(state: GuesstimationState, data: st.DataObject) -> Action:
    """Mostly what the phase expects, from a player who may act; sometimes anything at all."""
    players = st.sampled_from(state.players)
    value = st.sampled_from(VALUES)
    die = st.integers(0, 7)
    anything = st.one_of(
        st.builds(RollDie, players, die),
        st.builds(DeclareDuel, players, players, st.sampled_from([None, 0, 1, 2, 3, 4])),
        st.builds(ReadQuestion, chip=st.booleans(), measured=st.booleans()),
        st.builds(ChooseUnits, st.sampled_from(list(UnitSystem))),
        st.builds(RecordGuess, players, value),
        st.builds(RevealAnswer, value),
    )
    if data.draw(st.integers(0, 9)) == 0:
        return data.draw(anything)
    current = state.current
    if state.rolloff is not None:
        return RollDie(data.draw(st.sampled_from(state.rolloff.waiting_for)), data.draw(die))
    assert current is not None
    phase = state.phase
    if phase == "question_roll":
        return RollDie(current.leader, data.draw(die))
    if phase == "question":
        return data.draw(st.builds(ReadQuestion, chip=st.booleans(), measured=st.booleans()))
    if state.chip is not None and not current.guesses and data.draw(st.booleans()):
        wager = data.draw(st.sampled_from([None, 0, 1, 2, 3, 4]))
        return DeclareDuel(state.chip, data.draw(players), wager)
    if phase == "units":
        return ChooseUnits(data.draw(st.sampled_from(list(UnitSystem))))
    if phase == "guessing":
        return RecordGuess(
            data.draw(st.sampled_from(current.waiting_for_guesses)), data.draw(value)
        )
    return RevealAnswer(data.draw(value))


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
