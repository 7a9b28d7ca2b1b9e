"""Table flows: for each game, what the dealer is asked now, in six-button terms.

A flow is a pure function of the game's rules state and a small scratch dict (answers given
but not yet complete enough to be a rules action). It returns a ``Prompt``; the controller
turns button presses, the 5-count and shout decisions into the prompt's outcomes. A new game
(Pentathlon, Guesstimation, STATES) adds a flow module and registers it here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings
from firmware_py.table.prompts import Prompt

Flow = Callable[[Any, Mapping[str, Any], FlowSettings], Prompt]


def flow_for(game: int) -> Flow:
    from firmware_py.families.geoplunge.flows import border_up, chummy, dashing, game4, state_iq

    flows: dict[int, Flow] = {
        1: border_up.prompt,
        2: state_iq.prompt,
        3: dashing.prompt,
        4: game4.prompt,
        5: chummy.prompt,
    }
    return flows[game]
