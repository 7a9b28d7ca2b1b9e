"""Play the Border Zap (Game 4, Level 4) as a pure state machine.

Phases: statehood draw (only when the match names no lead) → plunge → up to 6 tricks. The
deal, trades and discards to 6 cards are physical; the final hands may be recorded with
``game4.zap_hands`` before the plunge, and then every trick entered card by card must come from
them. A trick is entered either card by card (``game4.zap_trick``, judged here) or as the
dealer's verdict (``game4.zap_result``, no cards); both may be mixed in one game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from rules.actions import Action, register
from rules.atlas import Atlas, default_atlas
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
from rules.geoplunge.games.tricks import TeamTally, TrickSide, ZapDecision, judge_zap
from rules.geoplunge.scoring import GameResult
from rules.geoplunge.teams import Team

HAND_SIZE = 6
TRICKS_PER_GAME = 6
WINNING_TRICKS = 4
BONUS_TRICKS = 5


class ZapPhase(StrEnum):
    STATEHOOD_DRAW = "statehood_draw"
    PLUNGE = "plunge"
    TRICKS = "tricks"
    OVER = "over"


@register("game4.zap_hands")
@dataclass(frozen=True, slots=True)
class ZapHands(Action):
    """Each team's 6 cards after the trades and discards (optional, before the plunge)."""

    a: tuple[str, ...]
    b: tuple[str, ...]


@register("game4.zap_trick")
@dataclass(frozen=True, slots=True)
class ZapTrick(Action):
    """One trick entered card by card: the lead team's card and the other team's."""

    lead: str
    other: str


@register("game4.zap_result")
@dataclass(frozen=True, slots=True)
class ZapResult(Action):
    """One trick judged by the dealer at the table: ``winner`` took it. No cards are entered."""

    winner: Team


@dataclass(frozen=True, slots=True)
class ZapPlayed:
    """One trick. Entered card by card it has the cards and the judge's ``decision``; judged by
    the dealer (``game4.zap_result``) ``lead``, ``other`` and ``decision`` are None."""

    number: int
    lead_team: Team
    winner: Team
    lead: str | None = None
    other: str | None = None
    decision: ZapDecision | None = None

    @property
    def judged_at_table(self) -> bool:
        """Whether the dealer entered only the winner (the cards are unknown)."""
        return self.decision is None


@dataclass(frozen=True, slots=True)
class BorderZapState:
    """A PTB game. ``lead`` is the team leading the next trick; ``hands`` (A's, B's) are the
    recorded 6-card hands, or None when not recorded."""

    phase: ZapPhase
    first_lead: Team | None = None
    lead: Team | None = None
    hands: tuple[frozenset[str], frozenset[str]] | None = None
    plunging: frozenset[Team] | None = None
    tricks: tuple[ZapPlayed, ...] = ()
    tricks_won: TeamTally = field(default_factory=TeamTally)
    result: GameResult | None = None

    @property
    def trick_number(self) -> int:
        return len(self.tricks) + 1

    @property
    def played_cards(self) -> frozenset[str]:
        """The cards entered in tricks; a trick judged at the table adds none."""
        return frozenset(
            code for t in self.tricks for code in (t.lead, t.other) if code is not None
        )

    def hand(self, team: Team) -> frozenset[str] | None:
        """The team's unplayed recorded cards, or None when hands were not recorded.

        Cards played on tricks judged at the table (``game4.zap_result``) are unknown, so they
        stay in the hand (docs/rulings.md)."""
        if self.hands is None:
            return None
        return self.hands[0 if team is Team.A else 1] - self.played_cards


