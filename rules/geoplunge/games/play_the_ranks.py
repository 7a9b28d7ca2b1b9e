"""Play the Ranks 1 and 2 (Game 4, Level 4) as a pure state machine; the version is a field.

Phases in rulebook order: statehood draw (only when the match names no lead) → three Power
cards turned → Cards/Call roles (with Up the BUR) → the Call team keeps two bases → BUR cards
dealt → Pull the Power → plunge → GeoStar → 8 tricks. Deals and discards are physical and not
modelled. Rulings: docs/rulings.md.

A table driven by the dealer's buttons enters what it cannot type as the dealer's verdicts:
``draw_winner`` for the statehood draw, ``game4.bur_dealt`` for the BUR cards (their number
only) and ``game4.trick_result`` for a trick (its winner and which teams played a Power card).
A result-only trick records no cards; the game's bookkeeping (who leads, Power cards, the
result) is the same as for a trick entered card by card and judged here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from rules.actions import Action, register
from rules.atlas import Atlas, Category, default_atlas
from rules.errors import GameOver, IllegalAction, InvalidInput
from rules.geoplunge.games.common import (
    DeclarePlunge,
    DrawWinner,
    GameContext,
    StatehoodDraw,
    check_plunge,
    draw_result,
    not_this_game,
    require_phase,
)
from rules.geoplunge.games.tricks import TeamTally, Trick, TrickDecision, TrickSide, judge_trick
from rules.geoplunge.power import Game4Version, check_base
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

TRICKS_PER_GAME = 8
TRICKS_PER_BASE = 4  # PTR1: the first base for tricks 1-4, the second for tricks 5-8
EARLY_WIN_TRICKS = 6
WINNING_TRICKS = 5
POWER_CARDS_PER_TEAM = 2
TURNED_POWER_CARDS = 3
DEFAULT_BUR_COUNT = 2
UP_THE_BUR_COUNTS = (3, 4, 5)
TOP_CITIES = 5


class Role(StrEnum):
    CARDS = "cards"
    CALL = "call"


class StarArea(StrEnum):
    """What the Star Area of the GeoStar Power card asks the lead to give on each trick."""

    STATE_NAME = "state_name"
    CAPITAL = "capital"
    POSTAL_CODE = "postal_code"
    NICKNAME = "nickname"
    TOP_CITY = "top_city"
    FLOWER = "flower"
    BIRD = "bird"


class RanksPhase(StrEnum):
    STATEHOOD_DRAW = "statehood_draw"
    POWER_CARDS = "power_cards"
    ROLES = "roles"  # the first trick's lead says Cards or Call
    ROLES_REPLY = "roles_reply"  # after "Call": the second team says Cards or Up the BUR
    ROLES_FINAL = "roles_final"  # after Up the BUR: the first team says Call or Cards
    CALL = "call"  # the Call team keeps two of the three Power cards
    BUR = "bur"
    PULL_CALL_TEAM = "pull_call_team"
    PULL_CARDS_TEAM = "pull_cards_team"
    PLUNGE = "plunge"
    GEOSTAR = "geostar"
    TRICKS = "tricks"
    OVER = "over"


# --- actions -------------------------------------------------------------------------------


@register("game4.power_cards")
@dataclass(frozen=True, slots=True)
class TurnPowerCards(Action):
    """The left-corner numbers of the three face-up Power cards, all different."""

    bases: tuple[int, ...]


@register("game4.role")
@dataclass(frozen=True, slots=True)
class AnnounceRole(Action):
    """A team says "Cards" or "Call" during the role negotiation of Step 2."""

    team: Team
    role: Role


@register("game4.up_the_bur")
@dataclass(frozen=True, slots=True)
class UpTheBur(Action):
    """The second team answers "Call" with "Up the BUR", naming 3, 4 or 5 BUR cards."""

    team: Team
    bur_count: int


@register("game4.call")
@dataclass(frozen=True, slots=True)
class KeepBases(Action):
    """The Call team removes one Power card and keeps two: in PTR1 in order (tricks 1-4, 5-8)."""

    team: Team
    bases: tuple[int, ...]


@register("game4.bur")
@dataclass(frozen=True, slots=True)
class DealBur(Action):
    """The BUR cards dealt face-up to the Cards team."""

    cards: tuple[str, ...]


@register("game4.bur_dealt")
@dataclass(frozen=True, slots=True)
class BurDealt(Action):
    """The BUR cards were dealt face-up to the Cards team but not entered: only their number,
    which must be the game's (2, or the Up the BUR number). Protection is then the dealer's to
    judge, so only ``game4.trick_result`` tricks follow."""

    count: int


@register("game4.pull")
@dataclass(frozen=True, slots=True)
class DeclarePull(Action):
    """A team declares whether it is Pulling the Power: the Call team first, then the Cards team."""

    team: Team
    pulling: bool


@register("game4.geostar")
@dataclass(frozen=True, slots=True)
class SetGeoStar(Action):
    """The Star Area of the next Power card; ``top_city`` is its position 1-5 for a top city."""

    star: StarArea
    top_city: int | None = None


@register("game4.trick")
@dataclass(frozen=True, slots=True)
class PlayRanksTrick(Action):
    """One trick: cards, the lead's announcements and any face-up Power cards.

    ``base`` is announced by the lead in PTR2 and may be omitted in PTR1 (the base in force).
    ``other_power_base`` is the left-corner number of the other team's Power card, needed for
    "Change the Base" (PTR2).
    """

    lead: str
    category: Category
    other: str
    base: int | None = None
    lead_power: Category | None = None
    other_power: Category | None = None
    other_power_base: int | None = None
    change_base: bool = False


@register("game4.trick_result")
@dataclass(frozen=True, slots=True)
class TrickResult(Action):
    """One trick judged by the dealer at the table: ``winner`` took it; ``lead_power`` and
    ``other_power`` say whether the lead team and the other team played a Power card on it.
    No cards are entered (a disputed trick goes to ``gametable check trick``)."""

    winner: Team
    lead_power: bool = False
    other_power: bool = False


# --- state ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrickPlayed:
    """One trick. Entered card by card (``game4.trick``) it has the ``trick`` as played and the
    judge's ``decision``; judged at the table (``game4.trick_result``) both are None. Either
    way it has its ``winner`` and whether each team played a Power card on it."""

    number: int
    lead_team: Team
    winner: Team
    lead_power: bool = False
    other_power: bool = False
    trick: Trick | None = None
    decision: TrickDecision | None = None

    @property
    def judged_at_table(self) -> bool:
        """Whether the dealer entered only the result (the cards are unknown)."""
        return self.decision is None


@dataclass(frozen=True, slots=True)
class PlayTheRanksState:
    """A PTR game. ``lead`` is the team leading the next trick (the first trick's lead until
    tricks start); ``bases`` are the two kept bases, in PTR1 in trick order."""

    version: Game4Version
    phase: RanksPhase
    early_end: bool = True  # Level 3 only (R68): Level 4 always ends at 6 tricks
    first_lead: Team | None = None
    lead: Team | None = None
    turned_bases: tuple[int, ...] = ()
    call_team: Team | None = None
    bur_count: int = DEFAULT_BUR_COUNT
    bases: tuple[int, ...] = ()
    bur_cards: tuple[str, ...] = ()
    bur_unknown: bool = False  # game4.bur_dealt: dealt but not entered, so bur_cards is empty
    pulled_by: Team | None = None
    plunging: frozenset[Team] | None = None
    geostar: SetGeoStar | None = None
    tricks: tuple[TrickPlayed, ...] = ()
    tricks_won: TeamTally = field(default_factory=TeamTally)
    power_played: TeamTally = field(default_factory=TeamTally)
    result: GameResult | None = None

    @property
    def cards_team(self) -> Team | None:
        return None if self.call_team is None else self.call_team.other

    @property
    def trick_number(self) -> int:
        """The number of the next trick, 1 to 8."""
        return len(self.tricks) + 1

    @property
    def base_in_force(self) -> int | None:
        """PTR1's base for the next trick; None in PTR2, where the lead announces it."""
        if self.version is not Game4Version.PTR1 or not self.bases:
            return None
        return self.bases[0] if self.trick_number <= TRICKS_PER_BASE else self.bases[-1]

    @property
    def played_cards(self) -> frozenset[str]:
        """The cards entered in tricks; a trick judged at the table adds none."""
        return frozenset(
            code
            for t in self.tricks
            if t.trick is not None
            for code in (t.trick.lead, t.trick.other)
        )

    def power_cards_left(self, team: Team) -> int:
        if self.pulled_by is not None:
            return 0
        return POWER_CARDS_PER_TEAM - self.power_played[team]


