"""STATES's steps at the table, one module per part of a hand: ``hand`` (who starts, the play,
the dealer's menu, the bonus states, the game's end), ``claim`` (a "STATES!" judged) and
``knock`` (a knock and its judgement)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_py.families.states.context import Table
from firmware_py.families.states.flows.claim import claim_prompt
from firmware_py.families.states.flows.hand import (
    bonus_prompt,
    first_player_prompt,
    game_over_prompt,
    menu_prompt,
    play_prompt,
)
from firmware_py.families.states.flows.knock import knock_prompt, totals_prompt
from firmware_py.table.prompts import Prompt
from rules.states.table_game import TableGame


def prompt_for(game: TableGame, scratch: Mapping[str, Any], table: Table) -> Prompt:
    """What the dealer is asked now, by the game's phase and the answers given so far."""
    phase = game.phase
    if phase == "over":
        return game_over_prompt(game, table)
    if phase == "deal":
        return first_player_prompt(game, table)
    if phase == "bonus":
        return bonus_prompt(game, scratch, table)
    if phase == "totals":
        return totals_prompt(game, table)
    if "claimant" in scratch or "claimants" in scratch:
        return claim_prompt(game, scratch, table)
    if "knocker" in scratch:
        return knock_prompt(game, scratch, table)
    if scratch.get("menu"):
        return menu_prompt(game, table)
    return play_prompt(game, scratch, table)
