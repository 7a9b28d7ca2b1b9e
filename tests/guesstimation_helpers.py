"""Building Guesstimation games in tests: a started game and whole rounds in one call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.actions import Action
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
from rules.guesstimation.session import GuesstimationState, apply_action, new_game

PLAYERS = ("A", "B", "C", "D")


def play(state: GuesstimationState, *actions: Action) -> GuesstimationState:
    for action in actions:
        state = apply_action(state, action)
    return state


def first_leader_rolls(players: Sequence[str], leader: str) -> list[Action]:
    """Everyone rolls once; ``leader`` rolls the only 6."""
    return [RollDie(player, 6 if player == leader else 1) for player in players]


def started(
    players: Sequence[str] = PLAYERS, leader: str = "A", finish: int = 20
) -> GuesstimationState:
    """A game whose first Round Leader is ``leader``, waiting for the question roll."""
    state = new_game(StartGuesstimation(tuple(players), finish))
    return play(state, *first_leader_rolls(players, leader))


def round_actions(
    state: GuesstimationState,
    guesses: Mapping[str, str],
    answer: str,
    *,
    die: int = 1,
    chip: bool = False,
    measured: bool = False,
    units: UnitSystem | None = None,
    duel: DeclareDuel | None = None,
) -> list[Action]:
    """The actions of one round led by the current Round Leader, in table order."""
    assert state.current is not None
    actions: list[Action] = [
        RollDie(state.current.leader, die),
        ReadQuestion(text="How many?", chip=chip, measured=measured),
    ]
    if units is not None:
        actions.append(ChooseUnits(units))
    if duel is not None:
        actions.append(duel)
    actions += [RecordGuess(player, value) for player, value in guesses.items()]
    actions.append(RevealAnswer(answer))
    return actions


def play_round(
    state: GuesstimationState,
    guesses: Mapping[str, str],
    answer: str,
    *,
    die: int = 1,
    chip: bool = False,
    measured: bool = False,
    units: UnitSystem | None = None,
    duel: DeclareDuel | None = None,
) -> GuesstimationState:
    actions = round_actions(
        state,
        guesses,
        answer,
        die=die,
        chip=chip,
        measured=measured,
        units=units,
        duel=duel,
    )
    return play(state, *actions)


def everyone(state: GuesstimationState, value: str, **others: str) -> dict[str, str]:
    """Every player guesses ``value`` except those named in ``others``."""
    return {player: others.get(player, value) for player in state.players}


def holding_chip(player: str, players: Sequence[str] = PLAYERS) -> GuesstimationState:
    """A started game (leader A) where ``player`` has just won the chip on a question 4."""
    state = started(players)
    guesses = {name: "100" for name in players} | {player: "5"}
    return play_round(state, guesses, "6", die=4)