# --- rules ---------------------------------------------------------------------------------


class PlayTheRanksRules:
    title = "Play the Ranks"

    def __init__(self, atlas: Atlas | None = None) -> None:
        self._atlas = atlas or default_atlas()

    def start(self, context: GameContext, version: Game4Version) -> PlayTheRanksState:
        if version not in (Game4Version.PTR1, Game4Version.PTR2):
            raise InvalidInput(f"version {version} is not Play the Ranks: expected ptr1 or ptr2")
        if context.lead is None:
            return PlayTheRanksState(
                version=version,
                phase=RanksPhase.STATEHOOD_DRAW,
                early_end=context.ptr_early_end,
            )
        return PlayTheRanksState(
            version=version,
            phase=RanksPhase.POWER_CARDS,
            early_end=context.ptr_early_end,
            first_lead=context.lead,
            lead=context.lead,
        )

    def apply(self, state: PlayTheRanksState, action: Action) -> PlayTheRanksState:
        if state.result is not None:
            raise GameOver("the game is over: it accepts no more actions")
        match action:
            case StatehoodDraw() | DrawWinner():
                return self._statehood_draw(state, action)
            case TurnPowerCards():
                return _turn_power_cards(state, action)
            case AnnounceRole():
                return _announce_role(state, action)
            case UpTheBur():
                return _up_the_bur(state, action)
            case KeepBases():
                return _keep_bases(state, action)
            case DealBur():
                return self._deal_bur(state, action)
            case BurDealt():
                return _bur_dealt(state, action)
            case DeclarePull():
                return _declare_pull(state, action)
            case DeclarePlunge():
                require_phase(state, RanksPhase.PLUNGE)
                plunging = check_plunge(action.plunging)
                return replace(state, plunging=plunging, phase=RanksPhase.GEOSTAR)
            case SetGeoStar():
                return _set_geostar(state, action)
            case PlayRanksTrick():
                return self._play_trick(state, action)
            case TrickResult():
                return _judged_trick(state, action)
            case _:
                raise not_this_game(self.title, action)

    def _statehood_draw(
        self, state: PlayTheRanksState, draw: StatehoodDraw | DrawWinner
    ) -> PlayTheRanksState:
        require_phase(state, RanksPhase.STATEHOOD_DRAW)
        lead = draw_result(draw, self._atlas)
        return replace(state, first_lead=lead, lead=lead, phase=RanksPhase.POWER_CARDS)

    def _deal_bur(self, state: PlayTheRanksState, deal: DealBur) -> PlayTheRanksState:
        require_phase(state, RanksPhase.BUR)
        cards = tuple(self._atlas.code(card) for card in deal.cards)
        if len(set(cards)) != len(cards):
            raise InvalidInput("a BUR card is listed twice: expected different cards")
        if len(cards) != state.bur_count:
            raise IllegalAction(f"this game deals {state.bur_count} BUR cards: got {len(cards)}")
        return replace(state, bur_cards=cards, phase=RanksPhase.PULL_CALL_TEAM)

    def _play_trick(self, state: PlayTheRanksState, play: PlayRanksTrick) -> PlayTheRanksState:
        require_phase(state, RanksPhase.TRICKS)
        assert state.lead is not None  # set before the tricks phase
        if state.bur_unknown:
            raise IllegalAction(
                "the BUR cards were not entered (game4.bur_dealt), so protection cannot be "
                "judged: expected game4.trick_result"
            )
        lead_team, other_team = state.lead, state.lead.other
        lead, other = self._atlas.code(play.lead), self._atlas.code(play.other)
        _check_card_free(state, lead, lead_team)
        _check_card_free(state, other, other_team)
        _check_power(state, lead_team, play.lead_power is not None)
        _check_power(state, other_team, play.other_power is not None)
        trick = Trick(
            version=state.version,
            base=_trick_base(state, play),
            category=play.category,
            lead=lead,
            other=other,
            lead_power=play.lead_power,
            other_power=play.other_power,
            other_power_base=play.other_power_base,
            change_base=play.change_base,
            bur=state.bur_cards,
            bases=state.bases,
        )
        _check_change_base_in_game(state, trick)
        decision = judge_trick(trick, self._atlas)
        played = TrickPlayed(
            number=state.trick_number,
            lead_team=lead_team,
            winner=lead_team if decision.winner is TrickSide.LEAD else other_team,
            lead_power=trick.lead_power is not None,
            other_power=trick.other_power is not None,
            trick=trick,
            decision=decision,
        )
        return _record_trick(state, played)


