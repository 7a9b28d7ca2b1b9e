"""The pairing's matching (rustworkx) finds the optimum networkx finds, on random fields."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.tournament.matching import Edge, min_cost_perfect_matching
from tests.matching_reference import matching_cost, networkx_matching
from tests.soak import sized


@st.composite
def fields(draw: st.DrawFn) -> tuple[int, dict[Edge, tuple[int, ...]]]:
    """A complete graph on an even number of teams with pairing-like tiered costs: meetings,
    same school, bye order, record difference squared, a draw."""
    nodes = 2 * draw(st.integers(1, 12))
    tier = st.tuples(
        st.integers(0, 2), st.integers(0, 1), st.integers(0, 3), st.integers(0, 9),
        st.integers(0, 999),
    )  # fmt: skip
    costs = draw(
        st.lists(tier, min_size=nodes * (nodes - 1) // 2, max_size=nodes * (nodes - 1) // 2)
    )
    edges = [(i, j) for i in range(nodes) for j in range(i + 1, nodes)]
    return nodes, dict(zip(edges, costs, strict=True))


def _is_perfect(nodes: int, matching: list[Edge]) -> bool:
    return sorted(node for edge in matching for node in edge) == list(range(nodes))


@settings(max_examples=sized(ci=50, soak=200), deadline=None)
@given(field=fields())
def test_the_matching_is_perfect_and_as_cheap_as_networkx_tier_by_tier(
    field: tuple[int, dict[Edge, tuple[int, ...]]],
) -> None:
    nodes, tiers = field
    ours = min_cost_perfect_matching(nodes, tiers)
    assert _is_perfect(nodes, ours)
    assert matching_cost(tiers, ours) == matching_cost(tiers, networkx_matching(nodes, tiers))


def test_a_field_where_no_pair_has_met_is_matched_without_a_rematch() -> None:
    tiers = {(0, 1): (1, 0, 0, 0, 0), (0, 2): (0, 0, 0, 0, 5), (0, 3): (0, 0, 0, 0, 0),
             (1, 2): (0, 0, 0, 0, 0), (1, 3): (0, 0, 0, 0, 7), (2, 3): (1, 0, 0, 0, 0)}  # fmt: skip
    assert min_cost_perfect_matching(4, tiers) == [(0, 3), (1, 2)]
