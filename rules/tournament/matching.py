"""Minimum-cost perfect matching over tiered integer costs (rustworkx's blossom algorithm).

A cost is a tuple of tiers, most important first. The tiers are folded into one integer per
edge so that one unit of a tier outweighs the most that all lower tiers can add up to over a
whole matching: the matching minimises the first tier, then the second, and so on. Integer
costs keep the algorithm exact. rustworkx is a Rust port of the blossom algorithm networkx uses
in pure Python (Edmonds' primal-dual method): the same optimum, about a hundred times sooner;
a property test checks the optimum's weight against networkx on random fields. Costs are kept
a column per tier and folded a column at a time (list comprehensions, ``map``): on 256 teams,
building them edge by edge took as long as the matching.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter

from rules.errors import InvalidInput

Edge = tuple[int, int]  # (i, j) with i < j
# rustworkx holds weights as 128-bit integers and the algorithm doubles them (its dual
# variables): folded costs stay well below that for every field the record takes (R130).
MAX_WEIGHT_BITS = 120


@dataclass(frozen=True, slots=True)
class Costs:
    """The tiered costs of edges, a column per tier: ``columns[k][e]`` is tier k (most
    important first) of ``edges[e]``. Pairing builds the columns directly: a round of 256 teams
    has 32,640 edges, and a tuple per edge cost more than the matching itself."""

    edges: Sequence[Edge]
    columns: Sequence[Sequence[int]]

    @classmethod
    def of(cls, tiers: Mapping[Edge, tuple[int, ...]]) -> Costs:
        costs = list(tiers.values())
        return cls(list(tiers), [list(map(itemgetter(k), costs)) for k in range(len(costs[0]))])


def fold_tiers(tiers: Mapping[Edge, tuple[int, ...]], pairs: int) -> dict[Edge, int]:
    """One integer per edge; ``pairs`` is how many edges a matching holds."""
    costs = Costs.of(tiers)
    return dict(zip(costs.edges, _folded(costs.columns, pairs), strict=True))


def _folded(columns: Sequence[Sequence[int]], pairs: int) -> list[int]:
    """The folded weights, Horner's rule a column at a time: the unit of tier k is (the largest
    of tier k+1 x pairs + 1) times the unit of tier k+1."""
    weights = list(columns[0])
    for column in columns[1:]:
        scale = max(column) * pairs + 1
        weights = [weight * scale + cost for weight, cost in zip(weights, column, strict=True)]
    return weights


def min_cost_perfect_matching(nodes: int, tiers: Mapping[Edge, tuple[int, ...]]) -> list[Edge]:
    """A perfect matching of the complete graph on ``nodes`` (even) of least tiered cost."""
    return cheapest_perfect_matching(nodes, Costs.of(tiers))


def cheapest_perfect_matching(nodes: int, costs: Costs) -> list[Edge]:
    """A perfect matching of the complete graph on ``nodes`` (even) of least tiered cost.

    The edges whose first tier is 0 are tried alone first: that graph is smaller (faster),
    and when it has a perfect matching, that matching is also the optimum of the whole graph.
    """
    # Imported here, not at the top: every ``gametable`` command builds the tournament
    # parser, and only pairing needs the matching library.
    import rustworkx as rx

    edges, columns = costs.edges, costs.columns
    weights = _folded(columns, nodes // 2)
    if max(weights).bit_length() > MAX_WEIGHT_BITS:
        raise InvalidInput("the field is too large to pair: its costs exceed 120 bits")
    light = list(map(operator.not_, columns[0]))  # the edges of first tier 0
    tries = (light, None) if not all(light) and any(light) else (None,)
    for chosen in tries:
        kept = weights if chosen is None else list(compress(weights, chosen))
        # Among perfect matchings (max_cardinality), the most of (top - cost) is the least cost:
        # what networkx's min_weight_matching does before it calls the same algorithm.
        top = max(kept) + 1
        pairs = edges if chosen is None else compress(edges, chosen)
        graph = rx.PyGraph()
        graph.add_nodes_from(range(nodes))
        graph.add_edges_from(
            [(i, j, top - weight) for (i, j), weight in zip(pairs, kept, strict=True)]
        )
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        if len(matching) == nodes // 2:
            return sorted((min(pair), max(pair)) for pair in matching)
    raise AssertionError("a complete graph on an even number of nodes has a perfect matching")
