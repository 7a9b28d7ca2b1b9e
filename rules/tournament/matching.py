"""Minimum-cost perfect matching over tiered integer costs (networkx's blossom algorithm).

A cost is a tuple of tiers, most important first. The tiers are folded into one integer per
edge so that one unit of a tier outweighs the most that all lower tiers can add up to over a
whole matching: the matching minimises the first tier, then the second, and so on. Integer
costs keep networkx's algorithm exact.
"""

from __future__ import annotations

from collections.abc import Mapping

Edge = tuple[int, int]  # (i, j) with i < j


def fold_tiers(tiers: Mapping[Edge, tuple[int, ...]], pairs: int) -> dict[Edge, int]:
    """One integer per edge; ``pairs`` is how many edges a matching holds."""
    width = len(next(iter(tiers.values())))
    units = [1] * width
    for k in range(width - 1, 0, -1):
        largest = max(cost[k] for cost in tiers.values())
        units[k - 1] = units[k] * (largest * pairs + 1)
    return {
        edge: sum(unit * c for unit, c in zip(units, cost, strict=True))
        for edge, cost in tiers.items()
    }


def min_cost_perfect_matching(nodes: int, tiers: Mapping[Edge, tuple[int, ...]]) -> list[Edge]:
    """A perfect matching of the complete graph on ``nodes`` (even) of least tiered cost.

    The edges whose first tier is 0 are tried alone first: that graph is smaller (faster),
    and when it has a perfect matching, that matching is also the optimum of the whole graph.
    """
    # Imported here, not at the top: every ``gametable`` command builds the tournament
    # parser, and only pairing needs networkx (a tenth of a second to import).
    import networkx as nx  # type: ignore[import-untyped]

    weights = fold_tiers(tiers, nodes // 2)
    light = {edge: weight for edge, weight in weights.items() if tiers[edge][0] == 0}
    for candidate in (light, weights):
        graph = nx.Graph()
        graph.add_nodes_from(range(nodes))
        graph.add_weighted_edges_from((i, j, w) for (i, j), w in candidate.items())
        matching = nx.min_weight_matching(graph)
        if len(matching) == nodes // 2:
            return sorted((min(pair), max(pair)) for pair in matching)
    raise AssertionError("a complete graph on an even number of nodes has a perfect matching")
