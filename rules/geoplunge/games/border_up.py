"""Game 1, Border-Up (Level 4): find and sort chains of bordering states, fastest wins.

A group shown in order is a winning group when each state borders the next one (the line from
one end state to the other crosses each state once and no other state). A GeoPlunge showing is
two groups of 4+4 or 5+3; a ThreeOPlunge showing adds a third group of 3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from rules.actions import Action, register
from rules.atlas import Atlas, default_atlas
from rules.errors import IllegalAction, InvalidInput
from rules.geoplunge.games.common import (
    DeclarePlunge,
    GameContext,
    check_plunge,
    check_reason,
    not_this_game,
    require_phase,
)
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

HAND_SIZE = 21
GEOPLUNGE_SIZES = ((4, 4), (3, 5))  # sorted group sizes of the two winning groups
THREE_O_SIZE = 3

Group = tuple[str, ...]
Showing = tuple[Group, ...]


# --- Showing validation -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowingCheck:
    valid: bool
    problems: tuple[str, ...]
    broken_pairs: tuple[tuple[str, str], ...]


def sizes_allowed(sizes: Sequence[int], three_o: bool) -> bool:
    """4+4 or 5+3 (any order); ThreeOPlunge adds one more group of 3."""
    remaining = sorted(sizes)
    if three_o:
        if THREE_O_SIZE not in remaining:
            return False
        remaining.remove(THREE_O_SIZE)
    return tuple(remaining) in GEOPLUNGE_SIZES


def expected_sizes(three_o: bool) -> str:
    return "4+4+3 or 5+3+3 (ThreeOPlunge)" if three_o else "4+4 or 5+3 (GeoPlunge)"


def broken_links(group: Group, atlas: Atlas) -> list[tuple[str, str]]:
    return [(a, b) for a, b in pairwise(group) if not atlas.borders(a, b)]


def showing_problems(
    codes: Showing, sizes_ok: bool, expected: str, hand: Sequence[str], atlas: Atlas
) -> list[str]:
    """A showing's structural faults: wrong group sizes, a card used twice, cards not in hand.

    ``codes`` are the shown groups as postal codes; ``sizes_ok`` says whether their sizes are
    allowed at the level, ``expected`` what the level expects; an empty ``hand`` is not checked.
    """
    problems: list[str] = []
    if not sizes_ok:
        shown = "+".join(str(len(group)) for group in codes) or "nothing"
        problems.append(f"group sizes {shown}: expected {expected}")
    repeated = sorted(code for code, n in Counter(c for g in codes for c in g).items() if n > 1)
    if repeated:
        problems.append(f"card(s) used more than once: {', '.join(repeated)}")
    if hand:
        hand_codes = {atlas.code(card) for card in hand}
        missing = sorted({c for g in codes for c in g} - hand_codes)
        if missing:
            problems.append(f"not in the team's hand: {', '.join(missing)}")
    return problems


# The pairs that do not border and the problems of one group, as a level judges it.
GroupFaults = tuple[list[tuple[str, str]], list[str]]


def _link_faults(group: Group, atlas: Atlas) -> GroupFaults:
    pairs = broken_links(group, atlas)
    return pairs, [f"{a} does not border {b} in group {'-'.join(group)}" for a, b in pairs]


@dataclass(frozen=True, slots=True)
class ShowingRules:
    """How a level judges a showing: the group sizes it allows and each group's faults."""

    sizes_allowed: Callable[[Sequence[int], bool], bool]
    expected_sizes: Callable[[bool], str]
    group_faults: Callable[[Group, Atlas], GroupFaults]
    level_note: str = ""  # follows the expected sizes in the judge's CLI errors

    def check_showing(
        self,
        groups: Showing,
        three_o: bool,
        hand: Sequence[str] = (),
        atlas: Atlas | None = None,
    ) -> ShowingCheck:
        """Judge a showing; structural faults (sizes, reuse, cards not in hand) make it invalid.

        Unknown states raise ``UnknownState``: that is bad input, not a bad showing.
        """
        atlas = atlas or default_atlas()
        codes = tuple(tuple(atlas.code(card) for card in group) for group in groups)
        sizes_ok = self.sizes_allowed([len(group) for group in codes], three_o)
        problems = showing_problems(codes, sizes_ok, self.expected_sizes(three_o), hand, atlas)
        broken: list[tuple[str, str]] = []
        for group in codes:
            pairs, faults = self.group_faults(group, atlas)
            broken.extend(pairs)
            problems.extend(faults)
        return ShowingCheck(
            valid=not problems, problems=tuple(problems), broken_pairs=tuple(broken)
        )

    def require_well_formed(
        self, groups: Showing, three_o: bool, atlas: Atlas | None = None
    ) -> Showing:
        """For the judge's CLI: wrong sizes or a repeated card are bad input, not a failed claim."""
        atlas = atlas or default_atlas()
        codes = tuple(tuple(atlas.code(card) for card in group) for group in groups)
        sizes = [len(group) for group in codes]
        if not self.sizes_allowed(sizes, three_o):
            shown = "+".join(str(size) for size in sizes)
            expected = self.expected_sizes(three_o)
            raise InvalidInput(f"group sizes {shown}: expected {expected}{self.level_note}")
        seen: set[str] = set()
        for code in (c for group in codes for c in group):
            if code in seen:
                raise InvalidInput(
                    f"card {code} is used more than once: each card can be used once"
                )
            seen.add(code)
        return codes


