"""Game 3, Dashing States (Level 4): up to three sorting races, best of three.

Phases: ``plunge`` -> ``race`` (races 1 and 2) -> ``category`` (the Power card turned for race
3) -> ``race`` -> ``over``; the game may end after race 2.

Race 1 sorts 6 Map cards alphabetically by state name, race 2 by capital name, race 3 by the
Power card's category, rank 1 first or rank 50 first (R18). The dealer judges each shouting team
(order, unused card face-down, each player unaided); when the 6 cards are entered the core checks
the order itself. A shouting team may type its cards on the table's web page: the core reads
them and checks the order before the dealer's verdict; a dealer who rules the team met the
conditions against the order records the race as ``dashing.race_overruled`` with the reason
(R483).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise, product

from rules.actions import Action, register
from rules.atlas import Atlas, Category, StateFacts, default_atlas, parse_cards
from rules.errors import IllegalAction, InvalidInput
from rules.geoplunge.games.best_of_three import series_result, wins
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

RACE_CARDS = 6
SortKey = tuple[int, str]  # (rank, "") for a ranking race, (0, name) for an alphabetical one
# Capitals printed abbreviated that a player may equally file under the spelled-out name.
ALPHABETICAL_ALIASES: dict[str, tuple[str, ...]] = {"St. Paul": ("Saint Paul",)}


@register("dashing.category")
@dataclass(frozen=True, slots=True)
class DashingCategory(Action):
    """The category on the Power card turned for race 3."""

    category: Category


@register("dashing.race")
@dataclass(frozen=True, slots=True)
class DashingRace(Action):
    """How one race ended.

    ``shouters``: the team that shouted GeoPlunge first, or both when they shouted together.
    ``a_met``/``b_met``: for each shouting team (and only those), the dealer's verdict that it met
    all three conditions. ``a_cards``/``b_cards``: optionally a shouting team's 6 Map cards in
    the order laid down, which the core then checks and retires from later races.
    """

    shouters: frozenset[Team]
    a_met: bool | None = None
    b_met: bool | None = None
    a_cards: tuple[str, ...] | None = None
    b_cards: tuple[str, ...] | None = None

    def met(self, team: Team) -> bool | None:
        return self.a_met if team is Team.A else self.b_met

    def cards(self, team: Team) -> tuple[str, ...] | None:
        return self.a_cards if team is Team.A else self.b_cards

    def reason(self, team: Team) -> str | None:
        """Why the dealer ruled ``team`` met the conditions against its cards' order."""
        return None


@register("dashing.race_overruled")
@dataclass(frozen=True, slots=True)
class DashingRaceOverruled(DashingRace):
    """A race in which the dealer overruled the core's check of a team's order: that team's
    cards (typed on the table's web page) are kept, unchecked, with the reason (R483)."""

    a_reason: str | None = None
    b_reason: str | None = None

    def reason(self, team: Team) -> str | None:
        return self.a_reason if team is Team.A else self.b_reason


@dataclass(frozen=True, slots=True)
class DashingState:
    plunging: frozenset[Team] | None = None
    races: tuple[Team | None, ...] = ()  # each race's winner; None is a tied race
    category: Category | None = None  # race 3's Power card
    used_cards: frozenset[str] = frozenset()
    overrules: tuple[str, ...] = ()  # the dealer's overrules of the cards' order, with reasons
    result: GameResult | None = None

    @property
    def phase(self) -> str:
        if self.result is not None:
            return "over"
        if self.plunging is None:
            return "plunge"
        if self.race_number == 3 and self.category is None:
            return "category"
        return "race"

    @property
    def race_number(self) -> int:
        """The race being run, or the last one run once the game is over."""
        return len(self.races) if self.result is not None else len(self.races) + 1

    @property
    def sort_by(self) -> str | None:
        """What the teams sort by in the current race, for the dealer's display."""
        return sort_description(self.race_number, self.category)

    def wins(self, team: Team) -> int:
        return wins(self.races, team)


def sort_description(race_number: int, category: Category | None = None) -> str | None:
    if race_number == 1:
        return "state name, A to Z"
    if race_number == 2:
        return "capital, A to Z"
    return None if category is None else f"{category} ranking, 1 first"