class BorderZapRules:
    title = "Play the Border Zap"

    def __init__(self, atlas: Atlas | None = None) -> None:
        self._atlas = atlas or default_atlas()

    def start(self, context: GameContext) -> BorderZapState:
        if context.lead is None:
            return BorderZapState(phase=ZapPhase.STATEHOOD_DRAW)
        return BorderZapState(phase=ZapPhase.PLUNGE, first_lead=context.lead, lead=context.lead)

    def apply(self, state: BorderZapState, action: Action) -> BorderZapState:
        if state.result is not None:
            raise GameOver("the game is over: it accepts no more actions")
        match action:
            case StatehoodDraw() | DrawWinner():
                require_phase(state, ZapPhase.STATEHOOD_DRAW)
                lead = draw_result(action, self._atlas)
                return replace(state, first_lead=lead, lead=lead, phase=ZapPhase.PLUNGE)
            case ZapHands():
                return self._record_hands(state, action)
            case DeclarePlunge():
                require_phase(state, ZapPhase.PLUNGE)
                plunging = check_plunge(action.plunging)
                return replace(state, plunging=plunging, phase=ZapPhase.TRICKS)
            case ZapTrick():
                return self._play_trick(state, action)
            case ZapResult():
                return _judged_trick(state, action)
            case _:
                raise not_this_game(self.title, action)

    def _record_hands(self, state: BorderZapState, hands: ZapHands) -> BorderZapState:
        require_phase(state, ZapPhase.PLUNGE)
        if state.hands is not None:
            raise IllegalAction("the hands are already recorded: expected the plunge")
        hand_a = self._hand(Team.A, hands.a)
        hand_b = self._hand(Team.B, hands.b)
        shared = sorted(hand_a & hand_b)
        if shared:
            raise InvalidInput(
                f"{', '.join(shared)} in both hands: expected each card in one hand only"
            )
        return replace(state, hands=(hand_a, hand_b))

    def _hand(self, team: Team, cards: tuple[str, ...]) -> frozenset[str]:
        codes = frozenset(self._atlas.code(card) for card in cards)
        if len(cards) != HAND_SIZE or len(codes) != HAND_SIZE:
            raise InvalidInput(
                f"team {team}'s hand lists {len(cards)} cards, {len(codes)} different: "
                "expected 6 different cards"
            )
        return codes

    def _play_trick(self, state: BorderZapState, play: ZapTrick) -> BorderZapState:
        require_phase(state, ZapPhase.TRICKS)
        assert state.lead is not None  # set before the tricks phase
        lead, other = self._atlas.code(play.lead), self._atlas.code(play.other)
        _check_card_free(state, lead, state.lead)
        _check_card_free(state, other, state.lead.other)
        decision = judge_zap(lead, other, self._atlas)
        winner = state.lead if decision.winner is TrickSide.LEAD else state.lead.other
        played = ZapPlayed(state.trick_number, state.lead, winner, lead, other, decision)
        return _record_trick(state, played)


def _judged_trick(state: BorderZapState, judged: ZapResult) -> BorderZapState:
    require_phase(state, ZapPhase.TRICKS)
    assert state.lead is not None  # set before the tricks phase
    return _record_trick(state, ZapPlayed(state.trick_number, state.lead, judged.winner))


def _record_trick(state: BorderZapState, played: ZapPlayed) -> BorderZapState:
    """The winner takes the trick and leads the next; the game may be over."""
    after = replace(
        state,
        tricks=(*state.tricks, played),
        tricks_won=state.tricks_won.add(played.winner),
        lead=played.winner,
    )
    result = _result(after)
    return after if result is None else replace(after, result=result, phase=ZapPhase.OVER)


def _check_card_free(state: BorderZapState, card: str, team: Team) -> None:
    for played in state.tricks:
        if card in (played.lead, played.other):
            raise IllegalAction(
                f"{card} was played on trick {played.number}: each card is used in one trick only"
            )
    hand = state.hand(team)
    if hand is not None and card not in hand:
        raise IllegalAction(
            f"{card} is not in team {team}'s hand: expected one of {', '.join(sorted(hand))}"
        )


def _result(state: BorderZapState) -> GameResult | None:
    played = len(state.tricks)
    for team in Team:
        won = state.tricks_won[team]
        if won == BONUS_TRICKS and played == BONUS_TRICKS:
            return GameResult(team, bonus=True, reason=f"team {team} won the first 5 tricks")
    if played < TRICKS_PER_GAME:
        return None
    for team in Team:
        won = state.tricks_won[team]
        if won >= WINNING_TRICKS:
            return GameResult(
                team, bonus=won >= BONUS_TRICKS, reason=f"team {team} won {won} of 6 tricks"
            )
    last = state.tricks[-1].winner
    return GameResult(last, reason=f"3 tricks each: team {last} won the last trick")