SHOWING_RULES = ShowingRules(sizes_allowed, expected_sizes, _link_faults)
check_showing = SHOWING_RULES.check_showing
require_well_formed = SHOWING_RULES.require_well_formed


# --- Solver -------------------------------------------------------------------------------


def _chains(hand: Sequence[str], atlas: Atlas) -> dict[int, dict[int, Group]]:
    """Every set of 3, 4 or 5 hand cards that can be sorted into a chain, with one such order.

    Keyed by size, then by the bit mask of the cards (bit i = hand[i]).
    """
    codes = list(hand)
    neighbours = [
        [j for j, other in enumerate(codes) if other in atlas.lookup(code).borders]
        for code in codes
    ]
    chains: dict[int, dict[int, Group]] = {3: {}, 4: {}, 5: {}}

    def extend(path: list[int], mask: int) -> None:
        size = len(path)
        if size >= 3:
            chains[size].setdefault(mask, tuple(codes[i] for i in path))
        if size == 5:
            return
        for j in neighbours[path[-1]]:
            if not mask >> j & 1:
                path.append(j)
                extend(path, mask | 1 << j)
                path.pop()

    for start in range(len(codes)):
        extend([start], 1 << start)
    return chains


def _geoplunge_pairs(chains: dict[int, dict[int, Group]]) -> Iterator[tuple[int, int]]:
    """Disjoint (first, second) masks forming 4+4 or 5+3, largest group first."""
    fours = list(chains[4])
    for i, first in enumerate(fours):
        for second in fours[i + 1 :]:
            if not first & second:
                yield first, second
    for first in chains[5]:
        for second in chains[3]:
            if not first & second:
                yield first, second


def solve(hand: Sequence[str], three_o: bool = False, atlas: Atlas | None = None) -> Showing | None:
    """A valid GeoPlunge (or, with ``three_o``, ThreeOPlunge) showing from the hand, or None.

    Deterministic: the same hand in the same order always gives the same showing.
    """
    atlas = atlas or default_atlas()
    codes = tuple(atlas.code(card) for card in hand)
    if len(set(codes)) != len(codes):
        raise InvalidInput("a hand holds each card once: a card is repeated")
    chains = _chains(codes, atlas)
    for first, second in _geoplunge_pairs(chains):
        size = bin(first).count("1"), bin(second).count("1")
        pair = (chains[size[0]][first], chains[size[1]][second])
        if not three_o:
            return pair
        used = first | second
        for third, group in chains[3].items():
            if not third & used:
                return (*pair, group)
    return None


# --- The game -----------------------------------------------------------------------------


@register("border_up.shout")
@dataclass(frozen=True, slots=True)
class Shout(Action):
    """Who shouted first: one team, or both at once. ``three_o`` names those who shouted
    ThreeOPlunge rather than GeoPlunge."""

    shouters: frozenset[Team]
    three_o: frozenset[Team] = frozenset()


@register("border_up.show")
@dataclass(frozen=True, slots=True)
class Show(Action):
    """A shouting team's groups in the order shown; ``hand`` is its 21 cards when entered."""

    team: Team
    groups: tuple[tuple[str, ...], ...]
    hand: tuple[str, ...] = ()


@register("border_up.verdict")
@dataclass(frozen=True, slots=True)
class Verdict(Action):
    """The dealer's YES/NO on a shouting team's showing when the cards are not entered."""

    team: Team
    valid: bool


@register("border_up.overrule")
@dataclass(frozen=True, slots=True)
class Overrule(Action):
    """The dealer's verdict against the rules' check of a showing a team typed on the table's
    web page (the groups typed are not the cards on the table, say), with the reason."""

    team: Team
    valid: bool
    reason: str


def overruled(action: Overrule) -> str:
    """The record of an overrule, among the showing's problems; its reason is checked."""
    reason = check_reason(action.reason)
    verdict = "valid" if action.valid else "not valid"
    return f"{action.team}: the dealer overruled the rules' check ({verdict}): {reason}"