# --- set-up phases -------------------------------------------------------------------------


def _turn_power_cards(state: PlayTheRanksState, turn: TurnPowerCards) -> PlayTheRanksState:
    require_phase(state, RanksPhase.POWER_CARDS)
    for base in turn.bases:
        check_base(base)
    if len(turn.bases) != TURNED_POWER_CARDS:
        raise InvalidInput(
            f"{len(turn.bases)} Power cards: expected the left-corner numbers of three cards"
        )
    if len(set(turn.bases)) != TURNED_POWER_CARDS:
        raise InvalidInput(
            "the three Power cards must have different left-corner numbers: keep turning cards"
        )
    return replace(state, turned_bases=turn.bases, phase=RanksPhase.ROLES)


def _expect_team(actual: Team, expected: Team | None, doing: str) -> None:
    if actual is not expected:
        raise IllegalAction(f"team {actual} cannot {doing} now: expected team {expected}")


def _announce_role(state: PlayTheRanksState, announce: AnnounceRole) -> PlayTheRanksState:
    require_phase(state, RanksPhase.ROLES, RanksPhase.ROLES_REPLY, RanksPhase.ROLES_FINAL)
    assert state.first_lead is not None  # set before the roles phases
    first, second = state.first_lead, state.first_lead.other
    if state.phase is RanksPhase.ROLES_REPLY:
        _expect_team(announce.team, second, "answer the Call")
        if announce.role is Role.CALL:
            raise IllegalAction(
                "the second team becomes the Call team only by Up the BUR: expected "
                "game4.up_the_bur with 3, 4 or 5 BUR cards, or Cards"
            )
        return _settle_roles(state, call_team=first)
    _expect_team(announce.team, first, "choose a role")
    if state.phase is RanksPhase.ROLES and announce.role is Role.CALL:
        return replace(state, phase=RanksPhase.ROLES_REPLY)
    return _settle_roles(state, call_team=first if announce.role is Role.CALL else second)


