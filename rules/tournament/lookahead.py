"""Can the rest of a tournament still be paired with nobody meeting anyone again? (R91)

Pairing round by round can paint itself into a corner in a small field: after a few rounds
the pairs not yet played may hold no perfect matching (6 teams: two triangles), although a
schedule with no rematch existed. Before a round is fixed, its pairing is checked by trying
to pair the following rounds from it; a pairing from which no way on is found is replaced by
the next candidate (see ``rules.tournament.pairing``).

The search is randomised from the seed and gives up after a few tries: "yes" is certain,
"no" means no way was found. Only small fields need it; large ones skip it (``needs_check``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Set

from rules.tournament.matching import Edge, min_cost_perfect_matching

TRIES = 3
DRAW_RANGE = 1000
MAX_NODES = 24  # larger fields play far fewer rounds than they have opponents


def needs_check(nodes: int, rounds_done: int, rounds_after: int) -> int:
    """How many following rounds to check (0: none). Only the rounds that can still be
    rematch-free count (a field of n plays at most n - 1 such rounds), and a field with far
    more opponents left than rounds to play is never cornered. Fields of more than
    ``MAX_NODES`` are not checked: the search would cost seconds a round, and a tournament
    that large plays a handful of rounds."""
    possible = min(rounds_after, nodes - 1 - (rounds_done + 1))
    if possible <= 0 or nodes > MAX_NODES:
        return 0
    opponents_left = nodes - 1 - (rounds_done + 1)
    return possible if 2 * possible >= opponents_left else 0


def completable(nodes: int, met: Set[Edge], rounds: int, seed: str) -> bool:
    """Whether ``rounds`` more rounds on ``nodes`` nodes were found with no edge of ``met``
    and no edge twice."""
    degree = Counter(node for edge in met for node in edge)
    if max(degree.values(), default=0) + rounds > nodes - 1:
        return False
    for attempt in range(TRIES):
        draw = random.Random(f"{seed}:lookahead {attempt}")
        used = set(met)
        for _ in range(rounds):
            tiers = {
                (i, j): (int((i, j) in used), draw.randrange(DRAW_RANGE))
                for i in range(nodes)
                for j in range(i + 1, nodes)
            }
            matching = min_cost_perfect_matching(nodes, tiers)
            if any(edge in used for edge in matching):
                break
            used.update(matching)
        else:
            return True
    return False