def _sort_keys(race_number: int, state: StateFacts, category: Category | None) -> list[SortKey]:
    """Every key a card may sort under in this race (two only for an abbreviated capital)."""
    if race_number == 1:
        return [(0, _alphabetical(state.name))]
    if race_number == 2:
        spellings = (state.capital, *ALPHABETICAL_ALIASES.get(state.capital, ()))
        return [(0, _alphabetical(spelling)) for spelling in spellings]
    assert category is not None  # checked by _check_race
    return [(state.rank(category), "")]


def _check_race(race_number: int, category: Category | None) -> None:
    if race_number not in (1, 2, 3):
        raise InvalidInput(f"race {race_number}: expected race 1, 2 or 3")
    if race_number == 3 and category is None:
        raise InvalidInput("race 3 sorts by the Power card's category: expected a category")
    if race_number != 3 and category is not None:
        raise InvalidInput(f"race {race_number} sorts alphabetically: expected no category")


def _alphabetical(text: str) -> str:
    return " ".join(text.replace(".", " ").split()).casefold()


def first_out_of_order(
    race_number: int,
    cards: Sequence[str],
    category: Category | None = None,
    atlas: Atlas | None = None,
) -> tuple[str, str] | None:
    """The first adjacent pair (postal codes) in the wrong order, or None if the order is right.

    Checks order only, not how many cards there are. Where a card may sort under two spellings
    (St. Paul / Saint Paul) either is accepted; a wrong order is reported as printed.
    """
    _check_race(race_number, category)
    atlas = atlas or default_atlas()
    states = [atlas.lookup(card) for card in cards]
    choices = [_sort_keys(race_number, state, category) for state in states]
    readings = list(product(*choices))
    for keys in readings:
        if all(left < right for left, right in pairwise(keys)):
            return None
        # Race 3 may run either way, rank 1 first or rank 50 first, as long as all six cards
        # run the same way (R18): a team does not lose a race to a convention (R19).
        if race_number == 3 and all(left > right for left, right in pairwise(keys)):
            return None
    printed = readings[0]
    for index, (left, right) in enumerate(pairwise(printed)):
        if not left < right:
            return states[index].code, states[index + 1].code
    raise AssertionError("unreachable: the printed reading is out of order")


def race_order_valid(
    race_number: int,
    cards: Sequence[str],
    category: Category | None = None,
    atlas: Atlas | None = None,
) -> bool:
    """Whether ``cards`` (names or postal codes, as laid down) are in this race's order."""
    return first_out_of_order(race_number, cards, category, atlas) is None


def race_winner(shouters: frozenset[Team], met: frozenset[Team]) -> Team | None:
    """One shouter: it wins if it met the conditions, else the other team. Both: tie unless
    exactly one of them met them."""
    if len(shouters) == 1:
        (shouter,) = shouters
        return shouter if shouter in met else shouter.other
    return next(iter(met)) if len(met) == 1 else None


