"""Game 4's trick judges: Play the Ranks (PTR1/PTR2) by rank and base, Border Zap by borders.

Pure functions over the atlas, used by the Game 4 state machines and directly by the judge's
CLI. Rulings are in docs/rulings.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.atlas import Atlas, Category, StateFacts, default_atlas
from rules.errors import InvalidInput
from rules.geoplunge.power import Game4Version, check_base
from rules.geoplunge.teams import Team

LOWEST_RANK, HIGHEST_RANK = 1, 50
FLOOR_BASES = (10, 20, 30)  # a rank below one of these loses automatically


class TrickSide(StrEnum):
    """Which card won a trick: the lead team's or the other team's."""

    LEAD = "lead"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class TeamTally:
    """A count per team (tricks won, Power cards played), immutable like the states using it."""

    a: int = 0
    b: int = 0

    def __getitem__(self, team: Team) -> int:
        return self.a if team is Team.A else self.b

    def add(self, team: Team, amount: int = 1) -> TeamTally:
        if team is Team.A:
            return TeamTally(self.a + amount, self.b)
        return TeamTally(self.a, self.b + amount)


# --- ranks, bases and the BUR ------------------------------------------------------------


def rank_key(base: int, rank: int) -> tuple[int, int]:
    """Sort key of a rank under a base: smaller is better.

    Base 1 counts up from 1, base 50 counts down from 50, and a 10/20/30 base counts up from
    the base. Every rank below a 10/20/30 base gets the same worst key (1, 0): it loses
    automatically, and two such cards tie, which the judge gives to the lead.
    """
    check_base(base)
    if not LOWEST_RANK <= rank <= HIGHEST_RANK:
        raise InvalidInput(f"rank {rank} is not a card rank: expected 1 to 50")
    if base == 50:
        return (0, 50 - rank)
    if rank < base:
        return (1, 0)
    return (0, rank - base)


def is_below_base(base: int, rank: int) -> bool:
    return base in FLOOR_BASES and rank < base


def bur_rank(base: int, bur_cards: tuple[str, ...], atlas: Atlas | None = None) -> int | None:
    """The Best Unprotected Ranking: the best rank for ``base`` in any category of any BUR card.

    None without BUR cards. When every BUR rank is below a 10/20/30 base, the one closest to
    the base is reported; it protects nothing below the base and everything at or above it.
    """
    check_base(base)
    atlas = atlas or default_atlas()
    ranks = [atlas.lookup(card).rank(category) for card in bur_cards for category in Category]
    if not ranks:
        return None
    return min(ranks, key=lambda rank: (rank_key(base, rank), -rank))


def is_protected(
    lead: str,
    category: Category,
    base: int,
    bur_cards: tuple[str, ...],
    *,
    lead_power: Category | None = None,
    atlas: Atlas | None = None,
) -> bool:
    """A lead card is protected by a lead Power card, or by ranking strictly better than the BUR."""
    if lead_power is not None:
        return True
    atlas = atlas or default_atlas()
    bur = bur_rank(base, bur_cards, atlas)
    if bur is None:
        return False
    lead_rank = atlas.lookup(lead).rank(category)
    return rank_key(base, lead_rank) < rank_key(base, bur)


# --- Play the Ranks ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Trick:
    """One PTR trick as played: the cards, the announcements and any Power cards.

    ``base`` and ``category`` are what the lead announced (in PTR1 the base is the one in
    force). ``other_power_base`` is the left-corner number of the other team's Power card,
    needed only when it announces "Change the Base" (PTR2). ``bases`` are the game's two bases
    and may be empty when unknown.
    """

    version: Game4Version
    base: int
    category: Category
    lead: str
    other: str
    lead_power: Category | None = None
    other_power: Category | None = None
    other_power_base: int | None = None
    change_base: bool = False
    bur: tuple[str, ...] = ()
    bases: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TrickDecision:
    """The judge's answer: the winning side, the category and base that decided the trick,
    whether the lead card was protected, the BUR for the announced base and one sentence why."""

    winner: TrickSide
    category: Category
    base: int
    protected: bool
    bur: int | None
    reason: str
    lead_rank: int
    other_rank: int


def judge_trick(trick: Trick, atlas: Atlas | None = None) -> TrickDecision:
    """Who wins a PTR trick, with the category and base that decided it and why."""
    atlas = atlas or default_atlas()
    lead, other = _check_trick(trick, atlas)
    bur = bur_rank(trick.base, trick.bur, atlas)
    protected = is_protected(
        lead.code, trick.category, trick.base, trick.bur, lead_power=trick.lead_power, atlas=atlas
    )
    category, base, how = _category_and_base(trick, protected, bur, lead)
    lead_rank, other_rank = lead.rank(category), other.rank(category)
    other_wins = rank_key(base, other_rank) < rank_key(base, lead_rank)
    outcome = _outcome(category, base, lead, other, other_wins)
    return TrickDecision(
        winner=TrickSide.OTHER if other_wins else TrickSide.LEAD,
        category=category,
        base=base,
        protected=protected,
        bur=bur,
        reason=_sentence([*how, outcome]),
        lead_rank=lead_rank,
        other_rank=other_rank,
    )


def _check_trick(trick: Trick, atlas: Atlas) -> tuple[StateFacts, StateFacts]:
    if trick.version is Game4Version.PTB:
        raise InvalidInput("a Border Zap trick has no ranks: expected a PTR1 or PTR2 trick")
    check_base(trick.base)
    for base in trick.bases:
        check_base(base)
    if trick.bases and trick.base not in trick.bases:
        raise InvalidInput(
            f"base {trick.base} is not one of this game's bases: expected {_either(trick.bases)}"
        )
    lead = atlas.lookup(trick.lead)
    other = atlas.lookup(trick.other)
    if lead.code == other.code:
        raise InvalidInput(f"both teams played {lead.code}: expected two different cards")
    bur_codes = [atlas.lookup(card).code for card in trick.bur]
    if len(set(bur_codes)) != len(bur_codes):
        raise InvalidInput("a BUR card is listed twice: expected different BUR cards")
    if trick.other_power_base is not None:
        check_base(trick.other_power_base)
        if trick.other_power is None:
            raise InvalidInput(
                "a left-corner number without the other team's Power card: expected its "
                "category too"
            )
    if trick.change_base:
        _check_change_base(trick)
    return lead, other


def _check_change_base(trick: Trick) -> None:
    if trick.version is not Game4Version.PTR2:
        raise InvalidInput("Change the Base is a PTR2 rule: this trick is PTR1")
    if trick.other_power is None or trick.other_power_base is None:
        raise InvalidInput(
            "Change the Base needs the other team's Power card: expected its category and its "
            "left-corner number"
        )
    new_base = trick.other_power_base
    if new_base == trick.base:
        raise InvalidInput(
            f"Change the Base to {new_base}: the lead already announced base {new_base}, "
            "expected the game's other base"
        )
    if trick.bases and new_base not in trick.bases:
        raise InvalidInput(
            f"Change the Base to {new_base}: {new_base} is not one of this game's bases, "
            f"expected {_either(trick.bases)}"
        )


def _category_and_base(
    trick: Trick, protected: bool, bur: int | None, lead: StateFacts
) -> tuple[Category, int, list[str]]:
    """Apply the Power cards: the lead's locks the category; the other's needs an unprotected
    lead card and then changes the category (or, with Change the Base, the base)."""
    if trick.lead_power is not None:
        how = f"the lead's Power card locks the category to {trick.lead_power}"
        return trick.lead_power, trick.base, [how]
    if trick.other_power is None:
        return trick.category, trick.base, []
    if protected:
        rank = lead.rank(trick.category)
        how = (
            f"{lead.name}'s {trick.category} rank {rank} beats the BUR {bur} for base "
            f"{trick.base}, so it is protected and the other team's Power card changes nothing"
        )
        return trick.category, trick.base, [how]
    if trick.change_base:
        assert trick.other_power_base is not None  # checked by _check_change_base
        how = f"the other team's Power card changes the base to {trick.other_power_base}"
        return trick.category, trick.other_power_base, [how]
    if trick.other_power is trick.category:
        how = f"the other team's Power card names the announced category, {trick.category}"
    else:
        how = f"the other team's Power card makes the category {trick.other_power}"
    return trick.other_power, trick.base, [how]


def _outcome(
    category: Category, base: int, lead: StateFacts, other: StateFacts, other_wins: bool
) -> str:
    lead_rank, other_rank = lead.rank(category), other.rank(category)
    lead_below, other_below = is_below_base(base, lead_rank), is_below_base(base, other_rank)
    if lead_below and other_below:
        return (
            f"both {category} ranks ({lead.name} {lead_rank}, {other.name} {other_rank}) are "
            f"below the base {base}, so the lead wins"
        )
    if lead_below or other_below:
        loser, rank = (lead, lead_rank) if lead_below else (other, other_rank)
        return (
            f"{loser.name}'s {category} rank {rank} is below the base {base}: "
            "it loses automatically"
        )
    winner, loser = (other, lead) if other_wins else (lead, other)
    return (
        f"{winner.name}'s {category} rank {winner.rank(category)} beats {loser.name}'s "
        f"{loser.rank(category)} with base {base}"
    )


# --- Border Zap ----------------------------------------------------------------------------


class ZapCondition(StrEnum):
    """The three ways the other team's card Zaps the lead's card."""

    BORDERS = "borders the lead's state"
    COMMON_BORDER = "shares a border state with the lead's state"
    SAME_COUNT = "has the same number of border states"


@dataclass(frozen=True, slots=True)
class ZapDecision:
    winner: TrickSide
    reasons: tuple[ZapCondition, ...]
    reason: str


def judge_zap(lead: str, other: str, atlas: Atlas | None = None) -> ZapDecision:
    """The other card wins iff it Zaps the lead card; otherwise the lead wins."""
    atlas = atlas or default_atlas()
    lead_state = atlas.lookup(lead)
    other_state = atlas.lookup(other)
    if lead_state.code == other_state.code:
        raise InvalidInput(f"both teams played {lead_state.code}: expected two different cards")
    common = sorted(atlas.lookup(code).name for code in lead_state.borders & other_state.borders)
    held = [
        condition
        for condition, holds in (
            (ZapCondition.BORDERS, other_state.code in lead_state.borders),
            (ZapCondition.COMMON_BORDER, bool(common)),
            (ZapCondition.SAME_COUNT, len(lead_state.borders) == len(other_state.borders)),
        )
        if holds
    ]
    return ZapDecision(
        winner=TrickSide.OTHER if held else TrickSide.LEAD,
        reasons=tuple(held),
        reason=_zap_reason(lead_state, other_state, held, common),
    )


def _zap_reason(
    lead: StateFacts, other: StateFacts, held: list[ZapCondition], common: list[str]
) -> str:
    if not held:
        return (
            f"{other.name} does not border {lead.name}, shares no border state with it and has "
            f"{_border_count(other)} to its {len(lead.borders)}: the lead wins"
        )
    details = {
        ZapCondition.BORDERS: f"borders {lead.name}",
        ZapCondition.COMMON_BORDER: f"shares {_listing(common)} with {lead.name}",
        ZapCondition.SAME_COUNT: f"has {_border_count(lead)} like {lead.name}",
    }
    return f"{other.name} {_listing([details[c] for c in held])}: it zaps {lead.name}"


# --- helpers -------------------------------------------------------------------------------


def _border_count(state: StateFacts) -> str:
    count = len(state.borders)
    return f"{count} border state" if count == 1 else f"{count} border states"


def _sentence(clauses: list[str]) -> str:
    text = "; ".join(clauses)
    return text[:1].upper() + text[1:]


def _either(bases: tuple[int, ...]) -> str:
    return " or ".join(str(base) for base in dict.fromkeys(bases))


def _listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
