"""The monitor's flow: for the game's rules state and the answers given so far, what the
monitor is asked now, in six-button terms (every decision is a rules action of
``rules.pentathlon``; answers not yet complete enough to be one wait in the scratch dict).

In order: the start (``begin``); the game over (``ending.over``); a challenge being entered,
ruled, or just ruled and open to opinions (``challenges``); a result to confirm or Juggle's
count (``ending``), and from flow 4 the Director's decisions there (``ending.directors``);
otherwise the turn (``turn``) with its menu and entries (``moves``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from firmware_py.families.pentathlon.flows import begin, challenges, ending, moves, turn
from firmware_py.families.pentathlon.flows.common import (
    SCRATCH_CHALLENGE,
    SCRATCH_DIRECTOR,
    SCRATCH_ENTRY,
    SCRATCH_MENU,
    TIME_CALLED_ALERT,
    FlowSettings,
)
from firmware_py.families.pentathlon.options import PentathlonOptions
from firmware_py.table.prompts import Prompt
from rules.pentathlon.monitor import PentathlonGame


def prompt(game: PentathlonGame, scratch: Mapping[str, Any], options: PentathlonOptions) -> Prompt:
    step = _step(game, scratch, options)
    if not options.director_at_the_result:
        return step  # a journal of an earlier flow replays with its screens (R796)
    if _infraction_entry(scratch):  # the Director's questions in the turn's menu (R846)
        step = replace(step, open_at_time_up=TIME_CALLED_ALERT)
    return replace(step, late_press_guard=True)  # flow 4 (R846)


def _infraction_entry(scratch: Mapping[str, Any]) -> bool:
    """An infraction being entered from the turn's menu: the Director's questions (R789)."""
    entry = scratch.get(SCRATCH_ENTRY)
    return entry is not None and str(entry["move"]).startswith("Infraction: ")


def _step(game: PentathlonGame, scratch: Mapping[str, Any], options: PentathlonOptions) -> Prompt:
    phase = game.phase
    if phase == "begin":
        return begin.begin(game, scratch, options)
    if phase == "over":
        return ending.over(game, options)
    if phase == "challenge":
        return challenges.ruling(game)
    director = options.director_at_the_result  # flow 4 (R840)
    # a player removed from the site: no challenge, opinion, turn or count, only the Director's
    # result and its confirmation remain (R987)
    removed = director and bool(game.removed)
    if removed and phase in ("play", "counting"):
        return ending.removed(game, scratch)
    if SCRATCH_CHALLENGE in scratch and not removed:
        return challenges.entry(game, scratch)
    if challenges.window_open(game, scratch) and not removed:
        return challenges.after_ruling(game, scratch)
    if director and SCRATCH_DIRECTOR in scratch and phase in ("result", "counting"):
        return ending.directors(game, scratch)
    if director and _infraction_entry(scratch) and phase in ("result", "counting"):
        return moves.entry(game, scratch)  # time called ended play during it: kept open (R846)
    if phase == "result":
        return ending.result(game, director=director)
    if phase == "counting":
        return ending.counting(game, scratch, director=director)
    if SCRATCH_ENTRY in scratch:
        return moves.entry(game, scratch)
    if SCRATCH_MENU in scratch:
        return moves.menu(game, scratch, every_declaration=options.records_the_start)
    settings = FlowSettings(
        options.turn_seconds, options.capture_seconds, announce=options.records_the_start
    )
    return turn.turn(game, scratch, settings)