def _settle_roles(state: PlayTheRanksState, call_team: Team) -> PlayTheRanksState:
    return replace(state, call_team=call_team, phase=RanksPhase.CALL)


def _up_the_bur(state: PlayTheRanksState, upping: UpTheBur) -> PlayTheRanksState:
    require_phase(state, RanksPhase.ROLES_REPLY)
    assert state.first_lead is not None
    _expect_team(upping.team, state.first_lead.other, "Up the BUR")
    if upping.bur_count not in UP_THE_BUR_COUNTS:
        raise InvalidInput(f"Up the BUR to {upping.bur_count} cards: expected 3, 4 or 5")
    return replace(state, bur_count=upping.bur_count, phase=RanksPhase.ROLES_FINAL)


def _keep_bases(state: PlayTheRanksState, keep: KeepBases) -> PlayTheRanksState:
    require_phase(state, RanksPhase.CALL)
    _expect_team(keep.team, state.call_team, "keep the bases (the Call team does)")
    for base in keep.bases:
        check_base(base)
    if len(keep.bases) != 2:
        raise InvalidInput(f"{len(keep.bases)} bases kept: expected two of the three Power cards")
    for base in keep.bases:
        if base not in state.turned_bases:
            raise IllegalAction(
                f"no Power card with {base} is on the table: expected two of "
                f"{', '.join(map(str, state.turned_bases))}"
            )
    if keep.bases[0] == keep.bases[1]:
        raise IllegalAction(
            f"the Power card with {keep.bases[0]} is kept twice: expected two cards"
        )
    return replace(state, bases=keep.bases, phase=RanksPhase.BUR)


