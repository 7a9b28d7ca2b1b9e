"""Game 1, Border-Up (Level 3): groups of 3 where the middle state borders both others.

A Level 3 team is dealt 18 cards and shows 2 groups of 3 (GeoPlunge) or 3 groups of 3
(ThreeOPlunge). A group is winning when one of its states borders both others, and it is
properly sorted when that state is in the middle: in the order shown, the middle state borders
both ends (any order will do when all three border each other). The race, the shouts and who
wins are Level 4's (``rules.geoplunge.games.border_up``); only the showing is judged differently
(rulings R61, R62).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from rules.atlas import Atlas, default_atlas
from rules.errors import InvalidInput
from rules.geoplunge.games.border_up import (
    BorderUpRules,
    BorderUpState,
    Group,
    GroupFaults,
    Show,
    Showing,
    ShowingRules,
    Verdict,
    broken_links,
    check_cards,
)
from rules.geoplunge.games.common import GameContext

LEVEL = 3
HAND_SIZE = 18
GROUP_SIZE = 3
GEOPLUNGE_GROUPS = 2
THREE_O_GROUPS = 3


def expected_sizes(three_o: bool) -> str:
    return "3+3+3 (ThreeOPlunge)" if three_o else "3+3 (GeoPlunge)"


def sizes_allowed(sizes: Sequence[int], three_o: bool) -> bool:
    groups = THREE_O_GROUPS if three_o else GEOPLUNGE_GROUPS
    return len(sizes) == groups and all(size == GROUP_SIZE for size in sizes)


def middle_states(group: Sequence[str], atlas: Atlas | None = None) -> tuple[str, ...]:
    """The states of a 3-card group that border both others: those that may go in the middle.

    Empty when the three cards are not a winning group in any order; all three when they all
    border each other.
    """
    atlas = atlas or default_atlas()
    codes = tuple(atlas.code(card) for card in group)
    return tuple(
        code
        for code in codes
        if all(atlas.borders(code, other) for other in codes if other != code)
    )


def group_problem(group: Group, atlas: Atlas | None = None) -> str | None:
    """Why a 3-card group shown in this order is not a properly sorted winning group, or None."""
    atlas = atlas or default_atlas()
    if not broken_links(group, atlas):
        return None  # the middle state borders both ends
    shown = "-".join(group)
    middles = middle_states(group, atlas)
    if not middles:
        return f"no state of {shown} borders both others: not a winning group"
    return (
        f"{group[1]} does not border both ends of {shown}: expected {middles[0]} "
        "(it borders both others) in the middle"
    )


def _group_faults(group: Group, atlas: Atlas) -> GroupFaults:
    problem = group_problem(group, atlas) if len(group) == GROUP_SIZE else None
    if problem is None:
        return [], []
    return broken_links(group, atlas), [problem]


# Judged as at Level 4 (``ShowingRules``), but with Level 3's group sizes and groups.
SHOWING_RULES = ShowingRules(sizes_allowed, expected_sizes, _group_faults, " at Level 3")
check_showing = SHOWING_RULES.check_showing
require_well_formed = SHOWING_RULES.require_well_formed


# --- Solver -------------------------------------------------------------------------------


def winning_groups(hand: Sequence[str], atlas: Atlas | None = None) -> tuple[Group, ...]:
    """Every winning group of the hand, properly sorted, each set of 3 cards once.

    Deterministic: by the middle card's place in the hand, then the ends' places.
    """
    atlas = atlas or default_atlas()
    codes = tuple(atlas.code(card) for card in hand)
    found: dict[frozenset[str], Group] = {}
    for middle in codes:
        neighbours = [code for code in codes if atlas.borders(middle, code)]
        for left, right in combinations(neighbours, 2):
            found.setdefault(frozenset((left, middle, right)), (left, middle, right))
    return tuple(found.values())


def solve(hand: Sequence[str], three_o: bool = False, atlas: Atlas | None = None) -> Showing | None:
    """A valid Level 3 GeoPlunge (or, with ``three_o``, ThreeOPlunge) showing, or None.

    Deterministic: the same hand in the same order always gives the same showing.
    """
    atlas = atlas or default_atlas()
    codes = tuple(atlas.code(card) for card in hand)
    if len(set(codes)) != len(codes):
        raise InvalidInput("a hand holds each card once: a card is repeated")
    groups = winning_groups(codes, atlas)
    wanted = THREE_O_GROUPS if three_o else GEOPLUNGE_GROUPS

    def search(start: int, used: frozenset[str], chosen: tuple[Group, ...]) -> Showing | None:
        if len(chosen) == wanted:
            return chosen
        for index in range(start, len(groups)):
            group = groups[index]
            if used.isdisjoint(group):
                found = search(index + 1, used.union(group), (*chosen, group))
                if found is not None:
                    return found
        return None

    return search(0, frozenset(), ())


# --- The game -----------------------------------------------------------------------------


class BorderUpLevel3(BorderUpRules):
    """Level 4's Border-Up game with Level 3's deal (18 cards) and groups of 3.

    The actions are Level 4's: ``plunge``, ``border_up.shout``, ``border_up.show`` (with an
    18-card ``hand`` when entered) and ``border_up.verdict``; only the showing is judged here.
    """

    def start(self, context: GameContext) -> BorderUpState:
        if context.level != LEVEL:
            raise InvalidInput(f"Border-Up (Level 3) level {context.level}: expected 3")
        return BorderUpState()

    def _judge(self, state: BorderUpState, action: Show | Verdict) -> tuple[bool, tuple[str, ...]]:
        if isinstance(action, Verdict):
            return action.valid, ()
        if action.hand and len(set(action.hand)) != HAND_SIZE:
            raise InvalidInput(f"a Level 3 Border-Up hand is {HAND_SIZE} different cards")
        check_cards(state, action, HAND_SIZE)
        check = check_showing(action.groups, action.team in state.three_o, action.hand, self.atlas)
        return check.valid, tuple(f"{action.team}: {problem}" for problem in check.problems)