class DashingStates:
    number: int = 3
    key: str = "dashing"
    title: str = "Dashing States"

    def __init__(self, atlas: Atlas | None = None) -> None:
        self._atlas = atlas or default_atlas()

    def start(self, context: GameContext) -> DashingState:
        if context.level != 4:
            raise InvalidInput(f"{self.title} level {context.level}: expected level 4")
        return DashingState()

    def apply(self, state: DashingState, action: Action) -> DashingState:
        match action:
            case DeclarePlunge():
                require_phase(state, "plunge")
                return replace(state, plunging=check_plunge(action.plunging))
            case DashingCategory():
                require_phase(state, "category")
                return replace(state, category=action.category)
            case DashingRace():
                require_phase(state, "race")
                return self._race(state, action)
        raise not_this_game(self.title, action)

    def laid(
        self, state: DashingState, team: Team, text: str
    ) -> tuple[tuple[str, ...], str | None]:
        """A shouting team's cards as typed (``KS, MO, ...``), read and checked for this race
        (6 cards, none used before: else the core's error), and why their order is wrong, if
        it is. Whether the team also laid its unused card down and answered unaided is the
        dealer's to judge."""
        cards = [card.strip() for card in text.split(",")]
        if not all(cards):
            raise InvalidInput(
                f"cards {text.strip()!r}: expected {RACE_CARDS} states split by commas, none empty"
            )
        codes = _race_cards(state, team, parse_cards(cards, self._atlas), self._atlas)
        wrong = self._out_of_order(state, codes)
        if wrong is None:
            return codes, None
        return codes, f"{wrong[0]} before {wrong[1]}, sorting by {state.sort_by}"

    def _race(self, state: DashingState, action: DashingRace) -> DashingState:
        met = _verdicts(action)
        laid = self._laid_cards(state, action)
        overrules = list(state.overrules)
        for team, cards in laid.items():
            reason = action.reason(team)
            if reason is None:
                self._check_order(state, team, cards, team in met)
            elif team in met:
                why = check_reason(reason)
                overrules.append(
                    f"race {state.race_number}, Team {team}: the dealer overruled the cards' "
                    f"order: {why}"
                )
            else:
                raise InvalidInput(
                    f"a reason for Team {team}, which did not meet the conditions: expected a "
                    f"reason only with {team.value.lower()}_met true"
                )
        for team in Team:
            if action.reason(team) is not None and team not in laid:
                raise InvalidInput(f"a reason for Team {team}: expected its cards with it")
        races = (*state.races, race_winner(action.shouters, met))
        used = state.used_cards.union(*laid.values())
        return replace(
            state,
            races=races,
            used_cards=used,
            overrules=tuple(overrules),
            result=series_result(races, "race"),
        )

    def _laid_cards(self, state: DashingState, action: DashingRace) -> dict[Team, tuple[str, ...]]:
        laid: dict[Team, tuple[str, ...]] = {}
        for team in Team:
            given = action.cards(team)
            if given is None:
                continue
            if team not in action.shouters:
                raise InvalidInput(f"cards given for Team {team}: expected cards only for shouters")
            laid[team] = _race_cards(state, team, given, self._atlas)
        if len(laid) == 2 and set(laid[Team.A]) & set(laid[Team.B]):
            shared = ", ".join(sorted(set(laid[Team.A]) & set(laid[Team.B])))
            raise InvalidInput(f"both teams laid down {shared}: expected cards from one deck")
        return laid

    def _out_of_order(self, state: DashingState, cards: tuple[str, ...]) -> tuple[str, str] | None:
        return first_out_of_order(state.race_number, cards, state.category, self._atlas)

    def _check_order(
        self, state: DashingState, team: Team, cards: tuple[str, ...], met: bool
    ) -> None:
        """Refuse a 'met' verdict the cards contradict, so a mistyped card is caught, not scored."""
        wrong = self._out_of_order(state, cards)
        if met and wrong is not None:
            raise InvalidInput(
                f"Team {team}'s cards are out of order ({wrong[0]} before {wrong[1]}, sorting by "
                f"{state.sort_by}): expected {team.value.lower()}_met false or corrected cards"
            )


def _verdicts(action: DashingRace) -> frozenset[Team]:
    """The shouting teams that met all three conditions; every shouter needs a verdict."""
    if not action.shouters:
        raise InvalidInput("no team shouted: expected the first team (or both) to shout")
    for team in Team:
        verdict = action.met(team)
        if team in action.shouters and verdict is None:
            raise InvalidInput(f"Team {team} shouted: expected a verdict {team.value.lower()}_met")
        if team not in action.shouters and verdict is not None:
            raise InvalidInput(f"Team {team} did not shout: expected no {team.value.lower()}_met")
    return frozenset(team for team in action.shouters if action.met(team))


def _race_cards(
    state: DashingState, team: Team, given: tuple[str, ...], atlas: Atlas
) -> tuple[str, ...]:
    codes = parse_cards(given, atlas)
    if len(codes) != RACE_CARDS:
        raise InvalidInput(f"Team {team} laid down {len(codes)} cards: expected {RACE_CARDS}")
    reused = sorted(state.used_cards.intersection(codes))
    if reused:
        raise IllegalAction(
            f"Team {team} used {', '.join(reused)} in an earlier race: "
            "expected cards not used in an earlier race of this game"
        )
    return codes
