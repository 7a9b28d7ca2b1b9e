"""Pair a round by minimum-weight perfect matching (rustworkx), never greedily (R90-R94).

Every possible pair of teams gets a cost made of tiers, each tier worth more than the most
that all lower tiers together can add to a round, so the matching minimises them in order:

1. rematches: how often the two have met before (a second bye counts as meeting the bye again);
2. same school: 1 when both teams name the same school and the tournament avoids that;
3. the bye: how far above the bottom of the pairing order the team taking the bye is;
4. records (Swiss pairing only): the squared difference of the two teams' match wins;
5. the seeded draw: a number from the tournament's seed, so equal choices are settled by lot.

An odd count adds a "bye" node that one team is matched with. The costs are integers, so the
matching is exact, and the result depends only on the inputs and the seed.

In a small field the optimum can corner later rounds into rematches; when the look-ahead
(``rules.tournament.lookahead``) finds no rematch-free way on from it, the next candidate is
tried: other draws, then letting go of the records, then of the school and the bye's placing.
Every candidate has as few rematches as the optimum.
"""

from __future__ import annotations

import itertools
import random
import struct
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence

from rules.errors import InvalidInput
from rules.tournament.lookahead import completable, needs_check
from rules.tournament.matching import Costs, Edge, cheapest_perfect_matching
from rules.tournament.records import Match, RoundPairing

DRAW_RANGE = 1000  # the seeded draw's values, 0..999
ALTERNATIVES = 4  # other pairings tried per relaxation when the look-ahead finds a corner


def meetings(previous: Sequence[RoundPairing]) -> Counter[frozenset[str]]:
    """How often each pair of teams has met, by ``frozenset({a, b})``."""
    return Counter(frozenset((match.a, match.b)) for rnd in previous for match in rnd.matches)


def byes(previous: Sequence[RoundPairing]) -> Counter[str]:
    return Counter(rnd.bye for rnd in previous if rnd.bye is not None)


def a_sides(previous: Sequence[RoundPairing]) -> Counter[str]:
    return Counter(match.a for rnd in previous for match in rnd.matches)


def pair_round(
    round_number: int,
    order: Sequence[str],
    previous: Sequence[RoundPairing] = (),
    *,
    wins: Mapping[str, int] | None = None,
    schools: Mapping[str, str] | None = None,
    avoid_same_school: bool = True,
    seed: int = 0,
    rounds_after: int = 0,
) -> RoundPairing:
    """Pair ``order`` (every team, best placed first) for round ``round_number``.

    ``wins`` (match wins so far) turns on Swiss pairing; without it records are ignored.
    ``schools`` maps a team to its school ("" or missing: none). Table 1 is the pair holding
    the best-placed team; team A is the one that has been A less often (then the better placed).
    ``rounds_after`` (rounds still to pair after this one) turns on the look-ahead that keeps
    a small field from being cornered into rematches (``rules.tournament.lookahead``).
    """
    if len(set(order)) != len(order):
        raise InvalidInput("a team is listed twice in the pairing order: expected each once")
    if len(order) < 2:
        raise InvalidInput(f"{len(order)} team(s) to pair: expected at least 2")
    missing = [team for team in order if wins is not None and team not in wins]
    if missing:
        raise InvalidInput(f"no match wins for {missing[0]!r}: expected every team's wins")
    costs = _tiers(
        round_number,
        order,
        previous,
        wins=wins,
        schools=schools or {},
        avoid_same_school=avoid_same_school,
        seed=seed,
    )
    nodes = len(order) + len(order) % 2
    check = needs_check(nodes, len(previous), rounds_after)
    candidates = _candidates(costs, nodes, f"{seed}:round {round_number}")
    matched = next(candidates)
    if check:
        met = {edge for edge, times in zip(costs.edges, costs.columns[0], strict=True) if times}
        for candidate in itertools.chain([matched], candidates):
            if completable(nodes, met | set(candidate), check, f"{seed}:round {round_number}"):
                matched = candidate
                break
    return _round(round_number, order, matched, a_sides(previous))


