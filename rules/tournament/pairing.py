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
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from rules.errors import InvalidInput
from rules.tournament.lookahead import completable, needs_check
from rules.tournament.matching import Edge, min_cost_perfect_matching
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
    tiers = _tiers(
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
    candidates = _candidates(tiers, nodes, f"{seed}:round {round_number}")
    matched = next(candidates)
    if check:
        met = {edge for edge, cost in tiers.items() if cost[0]}
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
) -> dict[Edge, tuple[int, ...]]:
    met = meetings(previous)
    had_bye = byes(previous)
    draw = random.Random(f"{seed}:round {round_number}")
    count = len(order)
    tiers: dict[Edge, tuple[int, ...]] = {}
    for i, first in enumerate(order):
        for j in range(i + 1, count):
            second = order[j]
            school = schools.get(first, "")
            same = avoid_same_school and school != "" and school == schools.get(second, "")
            record = 0 if wins is None else (wins[first] - wins[second]) ** 2
            tiers[i, j] = (met[frozenset((first, second))], int(same), 0, record, 0)
        if count % 2:
            # The bye node is index ``count``; the bottom team (i = count - 1) costs 0.
            tiers[i, count] = (had_bye[first], 0, count - 1 - i, 0, 0)
    return {edge: (*cost[:4], draw.randrange(DRAW_RANGE)) for edge, cost in tiers.items()}


def _candidates(tiers: dict[Edge, tuple[int, ...]], nodes: int, seed: str) -> Iterator[list[Edge]]:
    """Pairings as good in rematches, best first: the optimum, then other seeded draws, then
    draws that let go of the records, then of the school and the bye's placing too."""
    yield min_cost_perfect_matching(nodes, tiers)
    for keep in (4, 3, 1):
        for attempt in range(ALTERNATIVES):
            draw = random.Random(f"{seed}:alternative {keep} {attempt}")
            yield min_cost_perfect_matching(
                nodes,
                {
                    edge: (*cost[:keep], *(0,) * (4 - keep), draw.randrange(DRAW_RANGE))
                    for edge, cost in tiers.items()
                },
            )


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
