"""networkx's min_weight_matching: the reference the pairing's matching (rustworkx) is checked
against, in the property tests and side by side in ``make bench``."""

from __future__ import annotations

from collections.abc import Mapping

from rules.tournament.matching import Edge, fold_tiers


def networkx_matching(nodes: int, tiers: Mapping[Edge, tuple[int, ...]]) -> list[Edge]:
    """A least-cost perfect matching by networkx (pure Python, the same blossom algorithm)."""
    import networkx as nx  # type: ignore[import-untyped]

    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    weights = fold_tiers(tiers, nodes // 2)
    graph.add_weighted_edges_from((i, j, w) for (i, j), w in weights.items())
    return sorted((min(pair), max(pair)) for pair in nx.min_weight_matching(graph))


def matching_cost(tiers: Mapping[Edge, tuple[int, ...]], matching: list[Edge]) -> tuple[int, ...]:
    """The matching's cost, tier by tier (what the folding makes the matching minimise)."""
    width = len(next(iter(tiers.values())))
    return tuple(sum(tiers[edge][k] for edge in matching) for k in range(width))