def _bur_dealt(state: PlayTheRanksState, dealt: BurDealt) -> PlayTheRanksState:
    require_phase(state, RanksPhase.BUR)
    if dealt.count != state.bur_count:
        raise IllegalAction(f"this game deals {state.bur_count} BUR cards: got {dealt.count}")
    return replace(state, bur_unknown=True, phase=RanksPhase.PULL_CALL_TEAM)


def _declare_pull(state: PlayTheRanksState, pull: DeclarePull) -> PlayTheRanksState:
    require_phase(state, RanksPhase.PULL_CALL_TEAM, RanksPhase.PULL_CARDS_TEAM)
    call_first = state.phase is RanksPhase.PULL_CALL_TEAM
    expected = state.call_team if call_first else state.cards_team
    _expect_team(pull.team, expected, "declare Pulling the Power")
    if pull.pulling:
        return replace(state, pulled_by=pull.team, phase=RanksPhase.PLUNGE)
    next_phase = RanksPhase.PULL_CARDS_TEAM if call_first else RanksPhase.PLUNGE
    return replace(state, phase=next_phase)


def _set_geostar(state: PlayTheRanksState, geostar: SetGeoStar) -> PlayTheRanksState:
    require_phase(state, RanksPhase.GEOSTAR)
    if geostar.star is StarArea.TOP_CITY:
        if geostar.top_city is None or not 1 <= geostar.top_city <= TOP_CITIES:
            raise InvalidInput(
                f"top city {geostar.top_city}: expected its position 1 to 5 on the card"
            )
    elif geostar.top_city is not None:
        raise InvalidInput(f"a top city position with GeoStar {geostar.star}: expected none")
    return replace(state, geostar=geostar, phase=RanksPhase.TRICKS)


# --- tricks --------------------------------------------------------------------------------


def _trick_base(state: PlayTheRanksState, play: PlayRanksTrick) -> int:
    """PTR1: the base in force (an announced base must match); PTR2: the lead's announced base."""
    if play.base is not None:
        check_base(play.base)
    in_force = state.base_in_force
    if in_force is not None:
        if play.base is not None and play.base != in_force:
            raise IllegalAction(
                f"trick {state.trick_number} of PTR1 is played with base {in_force}: "
                f"got {play.base}"
            )
        return in_force
    choices = " or ".join(map(str, state.bases))
    if play.base is None:
        raise IllegalAction(f"in PTR2 the lead announces the base: expected {choices}")
    if play.base not in state.bases:
        raise IllegalAction(f"base {play.base} is not one of this game's bases: expected {choices}")
    return play.base


def _check_card_free(state: PlayTheRanksState, card: str, team: Team) -> None:
    """Refuse a card entered on an earlier trick (tricks judged at the table entered none), or a
    BUR card played by the Call team."""
    for played in state.tricks:
        if played.trick is not None and card in (played.trick.lead, played.trick.other):
            raise IllegalAction(
                f"{card} was played on trick {played.number}: each card is used in one trick only"
            )
    if card in state.bur_cards and team is state.call_team:
        raise IllegalAction(
            f"{card} is a BUR card in the Cards team's hand: team {team}, the Call team, "
            "cannot play it"
        )