def _tiers(
    round_number: int,
    order: Sequence[str],
    previous: Sequence[RoundPairing],
    *,
    wins: Mapping[str, int] | None,
    schools: Mapping[str, str],
    avoid_same_school: bool,
    seed: int,
) -> Costs:
    """Every pair's cost, in a fixed order of the pairs: by the first team's place, then the
    second's, a team's pair with the bye (index ``count``, when ``count`` is odd) after its
    others. The seeded draw is dealt in that order, so the order is part of the result.

    A column per tier, made from the teams' places (a round of 256 teams has 32,640 pairs):
    the few pairs that have met or share a school are set after the rest are 0."""
    count = len(order)
    odd = count % 2
    total = _pair_count(count)
    wins_of = [0] * count if wins is None else [wins[team] for team in order]
    had_bye = byes(previous)
    edges: list[Edge] = []
    byes_placed: list[int] = []
    records: list[int] = []
    for i in range(count):
        edges += [(i, j) for j in range(i + 1, count)]
        byes_placed += [0] * (count - 1 - i)
        mine = wins_of[i]
        records += [(mine - theirs) ** 2 for theirs in wins_of[i + 1 :]]
        if odd:
            # The bye node is index ``count``; the bottom team (i = count - 1) costs 0.
            edges.append((i, count))
            byes_placed.append(count - 1 - i)
            records.append(0)
    place = _place_of_edge(count)
    rematches = [0] * total
    for (i, j), times in _met_by_place(order, previous).items():
        rematches[place(i, j)] = times
    if odd:
        for i, team in enumerate(order):
            rematches[place(i, count)] = had_bye[team]
    same_school = [0] * total
    if avoid_same_school:
        for i, j in _same_school_by_place(order, schools):
            same_school[place(i, j)] = 1
    draws = seeded_draws(random.Random(f"{seed}:round {round_number}"), total)
    return Costs(edges, [rematches, same_school, byes_placed, records, draws])


def _place_of_edge(count: int) -> Callable[[int, int], int]:
    """Where pair (i, j) is in ``_tiers``' order of the pairs of ``count`` teams."""
    row = count - 1 + count % 2  # the pairs of team 0: its others, and the bye when odd
    return lambda i, j: i * row - i * (i - 1) // 2 + (j - i - 1)


def _pair_count(count: int) -> int:
    """The pairs of ``count`` teams, with each team's pair with the bye when ``count`` is odd."""
    return count * (count - 1) // 2 + (count if count % 2 else 0)


def _met_by_place(order: Sequence[str], previous: Sequence[RoundPairing]) -> dict[Edge, int]:
    """How often each pair of ``order`` has met, by their places (i < j)."""
    place = {team: i for i, team in enumerate(order)}
    met: dict[Edge, int] = {}
    for pair, times in meetings(previous).items():
        if len(pair) == 2 and all(team in place for team in pair):
            i, j = sorted(place[team] for team in pair)
            met[i, j] = times
    return met


def _same_school_by_place(order: Sequence[str], schools: Mapping[str, str]) -> Iterator[Edge]:
    """The pairs of ``order`` whose teams name the same school, by their places (i < j)."""
    by_school: dict[str, list[int]] = {}
    for i, team in enumerate(order):
        school = schools.get(team, "")
        if school:
            by_school.setdefault(school, []).append(i)
    for places in by_school.values():
        yield from itertools.combinations(places, 2)


def seeded_draws(draw: random.Random, count: int) -> list[int]:
    """``count`` values of ``draw.randrange(DRAW_RANGE)``, the very ones, drawn in bulk.

    CPython's ``randrange(1000)`` takes the top 10 bits of the generator's next 32-bit word,
    and takes the next word while that is 1000 or more; ``getrandbits(32 * n)`` hands out the
    next n words at once, the first lowest. One call instead of one per pair (a round of 256
    teams has 32,640): a test holds this to ``randrange``. ``draw`` is spent afterwards."""
    bits = DRAW_RANGE.bit_length()
    values: list[int] = []
    while len(values) < count:
        words = count - len(values) + count // 32 + 8  # about 2% of the words are passed over
        block = draw.getrandbits(32 * words).to_bytes(4 * words, "little")
        values += [
            value
            for (word,) in struct.iter_unpack("<I", block)
            if (value := word >> (32 - bits)) < DRAW_RANGE
        ]
    return values[:count]


def _candidates(costs: Costs, nodes: int, seed: str) -> Iterator[list[Edge]]:
    """Pairings as good in rematches, best first: the optimum, then other seeded draws, then
    draws that let go of the records, then of the school and the bye's placing too."""
    yield cheapest_perfect_matching(nodes, costs)
    none = [0] * len(costs.edges)
    for keep in (4, 3, 1):
        for attempt in range(ALTERNATIVES):
            draws = seeded_draws(
                random.Random(f"{seed}:alternative {keep} {attempt}"), len(costs.edges)
            )
            columns = [*costs.columns[:keep], *[none] * (4 - keep), draws]
            yield cheapest_perfect_matching(nodes, Costs(costs.edges, columns))


def _round(
    round_number: int, order: Sequence[str], matched: list[Edge], sides: Counter[str]
) -> RoundPairing:
    bye: str | None = None
    pairs: list[tuple[int, int]] = []
    for i, j in sorted(matched):
        if j == len(order):
            bye = order[i]
        else:
            pairs.append((i, j))
    matches = []
    for table, (i, j) in enumerate(pairs, start=1):
        first, second = order[i], order[j]
        if sides[second] < sides[first]:
            first, second = second, first
        matches.append(Match(table, first, second))
    return RoundPairing(round_number, tuple(matches), bye)