@dataclass(frozen=True, slots=True)
class BorderUpState:
    plunging: frozenset[Team] | None = None
    shouters: frozenset[Team] = frozenset()
    three_o: frozenset[Team] = frozenset()
    showings: tuple[tuple[Team, bool], ...] = ()  # (team, valid) in the order judged
    problems: tuple[str, ...] = ()
    shown: frozenset[str] = frozenset()  # the cards shown so far (groups and hands): one per state
    result: GameResult | None = None

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        if self.plunging is None:
            return "plunge"
        if not self.shouters:
            return "race"
        return "showing"

    @property
    def awaiting_showing(self) -> tuple[Team, ...]:
        judged = {team for team, _ in self.showings}
        return tuple(sorted(self.shouters - judged))


def _decide(state: BorderUpState) -> GameResult | None:
    if state.awaiting_showing:
        return None
    valid = {team for team, ok in state.showings if ok}
    if len(state.shouters) == 1:
        (shouter,) = state.shouters
        if shouter in valid:
            three_o = shouter in state.three_o
            call = "ThreeOPlunge" if three_o else "GeoPlunge"
            return GameResult(shouter, bonus=three_o, reason=f"{shouter} showed a valid {call}")
        return GameResult(
            shouter.other, bonus=True, reason=f"{shouter} shouted but did not show valid groups"
        )
    if len(valid) == 1:
        (winner,) = valid
        return GameResult(winner, bonus=True, reason=f"both shouted; only {winner} was valid")
    return GameResult(
        None, reason="both shouted at once; " + ("both valid" if valid else "neither valid")
    )


def check_cards(state: BorderUpState, action: Show, hand_size: int) -> None:
    """Refused before any judging: more cards than a hand holds (a huge showing would also be
    slow to judge), or a card the other team has already shown (one card per state)."""
    shown = sum(len(group) for group in action.groups)
    if shown > hand_size or len(action.hand) > hand_size:
        raise InvalidInput(
            f"team {action.team} shows {shown} cards in a hand of {len(action.hand)}: "
            f"a Border-Up hand is {hand_size} cards"
        )
    again = sorted(_cards_of(action) & state.shown)
    if again:
        raise InvalidInput(
            f"team {action.team} shows {', '.join(again)}, already shown by the other team: "
            "there is one card per state"
        )


def _cards_of(action: Show | Verdict | Overrule) -> frozenset[str]:
    if not isinstance(action, Show):
        return frozenset()
    return frozenset(card for group in action.groups for card in group) | frozenset(action.hand)


class BorderUpRules:
    number = 1
    key = "border_up"
    title = "Border-Up"

    def __init__(self, atlas: Atlas | None = None) -> None:
        self.atlas = atlas or default_atlas()

    def start(self, context: GameContext) -> BorderUpState:
        if context.level != 4:
            raise InvalidInput(f"Border-Up level {context.level}: expected 4")
        return BorderUpState()

    def apply(self, state: BorderUpState, action: Action) -> BorderUpState:
        if isinstance(action, DeclarePlunge):
            require_phase(state, "plunge")
            return replace(state, plunging=check_plunge(action.plunging))
        if isinstance(action, Shout):
            require_phase(state, "race")
            if not action.shouters or not action.three_o <= action.shouters:
                raise InvalidInput(
                    "a shout names one or both teams; ThreeOPlunge only for a shouting team"
                )
            return replace(state, shouters=action.shouters, three_o=action.three_o)
        if isinstance(action, Show | Verdict | Overrule):
            require_phase(state, "showing")
            if action.team not in state.awaiting_showing:
                raise IllegalAction(
                    f"team {action.team} has no showing to judge: expected "
                    f"{' or '.join(state.awaiting_showing)}"
                )
            problems: tuple[str, ...]
            if isinstance(action, Overrule):
                valid, problems = action.valid, (overruled(action),)
            else:
                valid, problems = self._judge(state, action)
            cards = _cards_of(action)
            judged = replace(
                state,
                showings=(*state.showings, (action.team, valid)),
                problems=state.problems + problems,
                shown=state.shown | cards,
            )
            return replace(judged, result=_decide(judged))
        raise not_this_game(self.title, action)

    def _judge(self, state: BorderUpState, action: Show | Verdict) -> tuple[bool, tuple[str, ...]]:
        if isinstance(action, Verdict):
            return action.valid, ()
        if action.hand and len(set(action.hand)) != HAND_SIZE:
            raise InvalidInput(f"a Border-Up hand is {HAND_SIZE} different cards")
        check_cards(state, action, HAND_SIZE)
        check = check_showing(action.groups, action.team in state.three_o, action.hand, self.atlas)
        return check.valid, tuple(f"{action.team}: {problem}" for problem in check.problems)