def _check_power(state: PlayTheRanksState, team: Team, played: bool) -> None:
    """A Power card needs no pull this game and one of the team's two still in hand."""
    if not played:
        return
    if state.pulled_by is not None:
        raise IllegalAction(
            f"team {state.pulled_by} Pulled the Power: no Power cards are played this game"
        )
    if state.power_cards_left(team) == 0:
        raise IllegalAction(f"team {team} has already played both of its Power cards")


def _check_change_base_in_game(state: PlayTheRanksState, trick: Trick) -> None:
    new_base = trick.other_power_base
    if trick.change_base and new_base is not None and new_base not in state.bases:
        raise IllegalAction(
            f"Change the Base to {new_base}: {new_base} is not one of this game's bases, "
            f"expected {' or '.join(map(str, state.bases))}"
        )


def _judged_trick(state: PlayTheRanksState, judged: TrickResult) -> PlayTheRanksState:
    """A trick judged at the table: the same bookkeeping as a judged card-level trick."""
    require_phase(state, RanksPhase.TRICKS)
    assert state.lead is not None  # set before the tricks phase
    _check_power(state, state.lead, judged.lead_power)
    _check_power(state, state.lead.other, judged.other_power)
    played = TrickPlayed(
        number=state.trick_number,
        lead_team=state.lead,
        winner=judged.winner,
        lead_power=judged.lead_power,
        other_power=judged.other_power,
    )
    return _record_trick(state, played)


def _record_trick(state: PlayTheRanksState, played: TrickPlayed) -> PlayTheRanksState:
    """The winner takes the trick and leads the next; Power cards are counted; maybe the end."""
    power_played = state.power_played
    if played.lead_power:
        power_played = power_played.add(played.lead_team)
    if played.other_power:
        power_played = power_played.add(played.lead_team.other)
    after = replace(
        state,
        tricks=(*state.tricks, played),
        tricks_won=state.tricks_won.add(played.winner),
        power_played=power_played,
        lead=played.winner,
    )
    result = _result(after)
    return after if result is None else replace(after, result=result, phase=RanksPhase.OVER)


# --- the result ----------------------------------------------------------------------------


def _result(state: PlayTheRanksState) -> GameResult | None:
    if len(state.tricks) < TRICKS_PER_GAME:
        for team in Team:
            if state.tricks_won[team] >= EARLY_WIN_TRICKS:
                return GameResult(
                    team, bonus=True, reason=f"team {team} won 6 tricks: the game ends early"
                )
        return None
    return _power_duty_result(state) or _tricks_result(state)


def _power_duty_result(state: PlayTheRanksState) -> GameResult | None:
    """Without a pull, a team that did not play both Power cards loses; both failing is a tie."""
    if state.pulled_by is not None:
        return None
    failed = [team for team in Team if state.power_cards_left(team) > 0]
    if len(failed) == 2:
        return GameResult(
            None, reason="neither team played both of its Power cards: both lose, a tie"
        )
    if not failed:
        return None
    winner = failed[0].other
    return GameResult(
        winner,
        bonus=state.tricks_won[winner] >= EARLY_WIN_TRICKS,
        reason=f"team {failed[0]} did not play both of its Power cards: it loses automatically",
    )


def _tricks_result(state: PlayTheRanksState) -> GameResult:
    for team in Team:
        won = state.tricks_won[team]
        if won >= WINNING_TRICKS:
            return GameResult(
                team, bonus=won >= EARLY_WIN_TRICKS, reason=f"team {team} won {won} of 8 tricks"
            )
    if state.pulled_by is not None:
        return GameResult(
            state.pulled_by.other,
            reason=f"4 tricks each and team {state.pulled_by} Pulled the Power: the other wins",
        )
    last = state.tricks[-1].winner
    return GameResult(last, reason=f"4 tricks each: team {last} won the last trick")
