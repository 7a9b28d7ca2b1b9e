"""Minimum-cost perfect matching over tiered integer costs (rustworkx's blossom algorithm).

A cost is a tuple of tiers, most important first. The tiers are folded into one integer per
edge so that one unit of a tier outweighs the most that all lower tiers can add up to over a
whole matching: the matching minimises the first tier, then the second, and so on. Integer
costs keep the algorithm exact. rustworkx is a Rust port of the blossom algorithm networkx uses
in pure Python (Edmonds' primal-dual method): the same optimum, about a hundred times sooner;
a property test checks the optimum's weight against networkx on random fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import mul

from rules.errors import InvalidInput

Edge = tuple[int, int]  # (i, j) with i < j
# rustworkx holds weights as 128-bit integers and the algorithm doubles them (its dual
# variables): folded costs stay well below that for every field the record takes (R130).
MAX_WEIGHT_BITS = 120


def fold_tiers(tiers: Mapping[Edge, tuple[int, ...]], pairs: int) -> dict[Edge, int]:
    """One integer per edge; ``pairs`` is how many edges a matching holds."""
    width = len(next(iter(tiers.values())))
    units = [1] * width
    for k in range(width - 1, 0, -1):
        largest = max(cost[k] for cost in tiers.values())
        units[k - 1] = units[k] * (largest * pairs + 1)
    return {edge: sum(map(mul, units, cost)) for edge, cost in tiers.items()}


def min_cost_perfect_matching(nodes: int, tiers: Mapping[Edge, tuple[int, ...]]) -> list[Edge]:
    """A perfect matching of the complete graph on ``nodes`` (even) of least tiered cost.

    The edges whose first tier is 0 are tried alone first: that graph is smaller (faster),
    and when it has a perfect matching, that matching is also the optimum of the whole graph.
    """
    # Imported here, not at the top: every ``gametable`` command builds the tournament
    # parser, and only pairing needs the matching library.
    import rustworkx as rx

    weights = fold_tiers(tiers, nodes // 2)
    if max(weights.values()).bit_length() > MAX_WEIGHT_BITS:
        raise InvalidInput("the field is too large to pair: its costs exceed 120 bits")
    light = {edge: weight for edge, weight in weights.items() if tiers[edge][0] == 0}
    for candidate in (light, weights) if len(light) < len(weights) else (weights,):
        if not candidate:
            continue
        # Among perfect matchings (max_cardinality), the most of (top - cost) is the least cost:
        # what networkx's min_weight_matching does before it calls the same algorithm.
        top = max(candidate.values()) + 1
        graph = rx.PyGraph()
        graph.add_nodes_from(range(nodes))
        graph.add_edges_from([(i, j, top - w) for (i, j), w in candidate.items()])
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        if len(matching) == nodes // 2:
            return sorted((min(pair), max(pair)) for pair in matching)
    raise AssertionError("a complete graph on an even number of nodes has a perfect matching")
