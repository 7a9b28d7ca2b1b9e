"""Table flows: for each game, what the dealer is asked now, in six-button terms.

A flow is a pure function of the game's rules state and a small scratch dict (answers given
but not yet complete enough to be a rules action). It returns a ``Prompt``; the controller
turns button presses, the 5-count and shout decisions into the prompt's outcomes. A game's
Level 3 flow (``level3/``) exists only where Level 3 asks something else; elsewhere Level 3
plays the Level 4 flow, as the Level 3 rules reuse the Level 4 game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from firmware_py.families.geoplunge.flows.common import FlowSettings
from firmware_py.table.prompts import Prompt

Flow = Callable[[Any, Mapping[str, Any], FlowSettings], Prompt]


def flow_for(game: int, level: int = 4) -> Flow:
    from firmware_py.families.geoplunge.flows import border_up, chummy, dashing, game4, state_iq
    from firmware_py.families.geoplunge.flows.level3 import chummy as chummy3
    from firmware_py.families.geoplunge.flows.level3 import game4 as game4_3
    from firmware_py.families.geoplunge.flows.level3 import state_iq as state_iq3

    flows: dict[int, Flow] = {
        1: border_up.prompt,
        2: state_iq.prompt,
        3: dashing.prompt,  # Level 3 has no race-3 category phase; the rest is the same
        4: game4.prompt,
        5: chummy.prompt,
    }
    level3: dict[int, Flow] = {2: state_iq3.prompt, 4: game4_3.prompt, 5: chummy3.prompt}
    if level == 3:
        return level3.get(game, flows[game])
    return flows[game]
